#pragma once
// The augmented (saddle-point) matrices of statics and eigenanalysis, with the constraint
// rows and the multiplier columns scaled by β, and their sparse LU factorisation with a
// 1-norm condition estimate.
//
//   [ A     βBᵀ ]      A  n × n (a stiffness, possibly shifted: K − σM),
//   [ βB    0   ]      B  the independent rows of Φ_q (r × n).
//
// Without β the two blocks differ by the ratio of a stiffness to a pure number (N/m or
// N·m/rad against 1), and the condition number grows with its square; β of the size of
// the stiffness entries gives both blocks the same magnitude (docs/methods.md,
// "Eigenanalysis: scaling").

#include "looplab/common/Types.h"
#include "looplab/linalg/SparseMatrix.h"

#include <functional>
#include <memory>
#include <vector>

namespace looplab {

/// [A βBᵀ; βB 0] with B the rows `rows` of `jacobian` (in that order); size n + r.
SparseColMatrix augmentedMatrix(const SparseColMatrix& A, const SparseMatrix& jacobian,
                                const std::vector<int>& rows, double beta);

/// The independent rows of `jacobian` as a column-major r × n matrix.
SparseColMatrix selectRows(const SparseMatrix& jacobian, const std::vector<int>& rows);

/// Largest absolute entry of a sparse matrix (0 if empty).
double largestAbsEntry(const SparseColMatrix& A);

/// Estimate of κ₁(T) = ‖T‖₁ ‖T⁻¹‖₁ of an n × n matrix T given ‖T‖₁ and solves with T and Tᵀ
/// (LAPACK's xLACON: at most 5 solves with each; a lower bound of the true value, usually
/// within a factor 3). Infinity when a solve is not finite.
double hagerHigham(int n, double norm1, const std::function<VecX(const VecX&)>& solve,
                   const std::function<VecX(const VecX&)>& solveTransposed);

/// Sparse LU of a square matrix by UMFPACK (SuiteSparse: multifrontal, with an AMD
/// ordering of A + Aᵀ for the symmetric patterns of the augmented matrices), with solves by
/// the matrix and its transpose and condition estimates. No dense factorisation at any
/// size.
class SparseLUFactorization {
public:
    SparseLUFactorization();
    ~SparseLUFactorization();
    SparseLUFactorization(SparseLUFactorization&&) noexcept;
    SparseLUFactorization& operator=(SparseLUFactorization&&) noexcept;

    /// False if the matrix is structurally or numerically singular (a zero pivot).
    bool factorize(const SparseColMatrix& S);
    /// The same, keeping the symbolic analysis (ordering, fronts) of the last matrix
    /// factorised when S has its pattern: for a block refactorised at every iteration of a
    /// Newton loop with the same sparsity.
    bool refactorize(const SparseColMatrix& S);
    bool ok() const { return ok_; }
    int size() const { return size_; }
    VecX solve(const VecX& b) const;
    VecX solveTransposed(const VecX& b) const;
    /// Sign of the determinant (+1, −1; 0 when not factorised).
    int signDeterminant() const;
    /// Estimate of κ₁(S) = ‖S‖₁ ‖S⁻¹‖₁, ‖S⁻¹‖₁ by Hager's method as refined by Higham
    /// (LAPACK's xLACON: at most 5 solves with S and Sᵀ; a lower bound of the true value,
    /// usually within a factor 3). Infinity when not factorised.
    double conditionEstimate() const;
    /// The same estimate for T = D S D, D = diag(d) with every d_i ≠ 0, from this
    /// factorisation of S (T⁻¹ = D⁻¹ S⁻¹ D⁻¹): a matrix that differs from S by a symmetric
    /// diagonal scaling, such as the augmented matrix without β, needs no factorisation of
    /// its own. Infinity when not factorised.
    double conditionEstimate(const VecX& d) const;

private:
    struct Impl;
    bool numeric();
    std::unique_ptr<Impl> impl_;
    bool ok_ = false;
    int size_ = 0;
};

/// The k rows of a tall m × k sparse matrix T (m ≥ k) that an LU with strict partial
/// pivoting takes as its pivots, in pivot order: each pivot is the largest entry left in
/// its column, with no row scaling and no singleton shortcut (UMFPACK, pivot tolerance 1).
/// `rank` is the number of pivots above `tolerance` times the largest. Empty (rank 0) if
/// the factorisation fails. With T the transposed scaled independent constraint rows, the
/// rows are coordinates with a well-conditioned square block: a coordinate partition.
std::vector<int> partialPivotRows(const SparseColMatrix& T, double tolerance, int* rank);

}  // namespace looplab
