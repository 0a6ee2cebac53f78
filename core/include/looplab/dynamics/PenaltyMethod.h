#pragma once
// Bayo's penalty formulation (Bayo, García de Jalón & Serna 1988):
//   (M + αΦ_qᵀΦ_q) v̇ = f − αΦ_qᵀ(−γ + 2ξωΦ̇ + ω²Φ),  λ = α(Φ̈ + 2ξωΦ̇ + ω²Φ),
// and its augmented-Lagrangian variant (Bayo & Ledesma 1996), which iterates the
// multipliers λ_{k+1} = λ_k + α(Φ̈ + 2ξωΦ̇ + ω²Φ) so that a moderate α suffices. The
// matrix M + αΦ_qᵀΦ_q stays positive definite with redundant constraints and at
// singular configurations, which is what these methods are known for. Large models
// (LinearAlgebra) factorise it sparse.

#include "looplab/dynamics/ConstraintMethod.h"
#include "looplab/linalg/SparseCholesky.h"

namespace looplab {

class PenaltyMethod final : public ConstraintMethod {
public:
    PenaltyMethod(std::shared_ptr<const Model> model, const ConstraintMethodSettings& settings,
                  bool augmented);
    const char* name() const override { return augmented_ ? "augmented-lagrangian" : "penalty"; }
    Status evaluate(const State& state, MotionEvaluation& out) override;

    /// Multiplier iterations used in the last evaluation (augmented variant).
    int lastIterations() const { return iterations_; }

private:
    std::shared_ptr<const Model> model_;
    ConstraintMethodSettings settings_;
    bool augmented_;
    VecX rowScales_, colScales_;
    bool sparse_ = false;
    ColMajorMatrix scaledMass_;  // M̃ = D_c M D_c, constant
    double meanMass_ = 1.0;      // mean diagonal of M̃: the unit of the penalty factor
    SparseCholesky sparseFactor_;
    VecX warmMultipliers_;  // scaled λ of the previous evaluation
    int iterations_ = 0;
};

}  // namespace looplab
