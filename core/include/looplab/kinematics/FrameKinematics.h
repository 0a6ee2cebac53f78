#pragma once
// Points and directions attached to bodies of any kind, as the constraint equations see
// them (the third item of BodyKind.h). For a global vector x attached to a body (a point
// of it, or a direction fixed in it) the body's kind gives its value, its rate ẋ, the part
// of ẍ that does not contain v̇ (the bias), its Jacobian with respect to the body's
// velocity slice, and, for the curvature of the constraints, how Jᵀw (w a fixed global
// vector) changes along the retraction. Joints only combine such vectors (differences,
// dot products, components), so each joint type's equations are written once and hold
// for frames on any kind of body.
//
// A joint connects two bodies, slot 0 (frame 1) and slot 1 (frame 2). A jet's Jacobian
// has the columns of slot 0's velocity slice followed by those of slot 1's: as many as
// the two slices hold (none for the ground).

#include "looplab/model/Model.h"
#include "looplab/bodies/RigidBodyCoordinates.h"
#include "looplab/model/State.h"

namespace looplab {

/// One body's motion at one state, computed once per evaluation and shared by every
/// vector attached to it.
struct BodyMotion {
    BodyKind kind = BodyKind::Ground;
    int sliceWidth = 0;  ///< size of its velocity slice: its columns in a jet
    // Rigid: orientation (body to global), centre of mass [m], its velocity [m/s] and the
    // angular velocity [rad/s], all global.
    Mat3 A = Mat3::Identity();
    Vec3 r = Vec3::Zero(), rdot = Vec3::Zero(), omega = Vec3::Zero();
    // Beam: its position and velocity slices (the frames of a joint pick a node in them;
    // a node's 6 columns are the jet's, sliceWidth == 6).
    const double* q = nullptr;
    const double* v = nullptr;
};

/// The motion of body b at state s (positions only if velocities is false).
BodyMotion bodyMotion(const Model& model, const State& s, BodyIndex b, bool velocities = true);

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
    int node[2] = {0, 0};  ///< beam bodies: the node each frame is attached to
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
    const JetSlots* slots = nullptr;
    // What the curvature needs, per slot. Rigid: the body-frame lever ℓ whose rotation
    // moves x (J's rotation block is −A ℓ̃; ℓ = s for a point, a for a direction, the
    // difference of the two for a difference).
    Vec3 lever[2];
};

/// The point with coordinates `local` in the frame of the body in `slot` (on a beam: the
/// node's position r_k; local is not used).
VectorJet attachedPoint(const JetSlots& slots, int slot, const Vec3& local, bool full);
/// The direction `local` (body frame) fixed in the body in `slot` (on a beam: local.x()
/// times the node's slope r_x,k, the only direction a cable node carries).
VectorJet attachedDirection(const JetSlots& slots, int slot, const Vec3& local, bool full);
/// Difference of two vectors attached to the same two bodies.
VectorJet operator-(const VectorJet& a, const VectorJet& b);

/// Where the columns of a frame's slot go in v: the body's velocity offset, plus 6 per node
/// before the frame's node on a beam.
int jetColumnStart(const Model& model, const BodyFrame& frame);
/// Columns of a frame's slot in a jet (0 ground, 6 rigid body or beam node).
int jetWidth(const Model& model, BodyIndex body);

/// Adds weight · ∂(Jᵀw)/∂δ at fixed w (rows and columns: the jet's columns; δ a
/// velocity-space increment applied by the retraction) to H. Rigid: ℓ̃ (Aᵀw)˜ on each
/// body's rotation block.
void addAttachedCurvature(const VectorJet& x, const Vec3& w, double weight, JetSquare& H);

}  // namespace looplab
