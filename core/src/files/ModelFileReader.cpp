// The model file's reader: the JSON tree checked field by field into a ModelDocument, each
// problem a diagnostic at its JSON pointer (docs/model-format.md).
#include "looplab/files/ModelFile.h"

#include "looplab/integrate/MethodRegistry.h"
#include "looplab/model/InputFile.h"
#include "looplab/model/ModelBuilder.h"
#include "looplab/model/ShapeMassProperties.h"
#include "files/JsonLocator.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>

namespace looplab {

using nlohmann::json;
using json_input::pointerToken;

namespace {

// Walks a parsed JSON tree, converting values and recording every problem with the JSON
// pointer of the offending value.
class Reader : public json_input::JsonLocator {
public:
    using JsonLocator::JsonLocator;

    bool numbers(const json& v, const std::string& where, std::vector<double>& out, size_t n) {
        if (!v.is_array() || (n && v.size() != n)) {
            error(where, n ? "expected an array of " + std::to_string(n) + " numbers"
                           : std::string("expected an array of numbers"));
            return false;
        }
        out.clear();
        for (size_t i = 0; i < v.size(); ++i) {
            if (!v[i].is_number()) {
                error(where + "/" + std::to_string(i), "expected a number, found " + typeName(v[i]));
                return false;
            }
            out.push_back(v[i].get<double>());
        }
        return true;
    }

    bool vec3(const json& obj, const char* key, const std::string& where, Vec3& out,
              bool required = false) {
        const json* v = field(obj, key, where, required);
        if (!v) return false;
        std::vector<double> x;
        if (!numbers(*v, where + "/" + key, x, 3)) return false;
        out = Vec3(x[0], x[1], x[2]);
        return true;
    }

    bool quat(const json& obj, const char* key, const std::string& where, Quat& out) {
        const json* v = field(obj, key, where, false);
        if (!v) return false;
        std::vector<double> x;
        if (!numbers(*v, where + "/" + key, x, 4)) return false;
        out = Quat(x[0], x[1], x[2], x[3]);
        return true;
    }

    // Inertia as [Ixx, Iyy, Izz], [Ixx, Iyy, Izz, Ixy, Ixz, Iyz] or a 3×3 matrix.
    bool inertia(const json& obj, const std::string& where, Mat3& out) {
        const json* v = field(obj, "inertia", where, true);
        if (!v) return false;
        const std::string p = where + "/inertia";
        if (v->is_array() && v->size() == 3 && (*v)[0].is_array()) {
            for (int r = 0; r < 3; ++r) {
                std::vector<double> row;
                if (!numbers((*v)[static_cast<size_t>(r)], p + "/" + std::to_string(r), row, 3))
                    return false;
                for (int c = 0; c < 3; ++c) out(r, c) = row[static_cast<size_t>(c)];
            }
            return true;
        }
        std::vector<double> x;
        if (!v->is_array() || (v->size() != 3 && v->size() != 6)) {
            error(p, "expected [Ixx, Iyy, Izz], [Ixx, Iyy, Izz, Ixy, Ixz, Iyz] or a 3x3 matrix");
            return false;
        }
        if (!numbers(*v, p, x, 0)) return false;
        out.setZero();
        out(0, 0) = x[0];
        out(1, 1) = x[1];
        out(2, 2) = x[2];
        if (x.size() == 6) {
            out(0, 1) = out(1, 0) = x[3];
            out(0, 2) = out(2, 0) = x[4];
            out(1, 2) = out(2, 1) = x[5];
        }
        return true;
    }

    bool law(const json& v, const std::string& where, TimeLaw& out) {
        if (!object(v, where, {"type", "value", "initial", "rate", "coefficients", "amplitude",
                               "frequency", "phase", "offset", "t0", "h0", "t1", "h1"}))
            return false;
        std::string type;
        if (!text(v, "type", where, type, true)) return false;
        if (!timeLawKindFromName(type, out.kind)) {
            error(where + "/type", "unknown time law '" + type +
                                       "' (constant, constant_velocity, polynomial, harmonic, "
                                       "smooth_step)");
            return false;
        }
        size_t before = errorCount();
        switch (out.kind) {
        case TimeLaw::Kind::Constant: number(v, "value", where, out.initial, true); break;
        case TimeLaw::Kind::ConstantVelocity:
            number(v, "initial", where, out.initial);
            number(v, "rate", where, out.rate, true);
            break;
        case TimeLaw::Kind::Polynomial:
            if (const json* c = field(v, "coefficients", where, true))
                numbers(*c, where + "/coefficients", out.coefficients, 0);
            break;
        case TimeLaw::Kind::Harmonic:
            number(v, "amplitude", where, out.amplitude, true);
            number(v, "frequency", where, out.frequency, true);
            number(v, "phase", where, out.phase);
            number(v, "offset", where, out.offset);
            break;
        case TimeLaw::Kind::SmoothStep:
            number(v, "t0", where, out.t0, true);
            number(v, "h0", where, out.h0, true);
            number(v, "t1", where, out.t1, true);
            number(v, "h1", where, out.h1, true);
            break;
        }
        return errorCount() == before;
    }

