#include "looplab/kinematics/NodeJoints.h"

#include <cmath>

namespace looplab {

BeamNodeSides beamNodeSides(AttachedFrame frame1, AttachedFrame frame2) {
    const bool node1 = frame1 == AttachedFrame::PointAndSlope, node2 = frame2 == AttachedFrame::PointAndSlope;
    if (node1 && node2) return BeamNodeSides::BothNodes;
    // A cable node and a node without a direction are only ever pinned.
    if (frame1 == AttachedFrame::PointOnly || frame2 == AttachedFrame::PointOnly) return BeamNodeSides::None;
    if (node2) return BeamNodeSides::NodeIsFrame2;
    if (node1) return BeamNodeSides::NodeIsFrame1;
    return BeamNodeSides::None;
}

BeamNodeSides beamNodeSides(const Model& model, const Joint& joint) {
    return beamNodeSides(model.body(joint.frame1.body).attachedFrame(), model.body(joint.frame2.body).attachedFrame());
}

bool isNodeHinge(const Model& model, const Joint& joint) {
    const BeamNodeSides sides = beamNodeSides(model, joint);
    return joint.type == JointType::Revolute &&
           (sides == BeamNodeSides::NodeIsFrame1 || sides == BeamNodeSides::NodeIsFrame2);
}

bool isBeamToBeamRevolute(const Model& model, const Joint& joint) {
    return joint.type == JointType::Revolute && beamNodeSides(model, joint) == BeamNodeSides::BothNodes;
}

std::vector<JointNote> beamNodeJointNotes(const Model& model) {
    std::vector<JointNote> notes;
    for (const Joint& j : model.joints)
        if (isBeamToBeamRevolute(model, j))
            notes.push_back({j.name, "revolute joint '" + j.name +
                                         "' joins two beam nodes: it holds their positions together (a pin) "
                                         "and nothing else, since a cable node carries no axis; the beams stay "
                                         "in their plane only if other joints (hinges to rigid bodies or the "
                                         "ground) keep them there"});
    return notes;
}

}  // namespace looplab
