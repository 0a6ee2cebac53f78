// MJCF (MuJoCo's XML) to the model format. MuJoCo's bodies form a tree whose frames are
// given relative to their parents; LoopLab's bodies are frames at their centres of mass in
// the global frame at the initial configuration, and its joints are given by a global point
// and axis there (MuJoCo's qpos0). Equalities `connect` and `weld` close the loops: MuJoCo
// takes them as satisfied at qpos0, which is what a point-form joint means.
#include "looplab/exchange/ModelImport.h"

#include "ImportFrames.h"
#include "ImportReport.h"

#include "looplab/files/ModelFile.h"

#include <tinyxml2.h>

#include <cctype>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <map>

namespace looplab {

namespace {

using exchange::MassProperties;
using exchange::Transform;
using tinyxml2::XMLElement;

struct MjcfBody {
    std::string looplab;  // the LoopLab body it is part of ("ground" for the world)
    Transform mujoco;     // its MuJoCo frame, global, at qpos0
    Transform frame;      // the LoopLab body's frame, global
};

class MjcfReader {
public:
    MjcfReader(const std::string& file, ImportResult& out) : file_(file), out_(out) {}

    bool read(const XMLElement* root);
    nlohmann::json model;
    const exchange::ImportReport& report() const { return report_; }

private:
    void fail(const XMLElement* e, const std::string& path, const std::string& message) {
        out_.diagnostics.push_back(Diagnostic{file_, path, message, e ? e->GetLineNum() : 0, 0});
    }
    const char* attribute(const XMLElement* e, const char* name, const char* kind) const {
        if (const char* a = e->Attribute(name)) return a;
        const auto d = defaults_.find(kind);
        return d != defaults_.end() ? d->second->Attribute(name) : nullptr;
    }
    bool numbers(const XMLElement* e, const char* name, const char* kind, size_t count, std::vector<double>& v,
                 const std::string& path);
    bool vector(const XMLElement* e, const char* name, const char* kind, Vec3& v, const std::string& path) {
        std::vector<double> x;
        if (!numbers(e, name, kind, 3, x, path)) return false;
        if (!x.empty()) v = Vec3(x[0], x[1], x[2]);
        return true;
    }
    double angle(double a) const { return degrees_ ? a * M_PI / 180.0 : a; }
    bool orientation(const XMLElement* e, const char* kind, Quat& q, const std::string& path);
    bool frameOf(const XMLElement* e, const char* kind, Transform& t, const std::string& path) {
        return vector(e, "pos", kind, t.p, path) && orientation(e, kind, t.q, path);
    }
    bool geom(const XMLElement* g, const std::string& path, MassProperties& mp, const Transform& body,
              nlohmann::json& shape, bool& drawn);
    bool body(const XMLElement* e, const MjcfBody& parent, const std::string& parentPath);
    bool equality(const XMLElement* e, const std::string& path);
    std::string bodyPath(const XMLElement* e, const std::string& parentPath) const {
        const char* n = e->Attribute("name");
        return parentPath + "/" + e->Name() + (n ? "[" + std::string(n) + "]" : std::string());
    }

