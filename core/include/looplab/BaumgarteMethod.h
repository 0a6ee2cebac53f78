#pragma once
// The augmented (multiplier) formulation with Baumgarte stabilisation:
//   [M  Φ_qᵀ] [v̇]   [f                        ]
//   [Φ_q  0 ] [λ ] = [γ − 2αΦ̇ − β²Φ           ]
// solved through the Schur complement Φ_q M⁻¹ Φ_qᵀ. With redundant constraints that
// matrix is singular; the method then uses the minimum-norm multipliers (and says so
// through redundantEquations()), and fails, naming the joints, only when the equations
// are inconsistent.

#include "looplab/ConstraintMethod.h"

namespace looplab {

class BaumgarteMethod final : public ConstraintMethod {
public:
    BaumgarteMethod(std::shared_ptr<const Model> model, const ConstraintMethodSettings& settings);
    const char* name() const override { return "baumgarte"; }
    MethodStatus evaluate(const State& state, MotionEvaluation& out) override;

    /// Number of equations found dependent in the last evaluation.
    int lastRankDeficiency() const { return deficiency_; }

private:
    std::shared_ptr<const Model> model_;
    ConstraintMethodSettings settings_;
    VecX rowScales_, colScales_;
    int deficiency_ = 0;
};

}  // namespace looplab
