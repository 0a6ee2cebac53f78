#pragma once
// Joint reactions and driver efforts from the multipliers: the constraint force on the
// bodies is −Φ_qᵀλ, and each joint's share of it is the force one body exerts on the
// other through that joint.

#include "looplab/kinematics/Constraints.h"
#include "looplab/model/Model.h"
#include "looplab/model/State.h"

#include <cmath>
#include <string>
#include <vector>

namespace looplab {

/// Reaction of one joint: the force and torque that body 1 exerts on body 2 through the
/// joint, reduced to the joint point (origin of frame 2). Body 2 receives +force; body 1,
/// by Newton's third law, −force.
struct JointReaction {
    std::string joint;
    Vec3 forceGlobal = Vec3::Zero();   ///< [N], global axes
    Vec3 torqueGlobal = Vec3::Zero();  ///< [N·m], global axes, about the joint point
    Vec3 forceJoint = Vec3::Zero();    ///< [N], in the axes of joint frame 1 (of the rigid side
                                       ///< when a hinge or clamp names a beam node as body1)
    Vec3 torqueJoint = Vec3::Zero();   ///< [N·m], in the axes of joint frame 1
    /// Statically indeterminate: the joint shares a redundant set of equations, and the
    /// reported values are the minimum-norm split among them.
    bool indeterminate = false;
};

/// Effort of a driver on body 2 of its joint: torque [N·m] about the joint axis
/// (revolute) or force [N] along it (prismatic), positive in the direction the driven
/// coordinate increases.
struct DriverEffort {
    std::string driver;
    double value = 0.0;
};

/// What a coupler transmits: the generalised force it exerts on its first joint's
/// coordinate (the wheel's torque about its axis [N·m], or the force along a slide [N]),
/// −λ ∂Φ/∂x₁, positive in the direction the coordinate increases; and for a gear pair,
/// rack and pinion or belt that torque at the first wheel's pitch circle [N] (the tangential
/// tooth force, or the difference of the belt's span tensions; NaN for a linear coupler).
/// The force between the touching surfaces along their normal [N], and its pressure angle
/// [rad]: a cam's contact force, positive while the cam pushes the follower (negative: the
/// constraint holds a follower that would leave the cam); a gear pair's or rack's tooth
/// force along the line of action, |pitch force|/cos φ with φ the teeth's pressure angle;
/// NaN for belts and linear couplers.
struct CouplerEffort {
    std::string coupler;
    double value = 0.0;
    double pitchForce = 0.0;
    double contactForce = NAN;
    double pressureAngle = NAN;
};

/// One per coupler, model order, from the multipliers λ at s.
std::vector<CouplerEffort> couplerEfforts(const Model& model, const State& s, const VecX& multipliers);

/// Reactions and driver efforts at s from the multipliers λ, with the constraint
/// Jacobian already evaluated at s. `indeterminateEquations[i]` marks equation i as part
/// of a redundant set (ConstraintSpaces::indeterminateEquations()).
void computeReactions(const Model& model, const State& s, const SparseMatrix& jacobian,
                      const VecX& multipliers, const std::vector<bool>& indeterminateEquations,
                      std::vector<JointReaction>& reactions, std::vector<DriverEffort>& drivers);

}  // namespace looplab