    std::string file_;
    ImportResult& out_;
    exchange::ImportReport report_;
    bool degrees_ = true;
    std::string eulerSequence_ = "xyz";
    std::map<std::string, const XMLElement*> defaults_;  // top-level <default>: joint, geom, ...
    std::map<std::string, MjcfBody> bodies_;             // by MuJoCo name
    std::map<std::string, Transform> sites_;             // global, by name
    struct MeshAsset {
        std::string path;  // empty: not a file LoopLab reads
        Vec3 scale = Vec3::Ones();
    };
    std::map<std::string, MeshAsset> meshes_;  // <asset><mesh>, by name
    std::string meshDirectory_;
    std::map<std::string, std::string> siteBodies_;      // site → LoopLab body
    std::unordered_set<std::string> bodyNames_{"ground"}, jointNames_, markerNames_;
    int unnamedBodies_ = 0, unnamedJoints_ = 0;
};

bool MjcfReader::numbers(const XMLElement* e, const char* name, const char* kind, size_t count, std::vector<double>& v,
                         const std::string& path) {
    const char* text = attribute(e, name, kind);
    v.clear();
    if (!text) return true;
    const auto x = exchange::parseNumbers(text);
    if (!x || (count && x->size() != count)) {
        fail(e, path, std::string("'") + name + "' must be " + (count ? std::to_string(count) + " " : "") +
                          "numbers (got '" + text + "')");
        return false;
    }
    v = *x;
    return true;
}

bool MjcfReader::orientation(const XMLElement* e, const char* kind, Quat& q, const std::string& path) {
    std::vector<double> v;
    if (e->Attribute("quat")) {
        if (!numbers(e, "quat", kind, 4, v, path)) return false;
        q = Quat(v[0], v[1], v[2], v[3]);
        if (q.norm() < 1e-12) {
            fail(e, path, "'quat' must not be zero");
            return false;
        }
        q.normalize();
    } else if (e->Attribute("axisangle")) {
        if (!numbers(e, "axisangle", kind, 4, v, path)) return false;
        const Vec3 axis(v[0], v[1], v[2]);
        if (axis.norm() < 1e-12) {
            fail(e, path, "'axisangle' needs a non-zero axis");
            return false;
        }
        q = Quat(Eigen::AngleAxisd(angle(v[3]), axis.normalized()));
    } else if (e->Attribute("euler")) {
        if (!numbers(e, "euler", kind, 3, v, path)) return false;
        Quat r = Quat::Identity();
        for (size_t k = 0; k < 3; ++k) {
            const char c = eulerSequence_[k];
            const Vec3 axis = std::tolower(c) == 'x' ? Vec3::UnitX() : std::tolower(c) == 'y' ? Vec3::UnitY() : Vec3::UnitZ();
            const Quat rk(Eigen::AngleAxisd(angle(v[k]), axis));
            // Lower case: about the axes as they turn (intrinsic); upper case: fixed axes.
            r = std::islower(static_cast<unsigned char>(c)) ? Quat(r * rk) : Quat(rk * r);
        }
        q = r.normalized();
    } else if (e->Attribute("zaxis")) {
        if (!numbers(e, "zaxis", kind, 3, v, path)) return false;
        const Vec3 z(v[0], v[1], v[2]);
        if (z.norm() < 1e-12) {
            fail(e, path, "'zaxis' must not be zero");
            return false;
        }
        q = Quat::FromTwoVectors(Vec3::UnitZ(), z.normalized());
    } else if (e->Attribute("xyaxes")) {
        if (!numbers(e, "xyaxes", kind, 6, v, path)) return false;
        Vec3 x(v[0], v[1], v[2]), y(v[3], v[4], v[5]);
        if (x.norm() < 1e-12 || x.cross(y).norm() < 1e-12) {
            fail(e, path, "'xyaxes' must be two independent directions");
            return false;
        }
        x.normalize();
        y = (y - y.dot(x) * x).normalized();
        Mat3 R;
        R << x, y, x.cross(y);
        q = Quat(R).normalized();
    } else {
        q = Quat::Identity();
    }
    return true;
}

// Adds a geom's mass (MuJoCo infers a body's inertia from its geoms when it has no
// <inertial>) and makes the first drawable one the body's shape.
bool MjcfReader::geom(const XMLElement* g, const std::string& path, MassProperties& mp, const Transform& body,
                      nlohmann::json& shape, bool& drawn) {
    const char* typeText = attribute(g, "type", "geom");
    const std::string type = typeText ? typeText : "sphere";
    std::vector<double> size, fromto;
    if (!numbers(g, "size", "geom", 0, size, path) || !numbers(g, "fromto", "geom", 6, fromto, path)) return false;
    Transform t;  // in the body's MuJoCo frame
    if (!fromto.empty()) {
        const Vec3 a(fromto[0], fromto[1], fromto[2]), b(fromto[3], fromto[4], fromto[5]);
        if ((b - a).norm() < 1e-12) {
            fail(g, path, "'fromto' needs two different points");
            return false;
        }
        t.p = 0.5 * (a + b);
        t.q = Quat::FromTwoVectors(Vec3::UnitZ(), (b - a).normalized());
        if (size.size() == 1) size.push_back(0.5 * (b - a).norm());
        else if (size.size() >= 2) size[1] = 0.5 * (b - a).norm();
    } else if (!frameOf(g, "geom", t, path)) {
        return false;
    }
    auto need = [&](size_t n) {
        if (size.size() >= n) return true;
        fail(g, path, "a " + type + " geom needs " + std::to_string(n) + " numbers in 'size'");
        return false;
    };
    double volume = 0.0;
    Mat3 unitInertia = Mat3::Zero();  // per unit mass, about the geom's centre, geom axes
    nlohmann::json s;
    if (type == "sphere") {
        if (!need(1)) return false;
        const double r = size[0];
        volume = 4.0 / 3.0 * M_PI * r * r * r;
        unitInertia = Mat3::Identity() * 0.4 * r * r;
        s = {{"type", "sphere"}, {"radius", r}};
    } else if (type == "box") {
        if (!need(3)) return false;
        const double a = size[0], b = size[1], c = size[2];
        volume = 8.0 * a * b * c;
        unitInertia = Vec3(b * b + c * c, a * a + c * c, a * a + b * b).asDiagonal();
        unitInertia /= 3.0;
        s = {{"type", "box"}, {"size", {2 * a, 2 * b, 2 * c}}};
    } else if (type == "cylinder" || type == "capsule") {
        if (!need(2)) return false;
        const double r = size[0], h = size[1];
        const double cylinder = M_PI * r * r * 2 * h, ball = type == "capsule" ? 4.0 / 3.0 * M_PI * r * r * r : 0.0;
        volume = cylinder + ball;
        // A capsule's two hemispheres: 83/320 m r² about each one's centre, 3r/8 beyond the
        // cylinder's end.
        const double across = (cylinder * (3 * r * r + 4 * h * h) / 12 +
                               ball * (83.0 / 320.0 * r * r + (h + 3 * r / 8) * (h + 3 * r / 8))) / volume;
        const double along = (cylinder * r * r / 2 + ball * 0.4 * r * r) / volume;
        unitInertia = Vec3(across, across, along).asDiagonal();
        s = {{"type", "cylinder"}, {"radius", r}, {"length", 2 * h}};
        if (type == "capsule") report_.add("capsules drawn as cylinders of their length without the end caps", "");
    } else if (type == "ellipsoid") {
        if (!need(3)) return false;
        const double a = size[0], b = size[1], c = size[2];
        volume = 4.0 / 3.0 * M_PI * a * b * c;
        unitInertia = Vec3(b * b + c * c, a * a + c * c, a * a + b * b).asDiagonal();
        unitInertia /= 5.0;
        s = {{"type", "sphere"}, {"radius", std::cbrt(a * b * c)}};
        report_.add("ellipsoids drawn as spheres of their mean radius", "");
    } else if (type == "mesh") {
        const char* name = attribute(g, "mesh", "geom");
        const auto asset = name ? meshes_.find(name) : meshes_.end();
        report_.add("mesh geoms not weighed (give the body an <inertial>)", name ? name : "");
        if (asset == meshes_.end() || asset->second.path.empty()) {
            report_.add("mesh geoms not drawn: LoopLab reads STL and OBJ files", name ? name : "");
            return true;
        }
        report_.add("mesh geoms drawn as their files place them (MuJoCo moves a mesh to its centre of mass and "
                    "principal axes)", name);
        s = {{"type", "mesh"}, {"file", asset->second.path}, {"scale", exchange::vecJson(asset->second.scale)}};
        if (!drawn) {
            drawn = true;
            s["offset"] = exchange::vecJson(t.p);
            s["orientation"] = exchange::quatJson(t.q);
            shape = s;
        }
        return true;
    } else {
        report_.add("geoms of type plane and hfield not imported", type);
        return true;
    }
    std::vector<double> massValue, densityValue, rgba;
    if (!numbers(g, "mass", "geom", 1, massValue, path) || !numbers(g, "density", "geom", 1, densityValue, path) ||
        !numbers(g, "rgba", "geom", 4, rgba, path))
        return false;
    const double density = densityValue.empty() ? 1000.0 : densityValue[0];
    const double m = massValue.empty() ? density * volume : massValue[0];
    mp.add(m, t.p, m * unitInertia, t.q.toRotationMatrix());
    if (!drawn) {
        drawn = true;
        // Placed in the body's MuJoCo frame for now; moved into the LoopLab frame once the
        // centre of mass is known.
        s["offset"] = exchange::vecJson(t.p);
        s["orientation"] = exchange::quatJson(t.q);
        if (!rgba.empty()) s["color"] = {rgba[0], rgba[1], rgba[2]};
        shape = s;
    }
    (void)body;
    return true;
}

bool MjcfReader::body(const XMLElement* e, const MjcfBody& parent, const std::string& parentPath) {
    const std::string path = bodyPath(e, parentPath);
    const char* nameText = e->Attribute("name");
    const std::string mujocoName = nameText ? nameText : "body" + std::to_string(++unnamedBodies_);
    if (e->Attribute("childclass") || e->Attribute("class"))
        report_.add("default classes other than the top level's not applied", mujocoName);
    Transform local;
    if (!frameOf(e, "body", local, path)) return false;
    const Transform frame = parent.mujoco * local;

    MassProperties mp;
    nlohmann::json shape;
    bool drawn = false;
    const XMLElement* inertial = e->FirstChildElement("inertial");
    for (const XMLElement* g = e->FirstChildElement("geom"); g; g = g->NextSiblingElement("geom")) {
        MassProperties geomMass;
        if (!geom(g, bodyPath(g, path), inertial ? geomMass : mp, frame, shape, drawn)) return false;
    }
    if (inertial) {
        const std::string ipath = path + "/inertial";
        Transform t;
        std::vector<double> mass, diag, full;
        if (!frameOf(inertial, "inertial", t, ipath) || !numbers(inertial, "mass", "inertial", 1, mass, ipath) ||
            !numbers(inertial, "diaginertia", "inertial", 3, diag, ipath) ||
            !numbers(inertial, "fullinertia", "inertial", 6, full, ipath))
            return false;
        if (mass.empty() || (diag.empty() && full.empty())) {
            fail(inertial, ipath, "<inertial> needs 'mass' and 'diaginertia' or 'fullinertia'");
            return false;
        }
        Mat3 I = Mat3::Zero();
        if (!diag.empty()) I = Vec3(diag[0], diag[1], diag[2]).asDiagonal();
        else I << full[0], full[3], full[4], full[3], full[1], full[5], full[4], full[5], full[2];
        mp.add(mass[0], t.p, I, t.q.toRotationMatrix());
    }

    std::vector<const XMLElement*> joints;
    bool free = false;
    for (const XMLElement* c = e->FirstChildElement(); c; c = c->NextSiblingElement()) {
        const std::string n = c->Name();
        if (n == "freejoint") free = true;
        else if (n == "joint") {
            const char* t = attribute(c, "type", "joint");
            if (t && std::string(t) == "free") free = true;
            else joints.push_back(c);
        } else if (n != "body" && n != "geom" && n != "inertial" && n != "site" && n != "camera" && n != "light") {
            report_.add("body elements not imported", n);
        }
    }

    MjcfBody me;
    me.mujoco = frame;
    const bool welded = joints.empty() && !free;
    if (!(mp.mass > 0.0)) {
        if (!welded) {
            fail(e, path, "body '" + mujocoName + "' moves but has no mass: give it an <inertial> or a geom with volume");
            return false;
        }
        // A massless body welded to its parent is a frame of the parent's.
        me.looplab = parent.looplab;
        me.frame = parent.frame;
        if (drawn) report_.add("shapes of massless welded bodies not drawn", mujocoName);
    } else {
        me.looplab = exchange::uniqueName(mujocoName, bodyNames_);
        me.frame = Transform{frame * mp.centre, frame.q};
        nlohmann::json b = {{"name", me.looplab},
                            {"mass", mp.mass},
                            {"inertia", exchange::inertiaJson(mp.inertia)},
                            {"position", exchange::vecJson(me.frame.p)},
                            {"orientation", exchange::quatJson(me.frame.q)}};
        if (drawn) {
            // From the MuJoCo frame into the centre-of-mass frame (same axes).
            const Vec3 offset = Vec3(shape["offset"][0], shape["offset"][1], shape["offset"][2]) - mp.centre;
            shape["offset"] = exchange::vecJson(offset);
            b["shape"] = shape;
        }
        model["bodies"].push_back(b);
        if (free) {
            // A free joint is what a LoopLab body is without joints.
        } else if (welded) {
            model["joints"].push_back({{"name", exchange::uniqueName(me.looplab + "_weld", jointNames_)},
                                       {"type", "fixed"},
                                       {"body1", parent.looplab},
                                       {"body2", me.looplab},
                                       {"point", exchange::vecJson(frame.p)},
                                       {"axis", exchange::vecJson(frame.q * Vec3::UnitZ())}});
        } else {
            struct Axis {
                std::string name, type;
                Vec3 point, axis;
                std::vector<double> limits;
            };
            std::vector<Axis> axes;
            for (const XMLElement* j : joints) {
                const std::string jpath = bodyPath(j, path);
                const char* typeText = attribute(j, "type", "joint");
                const std::string type = typeText ? typeText : "hinge";
                Vec3 pos = Vec3::Zero(), axis = Vec3::UnitZ();
                if (!vector(j, "pos", "joint", pos, jpath) || !vector(j, "axis", "joint", axis, jpath)) return false;
                if (axis.norm() < 1e-12) {
                    fail(j, jpath, "'axis' must not be zero");
                    return false;
                }
                const char* jn = j->Attribute("name");
                const std::string jname = jn ? jn : "joint" + std::to_string(++unnamedJoints_);
                std::vector<double> range;
                if (!numbers(j, "range", "joint", 2, range, jpath)) return false;
                const char* limited = attribute(j, "limited", "joint");
                const bool hasRange = !range.empty() && range[0] <= range[1] && !(limited && std::string(limited) == "false");
                if (hasRange) report_.add("joint ranges enforced as end stops that hold what strikes them (restitution 0; give 'restitution' for a bounce)", jname);
                for (const char* a : {"damping", "stiffness", "frictionloss", "armature", "springref", "ref"})
                    if (attribute(j, a, "joint")) report_.add(std::string("joint '") + a + "' not imported", jname);
                std::string looplabType;
                if (type == "hinge") looplabType = "revolute";
                else if (type == "slide") looplabType = "prismatic";
                else if (type == "ball") looplabType = "spherical";
                else {
                    fail(j, jpath, "joint type '" + type + "' is not one LoopLab reads (hinge, slide, ball, free)");
                    return false;
                }
                Axis a{jname, looplabType, frame * pos, (frame.q * axis).normalized(), {}};
                if (hasRange && type != "ball")
                    a.limits = type == "hinge" ? std::vector<double>{angle(range[0]), angle(range[1])} : range;
                axes.push_back(a);
            }
            auto add = [&](const std::string& name, const std::string& type, const Vec3& point, const Vec3& axis,
                           const Vec3* axis2, const std::vector<double>& limits) {
                nlohmann::json j = {{"name", exchange::uniqueName(name, jointNames_)},
                                    {"type", type},
                                    {"body1", parent.looplab},
                                    {"body2", me.looplab},
                                    {"point", exchange::vecJson(point)}};
                if (type != "spherical") j["axis"] = exchange::vecJson(axis);
                if (axis2) j["axis2"] = exchange::vecJson(*axis2);
                if (!limits.empty()) j["limits"] = limits;
                model["joints"].push_back(j);
            };
            if (axes.size() == 1) {
                add(axes[0].name, axes[0].type, axes[0].point, axes[0].axis, nullptr, axes[0].limits);
            } else if (axes.size() == 2 && axes[0].type == "revolute" && axes[1].type == "revolute" &&
                       (axes[0].point - axes[1].point).norm() < 1e-12 && std::abs(axes[0].axis.dot(axes[1].axis)) < 1e-9) {
                // Two hinges about crossing perpendicular axes: a universal joint.
                add(axes[0].name, "universal", axes[0].point, axes[0].axis, &axes[1].axis, {});
                report_.add("two hinges about crossing perpendicular axes made one universal joint",
                            axes[0].name + " + " + axes[1].name);
            } else {
                fail(e, path, "body '" + mujocoName + "' has " + std::to_string(axes.size()) +
                                  " joints: LoopLab takes one, or two hinges about crossing perpendicular axes");
                return false;
            }
        }
    }
    bodies_[mujocoName] = me;
    for (const XMLElement* s = e->FirstChildElement("site"); s; s = s->NextSiblingElement("site")) {
        Transform t;
        const std::string spath = bodyPath(s, path);
        if (!frameOf(s, "site", t, spath)) return false;
        const char* sn = s->Attribute("name");
        if (!sn) continue;
        const Transform global = frame * t;
        sites_[sn] = global;
        siteBodies_[sn] = me.looplab;
        const Transform onBody = me.frame.inverse() * global;
        model["markers"].push_back({{"name", exchange::uniqueName(sn, markerNames_)},
                                    {"body", me.looplab},
                                    {"position", exchange::vecJson(onBody.p)},
                                    {"orientation", exchange::quatJson(onBody.q)}});
    }
    // A call per level of nesting: no deeper than the XML reader reads (kMaxNestedMjcfBodies).
    for (const XMLElement* c = e->FirstChildElement("body"); c; c = c->NextSiblingElement("body"))
        if (!body(c, me, path)) return false;
    return true;
}

bool MjcfReader::equality(const XMLElement* e, const std::string& parentPath) {
    const std::string kind = e->Name();
    const std::string path = bodyPath(e, parentPath);
    const char* n = e->Attribute("name");
    const std::string name = n ? n : kind;
    if (kind != "connect" && kind != "weld") {
        report_.add("equalities other than connect and weld not imported", kind);
        return true;
    }
    if (e->Attribute("solref") || e->Attribute("solimp"))
        report_.add("equality softness (solref, solimp) not imported: LoopLab holds equalities exactly", name);
    const char* b1 = e->Attribute("body1");
    const char* b2 = e->Attribute("body2");
    const char* s1 = e->Attribute("site1");
    const char* s2 = e->Attribute("site2");
    std::string body1, body2;
    Vec3 point;
    if (s1 && s2) {
        if (!sites_.count(s1) || !sites_.count(s2)) {
            fail(e, path, std::string("no site named '") + (sites_.count(s1) ? s2 : s1) + "'");
            return false;
        }
        body1 = siteBodies_[s1];
        body2 = siteBodies_[s2];
        if ((sites_[s1].p - sites_[s2].p).norm() > 1e-9) {
            // Sites apart at qpos0: the joint is between the two marker frames, and assembly
            // closes it.
            model["joints"].push_back({{"name", exchange::uniqueName(name, jointNames_)},
                                       {"type", kind == "connect" ? "spherical" : "fixed"},
                                       {"marker1", s1},
                                       {"marker2", s2}});
            return true;
        }
        point = sites_[s1].p;
    } else if (b1) {
        if (!bodies_.count(b1) || (b2 && !bodies_.count(b2))) {
            fail(e, path, std::string("no body named '") + (bodies_.count(b1) ? b2 : b1) + "'");
            return false;
        }
        const MjcfBody& first = bodies_[b1];
        const MjcfBody second = b2 ? bodies_[b2] : MjcfBody{"ground", Transform{}, Transform{}};
        body1 = first.looplab;
        body2 = second.looplab;
        Vec3 anchor = Vec3::Zero();
        if (!vector(e, "anchor", "equality", anchor, path)) return false;
        if (kind == "connect" && !e->Attribute("anchor")) {
            fail(e, path, "a connect needs 'anchor' (in body1's frame)");
            return false;
        }
        if (kind == "weld" && (e->Attribute("relpose") || e->Attribute("anchor")))
            report_.add("weld 'relpose' and 'anchor' not imported: the weld holds the pose at qpos0", name);
        point = kind == "connect" ? first.mujoco * anchor : second.mujoco.p;
    } else {
        fail(e, path, "a " + kind + " needs body1 (and body2), or site1 and site2");
        return false;
    }
    if (body1 == body2) {
        report_.add("equalities between parts of one rigid body dropped (they hold anyway)", name);
        return true;
    }
    nlohmann::json j = {{"name", exchange::uniqueName(name, jointNames_)},
                        {"type", kind == "connect" ? "spherical" : "fixed"},
                        {"body1", body1},
                        {"body2", body2},
                        {"point", exchange::vecJson(point)}};
    if (kind == "weld") j["axis"] = {0, 0, 1};
    model["joints"].push_back(j);
    return true;
}

bool MjcfReader::read(const XMLElement* root) {
    model = {{"format", kModelFormatName}, {"version", kModelFormatVersion},
             {"bodies", nlohmann::json::array()}, {"joints", nlohmann::json::array()},
             {"markers", nlohmann::json::array()}};
    if (const char* n = root->Attribute("model")) model["name"] = n;
    model["gravity"] = {0.0, 0.0, -9.81};
    for (const XMLElement* c = root->FirstChildElement(); c; c = c->NextSiblingElement()) {
        const std::string n = c->Name();
        const std::string path = "mujoco/" + n;
        if (n == "compiler") {
            if (const char* a = c->Attribute("angle")) degrees_ = std::string(a) != "radian";
            if (const char* d = c->Attribute("meshdir")) meshDirectory_ = d;
            if (const char* s = c->Attribute("eulerseq")) {
                eulerSequence_ = s;
                if (eulerSequence_.size() != 3 ||
                    eulerSequence_.find_first_not_of("xyzXYZ") != std::string::npos) {
                    fail(c, path, "'eulerseq' must be three of x, y, z (or X, Y, Z)");
                    return false;
                }
            }
        } else if (n == "option") {
            Vec3 g(0, 0, -9.81);
            if (!vector(c, "gravity", "option", g, path)) return false;
            model["gravity"] = exchange::vecJson(g);
        } else if (n == "default") {
            for (const XMLElement* d = c->FirstChildElement(); d; d = d->NextSiblingElement()) {
                if (std::string(d->Name()) == "default") report_.add("default classes other than the top level's not applied", d->Attribute("class") ? d->Attribute("class") : "");
                else defaults_[d->Name()] = d;
            }
        } else if (n == "asset") {
            for (const XMLElement* a = c->FirstChildElement(); a; a = a->NextSiblingElement()) {
                if (std::string(a->Name()) != "mesh") {
                    report_.add("assets not imported", std::string("<") + a->Name() + ">");
                    continue;
                }
                const char* f = a->Attribute("file");
                if (!f) continue;
                const std::string base = std::filesystem::path(f).stem().string();
                const std::string name = a->Attribute("name") ? a->Attribute("name") : base;
                MeshAsset m;
                std::vector<double> scale;
                if (!numbers(a, "scale", "mesh", 3, scale, path + "/mesh[" + name + "]")) return false;
                if (!scale.empty()) m.scale = Vec3(scale[0], scale[1], scale[2]);
                const std::string relative = meshDirectory_.empty() ? f : (std::filesystem::path(meshDirectory_) / f).string();
                m.path = exchange::meshPath(relative, file_);
                meshes_[name] = m;
            }
        } else if (n == "worldbody" || n == "equality") {
            // Below, in order: bodies first, then the equalities that refer to them.
        } else if (n == "size" || n == "visual" || n == "statistic") {
            // Simulation and display settings of MuJoCo's own.
        } else {
            int count = 0;
            for (const XMLElement* x = c->FirstChildElement(); x; x = x->NextSiblingElement()) ++count;
            report_.add("sections not imported", "<" + n + ">" + (count ? " (" + std::to_string(count) + " entries)" : ""));
        }
    }
    const XMLElement* world = root->FirstChildElement("worldbody");
    if (!world) {
        fail(root, "mujoco", "no <worldbody>");
        return false;
    }
    const MjcfBody ground{"ground", Transform{}, Transform{}};
    for (const XMLElement* c = world->FirstChildElement(); c; c = c->NextSiblingElement()) {
        const std::string n = c->Name();
        if (n == "body") {
            if (!body(c, ground, "mujoco/worldbody")) return false;
        } else if (n == "geom") {
            report_.add("geoms of the world body not drawn", c->Attribute("name") ? c->Attribute("name") : "");
        } else if (n == "site") {
            Transform t;
            if (!frameOf(c, "site", t, "mujoco/worldbody/site")) return false;
            if (const char* sn = c->Attribute("name")) {
                sites_[sn] = t;
                siteBodies_[sn] = "ground";
                model["markers"].push_back({{"name", exchange::uniqueName(sn, markerNames_)},
                                            {"body", "ground"},
                                            {"position", exchange::vecJson(t.p)},
                                            {"orientation", exchange::quatJson(t.q)}});
            }
        } else if (n != "light" && n != "camera") {
            report_.add("world body elements not imported", n);
        }
    }
    for (const XMLElement* eq = root->FirstChildElement("equality"); eq; eq = eq->NextSiblingElement("equality"))
        for (const XMLElement* c = eq->FirstChildElement(); c; c = c->NextSiblingElement())
            if (!equality(c, "mujoco/equality")) return false;
    if (model["markers"].empty()) model.erase("markers");
    return true;
}

}  // namespace

ImportResult importMjcf(const std::string& xmlText, const std::string& file) {
    ImportResult out;
    tinyxml2::XMLDocument xml;
    const XMLElement* root = exchange::xmlRoot(xml, xmlText, file, "mujoco", "an MJCF", out);
    if (!root) return out;
    MjcfReader reader(file, out);
    if (!reader.read(root)) return out;
    exchange::finishImport(reader.model, file, reader.report(), out);
    return out;
}

}  // namespace looplab