    bool shape(const json& v, const std::string& where, VisualShape& out) {
        if (!object(v, where, {"type", "size", "radius", "length", "file", "scale", "offset", "orientation", "color"}))
            return false;
        std::string type;
        if (!text(v, "type", where, type, true)) return false;
        if (!visualShapeKindFromName(type, out.kind)) {
            error(where + "/type", "unknown shape '" + type + "' (box, cylinder, sphere, mesh, none)");
            return false;
        }
        const size_t before = errorCount();
        if (out.kind == VisualShape::Kind::Box) vec3(v, "size", where, out.size, true);
        if (out.kind == VisualShape::Kind::Cylinder || out.kind == VisualShape::Kind::Sphere)
            number(v, "radius", where, out.radius, true);
        if (out.kind == VisualShape::Kind::Cylinder) number(v, "length", where, out.length, true);
        if (out.kind == VisualShape::Kind::Mesh) {
            if (text(v, "file", where, out.file, true) && out.file.empty()) error(where + "/file", "the mesh file's name is empty");
            vec3(v, "scale", where, out.scale);
            if (!(out.scale.array() > 0.0).all() || !out.scale.allFinite())
                error(where + "/scale", "scale factors must be positive");
        }
        vec3(v, "offset", where, out.offset);
        quat(v, "orientation", where, out.orientation);
        if (const json* c = field(v, "color", where, false)) {
            std::vector<double> rgb;
            if (numbers(*c, where + "/color", rgb, 3)) {
                for (int i = 0; i < 3; ++i) {
                    if (!(rgb[static_cast<size_t>(i)] >= 0.0 && rgb[static_cast<size_t>(i)] <= 1.0))
                        error(where + "/color/" + std::to_string(i), "colour components lie in [0, 1]");
                    out.color[static_cast<size_t>(i)] = rgb[static_cast<size_t>(i)];
                }
            }
        }
        if (out.size.minCoeff() < 0.0 || out.radius < 0.0 || out.length < 0.0)
            error(where, "shape dimensions must not be negative");
        return errorCount() == before;
    }

    // A tooth count: a whole number from 1 to a million.
    void teeth(const json& c, const char* key, const std::string& where, std::optional<int>& out) {
        const json* v = field(c, key, where, false);
        if (!v) return;
        if (!v->is_number_integer() || v->get<long long>() < 1 || v->get<long long>() > 1000000) {
            error(where + "/" + key, "a tooth count is a whole number from 1 to 1000000, found " + v->dump());
            return;
        }
        out = static_cast<int>(v->get<long long>());
    }

    bool flag(const json& c, const char* key, const std::string& where, bool& out) {
        const json* v = field(c, key, where, false);
        if (!v) return false;
        if (!v->is_boolean()) {
            error(where + "/" + key, "expected true or false, found " + typeName(*v));
            return false;
        }
        out = v->get<bool>();
        return true;
    }

    void coupler(const json& c, const std::string& p, ModelDocument& doc) {
        CouplerDoc cd;
        if (!object(c, p, {"name", "type", "joints", "teeth1", "teeth2", "radius1", "radius2", "internal",
                           "crossed", "coefficients", "pressure_angle", "follower", "roller_radius", "follower_point", "start_angle",
                           "law", "lift_table", "profile"}))
            return;
        text(c, "name", p, cd.name, true);
        std::string type;
        if (text(c, "type", p, type, true) && !couplerTypeFromName(type, cd.type)) {
            error(p + "/type", "unknown coupler type '" + type + "' (gear, rack_and_pinion, belt, linear, cam)");
            return;
        }
        if (const json* j = field(c, "joints", p, true)) {
            if (!j->is_array()) {
                error(p + "/joints", "expected an array of joint names, found " + typeName(*j));
            } else {
                for (size_t i = 0; i < j->size(); ++i) {
                    if (!(*j)[i].is_string()) {
                        error(p + "/joints/" + std::to_string(i), "expected a joint name, found " + typeName((*j)[i]));
                        continue;
                    }
                    cd.joints.push_back((*j)[i].get<std::string>());
                }
            }
        }
        auto only = [&](bool allowed, const char* key, const char* what) {
            if (!allowed && c.contains(key))
                error(p + "/" + key, std::string("'") + key + "' belongs to " + what + ", not to a " +
                                         couplerTypeName(cd.type) + " coupler");
        };
        const bool gear = cd.type == CouplerType::Gear, belt = cd.type == CouplerType::Belt;
        const bool rack = cd.type == CouplerType::RackAndPinion, linear = cd.type == CouplerType::Linear;
        only(gear, "teeth1", "a gear");
        only(gear, "teeth2", "a gear");
        only(gear, "internal", "a gear");
        only(belt, "crossed", "a belt");
        only(gear || belt || rack, "radius1", "a gear, a belt or a rack and pinion");
        only(gear || belt, "radius2", "a gear or a belt");
        only(linear, "coefficients", "a linear coupler");
        only(gear || rack, "pressure_angle", "a gear or a rack and pinion");
        optionalNumber(c, "pressure_angle", p, cd.pressureAngle);
        const bool cam = cd.type == CouplerType::Cam;
        for (const char* key : {"follower", "follower_point", "start_angle", "law", "lift_table", "profile", "roller_radius"})
            only(cam, key, "a cam");
        if (cam) camFields(c, p, cd.cam);
        teeth(c, "teeth1", p, cd.teeth1);
        teeth(c, "teeth2", p, cd.teeth2);
        optionalNumber(c, "radius1", p, cd.radius1);
        optionalNumber(c, "radius2", p, cd.radius2);
        flag(c, "internal", p, cd.internal);
        flag(c, "crossed", p, cd.crossed);
        if (linear)
            if (const json* k = field(c, "coefficients", p, true)) numbers(*k, p + "/coefficients", cd.coefficients, 0);
        doc.couplers.push_back(cd);
    }

