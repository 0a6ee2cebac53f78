#include "looplab/scene/Scene.h"

#include "looplab/scene/FlexibleScene.h"
#include "scene/CouplerOutlines.h"

#include "looplab/model/Model.h"
#include "looplab/model/State.h"

namespace looplab {

namespace {

SceneJoint::Kind markerKind(JointType type) {
    switch (type) {
    case JointType::Revolute: return SceneJoint::Kind::Revolute;
    case JointType::Prismatic: return SceneJoint::Kind::Prismatic;
    case JointType::Spherical: return SceneJoint::Kind::Spherical;
    default: return SceneJoint::Kind::Other;
    }
}

// Global position of a joint frame's origin; on a beam or solid node, the node's position.
Vec3 framePoint(const Model& model, const State& state, const BodyFrame& frame) {
    const Body& on = model.body(frame.body);
    if (on.nodeSize() > 0) return state.q.segment<3>(on.slice.positionOffset + on.nodeSize() * frame.node);
    return pointPosition(model, state, frame.body, frame.origin);
}

}  // namespace

Scene buildScene(const Model& model, const State& state) {
    Scene scene;
    scene.t = state.t;
    scene.bodies.reserve(static_cast<size_t>(model.movingBodyCount()));
    for (int i = 0; i < model.bodyCount(); ++i) {
        const BodyIndex b(i);
        if (b == kGround)
            continue;
        const Body& body = model.body(b);
        if (body.beam() || body.solid()) {
            // A flexible member is drawn by its own geometry, not a solid placed by a pose.
            scene.bodies.push_back({body.name, b, VisualShape{}, bodyPosition(model, state, b), bodyOrientation(model, state, b)});
            if (body.beam())
                scene.beams.push_back(sceneBeam(model, state, b));
            else
                scene.surfaces.push_back(sceneSurface(model, state, b));
            continue;
        }
        scene.bodies.push_back({body.name, b, body.shape, bodyPosition(model, state, b),
                                bodyOrientation(model, state, b)});
    }

    scene.joints.reserve(model.joints.size());
    for (const Joint& joint : model.joints) {
        // The marker rides on a moving body where there is one, so it moves with the
        // part the user sees turning or sliding.
        const BodyFrame& frame = joint.frame2.body != kGround ? joint.frame2 : joint.frame1;
        SceneJoint marker;
        marker.name = joint.name;
        marker.kind = markerKind(joint.type);
        marker.body = frame.body;
        const Body& on = model.body(frame.body);
        marker.point = framePoint(model, state, frame);
        if (on.nodeSize() > 0) {
            // A node has no frame of its own (frame.axes is unused): the marker is turned
            // as the joint frame on the other side, which for a hinge on a beam node is the
            // rigid body's (or the ground's) frame 1 with the hinge axis as its z.
            const BodyFrame& other = &frame == &joint.frame2 ? joint.frame1 : joint.frame2;
            marker.orientation = model.body(other.body).nodeSize() > 0
                                     ? Quat::Identity()
                                     : (bodyOrientation(model, state, other.body) * Quat(other.axes)).normalized();
        } else {
            marker.orientation = (bodyOrientation(model, state, frame.body) * Quat(frame.axes)).normalized();
        }
        scene.joints.push_back(std::move(marker));
        if (joint.type == JointType::Distance)
            scene.rods.push_back({joint.name, framePoint(model, state, joint.frame1),
                                  framePoint(model, state, joint.frame2)});
    }

    for (const ForceElement& force : model.forces) {
        if (force.type != ForceType::SpringDamper)
            continue;
        scene.springs.push_back({force.name, pointPosition(model, state, force.point1.body, force.point1.origin),
                                 pointPosition(model, state, force.point2.body, force.point2.origin)});
    }
    for (const Coupler& coupler : model.couplers) scene.couplers.push_back(couplerOutlines(model, state, coupler));
    return scene;
}

int sceneBodyIndex(BodyIndex b) {
    // buildScene() lists every body after the ground, in order.
    return b == kGround || !b.valid() ? -1 : b.value() - 1;
}

}  // namespace looplab
