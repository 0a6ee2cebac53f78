#include "looplab/sketch/SketchEdits.h"

#include "looplab/bodies/Rotation.h"
#include "looplab/model/ShapeMassProperties.h"

#include <array>
#include <set>

namespace looplab {

namespace {

std::set<std::string> usedNames(const ModelDocument& doc) {
    std::set<std::string> s{kGroundName};
    for (const auto& x : doc.bodies) s.insert(x.name);
    for (const auto& x : doc.markers) s.insert(x.name);
    for (const auto& x : doc.joints) s.insert(x.name);
    for (const auto& x : doc.drivers) s.insert(x.name);
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
    JointDoc guide;
    guide.name = freshSketchName(doc, "guide");
    guide.type = JointType::Prismatic;
    guide.body1 = kGroundName;
    guide.body2 = block.name;
    guide.point = p;
    guide.axis = d.normalized();
    doc.joints.push_back(guide);
    r.joints.push_back(guide.name);
    if (!at.pivot.empty()) addPin(doc, at.pivot, pin.name, r);
    r.ok = true;
    return r;
}

}  // namespace looplab
