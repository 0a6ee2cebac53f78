#include "looplab/linalg/KluFactorization.h"

#include <klu.h>

#include <algorithm>
#include <limits>

namespace looplab {

namespace {
// Below this share of the pivot ratio found by the last pivot search, kept pivots no longer
// serve (growth in U that a fresh search would avoid).
constexpr double kPivotDegradation = 1e-3;
}  // namespace

struct KluFactorization::Impl {
    klu_common common;
    klu_symbolic* symbolic = nullptr;
    klu_numeric* numeric = nullptr;
    Impl() { klu_defaults(&common); }
    ~Impl() { clear(); }
    void clearNumeric() {
        if (numeric) klu_free_numeric(&numeric, &common);
    }
    void clear() {
        clearNumeric();
        if (symbolic) klu_free_symbolic(&symbolic, &common);
    }
};

KluFactorization::KluFactorization() : impl_(std::make_unique<Impl>()) {}
KluFactorization::~KluFactorization() = default;

bool KluFactorization::factorize(const SparseColMatrix& a) {
    Impl& k = *impl_;
    const int n = static_cast<int>(a.rows());
    rcond_ = 0.0;
    if (a.rows() != a.cols() || !a.isCompressed()) return false;
    auto* p = const_cast<int*>(a.outerIndexPtr());
    auto* i = const_cast<int*>(a.innerIndexPtr());
    auto* x = const_cast<double*>(a.valuePtr());
    const bool samePattern = k.symbolic && static_cast<int>(outer_.size()) == n + 1 &&
                             static_cast<int>(inner_.size()) == a.nonZeros() &&
                             std::equal(outer_.begin(), outer_.end(), a.outerIndexPtr()) &&
                             std::equal(inner_.begin(), inner_.end(), a.innerIndexPtr());
    if (!samePattern) {
        k.clear();
        k.symbolic = klu_analyze(n, p, i, &k.common);
        if (!k.symbolic) return false;
        outer_.assign(a.outerIndexPtr(), a.outerIndexPtr() + n + 1);
        inner_.assign(a.innerIndexPtr(), a.innerIndexPtr() + a.nonZeros());
        ++analyses_;
    }
    values_.assign(a.valuePtr(), a.valuePtr() + a.nonZeros());
    if (k.numeric) {
        if (klu_refactor(p, i, x, k.symbolic, k.numeric, &k.common) && k.common.status == KLU_OK &&
            klu_rcond(k.symbolic, k.numeric, &k.common) && k.common.rcond >= kPivotDegradation * rcondAtPivoting_ &&
            k.common.rcond > 0.0) {
            ++refactorizations_;
            rcond_ = k.common.rcond;
            return true;
        }
        k.clearNumeric();
    }
    k.numeric = klu_factor(p, i, x, k.symbolic, &k.common);
    if (!k.numeric || k.common.status != KLU_OK) {
        k.clearNumeric();
        return false;
    }
    ++factorizations_;
    if (!klu_rcond(k.symbolic, k.numeric, &k.common) || !(k.common.rcond > 0.0)) {
        k.clearNumeric();
        return false;
    }
    rcond_ = rcondAtPivoting_ = k.common.rcond;
    return true;
}

double KluFactorization::conditionEstimate() const {
    Impl& k = *impl_;
    if (!k.numeric) return std::numeric_limits<double>::infinity();
    if (!klu_condest(const_cast<int*>(outer_.data()), const_cast<double*>(values_.data()), k.symbolic, k.numeric,
                     &k.common))
        return std::numeric_limits<double>::infinity();
    return k.common.condest;
}

VecX KluFactorization::solveWithoutRefinement(const VecX& b) const {
    Impl& k = *impl_;
    VecX x = b;
    if (!k.numeric) {
        x.setConstant(std::numeric_limits<double>::quiet_NaN());
        return x;
    }
    klu_solve(k.symbolic, k.numeric, static_cast<int>(x.size()), 1, x.data(), &k.common);
    return x;
}

VecX KluFactorization::solve(const VecX& b) const {
    Impl& k = *impl_;
    VecX x = solveWithoutRefinement(b);
    if (!k.numeric || !x.allFinite()) return x;
    const int n = static_cast<int>(x.size());
    // One step of iterative refinement against the matrix factorised: kept pivots solve
    // less accurately than a fresh pivot search, and the refinement restores the accuracy.
    VecX residual = b;
    for (int col = 0; col < n; ++col)
        for (int p = outer_[static_cast<size_t>(col)]; p < outer_[static_cast<size_t>(col) + 1]; ++p)
            residual[inner_[static_cast<size_t>(p)]] -= values_[static_cast<size_t>(p)] * x[col];
    klu_solve(k.symbolic, k.numeric, n, 1, residual.data(), &k.common);
    x += residual;
    return x;
}

}  // namespace looplab
