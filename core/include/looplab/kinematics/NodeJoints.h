#pragma once
// Joints on beam nodes (ANCF cable nodes: position r and slope r_x, no torsion), as the
// constraint equations, the drivers and the rotational spring-dampers see them.
//
// A pin (spherical) holds a node's position on either side. A hinge (revolute) and a clamp
// (fixed) join a node to a rigid body or the ground, the node named as body1 or body2: the
// rigid side carries the frame (its z axis the hinge axis, its x axis along the node's
// initial slope) and the node its slope, in either order. A revolute between two beam
// nodes is a pin: a cable node carries no axis (no torsion), and two slopes can always be
// turned into each other about their common normal, so "both slopes perpendicular to a
// moving axis" adds no equation; the axis is held by whatever keeps the beams in their
// plane (docs/methods.md, "Joints on beam nodes").
//
// A hinge's angle and its derivatives: HingeAngle.h.

#include "looplab/bodies/FrameJets.h"
#include "looplab/model/Model.h"

#include <string>
#include <vector>

namespace looplab {

/// Which of a joint's frames sit on beam nodes.
enum class BeamNodeSides {
    None,          ///< neither (solid nodes are pins and need nothing of this)
    NodeIsFrame2,  ///< rigid body or ground as body1, node as body2
    NodeIsFrame1,  ///< node as body1, rigid body or ground as body2
    BothNodes      ///< two beam nodes
};

BeamNodeSides beamNodeSides(AttachedFrame frame1, AttachedFrame frame2);
BeamNodeSides beamNodeSides(const Model& model, const Joint& joint);

/// Whether a body's frames are cable nodes: a position and a slope (AttachedFrame).
inline bool carriesSlope(const BodyMotion& k) { return k.formulation->attachedFrame() == AttachedFrame::PointAndSlope; }

/// A revolute between a rigid body (or the ground) and a beam node: one that has an angle.
bool isNodeHinge(const Model& model, const Joint& joint);
/// A revolute between two beam nodes: a pin (see above).
bool isBeamToBeamRevolute(const Model& model, const Joint& joint);

/// What `looplab-cli check` says of joints on beam nodes that hold less than their type
/// says (a revolute between two beam nodes is a pin), one sentence per joint.
struct JointNote {
    std::string joint;
    std::string message;
};
std::vector<JointNote> beamNodeJointNotes(const Model& model);

}  // namespace looplab
