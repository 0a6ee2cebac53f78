#include "workbench/SceneBuilder.h"

#include <cmath>

namespace looplab::ui {

std::vector<BodyVisual> sceneBodies(const Model& model)
{
    std::vector<BodyVisual> out;
    for (int b = 1; b < model.bodyCount(); ++b) {
        const Body& body = model.bodies[static_cast<size_t>(b)];
        out.push_back({body.name, body.shape});
    }
    return out;
}

std::vector<JointVisual> sceneJoints(const Model& model)
{
    std::vector<JointVisual> out;
    for (const Joint& joint : model.joints) {
        JointVisual v;
        v.name = joint.name;
        const BodyFrame& frame = joint.frame2.body != kGround ? joint.frame2 : joint.frame1;
        v.body = viewportBody(frame.body);
        v.localPoint = frame.origin;
        v.localAxis = frame.axes.col(2);
        switch (joint.type) {
        case JointType::Revolute: v.kind = JointVisual::Kind::Revolute; break;
        case JointType::Prismatic: v.kind = JointVisual::Kind::Prismatic; break;
        case JointType::Spherical: v.kind = JointVisual::Kind::Spherical; break;
        default: v.kind = JointVisual::Kind::Other; break;
        }
        out.push_back(v);
    }
    return out;
}

std::vector<SpringVisual> sceneSprings(const Model& model)
{
    std::vector<SpringVisual> out;
    for (const ForceElement& f : model.forces) {
        if (f.type != ForceType::SpringDamper)
            continue;
        out.push_back({viewportBody(f.point1.body), f.point1.origin, viewportBody(f.point2.body), f.point2.origin});
    }
    return out;
}

std::vector<Eigen::Isometry3d> scenePoses(const Model& model, const State& state)
{
    std::vector<Eigen::Isometry3d> poses;
    poses.reserve(static_cast<size_t>(model.movingBodyCount()));
    for (int b = 1; b < model.bodyCount(); ++b) {
        Eigen::Isometry3d pose = Eigen::Isometry3d::Identity();
        pose.linear() = bodyOrientation(model, state, BodyIndex(b)).toRotationMatrix();
        pose.translation() = bodyPosition(model, state, BodyIndex(b));
        poses.push_back(pose);
    }
    return poses;
}

VtkViewport::UpAxis upAxisForGravity(const Vec3& gravity)
{
    if (gravity.norm() == 0.0)
        return VtkViewport::UpAxis::Z;
    return std::abs(gravity.y()) >= std::abs(gravity.z()) && std::abs(gravity.y()) >= std::abs(gravity.x())
               ? VtkViewport::UpAxis::Y
               : VtkViewport::UpAxis::Z;
}

}  // namespace looplab::ui