    void camFields(const json& c, const std::string& p, CamDoc& cam) {
        std::string follower;
        if (text(c, "follower", p, follower, true) && !camFollowerFromName(follower, cam.follower))
            error(p + "/follower", "unknown follower '" + follower + "' (knife_edge, roller, flat_face)");
        if (cam.follower == CamFollower::Roller) {
            number(c, "roller_radius", p, cam.rollerRadius, true);
        } else if (c.contains("roller_radius")) {
            error(p + "/roller_radius", "'roller_radius' belongs to a roller follower");
        }
        vec3(c, "follower_point", p, cam.followerPoint, true);
        number(c, "start_angle", p, cam.startAngle);
        if (int(c.contains("law")) + int(c.contains("lift_table")) + int(c.contains("profile")) != 1) {
            error(p, "a cam gives its law as segments (law), a table of lifts (lift_table) or its profile (profile), "
                     "one of them");
            return;
        }
        if (const json* profile = field(c, "profile", p, false)) {
            if (!profile->is_array()) {
                error(p + "/profile", "expected an array of [x, y, z] points, found " + typeName(*profile));
                return;
            }
            for (size_t i = 0; i < profile->size(); ++i) {
                std::vector<double> point;
                if (numbers((*profile)[i], p + "/profile/" + std::to_string(i), point, 3))
                    cam.profile.emplace_back(point[0], point[1], point[2]);
            }
        }
        if (const json* law = field(c, "law", p, false)) {
            if (!law->is_array()) {
                error(p + "/law", "expected an array of segments, found " + typeName(*law));
                return;
            }
            for (size_t i = 0; i < law->size(); ++i) {
                const json& seg = (*law)[i];
                const std::string at = p + "/law/" + std::to_string(i);
                if (!object(seg, at, {"motion", "angle", "lift"})) continue;
                CamSegment s;
                std::string motion;
                if (text(seg, "motion", at, motion, true) && !camMotionFromName(motion, s.motion)) {
                    error(at + "/motion", "unknown motion '" + motion + "' (dwell, cycloidal, harmonic, polynomial345)");
                    continue;
                }
                number(seg, "angle", at, s.angle, true);
                if (s.motion == CamMotion::Dwell && seg.contains("lift"))
                    error(at + "/lift", "a dwell has no lift");
                else
                    number(seg, "lift", at, s.lift, s.motion != CamMotion::Dwell);
                cam.segments.push_back(s);
            }
        }
        if (const json* table = field(c, "lift_table", p, false)) {
            if (!table->is_array()) {
                error(p + "/lift_table", "expected an array of [angle, lift] pairs, found " + typeName(*table));
                return;
            }
            for (size_t i = 0; i < table->size(); ++i) {
                std::vector<double> pair;
                if (numbers((*table)[i], p + "/lift_table/" + std::to_string(i), pair, 2))
                    cam.table.emplace_back(pair[0], pair[1]);
            }
        }
    }

    // A coefficient of restitution, refused outside [0, 1] with its place.
    void restitution(const json& obj, const std::string& p, std::optional<double>& out) {
        if (optionalNumber(obj, "restitution", p, out) && !(*out >= 0.0 && *out <= 1.0)) {
            error(p + "/restitution", "the coefficient of restitution is " + obj["restitution"].dump() +
                                          ": it lies between 0 (the stop holds what strikes it) and 1 (a bounce "
                                          "that keeps all the approach speed)");
            out.reset();
        }
    }

