#include "looplab/ConstraintSpaces.h"

#include <Eigen/Cholesky>

#include <algorithm>
#include <cmath>

namespace looplab {

void ConstraintSpaces::factorize(const MatX& jacobian, const VecX& rowScales,
                                 const VecX& colScales, double rankTolerance) {
    equations_ = static_cast<int>(jacobian.rows());
    coordinates_ = static_cast<int>(jacobian.cols());
    rowScales_ = rowScales;
    colScales_ = colScales;
    const int m = static_cast<int>(jacobian.rows());
    const int n = static_cast<int>(jacobian.cols());
    independent_.clear();
    redundant_.clear();
    rank_ = 0;
    sigmaMin_ = sigmaMax_ = 0.0;
    if (m == 0 || n == 0) {
        for (int i = 0; i < m; ++i) redundant_.push_back(i);
        qr_.compute(MatX(n, 0));  // no equations: Q = I
        return;
    }
    qr_.compute((rowScales.asDiagonal() * jacobian * colScales.asDiagonal()).transpose());
    const MatX& R = qr_.factors();
    const int kmax = std::min(m, n);
    const double r00 = std::abs(R(0, 0));
    for (int k = 0; k < kmax; ++k) {
        const double rkk = std::abs(R(k, k));
        if (r00 == 0.0 || rkk <= rankTolerance * r00) break;
        ++rank_;
    }
    const auto& perm = qr_.permutation();
    for (int k = 0; k < m; ++k) (k < rank_ ? independent_ : redundant_).push_back(perm[k]);
    if (rank_ > 0) {
        sigmaMax_ = r00;
        sigmaMin_ = std::abs(R(rank_ - 1, rank_ - 1));
    }
}

MatX ConstraintSpaces::constraintBasis() const { return qr_.columnsOfQ(0, rank_); }

MatX ConstraintSpaces::tangentBasis() const {
    // Only the trailing columns of Q are needed; applying the reflectors to them alone
    // costs O(n·(n−r)·r) instead of forming all of Q.
    return qr_.columnsOfQ(rank_, coordinates() - rank_);
}

namespace {
// Smallest singular value and right singular vector of an upper-triangular R by inverse
// iteration on RᵀR (two triangular solves per sweep, O(r²)): far cheaper than an SVD at
// every step, and exact to rounding where it matters, near singularity, where the gap
// to the next singular value is large.
double smallestSingularPair(const MatX& Rfull, int r, VecX* vOut) {
    const auto R = Rfull.topLeftCorner(r, r).triangularView<Eigen::Upper>();
    VecX v = VecX::Ones(r) / std::sqrt(double(r));
    double sigma = 0.0;
    for (int it = 0; it < 30; ++it) {
        VecX w = R.transpose().solve(v);
        w = R.solve(w);
        const double nw = w.norm();
        if (!(nw > 0.0) || !std::isfinite(nw)) break;
        const VecX next = w / nw;
        const double change = (next - v).norm();
        v = next;
        sigma = (R * v).norm();
        if (change < 1e-10) break;
    }
    if (vOut) *vOut = v;
    return sigma;
}
}  // namespace

double ConstraintSpaces::firstRejectedPivot() const {
    const int p = std::min(equations(), coordinates());
    return rank_ < p ? std::abs(qr_.diagonal(rank_)) : 0.0;
}

double ConstraintSpaces::smallestSingularValue() const {
    if (rank_ == 0) return 0.0;
    return smallestSingularPair(qr_.factors(), rank_, nullptr);
}

double ConstraintSpaces::smallestSingularValueLowerBound() const {
    if (rank_ == 0) return 0.0;
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
    const MatX& R = qr_.factors();
    const int d = m - rank_;
    MatX N = MatX::Zero(m, d);
    if (rank_ > 0) {
        N.topRows(rank_) = -R.topLeftCorner(rank_, rank_).triangularView<Eigen::Upper>().solve(
            R.topRightCorner(rank_, d));
    }
    N.bottomRows(d).setIdentity();
    const auto& perm = qr_.permutation();
    const double scale = N.cwiseAbs().maxCoeff();
    for (int k = 0; k < m; ++k) {
        if (N.row(k).cwiseAbs().maxCoeff() > 1e-8 * scale) out[static_cast<size_t>(perm[k])] = true;
    }
    return out;
}

VecX ConstraintSpaces::singularDirection() const {
    VecX w = VecX::Zero(equations());
    if (rank_ == 0) return w;
    // Rows of the independent Jacobian are R11ᵀQ1ᵀ: their left singular vectors are the
    // right singular vectors of R11.
    VecX v;
    smallestSingularPair(qr_.factors(), rank_, &v);
    for (int k = 0; k < rank_; ++k) w[independent_[static_cast<size_t>(k)]] = v[k];
    return w;
}

VecX ConstraintSpaces::solveMinimumNorm(const VecX& rhs, double* residual) const {
    const int m = equations();
    const int n = coordinates();
    VecX dv = VecX::Zero(n);
    if (residual) *residual = 0.0;
    if (m == 0 || n == 0) return dv;
    const auto& perm = qr_.permutation();
    VecX bp(m);
    for (int k = 0; k < m; ++k) bp[k] = rowScales_[perm[k]] * rhs[perm[k]];
    const MatX& R = qr_.factors();
    VecX y = VecX::Zero(n);
    if (rank_ > 0) {
        y.head(rank_) = R.topLeftCorner(rank_, rank_)
                            .triangularView<Eigen::Upper>()
                            .transpose()
                            .solve(bp.head(rank_));
    }
    if (residual) {
        double worst = 0.0;
        for (int k = rank_; k < m; ++k) {
            const double predicted =
                rank_ > 0 ? R.col(k).head(rank_).dot(y.head(rank_)) : 0.0;
            worst = std::max(worst, std::abs(predicted - bp[k]));
        }
        *residual = worst;
    }
    // dṽ = Q1 y. y's tail is zero, and reflectors past the rank only touch that tail.
    qr_.applyQ(y, rank_);
    return colScales_.asDiagonal() * y;
}

VecX ConstraintSpaces::solveTransposed(const VecX& g) const {
    const int m = equations();
    VecX lambda = VecX::Zero(m);
    if (rank_ == 0) return lambda;
    // Q1ᵀ D_c g, the constraint-space part of the scaled force.
    // Reflectors past the rank do not touch the leading r entries.
    VecX scaled = colScales_.asDiagonal() * g;
    qr_.applyQTransposed(scaled, rank_);
    const VecX c = scaled.head(rank_);
    // The solutions of [R11 R12] μ = c are μ = (y − K w, w) with y = R11⁻¹c and
    // K = R11⁻¹R12. The one of least norm has (I + KᵀK) w = Kᵀy: a system as large as the
    // redundancy, where an orthogonal factorisation of [R11 R12]ᵀ would cost 2 m r², the
    // bulk of an output frame for a large model. R11 is well conditioned by the pivoting
    // and I + KᵀK has no eigenvalue below 1.
    const MatX& R = qr_.factors();
    const auto R11 = R.topLeftCorner(rank_, rank_).triangularView<Eigen::Upper>();
    const VecX y = R11.solve(c);
    const int d = m - rank_;
    VecX mu(m);
    if (d == 0) {
        mu = y;
    } else {
        const MatX K = R11.solve(R.topRightCorner(rank_, d));
        MatX A = MatX::Identity(d, d);
        A.selfadjointView<Eigen::Lower>().rankUpdate(K.transpose());
        const VecX w = Eigen::LLT<MatX>(A).solve(K.transpose() * y);
        mu.head(rank_) = y - K * w;
        mu.tail(d) = w;
    }
    const auto& perm = qr_.permutation();
    for (int k = 0; k < m; ++k) lambda[perm[k]] = rowScales_[perm[k]] * mu[k];
    return lambda;
}

}  // namespace looplab
