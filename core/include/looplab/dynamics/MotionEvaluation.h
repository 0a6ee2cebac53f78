#pragma once
// What the equations of motion give at one state: the accelerations and the multipliers.

#include "looplab/common/Types.h"

namespace looplab {

/// Accelerations and multipliers at one (q, v, t).
struct MotionEvaluation {
    /// Input: whether λ is wanted. The ODE right-hand side only needs v̇, and methods
    /// for which λ costs extra work skip it when this is false.
    bool computeMultipliers = true;
    /// v̇, in the model's velocity coordinates (rigid body: centre-of-mass acceleration in
    /// the global frame [m/s²], angular acceleration in the body frame [rad/s²]).
    VecX acceleration;
    /// λ, one per constraint equation (Model::equations order); the generalised
    /// constraint force on the bodies is −Φ_qᵀλ, so λ of a length row is a force [N] and of
    /// an orientation row a torque [N·m].
    VecX multipliers;
};

}  // namespace looplab
