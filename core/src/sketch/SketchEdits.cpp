#include "looplab/sketch/SketchEdits.h"

#include "looplab/bodies/Rotation.h"
#include "looplab/model/ShapeMassProperties.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <set>

namespace looplab {

namespace {

std::set<std::string> usedNames(const ModelDocument& doc) {
    std::set<std::string> s{kGroundName};
    for (const auto& x : doc.bodies) s.insert(x.name);
    for (const auto& x : doc.markers) s.insert(x.name);
    for (const auto& x : doc.joints) s.insert(x.name);
    for (const auto& x : doc.drivers) s.insert(x.name);
    for (const auto& x : doc.couplers) s.insert(x.name);
    for (const auto& x : doc.forces) s.insert(x.name);
    for (const auto& x : doc.beams) s.insert(x.name);
    for (const auto& x : doc.solids) s.insert(x.name);
    return s;
}

bool hasMarker(const ModelDocument& doc, const std::string& name) {
    for (const MarkerDoc& m : doc.markers)
        if (m.name == name) return true;
    return false;
}

// Links take turns through a few colours so neighbours tell apart.
std::array<double, 3> linkColour(size_t k) {
    static const std::array<std::array<double, 3>, 5> palette{{{{0.85, 0.45, 0.2}},
                                                                {{0.25, 0.55, 0.85}},
                                                                {{0.35, 0.7, 0.35}},
                                                                {{0.75, 0.35, 0.65}},
                                                                {{0.8, 0.7, 0.25}}}};
    return palette[k % palette.size()];
}

// A body frame whose x axis is `along` and whose z axis is the plane normal.
Quat planarOrientation(const WorkPlane& plane, const Vec3& along) {
    return Quat(frameFromZAxis(plane.normal(), along)).normalized();
}

void addPin(ModelDocument& doc, const std::string& pivot, const std::string& marker, SketchEditResult& r) {
    JointDoc j;
    j.name = freshSketchName(doc, "pin");
    j.type = JointType::Revolute;
    j.byMarkers = true;
    j.marker1 = pivot;
    j.marker2 = marker;
    doc.joints.push_back(j);
    r.joints.push_back(j.name);
}

// The revolute that turns a body about ground pivot `pivot` (by markers, the other marker
// on a body), if there is one.
const JointDoc* pinAt(const ModelDocument& doc, const std::string& pivot) {
    for (const JointDoc& j : doc.joints) {
        if (j.type != JointType::Revolute || !j.byMarkers) continue;
        if (j.marker1 == pivot || j.marker2 == pivot) return &j;
    }
    return nullptr;
}

// A disc of `radius` centred on ground pivot `pivot` at `centre`, pinned there: a gear
// wheel or a cam. Returns the pin's name.
std::string addDiscOnPivot(ModelDocument& doc, const WorkPlane& plane, const std::string& base,
                           const std::string& pivot, const Vec3& centre, double radius, const BarStyle& style,
                           SketchEditResult& r) {
    BodyDoc disc;
    disc.name = freshSketchName(doc, base);
    disc.position = centre;
    disc.orientation = planarOrientation(plane, plane.u());
    disc.shape.kind = VisualShape::Kind::Cylinder;
    disc.shape.radius = radius;
    disc.shape.length = style.thickness;
    disc.shape.color = linkColour(doc.bodies.size());
    disc.density = style.density;
    applyShapeMassProperties(disc);
    doc.bodies.push_back(disc);
    if (r.body.empty()) r.body = disc.name;
    MarkerDoc m;
    m.name = disc.name + "_centre";
    m.body = disc.name;
    doc.markers.push_back(m);
    r.markers.push_back(m.name);
    addPin(doc, pivot, m.name, r);
    return r.joints.back();
}

// A prismatic joint from the ground to `body` through `point` along `axis` (unit).
std::string addGuide(ModelDocument& doc, const std::string& body, const Vec3& point, const Vec3& axis,
                     SketchEditResult& r) {
    JointDoc guide;
    guide.name = freshSketchName(doc, "guide");
    guide.type = JointType::Prismatic;
    guide.body1 = kGroundName;
    guide.body2 = body;
    guide.point = point;
    guide.axis = axis;
    doc.joints.push_back(guide);
    r.joints.push_back(guide.name);
    return guide.name;
}

}  // namespace

std::string freshSketchName(const ModelDocument& doc, const std::string& base) {
    const std::set<std::string> used = usedNames(doc);
    for (int k = 1;; ++k) {
        std::string name = base + std::to_string(k);
        if (!used.count(name)) return name;
    }
}

SketchEditResult addGroundPivot(ModelDocument& doc, const WorkPlane& plane, const Vec3& point) {
    SketchEditResult r;
    if (!point.allFinite()) {
        r.message = "the pivot's position is not finite";
        return r;
    }
    MarkerDoc m;
    m.name = freshSketchName(doc, "ground_pivot");
    m.body = kGroundName;
    m.position = plane.project(point);
    m.orientation = planarOrientation(plane, plane.u());
    doc.markers.push_back(m);
    r.ok = true;
    r.markers.push_back(m.name);
    return r;
}

SketchEditResult addLink(ModelDocument& doc, const WorkPlane& plane, const SketchEnd& a, const SketchEnd& b,
                         const BarStyle& style) {
    SketchEditResult r;
    const Vec3 pa = plane.project(a.point), pb = plane.project(b.point);
    const double L = (pb - pa).norm();
    if (!(L > 1e-9) || !std::isfinite(L)) {
        r.message = "a link needs two different ends";
        return r;
    }
    if (!a.pivot.empty() && a.pivot == b.pivot) {
        r.message = "a link cannot start and end at the same pivot";
        return r;
    }
    for (const SketchEnd* e : {&a, &b})
        if (!e->pivot.empty() && !hasMarker(doc, e->pivot)) {
            r.message = "no pivot '" + e->pivot + "'";
            return r;
        }
    BodyDoc body;
    body.name = freshSketchName(doc, "link");
    body.position = 0.5 * (pa + pb);
    body.orientation = planarOrientation(plane, (pb - pa) / L);
    body.shape.kind = VisualShape::Kind::Box;
    body.shape.size = Vec3(L, style.height, style.thickness);
    body.shape.color = linkColour(doc.bodies.size());
    body.density = style.density;
    applyShapeMassProperties(body);
    doc.bodies.push_back(body);
    r.body = body.name;
    const std::string names[2] = {body.name + "_A", body.name + "_B"};
    const double x[2] = {-0.5 * L, 0.5 * L};
    for (int k = 0; k < 2; ++k) {
        MarkerDoc m;
        m.name = names[k];
        m.body = body.name;
        m.position = Vec3(x[k], 0.0, 0.0);
        doc.markers.push_back(m);
        r.markers.push_back(m.name);
    }
    if (!a.pivot.empty()) addPin(doc, a.pivot, names[0], r);
    if (!b.pivot.empty()) addPin(doc, b.pivot, names[1], r);
    r.ok = true;
    return r;
}

SketchEditResult addSlider(ModelDocument& doc, const WorkPlane& plane, const SketchEnd& at, const Vec3& direction,
                           const BarStyle& style) {
    SketchEditResult r;
    const Vec3 d = plane.project(direction);
    if (!(d.norm() > 1e-12) || !d.allFinite()) {
        r.message = "a slider needs a direction in the work plane";
        return r;
    }
    if (!at.pivot.empty() && !hasMarker(doc, at.pivot)) {
        r.message = "no pivot '" + at.pivot + "'";
        return r;
    }
    const Vec3 p = plane.project(at.point);
    BodyDoc block;
    block.name = freshSketchName(doc, "slider");
    block.position = p;
    block.orientation = planarOrientation(plane, d.normalized());
    block.shape.kind = VisualShape::Kind::Box;
    block.shape.size = Vec3(3.0 * style.height, 2.0 * style.height, 2.0 * style.thickness);
    block.shape.color = {{0.55, 0.55, 0.6}};
    block.density = style.density;
    applyShapeMassProperties(block);
    doc.bodies.push_back(block);
    r.body = block.name;
    MarkerDoc pin;
    pin.name = block.name + "_pin";
    pin.body = block.name;
    doc.markers.push_back(pin);
    r.markers.push_back(pin.name);
    addGuide(doc, block.name, p, d.normalized(), r);
    if (!at.pivot.empty()) addPin(doc, at.pivot, pin.name, r);
    r.ok = true;
    return r;
}

SketchEditResult addGearPair(ModelDocument& doc, const WorkPlane& plane, const SketchEnd& a, const SketchEnd& b,
                             const Vec3& pitchPoint, const BarStyle& style) {
    SketchEditResult r;
    for (const SketchEnd* e : {&a, &b}) {
        if (e->pivot.empty()) {
            r.message = "a gear pair turns about two pivots fixed to the ground: click on them";
            return r;
        }
        if (!hasMarker(doc, e->pivot)) {
            r.message = "no pivot '" + e->pivot + "'";
            return r;
        }
    }
    if (a.pivot == b.pivot) {
        r.message = "the two wheels of a gear pair turn about two different pivots";
        return r;
    }
    const Vec3 pa = plane.project(a.point), pb = plane.project(b.point);
    const double distance = (pb - pa).norm();
    const double along = (plane.project(pitchPoint) - pa).dot(pb - pa) / (distance * distance);
    if (!(distance > 1e-9) || !(along > 0.05 && along < 0.95)) {
        r.message = "click between the two pivots, where the wheels' pitch circles should touch";
        return r;
    }
    // 60 teeth between the two wheels, shared in the ratio of the radii.
    constexpr int kTeeth = 60, kFewest = 6;
    const int teeth1 = std::clamp(static_cast<int>(std::lround(kTeeth * along)), kFewest, kTeeth - kFewest);
    const int teeth[2] = {teeth1, kTeeth - teeth1};
    const SketchEnd* ends[2] = {&a, &b};
    std::string joints[2];
    for (int k = 0; k < 2; ++k) {
        if (const JointDoc* pin = pinAt(doc, ends[k]->pivot)) {
            joints[k] = pin->name;
            continue;
        }
        joints[k] = addDiscOnPivot(doc, plane, "wheel", ends[k]->pivot, k == 0 ? pa : pb, distance * teeth[k] / kTeeth,
                                   style, r);
    }
    CouplerDoc gear;
    gear.name = freshSketchName(doc, "gear_pair");
    gear.type = CouplerType::Gear;
    gear.joints = {joints[0], joints[1]};
    gear.teeth1 = teeth[0];
    gear.teeth2 = teeth[1];
    doc.couplers.push_back(gear);
    r.ok = true;
    return r;
}

SketchEditResult addCam(ModelDocument& doc, const WorkPlane& plane, const SketchEnd& pivot, const Vec3& followerPoint,
                        const BarStyle& style) {
    SketchEditResult r;
    if (pivot.pivot.empty() || !hasMarker(doc, pivot.pivot)) {
        r.message = "a cam turns about a pivot fixed to the ground: click on one";
        return r;
    }
    const Vec3 centre = plane.project(pivot.point), point = plane.project(followerPoint);
    const double reach = (point - centre).norm();
    if (!(reach > 1e-9) || !std::isfinite(reach)) {
        r.message = "click the follower's roller away from the cam's pivot";
        return r;
    }
    const Vec3 out = (point - centre) / reach;
    const double roller = 0.2 * reach, lift = 0.25 * reach;
    // The cam is the body already pinned there, or a disc of the base circle.
    const JointDoc* pin = pinAt(doc, pivot.pivot);
    const std::string camJoint =
        pin ? pin->name : addDiscOnPivot(doc, plane, "cam", pivot.pivot, centre, reach - roller, style, r);
    // The follower: a bar from the roller's centre outwards, on a guide along it.
    BodyDoc follower;
    follower.name = freshSketchName(doc, "follower");
    follower.position = point + 0.5 * reach * out;
    follower.orientation = planarOrientation(plane, out);
    follower.shape.kind = VisualShape::Kind::Box;
    follower.shape.size = Vec3(reach, 0.5 * style.height, style.thickness);
    follower.shape.color = {{0.55, 0.55, 0.6}};
    follower.density = style.density;
    applyShapeMassProperties(follower);
    doc.bodies.push_back(follower);
    if (r.body.empty()) r.body = follower.name;
    const std::string guide = addGuide(doc, follower.name, point, out, r);
    CouplerDoc cam;
    cam.name = freshSketchName(doc, "cam_contact");
    cam.type = CouplerType::Cam;
    cam.joints = {camJoint, guide};
    cam.cam.follower = CamFollower::Roller;
    cam.cam.rollerRadius = roller;
    cam.cam.followerPoint = point;
    cam.cam.segments = {{CamMotion::Cycloidal, 120.0, lift},
                        {CamMotion::Dwell, 60.0, 0.0},
                        {CamMotion::Cycloidal, 120.0, -lift},
                        {CamMotion::Dwell, 60.0, 0.0}};
    doc.couplers.push_back(cam);
    r.ok = true;
    return r;
}

}  // namespace looplab
