#include "looplab/dynamics/IndependentRows.h"

#include "looplab/dynamics/Dynamics.h"

#include <algorithm>
#include <cmath>

namespace looplab {
namespace {

// Dot product of two rows of row-major sparse matrices (columns ascending in each).
double rowDot(const SparseMatrix& a, Eigen::Index i, const SparseMatrix& b, Eigen::Index j) {
    const int* ai = a.innerIndexPtr();
    const double* av = a.valuePtr();
    const int* bi = b.innerIndexPtr();
    const double* bv = b.valuePtr();
    int p = a.outerIndexPtr()[i], pe = a.outerIndexPtr()[i + 1];
    int q = b.outerIndexPtr()[j], qe = b.outerIndexPtr()[j + 1];
    double sum = 0.0;
    while (p < pe && q < qe) {
        if (ai[p] < bi[q]) ++p;
        else if (bi[q] < ai[p]) ++q;
        else sum += av[p++] * bv[q++];
    }
    return sum;
}

}  // namespace

void IndependentRows::select(const std::vector<int>& rows, const VecX& rowScales, const VecX& colScales) {
    rows_ = rows;
    rowScales_ = rowScales;
    colScales_ = colScales;
    patternOuter_.clear();
    patternInner_.clear();
}

void IndependentRows::findProductPattern() {
    // One symbolic product, lower triangle kept.
    const ColMajorMatrix full = ColMajorMatrix(J_ * SparseMatrix(J_.transpose()));
    std::vector<Eigen::Triplet<double>> lower;
    lower.reserve(size_t(full.nonZeros()));
    for (int c = 0; c < full.outerSize(); ++c)
        for (ColMajorMatrix::InnerIterator e(full, c); e; ++e)
            if (e.row() >= c) lower.emplace_back(int(e.row()), c, 1.0);
    N_.resize(full.rows(), full.cols());
    N_.setFromTriplets(lower.begin(), lower.end());
    N_.makeCompressed();
    S_ = N_;
    patternOuter_.assign(J_.outerIndexPtr(), J_.outerIndexPtr() + J_.outerSize() + 1);
    patternInner_.assign(J_.innerIndexPtr(), J_.innerIndexPtr() + J_.nonZeros());
    widened_ = false;
}

void IndependentRows::findWidenedPattern(const Model& model) {
    std::vector<Eigen::Triplet<double>> w;
    std::vector<int> bodies;
    for (Eigen::Index k = 0; k < J_.rows(); ++k) {
        bodies.clear();
        for (SparseMatrix::InnerIterator e(J_, k); e; ++e) {
            const int b = model.bodyOfVelocityCoordinate(int(e.col()));
            if (bodies.empty() || bodies.back() != b) bodies.push_back(b);
        }
        bodies.erase(std::unique(bodies.begin(), bodies.end()), bodies.end());
        for (int b : bodies) {
            const int o = model.velocityOffset(BodyIndex(b));
            for (int c = 0; c < model.velocitySliceSize(BodyIndex(b)); ++c) w.emplace_back(int(k), o + c, 0.0);
        }
    }
    W_.resize(J_.rows(), J_.cols());
    W_.setFromTriplets(w.begin(), w.end());
    W_.makeCompressed();
    widened_ = true;
}

bool IndependentRows::setJacobian(const SparseMatrix& jacobian) {
    const Eigen::Index r = static_cast<Eigen::Index>(rows_.size());
    const Eigen::Index n = jacobian.cols();
    // Row-major: each selected row is copied with its scales, no product with a selection
    // matrix.
    Eigen::Index nnz = 0;
    for (int row : rows_) nnz += jacobian.outerIndexPtr()[row + 1] - jacobian.outerIndexPtr()[row];
    J_.resize(r, n);
    J_.reserve(nnz);
    for (Eigen::Index k = 0; k < r; ++k) {
        const int row = rows_[size_t(k)];
        J_.startVec(k);
        for (SparseMatrix::InnerIterator e(jacobian, row); e; ++e)
            J_.insertBack(k, e.col()) = rowScales_[row] * e.value() * colScales_[e.col()];
    }
    J_.finalize();
    const bool samePattern = patternOuter_.size() == size_t(r + 1) &&
                             std::equal(patternOuter_.begin(), patternOuter_.end(), J_.outerIndexPtr()) &&
                             patternInner_.size() == size_t(J_.nonZeros()) &&
                             std::equal(patternInner_.begin(), patternInner_.end(), J_.innerIndexPtr());
    if (!samePattern) findProductPattern();
    for (int c = 0; c < N_.outerSize(); ++c) {
        for (int p = N_.outerIndexPtr()[c]; p < N_.outerIndexPtr()[c + 1]; ++p)
            N_.valuePtr()[p] = rowDot(J_, N_.innerIndexPtr()[p], J_, c);
    }
    if (!normal_.factorize(N_)) {
        pivotSpread_ = 0.0;
        return false;
    }
    const VecX d = normal_.factorDiagonal();
    pivotSpread_ = d.size() ? d.minCoeff() / d.maxCoeff() : 1.0;
    return true;
}

VecX IndependentRows::minimumNormSolve(const VecX& rhs) const {
    const Eigen::Index r = static_cast<Eigen::Index>(rows_.size());
    VecX b(r);
    for (Eigen::Index k = 0; k < r; ++k) b[k] = rowScales_[rows_[size_t(k)]] * rhs[rows_[size_t(k)]];
    return colScales_.asDiagonal() * (J_.transpose() * normal_.solve(b));
}

bool IndependentRows::accelerations(const Model& model, const VecX& f, const VecX& gamma, VecX& acceleration) {
    if (!widened_) findWidenedPattern(model);
    // W = J M̃⁻¹ = J D_c⁻¹ M⁻¹ D_c⁻¹, row by row: scatter a row of J D_c⁻¹, apply the
    // inverse mass of each body it touches, gather into W's pattern with D_c⁻¹.
    const Eigen::Index n = J_.cols();
    if (scratch_.size() != n) scratch_ = VecX::Zero(n);
    for (Eigen::Index k = 0; k < J_.rows(); ++k) {
        for (SparseMatrix::InnerIterator e(J_, k); e; ++e) scratch_[e.col()] = e.value() / colScales_[e.col()];
        int p = W_.outerIndexPtr()[k];
        const int pe = W_.outerIndexPtr()[k + 1];
        while (p < pe) {
            const int o = W_.innerIndexPtr()[p];
            const BodyIndex b(model.bodyOfVelocityCoordinate(o));
            const int size = model.velocitySliceSize(b);
            applyBodyInverseMass(model, b, scratch_.data() + o);
            for (int c = 0; c < size; ++c, ++p) {
                W_.valuePtr()[p] = scratch_[o + c] / colScales_[o + c];
                scratch_[o + c] = 0.0;
            }
        }
    }
    for (int c = 0; c < S_.outerSize(); ++c) {
        for (int p = S_.outerIndexPtr()[c]; p < S_.outerIndexPtr()[c + 1]; ++p)
            S_.valuePtr()[p] = rowDot(J_, S_.innerIndexPtr()[p], W_, c);
    }
    if (!schur_.factorize(S_)) return false;
    return accelerationsAgain(model, f, gamma, acceleration);
}

bool IndependentRows::accelerationsAgain(const Model& model, const VecX& f, const VecX& gamma,
                                         VecX& acceleration) const {
    const Eigen::Index r = static_cast<Eigen::Index>(rows_.size());
    VecX g(r);
    for (Eigen::Index k = 0; k < r; ++k) g[k] = rowScales_[rows_[size_t(k)]] * gamma[rows_[size_t(k)]];
    // With f̃ = D_c f: J M̃⁻¹ f̃ = W D_c f, and v̇ = M⁻¹ f − D_c Wᵀ μ.
    const VecX mu = schur_.solve(W_ * (colScales_.asDiagonal() * f) - g);
    acceleration = applyInverseMass(model, f) - colScales_.asDiagonal() * (W_.transpose() * mu);
    return acceleration.allFinite();
}

}  // namespace looplab
