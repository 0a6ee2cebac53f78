// URDF to the model format. urdfdom reads the robot's tree of links and joints; the links'
// poses at zero joint values give LoopLab's initial configuration, the root link is the
// ground. URDF cannot close a loop, so LoopLab reads an element of its own beside the
// joints, <loop_joint> (docs/import-export.md), with tinyxml2.
#include "looplab/exchange/ModelImport.h"

#include "ImportFrames.h"
#include "ImportReport.h"

#include "looplab/files/ModelFile.h"

#include <console_bridge/console.h>
#include <tinyxml2.h>
#include <urdf_parser/urdf_parser.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <mutex>
#include <unordered_set>
#include <vector>

namespace looplab {

namespace {

using exchange::Transform;
using tinyxml2::XMLElement;

Transform toTransform(const urdf::Pose& p) {
    return {Vec3(p.position.x, p.position.y, p.position.z),
            Quat(p.rotation.w, p.rotation.x, p.rotation.y, p.rotation.z).normalized()};
}

// urdfdom says why it refuses a file through console_bridge: its messages are taken here
// instead of going to the terminal.
class ParserMessages : public console_bridge::OutputHandler {
public:
    void log(const std::string& text, console_bridge::LogLevel level, const char*, int) override {
        if (level >= console_bridge::CONSOLE_BRIDGE_LOG_ERROR) errors.push_back(text);
    }
    std::vector<std::string> errors;
};

struct UrdfLink {
    std::string looplab;  // the LoopLab body it is part of
    Transform link;       // the link frame, global, at zero joint values
    Transform frame;      // the LoopLab body's frame, global
};

class UrdfReader {
public:
    UrdfReader(const std::string& file, ImportResult& out) : file_(file), out_(out) {}
    bool read(const urdf::ModelInterface& robot, const XMLElement* root);
    nlohmann::json model;
    const exchange::ImportReport& report() const { return report_; }

private:
    void fail(const std::string& path, const std::string& message, int line = 0) {
        out_.diagnostics.push_back(Diagnostic{file_, path, message, line, 0});
    }
    bool tree(const urdf::ModelInterface& robot, const urdf::Link& root);
    bool link(const urdf::Link& l, const UrdfLink& parent, const urdf::Joint* joint);
    bool loopJoint(const XMLElement* e);
    nlohmann::json shapeOf(const urdf::Link& l, const Transform& linkFrame, const Transform& bodyFrame);

