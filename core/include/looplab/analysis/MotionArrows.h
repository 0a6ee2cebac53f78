#pragma once
// The arrows a viewer draws over a mechanism at one state: velocity and acceleration of
// chosen body points, each joint's reaction force and torque, and the applied body
// forces and torques. Each arrow keeps its physical value and the vector to draw, the
// value times the scale of its kind (metres of arrow per unit of the quantity), so the
// drawing and a legend ("1 m/s = 0.2 m") agree by construction.

#include "looplab/kinematics/PointTrace.h"
#include "looplab/model/Status.h"
#include "looplab/common/Types.h"

#include <string>
#include <vector>

namespace looplab {

struct Model;
struct State;
struct JointReaction;

enum class ArrowKind { Velocity, Acceleration, ReactionForce, ReactionTorque, AppliedForce, AppliedTorque };
inline constexpr int kArrowKindCount = 6;

/// Name of a kind for menus and legends ("velocity", "reaction force", ...) and the SI
/// unit of its value ("m/s", "m/s²", "N", "N·m").
const char* arrowKindName(ArrowKind kind);
const char* arrowKindUnit(ArrowKind kind);

/// Metres of arrow per unit of each kind's quantity.
struct ArrowScale {
    double velocity = 0.1;      ///< m per m/s
    double acceleration = 0.01; ///< m per m/s²
    double force = 0.01;        ///< m per N
    double torque = 0.1;        ///< m per N·m
    double of(ArrowKind kind) const;
};

/// Which arrows to make.
struct ArrowRequest {
    bool shown[kArrowKindCount] = {false, false, false, false, false, false};
    /// Points whose velocity and acceleration are drawn; empty: every rigid body's origin
    /// (its centre of mass).
    std::vector<TracedPoint> points;
    bool wants(ArrowKind kind) const { return shown[static_cast<int>(kind)]; }
    void set(ArrowKind kind, bool on) { shown[static_cast<int>(kind)] = on; }
};

struct MotionArrow {
    ArrowKind kind = ArrowKind::Velocity;
    std::string label;            ///< the point, joint or force it belongs to
    Vec3 origin = Vec3::Zero();   ///< where it starts, global [m]
    Vec3 value = Vec3::Zero();    ///< the quantity, global axes, SI units
    Vec3 drawn = Vec3::Zero();    ///< value × scale [m]
};

/// The requested arrows at s. `acceleration` is v̇ at s (may be empty: no acceleration
/// arrows), `reactions` the joints' reactions at s (model order; may be empty: no
/// reaction arrows). A reaction is drawn at its joint point as the force and torque on
/// the joint's second body. Fails, naming it, if a point's body does not exist or is
/// flexible; the arrows made so far are kept.
Status motionArrows(const Model& model, const State& s, const VecX& acceleration,
                    const std::vector<JointReaction>& reactions, const ArrowRequest& request,
                    const ArrowScale& scale, std::vector<MotionArrow>* out);

}  // namespace looplab
