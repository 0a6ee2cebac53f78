#include "looplab/linalg/AugmentedMatrix.h"

#include <Eigen/OrderingMethods>
#include <Eigen/SparseLU>

#include <cmath>
#include <limits>

namespace looplab {

SparseColMatrix selectRows(const SparseMatrix& jacobian, const std::vector<int>& rows) {
    std::vector<Eigen::Triplet<double>> t;
    for (size_t k = 0; k < rows.size(); ++k)
        for (SparseMatrix::InnerIterator it(jacobian, rows[k]); it; ++it)
            t.emplace_back(static_cast<int>(k), static_cast<int>(it.col()), it.value());
    SparseColMatrix B(static_cast<Eigen::Index>(rows.size()), jacobian.cols());
    B.setFromTriplets(t.begin(), t.end());
    return B;
}

SparseColMatrix augmentedMatrix(const SparseColMatrix& A, const SparseMatrix& jacobian,
                                const std::vector<int>& rows, double beta) {
    const int n = static_cast<int>(A.rows());
    const int r = static_cast<int>(rows.size());
    std::vector<Eigen::Triplet<double>> t;
    t.reserve(static_cast<size_t>(A.nonZeros() + 2 * jacobian.nonZeros()));
    for (int c = 0; c < A.outerSize(); ++c)
        for (SparseColMatrix::InnerIterator it(A, c); it; ++it)
            t.emplace_back(static_cast<int>(it.row()), c, it.value());
    for (int k = 0; k < r; ++k)
        for (SparseMatrix::InnerIterator it(jacobian, rows[static_cast<size_t>(k)]); it; ++it) {
            t.emplace_back(n + k, static_cast<int>(it.col()), beta * it.value());
            t.emplace_back(static_cast<int>(it.col()), n + k, beta * it.value());
        }
    SparseColMatrix S(n + r, n + r);
    S.setFromTriplets(t.begin(), t.end());
    S.makeCompressed();
    return S;
}

double largestAbsEntry(const SparseColMatrix& A) {
    double m = 0.0;
    for (int c = 0; c < A.outerSize(); ++c)
        for (SparseColMatrix::InnerIterator it(A, c); it; ++it) m = std::max(m, std::abs(it.value()));
    return m;
}

struct SparseLUFactorization::Impl {
    Eigen::SparseLU<SparseColMatrix, Eigen::COLAMDOrdering<int>> lu;
};

SparseLUFactorization::SparseLUFactorization() : impl_(std::make_unique<Impl>()) {}
SparseLUFactorization::~SparseLUFactorization() = default;
SparseLUFactorization::SparseLUFactorization(SparseLUFactorization&&) noexcept = default;
SparseLUFactorization& SparseLUFactorization::operator=(SparseLUFactorization&&) noexcept = default;

bool SparseLUFactorization::factorize(const SparseColMatrix& S) {
    size_ = static_cast<int>(S.rows());
    norm1_ = 0.0;
    for (int c = 0; c < S.outerSize(); ++c) {
        double sum = 0.0;
        for (SparseColMatrix::InnerIterator it(S, c); it; ++it) sum += std::abs(it.value());
        norm1_ = std::max(norm1_, sum);
    }
    impl_->lu.analyzePattern(S);
    impl_->lu.factorize(S);
    ok_ = impl_->lu.info() == Eigen::Success;
    return ok_;
}

VecX SparseLUFactorization::solve(const VecX& b) const {
    return impl_->lu.solve(b);
}

VecX SparseLUFactorization::solveTransposed(const VecX& b) const {
    return impl_->lu.transpose().solve(b);
}

int SparseLUFactorization::signDeterminant() const {
    return ok_ ? static_cast<int>(impl_->lu.signDeterminant()) : 0;
}

double SparseLUFactorization::conditionEstimate() const {
    if (!ok_ || size_ == 0) return std::numeric_limits<double>::infinity();
    // Hager (1984), Higham (1988): maximise ‖S⁻¹x‖₁ over ‖x‖₁ = 1 by a few steps of a
    // subgradient ascent, then compare with the alternating vector (1, −(1 + 1/(n−1)), …).
    const int n = size_;
    VecX x = VecX::Constant(n, 1.0 / n);
    double est = 0.0;
    int lastJ = -1;
    for (int k = 0; k < 5; ++k) {
        const VecX y = solve(x);
        const double ny = y.lpNorm<1>();
        if (!std::isfinite(ny)) return std::numeric_limits<double>::infinity();
        if (k > 0 && ny <= est) break;
        est = ny;
        VecX xi(n);
        for (int i = 0; i < n; ++i) xi[i] = y[i] >= 0.0 ? 1.0 : -1.0;
        const VecX z = solveTransposed(xi);
        Eigen::Index j = 0;
        z.cwiseAbs().maxCoeff(&j);
        if (k > 0 && (std::abs(z[j]) <= z.dot(x) || static_cast<int>(j) == lastJ)) break;
        lastJ = static_cast<int>(j);
        x.setZero();
        x[j] = 1.0;
    }
    VecX alt(n);
    for (int i = 0; i < n; ++i) alt[i] = (i % 2 ? -1.0 : 1.0) * (1.0 + double(i) / std::max(1, n - 1));
    const double altEst = 2.0 * solve(alt).lpNorm<1>() / (3.0 * n);
    est = std::max(est, altEst);
    return norm1_ * est;
}

}  // namespace looplab
