#include "looplab/posing/JointPlacement.h"

#include "looplab/model/TriangleMesh.h"

#include <cmath>
#include <cstdio>

namespace looplab {

double distanceToShape(const VisualShape& shape, const Vec3& p) {
    const Vec3 x = shape.orientation.conjugate() * (p - shape.offset);
    switch (shape.kind) {
    case VisualShape::Kind::None: return -1.0;
    case VisualShape::Kind::Box: return (x.cwiseAbs() - 0.5 * shape.size).cwiseMax(0.0).norm();
    case VisualShape::Kind::Sphere: return std::max(0.0, x.norm() - shape.radius);
    case VisualShape::Kind::Cylinder: {
        const double radial = std::max(0.0, std::hypot(x.x(), x.y()) - shape.radius);
        const double axial = std::max(0.0, std::abs(x.z()) - 0.5 * shape.length);
        return std::hypot(radial, axial);
    }
    case VisualShape::Kind::Mesh: {
        // Near enough: the distance to the mesh's bounding box.
        Vec3 lower, upper;
        if (!meshBounds(shape.file, shape.scale, lower, upper)) return -1.0;
        return (x - x.cwiseMax(lower).cwiseMin(upper)).norm();
    }
    }
    return -1.0;
}

std::vector<DetachedJoint> detachedJoints(const Model& m, double tolerance) {
    const double limit = tolerance * m.lengthScale;
    std::vector<DetachedJoint> out;
    for (int ji = 0; ji < static_cast<int>(m.joints.size()); ++ji) {
        const Joint& j = m.joints[static_cast<size_t>(ji)];
        auto judge = [&](const BodyFrame& f) {
            const Body& b = m.body(f.body);
            if (!b.movesAsOneFrame()) return -1.0;
            return distanceToShape(b.shape, f.origin);
        };
        DetachedJoint d;
        d.joint = JointIndex(ji);
        d.name = j.name;
        d.distance1 = judge(j.frame1);
        d.distance2 = judge(j.frame2);
        const bool judged = d.distance1 >= 0.0 || d.distance2 >= 0.0;
        const bool away1 = d.distance1 < 0.0 || d.distance1 > limit;
        const bool away2 = d.distance2 < 0.0 || d.distance2 > limit;
        if (!judged || !away1 || !away2) continue;
        char buf[256];
        const double nearest = d.distance1 < 0.0 ? d.distance2
                               : d.distance2 < 0.0 ? d.distance1
                                                   : std::min(d.distance1, d.distance2);
        std::snprintf(buf, sizeof buf, "joint %s lies %.3g m away from the shapes of %s and %s: it acts "
                      "through empty space; move its point onto the links it connects",
                      j.name.c_str(), nearest, m.body(j.frame1.body).name.c_str(),
                      m.body(j.frame2.body).name.c_str());
        d.sentence = buf;
        out.push_back(d);
    }
    return out;
}

}  // namespace looplab
