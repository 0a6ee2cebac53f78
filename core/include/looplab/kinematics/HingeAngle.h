#pragma once
// The angle of a hinge between a rigid body (or the ground) and a beam node (NodeJoints.h)
// and its derivatives, for the hinge's drivers (Constraints.cpp) and rotational
// spring-dampers (Dynamics.cpp, ForceDerivatives.cpp). It is the angle of the node's slope
// about the rigid frame's z axis from its x axis, φ = atan2(y·r_x, x·r_x), which does not
// depend on the slope's length; the joint's angle θ (body 2 relative to body 1, as for any
// revolute) is σφ, σ = +1 when the node is body 2 and −1 when it is body 1.

#include "looplab/kinematics/FrameKinematics.h"
#include "looplab/kinematics/NodeJoints.h"

#include <vector>

namespace looplab {

/// The hinge angle φ at one state, with what the equations of motion and their
/// linearisation need, on the jet's columns (frame 1's slot, then frame 2's; JetSlots).
struct HingeAngleJet {
    double sign = 1.0;   ///< σ: the joint's angle θ = σφ
    double value = 0.0;  ///< φ = atan2(y·r_x, x·r_x) [rad]
    double rate = 0.0;   ///< φ̇ = ∇φ v [rad/s]
    double bias = 0.0;   ///< φ̈ less its v̇ part [rad/s²]
    JetRow gradient;     ///< ∇φ = ∂φ/∂v
    JetSquare curvature; ///< ∂(∇φ)_i/∂δ_k along the retraction (only if asked for)
};

/// The hinge angle of a node hinge (isNodeHinge) whose slots are set; values only if full
/// is false, the curvature only if asked for.
HingeAngleJet hingeAngleJet(const Joint& joint, const JetSlots& pair, bool full, bool curvature);

/// The same at state s, for the forces of a rotational spring-damper on the hinge;
/// `columns` receives the velocity coordinate of each of the jet's columns.
HingeAngleJet hingeAngleAt(const Model& model, const State& s, const Joint& joint, bool curvature,
                           std::vector<int>& columns);

}  // namespace looplab