    // Iterates the array at key, calling fn(element, pointer) for each.
    template <typename Fn>
    void list(const json& root, const char* key, Fn fn) {
        auto it = root.find(key);
        if (it == root.end()) return;
        const std::string where = std::string("/") + key;
        if (!it->is_array()) {
            error(where, "expected an array, found " + typeName(*it));
            return;
        }
        for (size_t i = 0; i < it->size(); ++i) fn((*it)[i], where + "/" + std::to_string(i));
    }

    void document(const json& root, ModelDocument& doc) {
        // A study file opened as a model would otherwise get an "unknown field" for each of
        // its keys: say what it is and where it opens.
        if (root.is_object() && root.contains("format") && root["format"] == "looplab-study") {
            error("/format", "this is a study file (format 'looplab-study'), not a model: run it with "
                             "`looplab-cli study`, or open it in the workbench's Study panel");
            return;
        }
        if (!object(root, "", {"format", "version", "name", "description", "gravity", "bodies",
                               "markers", "joints", "drivers", "couplers", "stops", "forces", "beams", "solids", "node_sets", "expected",
                               "run", "camera", "traces"}))
            return;
        std::string format;
        if (text(root, "format", "", format, true) && format != kModelFormatName)
            error("/format", "format is '" + format + "', expected '" + kModelFormatName + "'");
        if (const json* v = field(root, "version", "", true)) {
            if (!v->is_number_integer())
                error("/version", "expected an integer version");
            else if (!v->is_number_unsigned() ||
                     v->get<json::number_unsigned_t>() != kModelFormatVersion)
                error("/version", "unsupported format version " + v->dump() +
                                      " (this LoopLab reads version " +
                                      std::to_string(kModelFormatVersion) + ")");
        }
        text(root, "name", "", doc.name);
        text(root, "description", "", doc.description);
        vec3(root, "gravity", "", doc.gravity);
        list(root, "bodies", [&](const json& b, const std::string& p) {
            BodyDoc body;
            if (!object(b, p, {"name", "mass", "inertia", "density", "position", "orientation", "velocity",
                               "angular_velocity", "shape"}))
                return;
            text(b, "name", p, body.name, true);
            if (b.contains("density")) {
                optionalNumber(b, "density", p, body.density);
                for (const char* k : {"mass", "inertia"})
                    if (b.contains(k))
                        error(p + "/" + k, std::string("the ") + k +
                                               " follows from 'density' and the shape; give either a density "
                                               "or mass and inertia, not both");
            } else {
                number(b, "mass", p, body.mass, true);
                inertia(b, p, body.inertia);
            }
            vec3(b, "position", p, body.position);
            quat(b, "orientation", p, body.orientation);
            vec3(b, "velocity", p, body.velocity);
            vec3(b, "angular_velocity", p, body.angularVelocity);
            if (const json* s = field(b, "shape", p, false)) shape(*s, p + "/shape", body.shape);
            applyShapeMassProperties(body);
            doc.bodies.push_back(body);
        });
        list(root, "markers", [&](const json& m, const std::string& p) {
            MarkerDoc mk;
            if (!object(m, p, {"name", "body", "position", "orientation"})) return;
            text(m, "name", p, mk.name, true);
            text(m, "body", p, mk.body, true);
            vec3(m, "position", p, mk.position);
            quat(m, "orientation", p, mk.orientation);
            doc.markers.push_back(mk);
        });
        list(root, "joints", [&](const json& j, const std::string& p) {
            JointDoc jd;
            if (!object(j, p, {"name", "type", "marker1", "marker2", "body1", "body2", "point",
                               "axis", "axis2", "point2", "length", "lead", "limits", "restitution"}))
                return;
            text(j, "name", p, jd.name, true);
            std::string type;
            if (text(j, "type", p, type, true) && !jointTypeFromName(type, jd.type)) {
                error(p + "/type", "unknown joint type '" + type +
                                       "' (revolute, prismatic, spherical, cylindrical, "
                                       "universal, fixed, planar, distance, point_on_line, "
                                       "point_on_plane, screw)");
                return;
            }
            const bool markers = j.contains("marker1") || j.contains("marker2");
            jd.byMarkers = markers;
            if (markers) {
                text(j, "marker1", p, jd.marker1, true);
                text(j, "marker2", p, jd.marker2, true);
                for (const char* k : {"body1", "body2", "point", "axis", "axis2", "point2"})
                    if (j.contains(k))
                        error(p + "/" + k, std::string("'") + k +
                                               "' cannot be combined with markers");
            } else {
                text(j, "body1", p, jd.body1, true);
                text(j, "body2", p, jd.body2, true);
                vec3(j, "point", p, jd.point, true);
                const bool needsAxis = jd.type != JointType::Spherical &&
                                       jd.type != JointType::Distance;
                if (!vec3(j, "axis", p, jd.axis, needsAxis) && !needsAxis) jd.axis = Vec3::UnitZ();
                vec3(j, "axis2", p, jd.axis2);
                if (jd.type == JointType::Distance) vec3(j, "point2", p, jd.point2, true);
            }
            optionalNumber(j, "length", p, jd.length);
            optionalNumber(j, "lead", p, jd.lead);
            if (jd.lead && jd.type != JointType::Screw) error(p + "/lead", "'lead' belongs to a screw joint");
            if (const json* l = field(j, "limits", p, false)) {
                std::vector<double> range;
                if (numbers(*l, p + "/limits", range, 2)) {
                    if (!(range[0] <= range[1]))
                        error(p + "/limits", "limits are [lower, upper] with lower not above upper");
                    else
                        jd.limits = std::array<double, 2>{range[0], range[1]};
                }
            }
            restitution(j, p, jd.restitution);
            if (jd.restitution && !j.contains("limits"))
                error(p + "/restitution", "'restitution' belongs to a joint's 'limits', and this joint has none");
            doc.joints.push_back(jd);
        });
        list(root, "drivers", [&](const json& d, const std::string& p) {
            DriverDoc dd;
            if (!object(d, p, {"name", "joint", "law"})) return;
            text(d, "name", p, dd.name, true);
            text(d, "joint", p, dd.joint, true);
            if (const json* l = field(d, "law", p, true)) law(*l, p + "/law", dd.law);
            doc.drivers.push_back(dd);
        });
        list(root, "couplers", [&](const json& c, const std::string& p) { coupler(c, p, doc); });
        list(root, "stops", [&](const json& st, const std::string& p) {
            StopDoc sd;
            if (!object(st, p, {"name", "body1", "body2", "point1", "point2", "min", "max", "restitution"})) return;
            text(st, "name", p, sd.name, true);
            text(st, "body1", p, sd.body1, true);
            text(st, "body2", p, sd.body2, true);
            vec3(st, "point1", p, sd.point1, true);
            vec3(st, "point2", p, sd.point2, true);
            for (const char* k : {"min", "max"}) {
                std::optional<double>& bound = k[1] == 'i' ? sd.min : sd.max;
                if (optionalNumber(st, k, p, bound) && !(*bound >= 0.0)) {
                    error(p + "/" + k, std::string("the stop's ") + k + " distance is " + st[k].dump() +
                                           " m: a distance is not negative");
                    bound.reset();
                }
            }
            if (!st.contains("min") && !st.contains("max"))
                error(p, "a stop needs 'min' (a contact: the points stay at least that far apart), 'max' (a rope: "
                         "at most that far apart) or both");
            if (sd.min && sd.max && !(*sd.min <= *sd.max))
                error(p + "/max", "the stop's max distance is below its min distance");
            restitution(st, p, sd.restitution);
            doc.stops.push_back(sd);
        });
        list(root, "forces", [&](const json& f, const std::string& p) {
            ForceDoc fd;
            if (!object(f, p, {"name", "type", "body1", "body2", "point1", "point2", "stiffness",
                               "damping", "free_length", "preload", "joint", "free_angle", "body",
                               "point", "vector", "law", "voltage", "torque_constant", "resistance",
                               "gear_ratio", "efficiency", "table"}))
                return;
            text(f, "name", p, fd.name, true);
            std::string type;
            if (text(f, "type", p, type, true) && !forceTypeFromName(type, fd.type)) {
                error(p + "/type", "unknown force type '" + type +
                                       "' (spring_damper, rotational_spring_damper, "
                                       "body_force, body_torque, dc_motor, table_motor)");
                return;
            }
            switch (fd.type) {
            case ForceType::SpringDamper:
                text(f, "body1", p, fd.body1, true);
                text(f, "body2", p, fd.body2, true);
                vec3(f, "point1", p, fd.point1, true);
                vec3(f, "point2", p, fd.point2, true);
                number(f, "stiffness", p, fd.stiffness);
                number(f, "damping", p, fd.damping);
                optionalNumber(f, "free_length", p, fd.freeLength);
                number(f, "preload", p, fd.preload);
                break;
            case ForceType::RotationalSpringDamper:
                text(f, "joint", p, fd.joint, true);
                number(f, "stiffness", p, fd.stiffness);
                number(f, "damping", p, fd.damping);
                number(f, "free_angle", p, fd.freeAngle);
                break;
            case ForceType::BodyForce:
            case ForceType::BodyTorque:
                text(f, "body", p, fd.body, true);
                vec3(f, "vector", p, fd.vector, true);
                if (fd.type == ForceType::BodyForce) vec3(f, "point", p, fd.localPoint);
                if (const json* l = field(f, "law", p, false)) {
                    TimeLaw tl;
                    if (law(*l, p + "/law", tl)) fd.law = tl;
                }
                break;
            case ForceType::DcMotor:
            case ForceType::TableMotor:
                text(f, "joint", p, fd.joint, true);
                number(f, "gear_ratio", p, fd.motor.gearRatio);
                number(f, "efficiency", p, fd.motor.efficiency);
                if (fd.type == ForceType::DcMotor) {
                    if (const json* l = field(f, "voltage", p, true)) law(*l, p + "/voltage", fd.motor.voltage);
                    number(f, "torque_constant", p, fd.motor.torqueConstant, true);
                    number(f, "resistance", p, fd.motor.resistance, true);
                } else if (const json* table = field(f, "table", p, true)) {
                    if (!table->is_array()) {
                        error(p + "/table", "expected an array of [speed, torque] points, found " + typeName(*table));
                    } else {
                        for (size_t i = 0; i < table->size(); ++i) {
                            std::vector<double> pair;
                            if (numbers((*table)[i], p + "/table/" + std::to_string(i), pair, 2))
                                fd.motor.table.emplace_back(pair[0], pair[1]);
                        }
                    }
                }
                break;
            }
            doc.forces.push_back(fd);
        });
        // --- beams ---
        list(root, "beams", [&](const json& b, const std::string& p) {
            BeamDoc beam;
            if (!object(b, p, {"name", "from", "to", "elements", "material", "section", "preload"})) return;
            text(b, "name", p, beam.name, true);
            vec3(b, "from", p, beam.from, true);
            vec3(b, "to", p, beam.to, true);
            if (const json* n = field(b, "elements", p, true)) {
                if (!n->is_number_integer() || n->get<long long>() < 1 || n->get<long long>() > kMaxBeamElements)
                    error(p + "/elements", "expected a whole number of elements from 1 to " +
                                               std::to_string(kMaxBeamElements) + ", found " + n->dump());
                else
                    beam.elements = static_cast<int>(n->get<long long>());
            }
            if (const json* m = field(b, "material", p, true)) {
                const std::string mp = p + "/material";
                if (object(*m, mp, {"young_modulus", "poisson_ratio", "density", "stiffness_damping"})) {
                    number(*m, "young_modulus", mp, beam.material.youngModulus, true);
                    number(*m, "poisson_ratio", mp, beam.material.poissonRatio);
                    number(*m, "density", mp, beam.material.density, true);
                    number(*m, "stiffness_damping", mp, beam.material.stiffnessDamping);
                }
            }
            if (const json* s = field(b, "section", p, true)) {
                const std::string sp = p + "/section";
                std::string type;
                if (object(*s, sp, {"type", "width", "height", "radius", "area", "inertia"}) &&
                    text(*s, "type", sp, type, true)) {
                    SectionDoc& sec = beam.section;
                    if (type == "rectangle") {
                        sec.shape = SectionDoc::Shape::Rectangle;
                        number(*s, "width", sp, sec.width, true);
                        number(*s, "height", sp, sec.height, true);
                    } else if (type == "circle") {
                        sec.shape = SectionDoc::Shape::Circle;
                        number(*s, "radius", sp, sec.radius, true);
                    } else if (type == "direct") {
                        sec.shape = SectionDoc::Shape::Direct;
                        number(*s, "area", sp, sec.area, true);
                        number(*s, "inertia", sp, sec.inertia, true);
                    } else {
                        error(sp + "/type", "unknown section type '" + type + "' (rectangle, circle, direct)");
                    }
                }
            }
            number(b, "preload", p, beam.preload);
            doc.beams.push_back(beam);
        });
        // --- end beams ---
        // --- solids: a box by origin and size, or by two opposite corners ---
        list(root, "solids", [&](const json& b, const std::string& p) {
            SolidDoc solid;
            if (!object(b, p, {"name", "origin", "size", "corner1", "corner2", "elements", "material"})) return;
            text(b, "name", p, solid.name, true);
            const bool corners = b.contains("corner1") || b.contains("corner2");
            if (corners) {
                Vec3 c1 = Vec3::Zero(), c2 = Vec3::Zero();
                const bool ok1 = vec3(b, "corner1", p, c1, true), ok2 = vec3(b, "corner2", p, c2, true);
                for (const char* k : {"origin", "size"})
                    if (b.contains(k)) error(p + "/" + k, std::string("'") + k + "' cannot be combined with corner1 and corner2");
                if (ok1 && ok2) {
                    solid.origin = c1.cwiseMin(c2);
                    solid.size = (c1 - c2).cwiseAbs();
                }
            } else {
                vec3(b, "origin", p, solid.origin, true);
                vec3(b, "size", p, solid.size, true);
            }
            if (const json* n = field(b, "elements", p, true)) {
                const bool ok = n->is_array() && n->size() == 3 &&
                                std::all_of(n->begin(), n->end(), [](const json& x) {
                                    return x.is_number_integer() && x.get<long long>() >= 1 && x.get<long long>() <= kMaxSolidElements;
                                });
                if (!ok)
                    error(p + "/elements", "expected three whole numbers of elements [nx, ny, nz], each from 1 to " +
                                               std::to_string(kMaxSolidElements) + ", found " + n->dump());
                else
                    for (int i = 0; i < 3; ++i) solid.elements[i] = static_cast<int>((*n)[size_t(i)].get<long long>());
            }
            if (const json* m = field(b, "material", p, true)) {
                const std::string mp = p + "/material";
                if (object(*m, mp, {"young_modulus", "poisson_ratio", "density", "stiffness_damping"})) {
                    number(*m, "young_modulus", mp, solid.material.youngModulus, true);
                    number(*m, "poisson_ratio", mp, solid.material.poissonRatio);
                    number(*m, "density", mp, solid.material.density, true);
                    number(*m, "stiffness_damping", mp, solid.material.stiffnessDamping);
                }
            }
            doc.solids.push_back(solid);
        });
        // --- end solids ---
        list(root, "node_sets", [&](const json& n, const std::string& p) {
            NodeSetDoc set;
            if (!object(n, p, {"name", "nodes"})) return;
            text(n, "name", p, set.name, true);
            if (const json* v = field(n, "nodes", p, true)) {
                if (!v->is_array()) {
                    error(p + "/nodes", "expected an array of node names, found " + typeName(*v));
                } else {
                    for (size_t i = 0; i < v->size(); ++i) {
                        if (!(*v)[i].is_string()) {
                            error(p + "/nodes/" + std::to_string(i), "expected a node name, found " + typeName((*v)[i]));
                            continue;
                        }
                        set.nodes.push_back((*v)[i].get<std::string>());
                    }
                }
            }
            doc.nodeSets.push_back(set);
        });
        if (const json* e = field(root, "expected", "", false)) {
            if (object(*e, "/expected", {"dof", "redundant"})) {
                for (const char* k : {"dof", "redundant"}) {
                    if (!e->contains(k)) continue;
                    const json& v = (*e)[k];
                    if (!v.is_number_integer() ||
                        (!v.is_number_unsigned() && v.get<json::number_integer_t>() < 0)) {
                        error(std::string("/expected/") + k, "expected a non-negative integer");
                        continue;
                    }
                    if (v.get<json::number_unsigned_t>() >
                        static_cast<json::number_unsigned_t>(std::numeric_limits<int>::max())) {
                        error(std::string("/expected/") + k,
                              "expected a non-negative integer, found " + v.dump() +
                                  ", which is too large");
                        continue;
                    }
                    (std::string(k) == "dof" ? doc.expected.dof : doc.expected.redundant) =
                        static_cast<int>(v.get<long long>());
                }
            }
        }
        list(root, "traces", [&](const json& t, const std::string& p) {
            TraceDoc trace;
            if (!object(t, p, {"marker", "body", "point"})) return;
            if (t.contains("marker")) {
                if (text(t, "marker", p, trace.marker, true) && trace.marker.empty())
                    error(p + "/marker", "the marker's name is empty");
                for (const char* k : {"body", "point"})
                    if (t.contains(k)) error(p + "/" + k, std::string("'") + k + "' cannot be combined with a marker");
            } else if (!t.contains("body")) {
                error(p, "a trace names a marker, or a body and a point in the body's frame");
                return;
            } else {
                text(t, "body", p, trace.body, true);
                vec3(t, "point", p, trace.point);
            }
            doc.traces.push_back(trace);
        });
        if (const json* r = field(root, "run", "", false)) runSettings(*r, "/run", doc.run);
        if (const json* c = field(root, "camera", "", false)) {
            CameraDoc cam;
            if (camera(*c, "/camera", cam)) doc.camera = cam;
        }
    }

