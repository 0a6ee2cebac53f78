#pragma once
// The augmented (multiplier) formulation with Baumgarte stabilisation:
//   [M  Φ_qᵀ] [v̇]   [f                        ]
//   [Φ_q  0 ] [λ ] = [γ − 2αΦ̇ − β²Φ           ]
// solved through the Schur complement Φ_q M⁻¹ Φ_qᵀ restricted to the equations that the
// rank-revealing factorisation of Φ_q (ConstraintSpaces) finds independent, by Cholesky
// factors taken from a QR of M^{-1/2} Φ_qᵀ (no squaring of the condition number). The
// multipliers reported are the minimum-norm ones over all equations; the method fails,
// naming the joints, only when the redundant equations are inconsistent. Large models
// (LinearAlgebra, the same switch as the projection method) take the sparse path:
// SuiteSparseQR for the rank, a sparse Cholesky of the Schur complement (IndependentRows),
// and where that squares the condition beyond what refinement recovers (clamped beams), a
// sparse LU of the augmented system itself on the independent rows (AugmentedSystem.h).

#include "looplab/dynamics/ConstraintMethod.h"
#include "looplab/dynamics/IndependentRows.h"
#include "looplab/linalg/AugmentedSystem.h"

#include <vector>

namespace looplab {

class BaumgarteMethod final : public ConstraintMethod {
public:
    BaumgarteMethod(std::shared_ptr<const Model> model, const ConstraintMethodSettings& settings);
    const char* name() const override { return "baumgarte"; }
    Status evaluate(const State& state, MotionEvaluation& out) override;

    /// Number of equations found dependent in the last evaluation.
    int lastRankDeficiency() const { return deficiency_; }

private:
    Status solveDense(const ConstraintValues& cv, const VecX& f, const VecX& target, double rankTolerance,
                      MotionEvaluation& out);
    Status solveSparse(const State& s, const ConstraintValues& cv, const VecX& f, const VecX& target,
                       double rankTolerance, MotionEvaluation& out);
    Status solveAugmented(const State& s, const ConstraintValues& cv, const VecX& f, const VecX& target,
                          const std::vector<int>& rows, VecX& acceleration);

    std::shared_ptr<const Model> model_;
    ConstraintMethodSettings settings_;
    VecX rowScales_, colScales_;
    ConstraintSpaces spaces_;  // rank decision on the Jacobian, kept between calls
    int deficiency_ = 0;
    bool sparse_ = false;
    IndependentRows rows_;       // sparse path: the Schur complement of the independent rows
    std::vector<int> selected_;  // the rows rows_ was set up for
    SparseColMatrix mass_;       // sparse path's fallback: M (constant), formed at its first use
    AugmentedSolver augmented_;  // and the LU of [M Φ_Iᵀ; Φ_I 0]
};

}  // namespace looplab
