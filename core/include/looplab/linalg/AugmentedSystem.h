#pragma once
// The sparse augmented (saddle-point) system of the constrained equations on the
// independent rows I of Φ_q, in scaled units (rows of Φ lengths, coordinates speeds):
//
//   [D_c A D_c          (D_r Φ_I D_c)ᵀ] [D_c⁻¹ x]   [D_c f]
//   [D_r Φ_I D_c               0      ] [D_r⁻¹ y] = [D_r g]
//
// with A the mass matrix (accelerations and multipliers) or an implicit integrator's
// iteration matrix M + (1 + α)(γhC + βh²K). Factorised by KLU, whose symbolic analysis and
// pivots are kept while the pattern stays the same, as it does from step to step
// (KluFactorization.h).

#include "looplab/linalg/SparseMatrix.h"
#include "looplab/common/Types.h"

#include "looplab/linalg/KluFactorization.h"

#include <vector>

namespace looplab {

/// The scaled augmented matrix above ((n + r) × (n + r), r = rows.size()).
SparseColMatrix scaledAugmentedMatrix(const SparseColMatrix& a, const SparseMatrix& jacobian,
                                      const std::vector<int>& rows, const VecX& rowScales, const VecX& colScales);

class AugmentedSolver {
public:
    /// Factorises the matrix; false if it is numerically singular.
    bool factorize(const SparseColMatrix& a);
    /// Solves with the last successful factorisation (refined once, KluFactorization.h).
    VecX solve(const VecX& b) const { return lu_.solve(b); }
    /// Without the refinement: for Newton corrections and error estimates.
    VecX solveWithoutRefinement(const VecX& b) const { return lu_.solveWithoutRefinement(b); }
    /// Numeric factorisations (with or without a pivot search) so far.
    long factorizations() const { return lu_.factorizations() + lu_.refactorizations(); }

private:
    KluFactorization lu_;
};

}  // namespace looplab