    // Checked against the registry like the command line's options, so a model never
    // opens with settings a run would refuse.
    void runSettings(const json& v, const std::string& where, RunSettingsDoc& out) {
        std::vector<std::string> keys{"method",      "integrator", "t_end", "rtol", "atol",
                                      "step",        "output_step", "pace",  "start"};
        for (const ParameterInfo& p : methodParameters())
            if (!p.runField) keys.push_back(p.fileKey());
        if (!object(v, where, keys)) return;
        std::string name;
        if (text(v, "method", where, name)) {
            if (!findConstraintMethod(name)) {
                std::string known;
                for (const auto& m : constraintMethods()) known += (known.empty() ? "" : ", ") + m.name;
                error(where + "/method", "unknown constraint method '" + name + "' (" + known + ")");
            } else {
                out.method = name;
            }
        }
        if (text(v, "integrator", where, name)) {
            if (!findIntegrator(name)) {
                std::string known;
                for (const auto& i : integrators()) known += (known.empty() ? "" : ", ") + i.name;
                error(where + "/integrator", "unknown integrator '" + name + "' (" + known + ")");
            } else {
                out.integrator = name;
            }
        }
        StartMotion start;
        if (text(v, "start", where, name)) {
            if (!parseStartMotion(name, start))
                error(where + "/start", "unknown start '" + name + "' (rest, consistent or equilibrium)");
            else
                out.start = name;
        }
        std::string why;
        if (out.method && out.integrator && !isSupportedPair(*out.method, *out.integrator, &why))
            error(where + "/integrator", "integrator '" + *out.integrator + "' does not go with method '" +
                                             *out.method + "'" + (why.empty() ? "" : ": " + why));
        struct Positive {
            const char* key;
            std::optional<double>* out;
            bool zeroAllowed;
        };
        for (const Positive& f : {Positive{"t_end", &out.tEnd, false}, Positive{"rtol", &out.rtol, false},
                                  Positive{"atol", &out.atol, false}, Positive{"step", &out.step, false},
                                  Positive{"output_step", &out.outputStep, false},
                                  Positive{"pace", &out.pace, true}}) {
            std::optional<double> x;
            if (!optionalNumber(v, f.key, where, x)) continue;
            if (!std::isfinite(*x) || *x < 0.0 || (!f.zeroAllowed && *x == 0.0)) {
                error(where + "/" + f.key, std::string(f.key) + (f.zeroAllowed ? " must not be negative"
                                                                              : " must be positive") +
                                               " (got " + v[f.key].dump() + ")");
                continue;
            }
            *f.out = x;
        }
        for (const ParameterInfo& p : methodParameters()) {
            if (p.runField) continue;
            const std::string key = p.fileKey();
            std::optional<double> x;
            if (!optionalNumber(v, key.c_str(), where, x)) continue;
            if (!p.accepts(*x)) {
                error(where + "/" + key, key + " must be " + p.rangeText() + " (got " + v[key].dump() + ")");
                continue;
            }
            out.parameters[p.key] = *x;
        }
    }

