#pragma once
// The symmetric augmented matrix of an undamped eigenanalysis or a statics step,
//
//   S = [ A   Cᵀ ]     A  n × n symmetric positive definite (K − σM below the lowest ω²),
//       [ C   0  ]     C  r × n with independent rows (βB: the constraint rows, scaled),
//
// factorised through a supernodal Cholesky factorisation of A (CHOLMOD) and the dense
// Schur complement of the constraint rows. The coordinates the constraint rows touch are
// ordered after all others (the others by nested dissection, METIS): then every ancestor of
// such a coordinate in the elimination tree is one too, W = L⁻¹PCᵀ has rows only there, and
// W and the r × r complement WᵀW = C A⁻¹ Cᵀ cost a dense triangular solve of that block, not
// r solves with the whole factor. A solve with S is then one forward and one backward
// substitution with L and two small dense products (docs/methods.md, "Eigenanalysis").
//
// It needs A positive definite: factorize() says false otherwise, and the caller falls back
// to an LU of S (AugmentedFactorization.h).

#include "looplab/common/Types.h"
#include "looplab/linalg/SparseMatrix.h"

#include <memory>

namespace looplab {

class AugmentedCholesky {
public:
    AugmentedCholesky();
    ~AugmentedCholesky();
    AugmentedCholesky(const AugmentedCholesky&) = delete;
    AugmentedCholesky& operator=(const AugmentedCholesky&) = delete;

    /// Factorises S from A (only its lower triangle is read) and C. False when A is not
    /// numerically positive definite or the rows of C are dependent (C A⁻¹ Cᵀ not positive
    /// definite): nothing is kept then. The ordering and symbolic analysis are kept for the
    /// next call with the same patterns.
    bool factorize(const SparseColMatrix& A, const SparseColMatrix& C);
    bool ok() const { return ok_; }
    /// n + r.
    int size() const { return n_ + r_; }
    /// S⁻¹ b for b of size n + r (the last r entries: the constraint rows).
    VecX solve(const VecX& b) const;
    /// Estimate of κ₁(D S D), D = diag(d) (every d_i ≠ 0), from this factorisation, as
    /// SparseLUFactorization::conditionEstimate. Infinity when not factorised.
    double conditionEstimate(const VecX& d) const;
    /// Entries of the Cholesky factor of A (fill included).
    double factorEntries() const;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
    int n_ = 0, r_ = 0;
    bool ok_ = false;
};

}  // namespace looplab