    std::string file_;
    ImportResult& out_;
    exchange::ImportReport report_;
    std::map<std::string, UrdfLink> links_;
    std::unordered_set<std::string> bodyNames_{"ground"}, jointNames_, markerNames_;
    std::unordered_set<std::string> linksWithVisuals_;
};

nlohmann::json UrdfReader::shapeOf(const urdf::Link& l, const Transform& linkFrame, const Transform& bodyFrame) {
    if (!l.visual || !l.visual->geometry) {
        if (linksWithVisuals_.count(l.name))
            report_.add("visuals not drawn: the URDF reader could not read them (a size, radius, length or scale "
                        "that is not a number, say)",
                        l.name);
        return nullptr;
    }
    auto finite = [](std::initializer_list<double> v) {
        return std::all_of(v.begin(), v.end(), [](double x) { return std::isfinite(x); });
    };
    auto notFinite = [&]() {
        report_.add("visuals not drawn: their sizes, radii, lengths or scales are not finite numbers", l.name);
        return nlohmann::json();
    };
    if (l.visual_array.size() > 1) report_.add("links with more than one visual drawn by their first", l.name);
    const urdf::Geometry& g = *l.visual->geometry;
    nlohmann::json s;
    switch (g.type) {
        case urdf::Geometry::BOX: {
            const auto& b = static_cast<const urdf::Box&>(g);
            if (!finite({b.dim.x, b.dim.y, b.dim.z})) return notFinite();
            s = {{"type", "box"}, {"size", {b.dim.x, b.dim.y, b.dim.z}}};
            break;
        }
        case urdf::Geometry::CYLINDER: {
            const auto& c = static_cast<const urdf::Cylinder&>(g);
            if (!finite({c.radius, c.length})) return notFinite();
            s = {{"type", "cylinder"}, {"radius", c.radius}, {"length", c.length}};
            break;
        }
        case urdf::Geometry::SPHERE:
            if (!finite({static_cast<const urdf::Sphere&>(g).radius})) return notFinite();
            s = {{"type", "sphere"}, {"radius", static_cast<const urdf::Sphere&>(g).radius}};
            break;
        case urdf::Geometry::MESH: {
            const auto& m = static_cast<const urdf::Mesh&>(g);
            if (!finite({m.scale.x, m.scale.y, m.scale.z})) return notFinite();
            const std::string path = exchange::meshPath(m.filename, file_);
            if (path.empty()) {
                report_.add("mesh visuals not drawn: LoopLab reads STL and OBJ files by a path (not package:// "
                            "nor other formats)",
                            l.name + " (" + m.filename + ")");
                return nullptr;
            }
            s = {{"type", "mesh"}, {"file", path}, {"scale", {m.scale.x, m.scale.y, m.scale.z}}};
            break;
        }
        default:
            return nullptr;
    }
    const Transform placed = bodyFrame.inverse() * linkFrame * toTransform(l.visual->origin);
    s["offset"] = exchange::vecJson(placed.p);
    s["orientation"] = exchange::quatJson(placed.q);
    if (l.visual->material) {
        const urdf::Color& c = l.visual->material->color;
        if (c.r || c.g || c.b) s["color"] = {c.r, c.g, c.b};
    }
    return s;
}

bool UrdfReader::link(const urdf::Link& l, const UrdfLink& parent, const urdf::Joint* joint) {
    const std::string path = "robot/link[" + l.name + "]";
    UrdfLink me;
    me.link = joint ? parent.link * toTransform(joint->parent_to_joint_origin_transform) : Transform{};
    const bool massive = l.inertial && l.inertial->mass > 0.0;
    const std::string jointPath = joint ? "robot/joint[" + joint->name + "]" : "";
    if (!joint) {
        me.looplab = "ground";
        if (massive) report_.add("the root link is the ground: its inertial is not used", l.name);
    } else if (!massive) {
        if (joint->type != urdf::Joint::FIXED) {
            fail(jointPath, "link '" + l.name + "' moves (joint '" + joint->name +
                                "') but has no mass: give it an <inertial> with a positive mass");
            return false;
        }
        // A massless link fixed to its parent is a frame of the parent's.
        me.looplab = parent.looplab;
        me.frame = parent.frame;
        if (l.visual) report_.add("visuals of massless fixed links not drawn", l.name);
    }
    if (joint && massive) {
        me.looplab = exchange::uniqueName(l.name, bodyNames_);
        me.frame = me.link * toTransform(l.inertial->origin);
        const urdf::Inertial& in = *l.inertial;
        Mat3 I;
        I << in.ixx, in.ixy, in.ixz, in.ixy, in.iyy, in.iyz, in.ixz, in.iyz, in.izz;
        nlohmann::json b = {{"name", me.looplab},
                            {"mass", in.mass},
                            {"inertia", exchange::inertiaJson(I)},
                            {"position", exchange::vecJson(me.frame.p)},
                            {"orientation", exchange::quatJson(me.frame.q)}};
        if (nlohmann::json s = shapeOf(l, me.link, me.frame); !s.is_null()) b["shape"] = s;
        model["bodies"].push_back(b);

        const Transform jointFrame = me.link;  // the joint's frame is the child link's at zero
        // Scaled before it is normalised: the length of (1e300, 1e300, 0) overflows, and
        // the plain quotient made it a zero axis.
        const Vec3 rawAxis(joint->axis.x, joint->axis.y, joint->axis.z);
        const Vec3 axis = rawAxis.allFinite() ? Vec3(jointFrame.q * rawAxis.stableNormalized()) : rawAxis;
        std::string type;
        switch (joint->type) {
            case urdf::Joint::REVOLUTE:
            case urdf::Joint::CONTINUOUS: type = "revolute"; break;
            case urdf::Joint::PRISMATIC: type = "prismatic"; break;
            case urdf::Joint::FIXED: type = "fixed"; break;
            case urdf::Joint::FLOATING:
                report_.add("floating joints left free (the link is a free body)", joint->name);
                break;
            default:
                fail(jointPath, "joint type planar (or unknown) of joint '" + joint->name +
                                    "' is not one LoopLab imports (revolute, continuous, prismatic, fixed, floating)");
                return false;
        }
        if (!type.empty()) {
            if (!rawAxis.allFinite() && type != "fixed") {
                fail(jointPath, "joint '" + joint->name + "' has an axis that is not finite numbers");
                return false;
            }
            if (!(axis.allFinite() && axis.norm() > 0.5) && type != "fixed") {
                fail(jointPath, "joint '" + joint->name + "' has a zero axis");
                return false;
            }
            nlohmann::json j = {{"name", exchange::uniqueName(joint->name, jointNames_)},
                                {"type", type},
                                {"body1", parent.looplab},
                                {"body2", me.looplab},
                                {"point", exchange::vecJson(jointFrame.p)},
                                {"axis", exchange::vecJson(type == "fixed" ? Vec3(jointFrame.q * Vec3::UnitZ()) : axis)}};
            if (joint->limits && (joint->type == urdf::Joint::REVOLUTE || joint->type == urdf::Joint::PRISMATIC) &&
                joint->limits->lower <= joint->limits->upper)
                j["limits"] = {joint->limits->lower, joint->limits->upper};
            model["joints"].push_back(j);
        }
    }
    if (joint) {
        if (joint->limits && (joint->type == urdf::Joint::REVOLUTE || joint->type == urdf::Joint::PRISMATIC))
            report_.add("joint limits enforced as end stops that hold what strikes them (restitution 0; give 'restitution' for a bounce)", joint->name);
        if (joint->limits && (joint->limits->effort != 0.0 || joint->limits->velocity != 0.0) &&
            joint->type != urdf::Joint::FIXED)
            report_.add("joint effort and velocity limits not kept", joint->name);
        if (joint->dynamics && (joint->dynamics->damping != 0.0 || joint->dynamics->friction != 0.0))
            report_.add("joint damping and friction not imported", joint->name);
        if (joint->mimic) report_.add("mimic joints imported as independent joints", joint->name);
        if (joint->safety || joint->calibration) report_.add("joint safety controllers and calibration not imported", joint->name);
    }
    links_[l.name] = me;
    return true;
}

// The links from the root down, parents before children and each link's children in the
// order of its joints, on a stack of its own: a chain of links as long as a file may hold
// must not take a stack frame per link.
bool UrdfReader::tree(const urdf::ModelInterface& robot, const urdf::Link& root) {
    struct Pending {
        const urdf::Link* link;
        const urdf::Joint* joint;  // null for the root
        std::string parent;        // the parent link's name
    };
    std::vector<Pending> stack{{&root, nullptr, ""}};
    while (!stack.empty()) {
        const Pending p = std::move(stack.back());
        stack.pop_back();
        const UrdfLink parent = p.joint ? links_.at(p.parent) : UrdfLink{"ground", Transform{}, Transform{}};
        if (!link(*p.link, parent, p.joint)) return false;
        const auto& joints = p.link->child_joints;
        for (auto j = joints.rbegin(); j != joints.rend(); ++j) {
            const urdf::LinkConstSharedPtr child = robot.getLink((*j)->child_link_name);
            if (child) stack.push_back({child.get(), j->get(), p.link->name});
        }
    }
    return true;
}

bool UrdfReader::loopJoint(const XMLElement* e) {
    const char* n = e->Attribute("name");
    const std::string path = std::string("robot/loop_joint") + (n ? "[" + std::string(n) + "]" : "");
    if (!n) {
        fail(path, "a <loop_joint> needs a name", e->GetLineNum());
        return false;
    }
    const char* t = e->Attribute("type");
    const std::string type = t ? t : "";
    std::string looplabType;
    if (type == "revolute" || type == "continuous") looplabType = "revolute";
    else if (type == "prismatic" || type == "spherical" || type == "fixed") looplabType = type;
    else {
        fail(path, "loop_joint type must be revolute, continuous, prismatic, spherical or fixed (got '" + type + "')",
             e->GetLineNum());
        return false;
    }
    auto linkOf = [&](const char* element, UrdfLink& out) {
        const XMLElement* x = e->FirstChildElement(element);
        const char* l = x ? x->Attribute("link") : nullptr;
        if (!l) {
            fail(path, std::string("a <loop_joint> needs <") + element + " link=\"...\"/>", e->GetLineNum());
            return false;
        }
        if (!links_.count(l)) {
            fail(path, std::string("no link named '") + l + "'", x->GetLineNum());
            return false;
        }
        out = links_[l];
        return true;
    };
    auto pose = [&](const char* element, std::optional<Transform>& out) {
        const XMLElement* x = e->FirstChildElement(element);
        if (!x) return true;
        const auto xyz = exchange::parseNumbers(x->Attribute("xyz") ? x->Attribute("xyz") : "0 0 0");
        const auto rpy = exchange::parseNumbers(x->Attribute("rpy") ? x->Attribute("rpy") : "0 0 0");
        if (!xyz || !rpy || xyz->size() != 3 || rpy->size() != 3) {
            fail(path, std::string("<") + element + "> needs xyz and rpy of three numbers each", x->GetLineNum());
            return false;
        }
        out = Transform{Vec3((*xyz)[0], (*xyz)[1], (*xyz)[2]),
                        exchange::fromRollPitchYaw((*rpy)[0], (*rpy)[1], (*rpy)[2])};
        return true;
    };
    UrdfLink parent, child;
    std::optional<Transform> origin, childOrigin;
    if (!linkOf("parent", parent) || !linkOf("child", child) || !pose("origin", origin) ||
        !pose("child_origin", childOrigin))
        return false;
    Vec3 axis(1, 0, 0);
    if (const XMLElement* a = e->FirstChildElement("axis")) {
        const auto v = exchange::parseNumbers(a->Attribute("xyz"));
        if (!v || v->size() != 3 || !(Vec3((*v)[0], (*v)[1], (*v)[2]).cwiseAbs().maxCoeff() >= 1e-12)) {
            fail(path, "<axis> needs xyz, a non-zero direction", a->GetLineNum());
            return false;
        }
        axis = Vec3((*v)[0], (*v)[1], (*v)[2]).stableNormalized();
    }
    if (parent.looplab == child.looplab) {
        fail(path, "loop_joint '" + std::string(n) + "' joins a link to itself (or to a link fixed to it)", e->GetLineNum());
        return false;
    }
    const std::string name = exchange::uniqueName(n, jointNames_);
    const Transform jointOnParent = parent.link * origin.value_or(Transform{});
    if (!childOrigin) {
        // Where the parent's frame puts it: the joint closes at the initial configuration.
        nlohmann::json j = {{"name", name}, {"type", looplabType}, {"body1", parent.looplab},
                            {"body2", child.looplab}, {"point", exchange::vecJson(jointOnParent.p)}};
        if (looplabType != "spherical") j["axis"] = exchange::vecJson(jointOnParent.q * axis);
        model["joints"].push_back(j);
        return true;
    }
    // Given on each link: two markers, and assembly brings them together.
    const Quat zToAxis = Quat::FromTwoVectors(Vec3::UnitZ(), axis);
    const Transform jointOnChild = child.link * *childOrigin;
    const Transform m1 = parent.frame.inverse() * jointOnParent * Transform{Vec3::Zero(), zToAxis};
    const Transform m2 = child.frame.inverse() * jointOnChild * Transform{Vec3::Zero(), zToAxis};
    const std::string marker1 = exchange::uniqueName(name + "_parent", markerNames_);
    const std::string marker2 = exchange::uniqueName(name + "_child", markerNames_);
    model["markers"].push_back({{"name", marker1}, {"body", parent.looplab}, {"position", exchange::vecJson(m1.p)},
                                {"orientation", exchange::quatJson(m1.q)}});
    model["markers"].push_back({{"name", marker2}, {"body", child.looplab}, {"position", exchange::vecJson(m2.p)},
                                {"orientation", exchange::quatJson(m2.q)}});
    model["joints"].push_back({{"name", name}, {"type", looplabType}, {"marker1", marker1}, {"marker2", marker2}});
    return true;
}

bool UrdfReader::read(const urdf::ModelInterface& robot, const XMLElement* root) {
    model = {{"format", kModelFormatName}, {"version", kModelFormatVersion}, {"name", robot.getName()},
             {"gravity", {0.0, 0.0, -9.81}}, {"bodies", nlohmann::json::array()},
             {"joints", nlohmann::json::array()}, {"markers", nlohmann::json::array()}};
    const urdf::LinkConstSharedPtr rootLink = robot.getRoot();
    if (!rootLink) {
        fail("robot", "the robot has no root link");
        return false;
    }
    // Links whose file gives a visual: urdfdom leaves out one it cannot read (a size of
    // "nan"), and that is said rather than the link drawn as nothing without a word.
    for (const XMLElement* c = root->FirstChildElement("link"); c; c = c->NextSiblingElement("link"))
        if (c->FirstChildElement("visual") && c->Attribute("name")) linksWithVisuals_.insert(c->Attribute("name"));
    if (!tree(robot, *rootLink)) return false;
    for (const XMLElement* c = root->FirstChildElement(); c; c = c->NextSiblingElement()) {
        const std::string n = c->Name();
        if (n == "loop_joint") {
            if (!loopJoint(c)) return false;
        } else if (n != "link" && n != "joint" && n != "material") {
            report_.add("elements not imported", "<" + n + ">");
        }
    }
    if (model["markers"].empty()) model.erase("markers");
    report_.add("gravity set to 9.81 m/s² along −z (URDF does not give it)", "");
    return true;
}

// urdfdom takes any joints between its links: a link may be the child of two joints, and
// links may form a cycle (the robot's root is then the one link without a parent, and the
// cycle hangs from it or from nothing; with no such link urdfdom refuses the file but never
// frees the cycle). Both are refused here from the XML, before urdfdom reads it, naming the
// links and joints: walking a cycle would never end.
bool jointsMakeATree(const XMLElement* robot, const std::string& file, ImportResult& out) {
    struct Edge {
        std::string joint, parent, child;
        int line;
    };
    std::vector<Edge> edges;
    std::map<std::string, std::vector<size_t>> childEdges, parentEdges;  // by link, in the file's order
    for (const XMLElement* j = robot->FirstChildElement("joint"); j; j = j->NextSiblingElement("joint")) {
        const XMLElement* p = j->FirstChildElement("parent");
        const XMLElement* c = j->FirstChildElement("child");
        const char* parent = p ? p->Attribute("link") : nullptr;
        const char* child = c ? c->Attribute("link") : nullptr;
        if (!parent || !child) continue;  // urdfdom says what is missing
        const char* name = j->Attribute("name");
        childEdges[parent].push_back(edges.size());
        parentEdges[child].push_back(edges.size());
        edges.push_back({name ? name : "", parent, child, j->GetLineNum()});
    }
    auto fail = [&](const Edge& e, const std::string& message) {
        out.diagnostics.push_back(Diagnostic{file, "robot/joint[" + e.joint + "]", message, e.line, 0});
        return false;
    };
    // Depth-first from each link in turn, on a stack of its own: a link reached again while
    // it is still on the stack closes a cycle.
    enum class Mark { New, OnStack, Done };
    std::map<std::string, Mark> mark;
    struct Step {
        std::string link;
        size_t next = 0;           // the next of its child joints to follow
        const Edge* reachedBy = nullptr;
    };
    for (const auto& [start, ignored] : childEdges) {
        if (mark[start] != Mark::New) continue;
        std::vector<Step> stack{{start}};
        mark[start] = Mark::OnStack;
        while (!stack.empty()) {
            const auto children = childEdges.find(stack.back().link);
            if (children == childEdges.end() || stack.back().next == children->second.size()) {
                mark[stack.back().link] = Mark::Done;
                stack.pop_back();
                continue;
            }
            const Edge& e = edges[children->second[stack.back().next++]];
            Mark& m = mark[e.child];
            if (m == Mark::New) {
                m = Mark::OnStack;
                stack.push_back({e.child, 0, &e});
                continue;
            }
            if (m == Mark::Done) continue;
            if (e.child == e.parent)
                return fail(e, "joint '" + e.joint + "' joins link '" + e.child + "' to itself: a joint joins two links");
            size_t first = stack.size() - 1;
            while (stack[first].link != e.child) --first;
            std::string links, joints;
            for (size_t k = first; k < stack.size(); ++k) {
                links += "'" + stack[k].link + "' → ";
                if (k > first) joints += "'" + stack[k].reachedBy->joint + "', ";
            }
            return fail(e, "the links form a cycle, " + links + "'" + e.child + "' (joints " + joints + "'" + e.joint +
                               "'): a URDF's links make a tree; close a loop with a <loop_joint> instead "
                               "(docs/import-export.md)");
        }
    }
    for (const auto& [child, parents] : parentEdges) {
        if (parents.size() < 2) continue;
        std::string names;
        for (size_t k = 0; k < parents.size(); ++k)
            names += (k ? (k + 1 == parents.size() ? " and '" : ", '") : "'") + edges[parents[k]].joint + "'";
        return fail(edges[parents[1]], "link '" + child + "' is the child of " + std::to_string(parents.size()) +
                                           " joints (" + names +
                                           "): a link hangs from one joint; close a loop with a <loop_joint> "
                                           "instead (docs/import-export.md)");
    }
    return true;
}

std::mutex parserMessagesMutex;  // console_bridge's handler is one for the whole process

}  // namespace

ImportResult importUrdf(const std::string& xmlText, const std::string& file) {
    ImportResult out;
    tinyxml2::XMLDocument xml;
    const XMLElement* root = exchange::xmlRoot(xml, xmlText, file, "robot", "a URDF", out);
    if (!root) return out;
    // urdfdom's own XML reader finds no <robot> after a document type declaration with an
    // internal subset (<!DOCTYPE robot [ ... ]>), and said only that; URDF needs none, so
    // it is named as what to remove. A plain <!DOCTYPE robot SYSTEM "..."> is read.
    for (const tinyxml2::XMLNode* n = xml.FirstChild(); n; n = n->NextSibling())
        if (const tinyxml2::XMLUnknown* u = n->ToUnknown();
            u && std::string(u->Value()).rfind("DOCTYPE", 0) == 0 && std::string(u->Value()).find('[') != std::string::npos) {
            out.diagnostics.push_back(Diagnostic{file, "", "a document type declaration with declarations of its own "
                                                           "(<!DOCTYPE robot [ ... ]>) is not supported in a URDF "
                                                           "file: remove it (URDF needs none)",
                                                 u->GetLineNum(), 0});
            return out;
        }
    if (!jointsMakeATree(root, file, out)) return out;
    urdf::ModelInterfaceSharedPtr robot;
    ParserMessages messages;
    {
        std::lock_guard<std::mutex> lock(parserMessagesMutex);
        console_bridge::useOutputHandler(&messages);
        robot = urdf::parseURDF(xmlText);
        console_bridge::restorePreviousOutputHandler();
    }
    if (!robot) {
        std::string why = "the URDF reader refused the file";
        for (const std::string& m : messages.errors) why += ": " + m;
        out.diagnostics.push_back(Diagnostic{file, "robot", why, 0, 0});
        return out;
    }
    // Each urdfdom link owns its children: a long chain would be freed by one destructor
    // calling the next, a stack frame per link.
    struct ChildrenReleased {
        urdf::ModelInterface& robot;
        ~ChildrenReleased() {
            for (auto& [name, l] : robot.links_)
                if (l) l->child_links.clear();
        }
    } released{*robot};
    UrdfReader reader(file, out);
    if (!reader.read(*robot, root)) return out;
    exchange::finishImport(reader.model, file, reader.report(), out);
    return out;
}

}  // namespace looplab