    bool camera(const json& v, const std::string& where, CameraDoc& out) {
        if (!object(v, where, {"position", "focal_point", "view_up", "parallel", "parallel_scale"})) return false;
        const size_t before = errorCount();
        vec3(v, "position", where, out.position, true);
        vec3(v, "focal_point", where, out.focalPoint, true);
        vec3(v, "view_up", where, out.viewUp, true);
        if (const json* p = field(v, "parallel", where, false)) {
            if (!p->is_boolean())
                error(where + "/parallel", "expected true or false, found " + typeName(*p));
            else
                out.parallel = p->get<bool>();
        }
        std::optional<double> scale;
        if (optionalNumber(v, "parallel_scale", where, scale)) {
            if (!std::isfinite(*scale) || *scale <= 0.0)
                error(where + "/parallel_scale", "parallel_scale must be positive (got " + v["parallel_scale"].dump() + ")");
            else
                out.parallelScale = scale;
        }
        if (errorCount() != before) return false;
        const Vec3 look = out.focalPoint - out.position;
        if (!(look.norm() > 0.0) || !look.allFinite())
            error(where + "/focal_point", "the focal point must differ from the camera position");
        else if (!(out.viewUp.norm() > 0.0) || out.viewUp.normalized().cross(look.normalized()).norm() < 1e-6)
            error(where + "/view_up", "view_up must be a non-zero direction not along the line of sight");
        return errorCount() == before;
    }
};

}  // namespace

DocumentResult parseModelDocument(const std::string& text, const std::string& file) {
    DocumentResult r;
    try {
        json root;
        if (!json_input::parseJson(text, file, "a model file", root, r.diagnostics)) return r;
        ModelDocument doc;
        Reader reader(file, r.diagnostics);
        reader.document(root, doc);
        if (r.diagnostics.empty()) r.document = std::move(doc);
    } catch (const std::exception& e) {
        // Nothing in reading is expected to throw; should something still do so, the file
        // is reported as unreadable instead of ending the program.
        r.document.reset();
        r.diagnostics.clear();
        r.diagnostics.push_back({file, "", std::string(kInternalErrorPrefix) + e.what(), 0, 0});
    }
    return r;
}

DocumentResult readModelDocument(const std::string& path) {
    std::string text, why;
    if (!readInputFile(path, "model file", text, why)) {
        DocumentResult r;
        r.diagnostics.push_back({path, "", why, 0, 0});
        return r;
    }
    return parseModelDocument(text, path);
}

}  // namespace looplab
