#pragma once
// The numbers that change while a mechanism moves: time, positions, velocities. Each body
// owns a slice of q and of v (Model::layOutCoordinates); what the numbers mean is its
// kind's business (BodyFormulation.h), so everything here takes the Model and asks each
// body's formulation.

#include "looplab/model/Model.h"
#include "looplab/common/Types.h"

namespace looplab {

struct State {
    double t = 0.0;
    VecX q;
    VecX v;
};

/// The initial state the bodies were compiled with (before assembly).
State initialState(const Model& model);

/// Position of body b's frame origin (a rigid body's centre of mass), global frame [m].
Vec3 bodyPosition(const Model& model, const State& s, BodyIndex b);
/// Orientation of body b (body to global), normalised.
Quat bodyOrientation(const Model& model, const State& s, BodyIndex b);
/// Velocity of body b's frame origin, global frame [m/s].
Vec3 bodyVelocity(const Model& model, const State& s, BodyIndex b);
/// Angular velocity of body b in its own frame [rad/s].
Vec3 bodyAngularVelocityLocal(const Model& model, const State& s, BodyIndex b);
/// Angular velocity of body b in the global frame [rad/s].
Vec3 bodyAngularVelocity(const Model& model, const State& s, BodyIndex b);

/// q̇ from v, body by body (rigid: ṙ = v_trans, ṗ = ½ p ⊗ (0, ω_body)).
VecX positionDerivative(const Model& model, const State& s);

/// Moves the configuration by the velocity-space increment dv (rigid: translation added,
/// orientation rotated by exp(dω) in the body frame): the exact map that the constraint
/// Jacobian is the derivative of.
void retract(const Model& model, VecX& q, const VecX& dv);

/// Re-normalises the redundant position numbers of every body (rigid: unit quaternions).
void normalizePositions(const Model& model, VecX& q);

/// Global position of a point given in body b's frame [m].
Vec3 pointPosition(const Model& model, const State& s, BodyIndex b, const Vec3& localPoint);
/// Global velocity of a point given in body b's frame [m/s].
Vec3 pointVelocity(const Model& model, const State& s, BodyIndex b, const Vec3& localPoint);

/// Relative rotation angle of a revolute or cylindrical joint in (−π, π]: the angle of
/// frame 2's x axis from frame 1's x axis about frame 1's z axis. A hinge between a rigid
/// body (or the ground) and a beam node measures the node's slope in the rigid frame:
/// φ = atan2(y·r_x, x·r_x), and the angle is φ when the node is body 2, −φ when it is
/// body 1 (NodeJoints.h). A revolute between two beam nodes has no angle (a pin).
double jointAngle(const Model& model, const State& s, JointIndex j);
/// Relative displacement of a prismatic or cylindrical joint along frame 1's z axis.
double jointDisplacement(const Model& model, const State& s, JointIndex j);
/// Rates of the two coordinates above.
double jointAngleRate(const Model& model, const State& s, JointIndex j);
double jointDisplacementRate(const Model& model, const State& s, JointIndex j);

}  // namespace looplab
