#pragma once
// Points and directions attached to bodies, as the constraint equations see them: the
// types each kind of body fills (BodyFormulation::attach) and the joints combine
// (kinematics/FrameKinematics.h). For a global vector x attached to a body (a point of it,
// or a direction fixed in it) the body's kind gives its value, its rate ẋ, the part of ẍ
// that does not contain v̇ (the bias), its Jacobian with respect to the body's velocity
// slice, and, for the curvature of the constraints, how Jᵀw (w a fixed global vector)
// changes along the retraction.
//
// A joint connects two bodies, slot 0 (frame 1) and slot 1 (frame 2). A jet's Jacobian
// has the columns of slot 0's velocity slice followed by those of slot 1's: as many as
// the two slices hold (none for the ground; a mesh node's own numbers on a mesh).

#include "looplab/bodies/rigid/RigidBodyCoordinates.h"
#include "looplab/common/Types.h"

namespace looplab {

class BodyFormulation;

/// One body's motion at one state, computed once per evaluation and shared by every
/// vector attached to it.
struct BodyMotion {
    const BodyFormulation* formulation = nullptr;  ///< the body's kind, which fills and reads the rest
    int sliceWidth = 0;  ///< its columns in a jet
    // A body with a frame of its own (rigid): orientation (body to global), origin [m],
    // its velocity [m/s] and the angular velocity [rad/s], all global.
    Mat3 A = Mat3::Identity();
    Vec3 r = Vec3::Zero(), rdot = Vec3::Zero(), omega = Vec3::Zero();
    // A mesh: its position and velocity slices (the frames of a joint pick a node in them).
    const double* q = nullptr;
    const double* v = nullptr;
};

/// Columns a jet can have: two bodies of the widest kind (rigid, 6 velocity numbers; a
/// beam node's 6 coordinates).
inline constexpr int kMaxJetColumns = 2 * rigid::kVelocitySize;

using JetRows = Eigen::Matrix<double, 3, Eigen::Dynamic, Eigen::ColMajor, 3, kMaxJetColumns>;
using JetRow = Eigen::Matrix<double, 1, Eigen::Dynamic, Eigen::RowMajor, 1, kMaxJetColumns>;
using JetSquare = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::ColMajor,
                                kMaxJetColumns, kMaxJetColumns>;

/// The two bodies of a joint.
struct JetSlots {
    const BodyMotion* body[2];
    int node[2] = {0, 0};  ///< mesh bodies: the node each frame is attached to
    int columns() const { return body[0]->sliceWidth + body[1]->sliceWidth; }
    /// First jet column of a slot.
    int offset(int slot) const { return slot == 0 ? 0 : body[0]->sliceWidth; }
};

/// A global vector attached to the joint's bodies: value [m or 1], rate (per s), bias
/// (per s²: ẍ less its v̇ part) and J = ∂x/∂v on the jet's columns. Only the value is set
/// in a position-only evaluation (full == false); the other members are then left
/// uninitialised (zeroing them cost more than the evaluation itself) and never read.
struct VectorJet {
    bool full = true;
    Vec3 value, rate, bias;
    JetRows J;
    const JetSlots* twoBodies = nullptr;  ///< the joint's two bodies (not named slots: a Qt keyword)
    // What the curvature needs, per slot. Rigid: the body-frame lever ℓ whose rotation
    // moves x (J's rotation block is −A ℓ̃; ℓ = s for a point, a for a direction, the
    // difference of the two for a difference).
    Vec3 lever[2];
};

}  // namespace looplab
