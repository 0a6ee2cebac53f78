#pragma once
// The numbers that change while a mechanism moves: time, positions, velocities.
// Layout per moving body (see Model): q = [r(3), quaternion w x y z (4)],
// v = [ṙ global (3), ω body frame (3)].

#include "looplab/Model.h"
#include "looplab/Types.h"

namespace looplab {

struct State {
    double t = 0.0;
    VecX q;
    VecX v;
};

/// The initial state written in the model document (before assembly).
State initialState(const Model& model);

/// Centre-of-mass position of body b, global frame.
Vec3 bodyPosition(const State& s, BodyIndex b);
/// Orientation of body b (body to global), normalised.
Quat bodyOrientation(const State& s, BodyIndex b);
/// Centre-of-mass velocity of body b, global frame.
Vec3 bodyVelocity(const State& s, BodyIndex b);
/// Angular velocity of body b in its own frame.
Vec3 bodyAngularVelocityLocal(const State& s, BodyIndex b);
/// Angular velocity of body b in the global frame.
Vec3 bodyAngularVelocity(const State& s, BodyIndex b);

/// q̇ from v: ṙ = v_trans, ṗ = ½ p ⊗ (0, ω_body).
VecX positionDerivative(const State& s);

/// Moves the configuration by the velocity-space increment dv (translation added,
/// orientation rotated by exp(dω) in the body frame): the exact map that the constraint
/// Jacobian is the derivative of.
void retract(VecX& q, const VecX& dv);

/// Brings every quaternion back to unit length.
void normalizeQuaternions(VecX& q);

/// Global position of a point given in body b's frame.
Vec3 pointPosition(const State& s, BodyIndex b, const Vec3& localPoint);
/// Global velocity of a point given in body b's frame.
Vec3 pointVelocity(const State& s, BodyIndex b, const Vec3& localPoint);

/// Relative rotation angle of a revolute or cylindrical joint in (−π, π]: the angle of
/// frame 2's x axis from frame 1's x axis about frame 1's z axis.
double jointAngle(const Model& model, const State& s, JointIndex j);
/// Relative displacement of a prismatic or cylindrical joint along frame 1's z axis.
double jointDisplacement(const Model& model, const State& s, JointIndex j);
/// Rates of the two coordinates above.
double jointAngleRate(const Model& model, const State& s, JointIndex j);
double jointDisplacementRate(const Model& model, const State& s, JointIndex j);

}  // namespace looplab
