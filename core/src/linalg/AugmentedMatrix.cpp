#include "looplab/linalg/AugmentedMatrix.h"

#include <umfpack.h>

#include <algorithm>
#include <cmath>
#include <functional>
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

// UMFPACK's symbolic and numeric objects, and the matrix they were computed from: its
// solve takes the matrix (for an iterative refinement, switched off below), and the
// condition estimates read its norm.
struct SparseLUFactorization::Impl {
    SparseColMatrix matrix;
    void* symbolic = nullptr;
    void* numeric = nullptr;
    double control[UMFPACK_CONTROL];

    Impl() {
        umfpack_di_defaults(control);
        // No iterative refinement: each of its steps costs a solve and a product with the
        // matrix, which made the shift-invert iteration on the 30 927-coordinate solid three
        // times slower (47.7 s against 15.8 s), for backward errors that the partial
        // pivoting of the scaled matrix already keeps at rounding level: the frequencies
        // agree to all printed digits (bench_solid_modes, docs/benchmarks.md).
        control[UMFPACK_IRSTEP] = 0;
        // AMD, and METIS's nested dissection where AMD's fill is high (CHOLMOD's choice):
        // on the 30 927-coordinate solid the eigenanalysis then peaks at 551 MiB instead of
        // 655, factorises in 1.24 s instead of 2.4 s and solves in 60 ms instead of 99 ms
        // (bench_solid_modes); matrices that AMD orders well keep its ordering.
        control[UMFPACK_ORDERING] = UMFPACK_ORDERING_CHOLMOD;
    }

    ~Impl() { release(); }
    void release() {
        if (numeric) umfpack_di_free_numeric(&numeric);
        if (symbolic) umfpack_di_free_symbolic(&symbolic);
        numeric = symbolic = nullptr;
    }
    VecX solve(int system, const VecX& b) const {
        VecX x(b.size());
        double info[UMFPACK_INFO];
        const int status = umfpack_di_solve(system, matrix.outerIndexPtr(), matrix.innerIndexPtr(), matrix.valuePtr(),
                                            x.data(), b.data(), numeric, control, info);
        // A zero pivot the numeric step let through: report it as a non-finite result,
        // which every caller already treats as a failed solve.
        if (status != UMFPACK_OK) x.setConstant(std::numeric_limits<double>::quiet_NaN());
        return x;
    }
};

SparseLUFactorization::SparseLUFactorization() : impl_(std::make_unique<Impl>()) {}
SparseLUFactorization::~SparseLUFactorization() = default;
SparseLUFactorization::SparseLUFactorization(SparseLUFactorization&&) noexcept = default;
SparseLUFactorization& SparseLUFactorization::operator=(SparseLUFactorization&&) noexcept = default;

bool SparseLUFactorization::factorize(const SparseColMatrix& S) {
    impl_->release();
    ok_ = false;
    size_ = static_cast<int>(S.rows());
    if (S.rows() != S.cols()) return false;
    impl_->matrix = S;
    impl_->matrix.makeCompressed();
    const SparseColMatrix& A = impl_->matrix;
    double info[UMFPACK_INFO];
    if (umfpack_di_symbolic(size_, size_, A.outerIndexPtr(), A.innerIndexPtr(), A.valuePtr(), &impl_->symbolic,
                            impl_->control, info) != UMFPACK_OK)
        return false;
    return numeric();
}

bool SparseLUFactorization::refactorize(const SparseColMatrix& S) {
    const SparseColMatrix& A = impl_->matrix;
    const bool samePattern = impl_->symbolic && S.isCompressed() && S.rows() == A.rows() && S.cols() == A.cols() &&
                             S.nonZeros() == A.nonZeros() &&
                             std::equal(A.outerIndexPtr(), A.outerIndexPtr() + A.outerSize() + 1, S.outerIndexPtr()) &&
                             std::equal(A.innerIndexPtr(), A.innerIndexPtr() + A.nonZeros(), S.innerIndexPtr());
    if (!samePattern) return factorize(S);
    if (impl_->numeric) umfpack_di_free_numeric(&impl_->numeric);
    impl_->numeric = nullptr;
    std::copy(S.valuePtr(), S.valuePtr() + S.nonZeros(), impl_->matrix.valuePtr());
    return numeric();
}

bool SparseLUFactorization::numeric() {
    const SparseColMatrix& A = impl_->matrix;
    double info[UMFPACK_INFO];
    // UMFPACK_WARNING_singular_matrix (a zero pivot) leaves a factorisation that cannot
    // solve: only UMFPACK_OK is a success.
    ok_ = umfpack_di_numeric(A.outerIndexPtr(), A.innerIndexPtr(), A.valuePtr(), impl_->symbolic, &impl_->numeric,
                             impl_->control, info) == UMFPACK_OK;
    return ok_;
}

VecX SparseLUFactorization::solve(const VecX& b) const {
    return impl_->solve(UMFPACK_A, b);
}

