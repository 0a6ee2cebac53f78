#include "looplab/linalg/ConstraintSpaces.h"

#include <Eigen/Cholesky>
#include <Eigen/SPQRSupport>

#include <algorithm>
#include <cmath>

namespace looplab {

bool usesSparse(LinearAlgebra choice, int coordinates) {
    switch (choice) {
    case LinearAlgebra::Dense: return false;
    case LinearAlgebra::Sparse: return true;
    case LinearAlgebra::Automatic: break;
    }
    return coordinates > kSparseCoordinateThreshold;
}

const char* linearAlgebraName(LinearAlgebra choice) {
    switch (choice) {
    case LinearAlgebra::Dense: return "dense";
    case LinearAlgebra::Sparse: return "sparse";
    case LinearAlgebra::Automatic: break;
    }
    return "automatic";
}

bool parseLinearAlgebra(const std::string& name, LinearAlgebra& choice) {
    for (LinearAlgebra c : {LinearAlgebra::Automatic, LinearAlgebra::Dense, LinearAlgebra::Sparse}) {
        if (name == linearAlgebraName(c)) {
            choice = c;
            return true;
        }
    }
    return false;
}

// SuiteSparseQR of J̃ᵀ (n × m): J̃ᵀ E = Q R, with R₁₁ (r × r) and R₁₂ (r × (m − r)) kept
// as sparse column-major blocks for triangular solves.
struct ConstraintSpaces::Sparse {
    using ColMajor = Eigen::SparseMatrix<double, Eigen::ColMajor, SuiteSparse_long>;
    Eigen::SPQR<ColMajor> qr;
    ColMajor R11, R12;
};

ConstraintSpaces::ConstraintSpaces() = default;
ConstraintSpaces::~ConstraintSpaces() = default;
ConstraintSpaces::ConstraintSpaces(ConstraintSpaces&&) noexcept = default;
ConstraintSpaces& ConstraintSpaces::operator=(ConstraintSpaces&&) noexcept = default;

void ConstraintSpaces::clear(int m, int n, const VecX& rowScales, const VecX& colScales) {
    equations_ = m;
    coordinates_ = n;
    rowScales_ = rowScales;
    colScales_ = colScales;
    independent_.clear();
    redundant_.clear();
    rank_ = 0;
    sigmaMin_ = sigmaMax_ = 0.0;
    sparseActive_ = false;
}

void ConstraintSpaces::factorize(const MatX& jacobian, const VecX& rowScales,
                                 const VecX& colScales, double rankTolerance) {
    const int m = static_cast<int>(jacobian.rows());
    const int n = static_cast<int>(jacobian.cols());
    clear(m, n, rowScales, colScales);
    if (m == 0 || n == 0) {
        for (int i = 0; i < m; ++i) redundant_.push_back(i);
        qr_.compute(MatX(n, 0));  // no equations: Q = I
        perm_ = qr_.permutation();
        return;
    }
    qr_.compute((rowScales.asDiagonal() * jacobian * colScales.asDiagonal()).transpose());
    const MatX& R = qr_.factors();
    const int kmax = std::min(m, n);
    const double r00 = std::abs(R(0, 0));
    int rank = 0;
    while (rank < kmax && r00 > 0.0 && std::abs(R(rank, rank)) > rankTolerance * r00) ++rank;
    perm_ = qr_.permutation();
    setDenseRank(atGap(rank, rankTolerance));
}

// The rank is decided at a gap in the pivots, never inside a cluster. Near a singular
// configuration where several directions are lost at once (loops that flatten together),
// their pivots fall together; a threshold between two of them keeps a row as weak as the
// one it drops, and the kept row's 1/σ then amplifies the velocity left in the dropped
// direction (accelerations twenty times too large were measured on the double
// parallelogram). Pivots within kRankClusterFactor of the first dropped one, and
// themselves below kRankClusterFactor times the tolerance, go with it.
int ConstraintSpaces::atGap(int rank, double rankTolerance) const {
    const MatX& R = qr_.factors();
    const int kmax = static_cast<int>(std::min(R.rows(), R.cols()));
    const double r00 = kmax > 0 ? std::abs(R(0, 0)) : 0.0;
    while (rank > 0 && rank < kmax) {
        const double kept = std::abs(R(rank - 1, rank - 1));
        if (kept > kRankClusterFactor * rankTolerance * r00 || kept > kRankClusterFactor * std::abs(R(rank, rank)))
            break;
        --rank;
    }
    return rank;
}

void ConstraintSpaces::setDenseRank(int rank) {
    rank_ = rank;
    independent_.clear();
    redundant_.clear();
    for (int k = 0; k < equations_; ++k) (k < rank_ ? independent_ : redundant_).push_back(perm_[size_t(k)]);
    sigmaMin_ = sigmaMax_ = 0.0;
    if (rank_ > 0) {
        const MatX& R = qr_.factors();
        sigmaMax_ = std::abs(R(0, 0));
        sigmaMin_ = std::abs(R(rank_ - 1, rank_ - 1));
    }
}

void ConstraintSpaces::factorize(const SparseMatrix& jacobian, const VecX& rowScales,
                                 const VecX& colScales, double rankTolerance,
                                 LinearAlgebra choice) {
    const int m = static_cast<int>(jacobian.rows());
    const int n = static_cast<int>(jacobian.cols());
    if (!usesSparse(choice, n) || m == 0 || n == 0) {
        factorize(MatX(jacobian), rowScales, colScales, rankTolerance);
        return;
    }
    clear(m, n, rowScales, colScales);
    if (!sparse_) sparse_ = std::make_unique<Sparse>();
    Sparse& sp = *sparse_;
    const Sparse::ColMajor At =
        Sparse::ColMajor((rowScales.asDiagonal() * jacobian * colScales.asDiagonal()).transpose());
    // SuiteSparseQR drops a column whose norm, after the reflectors of the columns before
    // it, is at most the threshold (Heath's rank detection). Scaled rows have norms of
    // order one, so the threshold is the rank tolerance relative to the largest of them:
    // the same relative meaning as |R_kk| ≤ tol·|R_00| on the dense path.
    double largest = 0.0;
    for (int j = 0; j < At.outerSize(); ++j) largest = std::max(largest, At.col(j).norm());
    sp.qr.setPivotThreshold(rankTolerance * (largest > 0.0 ? largest : 1.0));
    sp.qr.compute(At);
    sparseActive_ = true;
    if (sp.qr.info() != Eigen::Success) {
        // No factorisation: report every equation as dependent so that callers see rank 0
        // rather than reading stale factors.
        for (int i = 0; i < m; ++i) redundant_.push_back(i);
        perm_.resize(static_cast<size_t>(m));
        for (int i = 0; i < m; ++i) perm_[size_t(i)] = i;
        sparseActive_ = false;
        qr_.compute(MatX(n, 0));
        return;
    }
    rank_ = static_cast<int>(sp.qr.rank());
    const auto E = sp.qr.colsPermutation();
    perm_.resize(static_cast<size_t>(m));
    for (int k = 0; k < m; ++k) perm_[size_t(k)] = E.indices()[k];
    for (int k = 0; k < m; ++k) (k < rank_ ? independent_ : redundant_).push_back(perm_[size_t(k)]);
    const Sparse::ColMajor R = sp.qr.matrixR();
    sp.R11 = R.topLeftCorner(rank_, rank_);
    sp.R12 = R.block(0, rank_, rank_, m - rank_);
    if (rank_ > 0) {
        const VecX d = sp.R11.diagonal().cwiseAbs();
        sigmaMax_ = d.maxCoeff();
        sigmaMin_ = d.minCoeff();
    }
}

VecX ConstraintSpaces::solveR11(const VecX& b) const {
    if (isSparse()) return sparse_->R11.triangularView<Eigen::Upper>().solve(b);
    return qr_.factors().topLeftCorner(rank_, rank_).triangularView<Eigen::Upper>().solve(b);
}

VecX ConstraintSpaces::solveR11Transposed(const VecX& b) const {
    if (isSparse()) return sparse_->R11.transpose().triangularView<Eigen::Lower>().solve(b);
    return qr_.factors()
        .topLeftCorner(rank_, rank_)
        .triangularView<Eigen::Upper>()
        .transpose()
        .solve(b);
}

MatX ConstraintSpaces::redundancyCoefficients() const {
    const int d = equations() - rank_;
    if (isSparse()) {
        // One sparse triangular solve per redundant equation: R₁₂ has few nonzeros per
        // column, K is dense but only r × (m − r).
        MatX K(rank_, d);
        for (int j = 0; j < d; ++j) K.col(j) = solveR11(VecX(sparse_->R12.col(j)));
        return K;
    }
    const MatX& R = qr_.factors();
    return R.topLeftCorner(rank_, rank_).triangularView<Eigen::Upper>().solve(R.topRightCorner(rank_, d));
}

MatX ConstraintSpaces::constraintBasis() const {
    if (!isSparse()) return qr_.columnsOfQ(0, rank_);
    MatX out(coordinates_, rank_);
    for (int k = 0; k < rank_; ++k) out.col(k) = sparse_->qr.matrixQ() * VecX(VecX::Unit(coordinates_, k));
    return out;
}

MatX ConstraintSpaces::tangentBasis() const {
    // Only the trailing columns of Q are needed; applying the reflectors to them alone
    // costs O(n·(n−r)·r) instead of forming all of Q.
    if (!isSparse()) return qr_.columnsOfQ(rank_, coordinates() - rank_);
    const int k = coordinates() - rank_;
    MatX out(coordinates_, k);
    for (int j = 0; j < k; ++j)
        out.col(j) = sparse_->qr.matrixQ() * VecX(VecX::Unit(coordinates_, rank_ + j));
    return out;
}

// Smallest singular value and right singular vector of R₁₁ by inverse iteration on
// R₁₁ᵀR₁₁ (two triangular solves per sweep): far cheaper than an SVD at every step, and
// exact to rounding where it matters, near singularity, where the gap to the next
// singular value is large.
double ConstraintSpaces::smallestSingularPair(VecX* vOut) const {
    const int r = rank_;
    VecX v = VecX::Ones(r) / std::sqrt(double(r));
    double sigma = 0.0;
    for (int it = 0; it < 30; ++it) {
        VecX w = solveR11(solveR11Transposed(v));
        const double nw = w.norm();
        if (!(nw > 0.0) || !std::isfinite(nw)) break;
        const VecX next = w / nw;
        const double change = (next - v).norm();
        v = next;
        sigma = isSparse() ? (sparse_->R11 * v).norm()
                           : (qr_.factors().topLeftCorner(r, r).triangularView<Eigen::Upper>() * v).norm();
        if (change < 1e-10) break;
    }
    if (vOut) *vOut = v;
    return sigma;
}

double ConstraintSpaces::firstRejectedPivot() const {
    if (isSparse()) return 0.0;
    const int p = std::min(equations(), coordinates());
    return rank_ < p ? std::abs(qr_.diagonal(rank_)) : 0.0;
}

double ConstraintSpaces::smallestSingularValue() const {
    if (rank_ == 0) return 0.0;
    return smallestSingularPair(nullptr);
}

double ConstraintSpaces::smallestSingularValueLowerBound() const {
    if (rank_ == 0 || isSparse()) return 0.0;
    const auto R = qr_.factors().topLeftCorner(rank_, rank_).triangularView<Eigen::Upper>();
    const MatX inverse = R.solve(MatX::Identity(rank_, rank_));
    const double norm = inverse.norm();
    return std::isfinite(norm) && norm > 0.0 ? 1.0 / norm : 0.0;
}

std::vector<bool> ConstraintSpaces::indeterminateEquations() const {
    const int m = equations();
    std::vector<bool> out(static_cast<size_t>(m), false);
    if (rank_ >= m || m == 0) return out;
    // Left null space of J̃ᵀP = QR: columns [−R11⁻¹R12; I], permuted back.
    const int d = m - rank_;
    MatX N = MatX::Zero(m, d);
    if (rank_ > 0) N.topRows(rank_) = -redundancyCoefficients();
    N.bottomRows(d).setIdentity();
    const double scale = N.cwiseAbs().maxCoeff();
    for (int k = 0; k < m; ++k) {
        if (N.row(k).cwiseAbs().maxCoeff() > 1e-8 * scale) out[static_cast<size_t>(perm_[size_t(k)])] = true;
    }
    return out;
}

VecX ConstraintSpaces::singularDirection() const {
    VecX w = VecX::Zero(equations());
    if (rank_ == 0) return w;
    // Rows of the independent Jacobian are R11ᵀQ1ᵀ: their left singular vectors are the
    // right singular vectors of R11.
    VecX v;
    smallestSingularPair(&v);
    for (int k = 0; k < rank_; ++k) w[independent_[static_cast<size_t>(k)]] = v[k];
    return w;
}

VecX ConstraintSpaces::solveMinimumNorm(const VecX& rhs, double* residual) const {
    const int m = equations();
    const int n = coordinates();
    VecX dv = VecX::Zero(n);
    if (residual) *residual = 0.0;
    if (m == 0 || n == 0) return dv;
    VecX bp(m);
    for (int k = 0; k < m; ++k) bp[k] = rowScales_[perm_[size_t(k)]] * rhs[perm_[size_t(k)]];
    VecX y = VecX::Zero(n);
    if (rank_ > 0) y.head(rank_) = solveR11Transposed(bp.head(rank_));
    if (residual) {
        double worst = 0.0;
        if (isSparse()) {
            const VecX predicted = rank_ > 0 ? VecX(sparse_->R12.transpose() * y.head(rank_))
                                             : VecX::Zero(m - rank_);
            for (int k = rank_; k < m; ++k) worst = std::max(worst, std::abs(predicted[k - rank_] - bp[k]));
        } else {
            const MatX& R = qr_.factors();
            for (int k = rank_; k < m; ++k) {
                const double predicted = rank_ > 0 ? R.col(k).head(rank_).dot(y.head(rank_)) : 0.0;
                worst = std::max(worst, std::abs(predicted - bp[k]));
            }
        }
        *residual = worst;
    }
    // dṽ = Q1 y. y's tail is zero, and reflectors past the rank only touch that tail.
    if (isSparse()) {
        const VecX Qy = sparse_->qr.matrixQ() * y;
        return colScales_.asDiagonal() * Qy;
    }
    qr_.applyQ(y, rank_);
    return colScales_.asDiagonal() * y;
}

VecX ConstraintSpaces::solveTransposed(const VecX& g) const {
    const int m = equations();
    VecX lambda = VecX::Zero(m);
    if (rank_ == 0) return lambda;
    // Q1ᵀ D_c g, the constraint-space part of the scaled force.
    VecX scaled = colScales_.asDiagonal() * g;
    if (isSparse()) {
        scaled = sparse_->qr.matrixQ().transpose() * scaled;
    } else {
        // Reflectors past the rank do not touch the leading r entries.
        qr_.applyQTransposed(scaled, rank_);
    }
    const VecX c = scaled.head(rank_);
    // The solutions of [R11 R12] μ = c are μ = (y − K w, w) with y = R11⁻¹c and
    // K = R11⁻¹R12. The one of least norm has (I + KᵀK) w = Kᵀy: a system as large as the
    // redundancy, where an orthogonal factorisation of [R11 R12]ᵀ would cost 2 m r², the
    // bulk of an output frame for a large model. R11 is well conditioned by the pivoting
    // and I + KᵀK has no eigenvalue below 1.
    const VecX y = solveR11(c);
    const int d = m - rank_;
    VecX mu(m);
    if (d == 0) {
        mu = y;
    } else {
        const MatX K = redundancyCoefficients();
        MatX A = MatX::Identity(d, d);
        A.selfadjointView<Eigen::Lower>().rankUpdate(K.transpose());
        const VecX w = Eigen::LLT<MatX>(A).solve(K.transpose() * y);
        mu.head(rank_) = y - K * w;
        mu.tail(d) = w;
    }
    for (int k = 0; k < m; ++k) lambda[perm_[size_t(k)]] = rowScales_[perm_[size_t(k)]] * mu[k];
    return lambda;
}

}  // namespace looplab
