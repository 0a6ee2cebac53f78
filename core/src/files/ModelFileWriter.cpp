// The model file's writer: a ModelDocument as the JSON a reader takes back unchanged,
// written to a temporary file and renamed over the old one so that a failed write never
// leaves half a model.
#include "looplab/files/ModelFile.h"

#include "looplab/integrate/MethodRegistry.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>
#include <fstream>

namespace looplab {

using nlohmann::json;

namespace {

json vecJson(const Vec3& v) { return json::array({v.x(), v.y(), v.z()}); }

// An undamped material is written as before damping existed.
json materialJson(const MaterialDoc& m) {
    json j = {{"young_modulus", m.youngModulus}, {"poisson_ratio", m.poissonRatio}, {"density", m.density}};
    if (m.stiffnessDamping != 0.0) j["stiffness_damping"] = m.stiffnessDamping;
    return j;
}
json quatJson(const Quat& q) { return json::array({q.w(), q.x(), q.y(), q.z()}); }

json lawJson(const TimeLaw& l) {
    json j;
    j["type"] = timeLawKindName(l.kind);
    switch (l.kind) {
    case TimeLaw::Kind::Constant: j["value"] = l.initial; break;
    case TimeLaw::Kind::ConstantVelocity:
        j["initial"] = l.initial;
        j["rate"] = l.rate;
        break;
    case TimeLaw::Kind::Polynomial: j["coefficients"] = l.coefficients; break;
    case TimeLaw::Kind::Harmonic:
        j["amplitude"] = l.amplitude;
        j["frequency"] = l.frequency;
        j["phase"] = l.phase;
        j["offset"] = l.offset;
        break;
    case TimeLaw::Kind::SmoothStep:
        j["t0"] = l.t0;
        j["h0"] = l.h0;
        j["t1"] = l.t1;
        j["h1"] = l.h1;
        break;
    }
    return j;
}

}  // namespace

std::string serializeModelDocument(const ModelDocument& doc) {
    json root;
    root["format"] = kModelFormatName;
    root["version"] = kModelFormatVersion;
    root["name"] = doc.name;
    if (!doc.description.empty()) root["description"] = doc.description;
    root["gravity"] = vecJson(doc.gravity);
    json bodies = json::array();
    for (const BodyDoc& b : doc.bodies) {
        json j;
        j["name"] = b.name;
        if (b.density) {
            j["density"] = *b.density;
        } else {
            j["mass"] = b.mass;
            j["inertia"] = json::array({vecJson(b.inertia.row(0)), vecJson(b.inertia.row(1)),
                                        vecJson(b.inertia.row(2))});
        }
        j["position"] = vecJson(b.position);
        j["orientation"] = quatJson(b.orientation);
        j["velocity"] = vecJson(b.velocity);
        j["angular_velocity"] = vecJson(b.angularVelocity);
        if (b.shape.kind != VisualShape::Kind::None) {
            json s;
            s["type"] = visualShapeKindName(b.shape.kind);
            if (b.shape.kind == VisualShape::Kind::Box) s["size"] = vecJson(b.shape.size);
            if (b.shape.kind == VisualShape::Kind::Cylinder || b.shape.kind == VisualShape::Kind::Sphere)
                s["radius"] = b.shape.radius;
            if (b.shape.kind == VisualShape::Kind::Cylinder) s["length"] = b.shape.length;
            if (b.shape.kind == VisualShape::Kind::Mesh) {
                s["file"] = b.shape.file;
                s["scale"] = vecJson(b.shape.scale);
            }
            s["offset"] = vecJson(b.shape.offset);
            s["orientation"] = quatJson(b.shape.orientation);
            s["color"] = b.shape.color;
            j["shape"] = s;
        }
        bodies.push_back(j);
    }
    root["bodies"] = bodies;
    json markers = json::array();
    for (const MarkerDoc& m : doc.markers)
        markers.push_back({{"name", m.name}, {"body", m.body}, {"position", vecJson(m.position)},
                           {"orientation", quatJson(m.orientation)}});
    if (!markers.empty()) root["markers"] = markers;
    json joints = json::array();
    for (const JointDoc& jd : doc.joints) {
        json j;
        j["name"] = jd.name;
        j["type"] = jointTypeName(jd.type);
        if (jd.byMarkers) {
            j["marker1"] = jd.marker1;
            j["marker2"] = jd.marker2;
        } else {
            j["body1"] = jd.body1;
            j["body2"] = jd.body2;
            j["point"] = vecJson(jd.point);
            j["axis"] = vecJson(jd.axis);
            if (jd.axis2 != Vec3::Zero()) j["axis2"] = vecJson(jd.axis2);
            if (jd.type == JointType::Distance) j["point2"] = vecJson(jd.point2);
        }
        if (jd.length) j["length"] = *jd.length;
        if (jd.lead) j["lead"] = *jd.lead;
        if (jd.limits) j["limits"] = {(*jd.limits)[0], (*jd.limits)[1]};
        if (jd.restitution) j["restitution"] = *jd.restitution;
        joints.push_back(j);
    }
    root["joints"] = joints;
    json drivers = json::array();
    for (const DriverDoc& d : doc.drivers)
        drivers.push_back({{"name", d.name}, {"joint", d.joint}, {"law", lawJson(d.law)}});
    if (!drivers.empty()) root["drivers"] = drivers;
    json couplers = json::array();
    for (const CouplerDoc& c : doc.couplers) {
        json j;
        j["name"] = c.name;
        j["type"] = couplerTypeName(c.type);
        j["joints"] = c.joints;
        if (c.teeth1) j["teeth1"] = *c.teeth1;
        if (c.teeth2) j["teeth2"] = *c.teeth2;
        if (c.radius1) j["radius1"] = *c.radius1;
        if (c.radius2) j["radius2"] = *c.radius2;
        if (c.type == CouplerType::Gear) j["internal"] = c.internal;
        if (c.type == CouplerType::Belt) j["crossed"] = c.crossed;
        if (c.type == CouplerType::Linear) j["coefficients"] = c.coefficients;
        if (c.pressureAngle) j["pressure_angle"] = *c.pressureAngle;
        if (c.type == CouplerType::Cam) {
            const CamDoc& cam = c.cam;
            j["follower"] = camFollowerName(cam.follower);
            if (cam.follower == CamFollower::Roller) j["roller_radius"] = cam.rollerRadius;
            j["follower_point"] = {cam.followerPoint.x(), cam.followerPoint.y(), cam.followerPoint.z()};
            if (cam.startAngle != 0.0) j["start_angle"] = cam.startAngle;
            if (!cam.segments.empty()) {
                json law = json::array();
                for (const CamSegment& s : cam.segments) {
                    json segment = {{"motion", camMotionName(s.motion)}, {"angle", s.angle}};
                    if (s.motion != CamMotion::Dwell) segment["lift"] = s.lift;
                    law.push_back(segment);
                }
                j["law"] = law;
            }
            if (!cam.profile.empty()) {
                json profile = json::array();
                for (const Vec3& point : cam.profile) profile.push_back({point.x(), point.y(), point.z()});
                j["profile"] = profile;
            }
            if (!cam.table.empty()) {
                json table = json::array();
                for (const auto& [angle, lift] : cam.table) table.push_back({angle, lift});
                j["lift_table"] = table;
            }
        }
        couplers.push_back(j);
    }
    if (!couplers.empty()) root["couplers"] = couplers;
    json forces = json::array();
    for (const ForceDoc& f : doc.forces) {
        json j;
        j["name"] = f.name;
        j["type"] = forceTypeName(f.type);
        switch (f.type) {
        case ForceType::SpringDamper:
            j["body1"] = f.body1;
            j["body2"] = f.body2;
            j["point1"] = vecJson(f.point1);
            j["point2"] = vecJson(f.point2);
            j["stiffness"] = f.stiffness;
            j["damping"] = f.damping;
            if (f.freeLength) j["free_length"] = *f.freeLength;
            j["preload"] = f.preload;
            break;
        case ForceType::RotationalSpringDamper:
            j["joint"] = f.joint;
            j["stiffness"] = f.stiffness;
            j["damping"] = f.damping;
            j["free_angle"] = f.freeAngle;
            break;
        case ForceType::BodyForce:
        case ForceType::BodyTorque:
            j["body"] = f.body;
            j["vector"] = vecJson(f.vector);
            if (f.type == ForceType::BodyForce) j["point"] = vecJson(f.localPoint);
            if (f.law) j["law"] = lawJson(*f.law);
            break;
        case ForceType::DcMotor:
        case ForceType::TableMotor: {
            j["joint"] = f.joint;
            if (f.type == ForceType::DcMotor) {
                j["voltage"] = lawJson(f.motor.voltage);
                j["torque_constant"] = f.motor.torqueConstant;
                j["resistance"] = f.motor.resistance;
            } else {
                json table = json::array();
                for (const auto& [speed, torque] : f.motor.table) table.push_back({speed, torque});
                j["table"] = table;
            }
            j["gear_ratio"] = f.motor.gearRatio;
            j["efficiency"] = f.motor.efficiency;
            break;
        }
        }
        forces.push_back(j);
    }
    if (!forces.empty()) root["forces"] = forces;
    json stops = json::array();
    for (const StopDoc& sd : doc.stops) {
        json st = {{"name", sd.name}, {"body1", sd.body1}, {"body2", sd.body2}, {"point1", vecJson(sd.point1)},
                   {"point2", vecJson(sd.point2)}};
        if (sd.min) st["min"] = *sd.min;
        if (sd.max) st["max"] = *sd.max;
        if (sd.restitution) st["restitution"] = *sd.restitution;
        stops.push_back(st);
    }
    if (!stops.empty()) root["stops"] = stops;
    // --- beams ---
    json beams = json::array();
    for (const BeamDoc& b : doc.beams) {
        json s;
        switch (b.section.shape) {
        case SectionDoc::Shape::Rectangle: s = {{"type", "rectangle"}, {"width", b.section.width}, {"height", b.section.height}}; break;
        case SectionDoc::Shape::Circle: s = {{"type", "circle"}, {"radius", b.section.radius}}; break;
        case SectionDoc::Shape::Direct: s = {{"type", "direct"}, {"area", b.section.area}, {"inertia", b.section.inertia}}; break;
        }
        json j = {{"name", b.name}, {"from", vecJson(b.from)}, {"to", vecJson(b.to)}, {"elements", b.elements},
                  {"material", materialJson(b.material)}, {"section", s}};
        if (b.preload != 0.0) j["preload"] = b.preload;
        beams.push_back(j);
    }
    if (!beams.empty()) root["beams"] = beams;
    // --- end beams ---
    json solids = json::array();
    for (const SolidDoc& b : doc.solids)
        solids.push_back({{"name", b.name}, {"origin", vecJson(b.origin)}, {"size", vecJson(b.size)},
                          {"elements", {b.elements[0], b.elements[1], b.elements[2]}},
                          {"material", materialJson(b.material)}});
    if (!solids.empty()) root["solids"] = solids;
    json nodeSets = json::array();
    for (const NodeSetDoc& n : doc.nodeSets) nodeSets.push_back({{"name", n.name}, {"nodes", n.nodes}});
    if (!nodeSets.empty()) root["node_sets"] = nodeSets;
    if (doc.expected.dof || doc.expected.redundant) {
        json e = json::object();
        if (doc.expected.dof) e["dof"] = *doc.expected.dof;
        if (doc.expected.redundant) e["redundant"] = *doc.expected.redundant;
        root["expected"] = e;
    }
    if (!doc.run.empty()) {
        json r = json::object();
        if (doc.run.method) r["method"] = *doc.run.method;
        if (doc.run.integrator) r["integrator"] = *doc.run.integrator;
        if (doc.run.tEnd) r["t_end"] = *doc.run.tEnd;
        if (doc.run.rtol) r["rtol"] = *doc.run.rtol;
        if (doc.run.atol) r["atol"] = *doc.run.atol;
        if (doc.run.step) r["step"] = *doc.run.step;
        if (doc.run.outputStep) r["output_step"] = *doc.run.outputStep;
        if (doc.run.pace) r["pace"] = *doc.run.pace;
        if (doc.run.start) r["start"] = *doc.run.start;
        for (const ParameterInfo& p : methodParameters())  // in the registry's order
            if (const std::optional<double> x = doc.run.parameter(p.key))
                r[p.fileKey()] = p.type == ParameterType::Count ? json(std::llround(*x)) : json(*x);
        root["run"] = r;
    }
    if (doc.camera) {
        json c = {{"position", vecJson(doc.camera->position)},
                  {"focal_point", vecJson(doc.camera->focalPoint)},
                  {"view_up", vecJson(doc.camera->viewUp)},
                  {"parallel", doc.camera->parallel}};
        if (doc.camera->parallelScale) c["parallel_scale"] = *doc.camera->parallelScale;
        root["camera"] = c;
    }
    json traces = json::array();
    for (const TraceDoc& t : doc.traces) {
        json j = json::object();
        if (!t.marker.empty()) {
            j["marker"] = t.marker;
        } else {
            j["body"] = t.body;
            j["point"] = vecJson(t.point);
        }
        traces.push_back(j);
    }
    if (!traces.empty()) root["traces"] = traces;
    return root.dump(2) + "\n";
}

bool writeModelDocument(const ModelDocument& doc, const std::string& path, std::string* error) {
    const std::string tmp = path + ".tmp";
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        if (!out) {
            if (error) *error = "cannot open '" + tmp + "' for writing";
            return false;
        }
        out << serializeModelDocument(doc);
        out.flush();
        if (!out) {
            if (error) *error = "write to '" + tmp + "' failed";
            std::remove(tmp.c_str());
            return false;
        }
    }
    if (std::rename(tmp.c_str(), path.c_str()) != 0) {
        if (error) *error = "cannot replace '" + path + "'";
        std::remove(tmp.c_str());
        return false;
    }
    return true;
}

}  // namespace looplab
