#pragma once
// Position, velocity and acceleration of a point fixed on a body, the quantities the
// workbench draws as arrows and plots, and the command line and tests read without a
// window. The acceleration needs v̇ from the equations of motion (a frame's
// SimulationFrame::acceleration, or Simulator::evaluateFrame at a stored state).

#include "looplab/model/Status.h"
#include "looplab/common/Types.h"

namespace looplab {

struct Model;
struct State;

/// Motion of one body point, global frame.
struct PointMotion {
    Vec3 position = Vec3::Zero();      ///< [m]
    Vec3 velocity = Vec3::Zero();      ///< [m/s]
    Vec3 acceleration = Vec3::Zero();  ///< [m/s²]; zero if no v̇ was given
    Vec3 angularVelocity = Vec3::Zero();      ///< of the body [rad/s], global axes
    Vec3 angularAcceleration = Vec3::Zero();  ///< of the body [rad/s²], global axes
};

/// Motion of the point `local` (body frame, from the body's origin [m]) of body `b` at
/// `s`. `acceleration` is v̇ in the model's velocity layout; empty for position and
/// velocity only. Rigid bodies and the ground: a = a_c + α × ρ + ω × (ω × ρ), ρ = A·local.
/// Fails, naming the body, for a beam or solid body (their points are nodes, not a
/// rigid frame) or a v̇ of the wrong size.
Status pointMotion(const Model& model, const State& s, const VecX& acceleration, BodyIndex b,
                   const Vec3& local, PointMotion* out);

}  // namespace looplab
