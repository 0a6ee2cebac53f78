// MJCF and URDF from a model at a state. Both formats describe a tree; the joints of a
// spanning tree from the ground (those the format has) become its joints and the rest close
// loops. Numbers are written with 17 significant digits, so that reading the file back gives
// the same doubles.
#include "looplab/exchange/ModelExport.h"

#include "ImportFrames.h"

#include "looplab/model/ModelDocument.h"

#include <deque>
#include <functional>
#include <iomanip>
#include <set>
#include <sstream>

namespace looplab {

namespace {

using Pose = exchange::Transform;

std::string numbers(std::initializer_list<double> values) {
    std::ostringstream s;
    s << std::setprecision(17);
    bool first = true;
    for (double v : values) {
        s << (first ? "" : " ") << v;
        first = false;
    }
    return s.str();
}
std::string vec(const Vec3& v) { return numbers({v.x(), v.y(), v.z()}); }
std::string quat(const Quat& q) { return numbers({q.w(), q.x(), q.y(), q.z()}); }

std::string escaped(const std::string& s) {
    std::string out;
    for (char c : s) {
        switch (c) {
            case '&': out += "&amp;"; break;
            case '<': out += "&lt;"; break;
            case '>': out += "&gt;"; break;
            case '"': out += "&quot;"; break;
            default: out += c;
        }
    }
    return out;
}

// Each body's tree joint (into it from its parent) and the joints left to close loops.
struct SpanningTree {
    std::vector<int> parentJoint;  // per body; -1: none (the ground, or a body left free)
    std::vector<int> parentBody;
    std::vector<std::vector<int>> children;
    std::vector<int> closures;
    std::vector<int> order;  // bodies, parents before children
};

SpanningTree spanningTree(const Model& model, const std::function<bool(JointType)>& treeType) {
    const int n = model.bodyCount();
    SpanningTree t;
    t.parentJoint.assign(size_t(n), -1);
    t.parentBody.assign(size_t(n), -1);
    t.children.assign(size_t(n), {});
    std::vector<bool> reached(size_t(n), false), used(model.joints.size(), false);
    std::deque<int> queue{0};
    reached[0] = true;
    while (!queue.empty()) {
        const int b = queue.front();
        queue.pop_front();
        t.order.push_back(b);
        for (size_t j = 0; j < model.joints.size(); ++j) {
            const Joint& joint = model.joints[j];
            if (used[j] || !treeType(joint.type)) continue;
            const int b1 = joint.frame1.body.value(), b2 = joint.frame2.body.value();
            const int other = b1 == b ? b2 : b2 == b ? b1 : -1;
            if (other < 0 || reached[size_t(other)]) continue;
            used[j] = true;
            reached[size_t(other)] = true;
            t.parentJoint[size_t(other)] = int(j);
            t.parentBody[size_t(other)] = b;
            t.children[size_t(b)].push_back(other);
            queue.push_back(other);
        }
    }
    for (int b = 1; b < n; ++b)
        if (!reached[size_t(b)]) {  // free bodies, and those held only by other kinds of joints
            t.parentBody[size_t(b)] = 0;
            t.children[0].push_back(b);
            t.order.push_back(b);
        }
    for (size_t j = 0; j < model.joints.size(); ++j)
        if (!used[j]) t.closures.push_back(int(j));
    return t;
}

Pose bodyPose(const Model& model, const State& s, int b) {
    if (b == 0) return {};
    return {bodyPosition(model, s, BodyIndex(b)), bodyOrientation(model, s, BodyIndex(b))};
}

// A joint frame (origin and axes on its body) in global coordinates at the state.
Pose jointFrame(const Model& model, const State& s, const BodyFrame& f) {
    return bodyPose(model, s, f.body.value()) * Pose{f.origin, Quat(f.axes).normalized()};
}

// A joint's limits as MJCF's range, in radians as the file's compiler says; empty without
// limits.
std::string rangeOf(const Joint& joint) {
    if (!joint.limits) return "";
    return " limited=\"true\" range=\"" + numbers({(*joint.limits)[0], (*joint.limits)[1]}) + "\"";
}

std::string refusal(const Model& model) {
    for (const Body& b : model.bodies)
        if (!b.formulation->hasBodyFrame())
            return "'" + b.name + "' is a flexible body: MJCF and URDF describe rigid bodies only";
    return {};
}

void reportCommon(const Model& model, const State& state, std::vector<std::string>& report, const char* format) {
    if (state.v.size() > 0 && state.v.lpNorm<Eigen::Infinity>() > 0.0)
        report.push_back(std::string("initial velocities not exported: ") + format +
                         " starts every body at rest in the written configuration");
    if (!model.drivers.empty())
        report.push_back(std::string("drivers not exported (") + format +
                         " has motors, not prescribed motions): " + std::to_string(model.drivers.size()));
    if (!model.couplers.empty())
        report.push_back("couplers (gears, cams, belts) not exported: " + std::to_string(model.couplers.size()));
    if (!model.forces.empty())
        report.push_back("forces, springs and dampers not exported: " + std::to_string(model.forces.size()));
}

std::string shapeGeom(const VisualShape& s, const Pose& inFrame, const std::string& meshName) {
    std::ostringstream g;
    const Pose p = inFrame * Pose{s.offset, s.orientation};
    const std::string rgba = numbers({s.color[0], s.color[1], s.color[2], 1.0});
    switch (s.kind) {
        case VisualShape::Kind::Box:
            g << "type=\"box\" size=\"" << vec(0.5 * s.size) << "\"";
            break;
        case VisualShape::Kind::Cylinder:
            g << "type=\"cylinder\" size=\"" << numbers({s.radius, 0.5 * s.length}) << "\"";
            break;
        case VisualShape::Kind::Sphere:
            g << "type=\"sphere\" size=\"" << numbers({s.radius}) << "\"";
            break;
        case VisualShape::Kind::Mesh:
            g << "type=\"mesh\" mesh=\"" << escaped(meshName) << "\"";
            break;
        default:
            return "";
    }
    g << " pos=\"" << vec(p.p) << "\" quat=\"" << quat(p.q) << "\" rgba=\"" << rgba << "\"";
    return g.str();
}

}  // namespace

ExportResult exportMjcf(const Model& model, const State& state) {
    ExportResult out;
    out.error = refusal(model);
    if (!out.ok()) return out;
    reportCommon(model, state, out.report, "MJCF");
    const auto tree = spanningTree(model, [](JointType t) {
        return t == JointType::Revolute || t == JointType::Prismatic || t == JointType::Spherical ||
               t == JointType::Fixed || t == JointType::Universal || t == JointType::Cylindrical;
    });
    std::ostringstream x;
    x << std::setprecision(17);
    x << "<mujoco model=\"" << escaped(model.name) << "\">\n"
      << "  <!-- Written by looplab-cli export: bodies at their centres of mass, contacts off. -->\n"
      << "  <compiler angle=\"radian\" inertiafromgeom=\"false\"/>\n"
      << "  <option gravity=\"" << vec(model.gravity) << "\"/>\n";
    std::ostringstream assets;
    for (const Body& b : model.bodies)
        if (b.shape.kind == VisualShape::Kind::Mesh)
            assets << "    <mesh name=\"" << escaped(b.name) << "_mesh\" file=\"" << escaped(b.shape.file) << "\" scale=\""
                   << vec(b.shape.scale) << "\"/>\n";
    if (!assets.str().empty()) {
        x << "  <asset>\n" << assets.str() << "  </asset>\n";
        out.report.push_back("mesh shapes written as mesh geoms: MuJoCo moves a mesh to its centre of mass and "
                             "principal axes, so one whose file is not placed so is drawn elsewhere there");
    }
    x << "  <worldbody>\n";
    std::function<void(int, int)> writeBody = [&](int b, int depth) {
        const std::string indent(size_t(2 * depth + 2), ' ');
        const Body& body = model.bodies[size_t(b)];
        const Pose me = bodyPose(model, state, b);
        const Pose local = bodyPose(model, state, tree.parentBody[size_t(b)]).inverse() * me;
        x << indent << "<body name=\"" << escaped(body.name) << "\" pos=\"" << vec(local.p) << "\" quat=\""
          << quat(local.q) << "\">\n";
        const int j = tree.parentJoint[size_t(b)];
        if (j < 0) {
            x << indent << "  <freejoint name=\"" << escaped(body.name) << "_free\"/>\n";
        } else {
            const Joint& joint = model.joints[size_t(j)];
            const BodyFrame& f = joint.frame1.body.value() == b ? joint.frame1 : joint.frame2;
            const BodyFrame& other = joint.frame1.body.value() == b ? joint.frame2 : joint.frame1;
            const Vec3 z = f.axes.col(2);
            const std::string head = indent + "  <joint name=\"" + escaped(joint.name);
            switch (joint.type) {
                case JointType::Revolute:
                case JointType::Prismatic:
                    x << head << "\" type=\"" << (joint.type == JointType::Revolute ? "hinge" : "slide") << "\" pos=\""
                      << vec(f.origin) << "\" axis=\"" << vec(z) << "\"" << rangeOf(joint) << "/>\n";
                    break;
                case JointType::Spherical:
                    x << head << "\" type=\"ball\" pos=\"" << vec(f.origin) << "\"/>\n";
                    break;
                case JointType::Cylindrical:
                    x << head << "\" type=\"hinge\" pos=\"" << vec(f.origin) << "\" axis=\"" << vec(z) << "\"/>\n"
                      << head << "_slide\" type=\"slide\" pos=\"" << vec(f.origin) << "\" axis=\"" << vec(z) << "\"/>\n";
                    break;
                case JointType::Universal: {
                    // The parent's axis, then the child's, both in the child's frame at the state.
                    const Pose global = jointFrame(model, state, other);
                    const Vec3 first = me.q.conjugate() * (global.q * Vec3::UnitZ());
                    x << head << "\" type=\"hinge\" pos=\"" << vec(f.origin) << "\" axis=\"" << vec(first) << "\"/>\n"
                      << head << "_2\" type=\"hinge\" pos=\"" << vec(f.origin) << "\" axis=\"" << vec(z) << "\"/>\n";
                    break;
                }
                default:  // fixed: welded, no joint
                    break;
            }
        }
        const Mat3& I = body.rigid()->inertia();
        x << indent << "  <inertial pos=\"0 0 0\" mass=\"" << body.rigid()->mass() << "\" fullinertia=\""
          << numbers({I(0, 0), I(1, 1), I(2, 2), I(0, 1), I(0, 2), I(1, 2)}) << "\"/>\n";
        if (const std::string g = shapeGeom(body.shape, Pose{}, body.name + "_mesh"); !g.empty())
            x << indent << "  <geom " << g << " contype=\"0\" conaffinity=\"0\"/>\n";
        for (int c : tree.children[size_t(b)]) writeBody(c, depth + 1);
        x << indent << "</body>\n";
    };
    for (int c : tree.children[0]) writeBody(c, 1);
    x << "  </worldbody>\n";
    std::ostringstream equalities;
    for (int j : tree.closures) {
        const Joint& joint = model.joints[size_t(j)];
        // body1 must be a body of the model; the world is body2 (omitted).
        const bool firstIsGround = joint.frame1.body.value() == 0;
        const BodyFrame& f1 = firstIsGround ? joint.frame2 : joint.frame1;
        const BodyFrame& f2 = firstIsGround ? joint.frame1 : joint.frame2;
        const std::string b1 = model.bodies[size_t(f1.body.value())].name;
        const std::string b2 = f2.body.value() == 0 ? "" : " body2=\"" + escaped(model.bodies[size_t(f2.body.value())].name) + "\"";
        if (joint.type == JointType::Spherical || joint.type == JointType::Revolute) {
            equalities << "    <connect name=\"" << escaped(joint.name) << "\" body1=\"" << escaped(b1) << "\"" << b2
                       << " anchor=\"" << vec(f1.origin) << "\"/>\n";
            if (joint.type == JointType::Revolute)
                out.report.push_back("revolute joint " + joint.name +
                                     " closes a loop: written as a connect (a ball joint), MJCF has no revolute "
                                     "equality; a planar loop moves the same with fewer redundant equations, a "
                                     "spatial loop may gain freedom");
        } else if (joint.type == JointType::Fixed) {
            equalities << "    <weld name=\"" << escaped(joint.name) << "\" body1=\"" << escaped(b1) << "\"" << b2 << "/>\n";
        } else {
            out.report.push_back(std::string(jointTypeName(joint.type)) + " joint " + joint.name +
                                 " closes a loop and is not exported: MJCF closes loops with connect and weld only");
        }
    }
    if (!equalities.str().empty()) x << "  <equality>\n" << equalities.str() << "  </equality>\n";
    x << "</mujoco>\n";
    out.text = x.str();
    return out;
}

ExportResult exportUrdf(const Model& model, const State& state) {
    ExportResult out;
    out.error = refusal(model);
    if (!out.ok()) return out;
    reportCommon(model, state, out.report, "URDF");
    const auto tree = spanningTree(model, [](JointType t) {
        return t == JointType::Revolute || t == JointType::Prismatic || t == JointType::Fixed;
    });
    // A link's frame is its joint's frame (URDF turns the child about the joint's origin):
    // at the joint's point, with the body's axes; the centre of mass is the inertial origin.
    std::vector<Pose> link(size_t(model.bodyCount()));
    for (int b = 1; b < model.bodyCount(); ++b) {
        const Pose body = bodyPose(model, state, b);
        const int j = tree.parentJoint[size_t(b)];
        link[size_t(b)] = body;
        if (j >= 0) {
            const Joint& joint = model.joints[size_t(j)];
            const BodyFrame& f = joint.frame1.body.value() == b ? joint.frame1 : joint.frame2;
            link[size_t(b)].p = body * f.origin;
        }
    }
    std::ostringstream x;
    x << std::setprecision(17);
    x << "<?xml version=\"1.0\"?>\n<robot name=\"" << escaped(model.name.empty() ? "looplab" : model.name) << "\">\n"
      << "  <!-- Written by looplab-cli export. <loop_joint> is LoopLab's element for the joints that close\n"
      << "       loops (docs/import-export.md); other URDF readers skip it. -->\n"
      << "  <link name=\"ground\"/>\n";
    for (int b : tree.order) {
        if (b == 0) continue;
        const Body& body = model.bodies[size_t(b)];
        const Pose com = link[size_t(b)].inverse() * bodyPose(model, state, b);
        const Mat3& I = body.rigid()->inertia();
        x << "  <link name=\"" << escaped(body.name) << "\">\n"
          << "    <inertial>\n      <origin xyz=\"" << vec(com.p) << "\" rpy=\"0 0 0\"/>\n      <mass value=\"" << body.rigid()->mass()
          << "\"/>\n      <inertia ixx=\"" << I(0, 0) << "\" ixy=\"" << I(0, 1) << "\" ixz=\"" << I(0, 2) << "\" iyy=\""
          << I(1, 1) << "\" iyz=\"" << I(1, 2) << "\" izz=\"" << I(2, 2) << "\"/>\n    </inertial>\n";
        const VisualShape& s = body.shape;
        if (s.kind != VisualShape::Kind::None) {
            const Pose p = com * Pose{s.offset, s.orientation};
            const Vec3 rpy = p.q.toRotationMatrix().eulerAngles(2, 1, 0);
            x << "    <visual>\n      <origin xyz=\"" << vec(p.p) << "\" rpy=\"" << numbers({rpy[2], rpy[1], rpy[0]})
              << "\"/>\n      <geometry>";
            if (s.kind == VisualShape::Kind::Box) x << "<box size=\"" << vec(s.size) << "\"/>";
            else if (s.kind == VisualShape::Kind::Cylinder) x << "<cylinder radius=\"" << s.radius << "\" length=\"" << s.length << "\"/>";
            else if (s.kind == VisualShape::Kind::Mesh) x << "<mesh filename=\"" << escaped(s.file) << "\" scale=\"" << vec(s.scale) << "\"/>";
            else x << "<sphere radius=\"" << s.radius << "\"/>";
            x << "</geometry>\n      <material name=\"" << escaped(body.name) << "_colour\"><color rgba=\""
              << numbers({s.color[0], s.color[1], s.color[2], 1.0}) << "\"/></material>\n    </visual>\n";
        }
        x << "  </link>\n";
    }
    auto origin = [](const Pose& p) {
        const Vec3 rpy = p.q.toRotationMatrix().eulerAngles(2, 1, 0);
        return "xyz=\"" + vec(p.p) + "\" rpy=\"" + numbers({rpy[2], rpy[1], rpy[0]}) + "\"";
    };
    for (int b : tree.order) {
        if (b == 0) continue;
        const std::string& name = model.bodies[size_t(b)].name;
        const std::string parent = model.bodies[size_t(tree.parentBody[size_t(b)])].name;
        const Pose rel = link[size_t(tree.parentBody[size_t(b)])].inverse() * link[size_t(b)];
        const int j = tree.parentJoint[size_t(b)];
        if (j < 0) {
            x << "  <joint name=\"" << escaped(name) << "_free\" type=\"floating\">\n    <parent link=\"" << escaped(parent)
              << "\"/>\n    <child link=\"" << escaped(name) << "\"/>\n    <origin " << origin(rel) << "/>\n  </joint>\n";
            continue;
        }
        const Joint& joint = model.joints[size_t(j)];
        const BodyFrame& f = joint.frame1.body.value() == b ? joint.frame1 : joint.frame2;
        const bool limited = joint.limits.has_value();
        const char* type = joint.type == JointType::Revolute ? (limited ? "revolute" : "continuous")
                           : joint.type == JointType::Prismatic ? "prismatic"
                                                                : "fixed";
        x << "  <joint name=\"" << escaped(joint.name) << "\" type=\"" << type << "\">\n    <parent link=\"" << escaped(parent)
          << "\"/>\n    <child link=\"" << escaped(name) << "\"/>\n    <origin " << origin(rel) << "/>\n";
        if (joint.type != JointType::Fixed) x << "    <axis xyz=\"" << vec(f.axes.col(2)) << "\"/>\n";
        if (limited && joint.type != JointType::Fixed)
            x << "    <limit lower=\"" << numbers({(*joint.limits)[0]}) << "\" upper=\"" << numbers({(*joint.limits)[1]})
              << "\" effort=\"0\" velocity=\"0\"/>\n";
        else if (joint.type == JointType::Prismatic)
            x << "    <limit lower=\"-1e9\" upper=\"1e9\" effort=\"0\" velocity=\"0\"/>\n";
        x << "  </joint>\n";
    }
    for (int j : tree.closures) {
        const Joint& joint = model.joints[size_t(j)];
        std::string type;
        switch (joint.type) {
            case JointType::Revolute: type = "revolute"; break;
            case JointType::Prismatic: type = "prismatic"; break;
            case JointType::Spherical: type = "spherical"; break;
            case JointType::Fixed: type = "fixed"; break;
            default:
                out.report.push_back(std::string(jointTypeName(joint.type)) + " joint " + joint.name +
                                     " not exported: URDF (with LoopLab's loop_joint) has revolute, prismatic, "
                                     "spherical and fixed joints only");
                continue;
        }
        const int b1 = joint.frame1.body.value(), b2 = joint.frame2.body.value();
        const Pose on1 = link[size_t(b1)].inverse() * jointFrame(model, state, joint.frame1);
        const Pose on2 = link[size_t(b2)].inverse() * jointFrame(model, state, joint.frame2);
        x << "  <loop_joint name=\"" << escaped(joint.name) << "\" type=\"" << type << "\">\n    <parent link=\""
          << escaped(model.bodies[size_t(b1)].name) << "\"/>\n    <child link=\"" << escaped(model.bodies[size_t(b2)].name)
          << "\"/>\n    <origin " << origin(on1) << "/>\n    <child_origin " << origin(on2)
          << "/>\n    <axis xyz=\"0 0 1\"/>\n  </loop_joint>\n";
    }
    x << "</robot>\n";
    out.report.push_back("gravity not written (URDF has none; importing sets 9.81 m/s² along −z)");
    out.text = x.str();
    return out;
}

}  // namespace looplab
