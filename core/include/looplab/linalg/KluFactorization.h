#pragma once
// Sparse LU of a square matrix by KLU (SuiteSparse; Davis & Palamadai Natarajan 2010), made
// for sequences of matrices with one pattern, which a Newton iteration over time steps
// produces: the ordering (block triangular form and AMD) is analysed once per pattern, the
// first numeric factorisation chooses its pivots, and every later matrix within the
// pattern is refactorised with those pivots (no search, a fraction of the cost). Entries
// that come and go (exact zeros in one matrix and not in the next) do not count as a new
// pattern: a matrix whose entries the analysed pattern holds is factorised on it, one with
// more is analysed on the union of both. A
// refactorisation whose pivots have degraded (KLU's reciprocal condition estimate
// min|u_ii|/max|u_ii| fallen below 1e-3 of the value at the last pivot search) is done again
// with a fresh pivot search, so the reuse never trades accuracy for speed.

#include "looplab/linalg/SparseMatrix.h"
#include "looplab/common/Types.h"

#include <memory>
#include <vector>

namespace looplab {

class KluFactorization {
public:
    KluFactorization();
    ~KluFactorization();
    KluFactorization(const KluFactorization&) = delete;
    KluFactorization& operator=(const KluFactorization&) = delete;

    /// Factorises A (square, compressed, row indices ascending in each column); false if it
    /// is structurally or numerically singular. Reuses the analysis, and the pivots where
    /// they still serve, of the pattern analysed last if it holds A's entries.
    bool factorize(const SparseColMatrix& a);
    /// Solves A x = b with the last successful factorisation and one step of iterative
    /// refinement against A.
    VecX solve(const VecX& b) const;
    /// The same solve without the refinement, for a Newton correction or an error estimate:
    /// the iteration corrects what the solve leaves, and an estimate needs no more than
    /// its leading digits. Half the cost of solve().
    VecX solveWithoutRefinement(const VecX& b) const;
    /// KLU's cheap reciprocal condition estimate min|u_ii| / max|u_ii| (0 when singular or
    /// not factorised).
    double pivotRatio() const { return rcond_; }
    /// Hager–Higham estimate of the 1-norm condition number κ₁(A) (KLU's klu_condest, as
    /// MATLAB's condest); infinity when not factorised.
    double conditionEstimate() const;
    /// Numeric factorisations with a pivot search, and refactorisations with kept pivots.
    long factorizations() const { return factorizations_; }
    long refactorizations() const { return refactorizations_; }
    /// Symbolic analyses (patterns with entries outside the one analysed before).
    long analyses() const { return analyses_; }

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
    std::vector<int> outer_, inner_;  // the pattern analysed
    std::vector<double> values_;     // the matrix factorised on it: the refinement, the condition estimate
    double rcond_ = 0.0, rcondAtPivoting_ = 0.0;
    long factorizations_ = 0, refactorizations_ = 0, analyses_ = 0;
};

}  // namespace looplab
