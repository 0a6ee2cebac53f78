#pragma once
// Repeated eigenvalues by deflation, shared by the Krylov paths of the shift-invert
// iteration (ShiftInvertIteration.cpp; the third, for nearly the whole tangent space, has
// every pair from one Rayleigh-Ritz problem). A Krylov run from one start vector holds one vector
// of each eigenspace; a second copy of a repeated eigenvalue (the two bending planes of a
// square section) enters only through rounding, and was missed on the 32-element cantilever:
// 16.7, 104.7, 293, 575 Hz instead of 16.7, 16.7, 104.7, 104.7. So the operator is deflated
// by the vectors found and searched again for a value larger than the smallest one kept.

#include "analysis/modes/ModesWork.h"

namespace looplab::modes {

/// x ↦ (I − R Lᵀ) A (I − L Rᵀ) x for the operator A: with L = R = Z orthonormal, A deflated
/// by span Z; with L = MZ, R = Z (ZᵀMZ = I), the M-orthogonal deflation of an M-self-adjoint
/// A that is handed w = Mx. L and R are read at each application, so a caller may change them
/// between runs.
FunctionOp deflatedOperator(const FunctionOp& op, const MatX& L, const MatX& R);

/// Calls `round(start)` up to `rounds` times, each with a random start vector of its own:
/// Spectra's default one is the same in every run, and the deflation has just removed its
/// component in the eigenspace that the first run found from it. Stops when `round` says
/// false (its search found nothing larger, or failed).
void deflationRounds(int rounds, Eigen::Index size, const std::function<bool(const VecX& start)>& round);

}  // namespace looplab::modes