VecX SparseLUFactorization::solveTransposed(const VecX& b) const {
    return impl_->solve(UMFPACK_At, b);
}

int SparseLUFactorization::signDeterminant() const {
    if (!ok_) return 0;
    // Mantissa and exponent separately: the determinant itself over- or underflows for
    // any matrix of a few hundred rows with stiffness-sized entries.
    double mantissa = 0.0, exponent = 0.0, info[UMFPACK_INFO];
    if (umfpack_di_get_determinant(&mantissa, &exponent, impl_->numeric, info) != UMFPACK_OK) return 0;
    return mantissa > 0.0 ? 1 : (mantissa < 0.0 ? -1 : 0);
}

// ‖T⁻¹‖₁ by Hager (1984) as refined by Higham (1988): maximise ‖T⁻¹x‖₁ over ‖x‖₁ = 1 by a
// few steps of a subgradient ascent, then compare with the alternating vector
// (1, −(1 + 1/(n−1)), …).
double hagerHigham(int n, double norm1, const std::function<VecX(const VecX&)>& solve,
                   const std::function<VecX(const VecX&)>& solveTransposed) {
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
    const double altNorm = solve(alt).lpNorm<1>();
    if (!std::isfinite(altNorm)) return std::numeric_limits<double>::infinity();
    est = std::max(est, 2.0 * altNorm / (3.0 * n));
    return norm1 * est;
}

double SparseLUFactorization::conditionEstimate() const {
    return conditionEstimate(VecX::Ones(size_));
}

double SparseLUFactorization::conditionEstimate(const VecX& d) const {
    if (!ok_ || size_ == 0 || d.size() != size_) return std::numeric_limits<double>::infinity();
    const SparseColMatrix& S = impl_->matrix;
    double norm1 = 0.0;
    for (int c = 0; c < S.outerSize(); ++c) {
        double sum = 0.0;
        for (SparseColMatrix::InnerIterator it(S, c); it; ++it) sum += std::abs(d[it.row()] * it.value() * d[c]);
        norm1 = std::max(norm1, sum);
    }
    const VecX dInv = d.cwiseInverse();
    return hagerHigham(
        size_, norm1, [&](const VecX& x) { return VecX(dInv.cwiseProduct(solve(dInv.cwiseProduct(x)))); },
        [&](const VecX& x) { return VecX(dInv.cwiseProduct(solveTransposed(dInv.cwiseProduct(x)))); });
}

std::vector<int> partialPivotRows(const SparseColMatrix& T, double tolerance, int* rank) {
    *rank = 0;
    const int m = static_cast<int>(T.rows()), k = static_cast<int>(T.cols());
    if (k == 0 || m < k) return {};
    SparseColMatrix A = T;
    A.makeCompressed();
    double control[UMFPACK_CONTROL], info[UMFPACK_INFO];
    umfpack_di_defaults(control);
    // Each pivot the largest entry of its column (UMFPACK's default accepts a tenth of it
    // to save fill): which rows become pivots is the answer here, not a by-product.
    control[UMFPACK_PIVOT_TOLERANCE] = 1.0;
    control[UMFPACK_STRATEGY] = UMFPACK_STRATEGY_UNSYMMETRIC;
    // The caller's scaling decides which entries are large; UMFPACK's own row scaling
    // would weigh the rows again.
    control[UMFPACK_SCALE] = UMFPACK_SCALE_NONE;
    // A row singleton (a row with one entry) would be taken as a pivot whatever its size.
    control[UMFPACK_SINGLETONS] = 0;
    void* symbolic = nullptr;
    void* numeric = nullptr;
    std::vector<int> rows;
    if (umfpack_di_symbolic(m, k, A.outerIndexPtr(), A.innerIndexPtr(), A.valuePtr(), &symbolic, control, info) ==
        UMFPACK_OK) {
        // A tall matrix has no inverse, which UMFPACK may report as singular; its factors
        // P T Q = L U are complete all the same.
        const int status =
            umfpack_di_numeric(A.outerIndexPtr(), A.innerIndexPtr(), A.valuePtr(), symbolic, &numeric, control, info);
        if (status == UMFPACK_OK || status == UMFPACK_WARNING_singular_matrix) {
            std::vector<int> p(static_cast<size_t>(m)), q(static_cast<size_t>(k));
            VecX d(k);
            if (umfpack_di_get_numeric(nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, p.data(), q.data(),
                                       d.data(), nullptr, nullptr, numeric) == UMFPACK_OK) {
                const double largest = d.cwiseAbs().maxCoeff();
                for (int j = 0; j < k; ++j)
                    if (std::abs(d[j]) > tolerance * largest) ++*rank;
                rows.assign(p.begin(), p.begin() + k);
            }
        }
    }
    if (numeric) umfpack_di_free_numeric(&numeric);
    if (symbolic) umfpack_di_free_symbolic(&symbolic);
    return rows;
}

}  // namespace looplab
