#pragma once
// Points and directions attached to bodies of any kind, as the constraint equations see
// them: each body's formulation fills the jets (bodies/FrameJets.h says what a jet holds);
// joints only combine such vectors (differences, dot products, components), so each joint
// type's equations are written once and hold for frames on any kind of body.

#include "looplab/bodies/FrameJets.h"
#include "looplab/model/Model.h"
#include "looplab/model/State.h"

namespace looplab {

/// The motion of body b at state s (positions only if velocities is false).
BodyMotion bodyMotion(const Model& model, const State& s, BodyIndex b, bool velocities = true);

/// The point with coordinates `local` in the frame of the body in `slot` (on a beam: the
/// node's position r_k; local is not used).
VectorJet attachedPoint(const JetSlots& pair, int slot, const Vec3& local, bool full);
/// The direction `local` (body frame) fixed in the body in `slot` (on a beam: local.x()
/// times the node's slope r_x,k, the only direction a cable node carries).
VectorJet attachedDirection(const JetSlots& pair, int slot, const Vec3& local, bool full);
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
