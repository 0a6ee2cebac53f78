#include "looplab/linalg/KluFactorization.h"

#include <klu.h>

#include <algorithm>
#include <iterator>
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

namespace {

// Whether every entry of column pattern b (ascending) is in a (ascending).
bool containsAll(const int* a, const int* aEnd, const int* b, const int* bEnd) {
    for (; b != bEnd; ++b) {
        while (a != aEnd && *a < *b) ++a;
        if (a == aEnd || *a != *b) return false;
    }
    return true;
}

}  // namespace

bool KluFactorization::factorize(const SparseColMatrix& a) {
    Impl& k = *impl_;
    const int n = static_cast<int>(a.rows());
    rcond_ = 0.0;
    if (a.rows() != a.cols() || !a.isCompressed()) return false;
    const int* ap = a.outerIndexPtr();
    const int* ai = a.innerIndexPtr();
    const double* ax = a.valuePtr();
    // The pattern analysed serves any matrix whose entries it holds: an entry that is exactly
    // zero in one iteration matrix and not in the next (a multiplier or a direction component
    // passing through zero) would otherwise cost a new analysis and a pivot search each time
    // it comes and goes. Such a matrix is factorised on the pattern analysed, its missing
    // entries as zeros; one with entries outside it is analysed on the union of both, so
    // the pattern grows to the matrices' common envelope and stays there.
    const bool analysed = k.symbolic && static_cast<int>(outer_.size()) == n + 1;  // for this size
    const bool same = analysed && static_cast<int>(inner_.size()) == a.nonZeros() &&
                      std::equal(outer_.begin(), outer_.end(), ap) && std::equal(inner_.begin(), inner_.end(), ai);
    bool fits = same;
    if (analysed && !same) {
        fits = true;
        for (int col = 0; col < n && fits; ++col)
            fits = containsAll(inner_.data() + outer_[size_t(col)], inner_.data() + outer_[size_t(col) + 1], ai + ap[col],
                               ai + ap[col + 1]);
    }
    if (!fits) {
        std::vector<int> outer(static_cast<size_t>(n) + 1, 0), inner;
        inner.reserve(static_cast<size_t>(a.nonZeros()) + (analysed ? inner_.size() : 0));
        for (int col = 0; col < n; ++col) {
            const int* b = ai + ap[col];
            const int* bEnd = ai + ap[col + 1];
            if (analysed)
                std::set_union(inner_.data() + outer_[size_t(col)], inner_.data() + outer_[size_t(col) + 1], b, bEnd,
                               std::back_inserter(inner));
            else
                inner.insert(inner.end(), b, bEnd);
            outer[size_t(col) + 1] = static_cast<int>(inner.size());
        }
        k.clear();
        k.symbolic = klu_analyze(n, outer.data(), inner.data(), &k.common);
        if (!k.symbolic) {
            outer_.clear();
            inner_.clear();
            return false;
        }
        outer_ = std::move(outer);
        inner_ = std::move(inner);
        ++analyses_;
    }
    if (same) {
        values_.assign(ax, ax + a.nonZeros());
    } else {
        values_.assign(inner_.size(), 0.0);
        for (int col = 0; col < n; ++col) {
            int q = outer_[size_t(col)];
            for (int p = ap[col]; p < ap[col + 1]; ++p) {
                while (inner_[size_t(q)] < ai[p]) ++q;
                values_[size_t(q)] = ax[p];
            }
        }
    }
    int* p = outer_.data();
    int* i = inner_.data();
    double* x = values_.data();
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
