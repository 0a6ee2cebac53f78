#include "looplab/sketch/SketchSnapping.h"

#include <cmath>
#include <map>

namespace looplab {

std::vector<SketchPivot> sketchPivots(const ModelDocument& doc) {
    std::map<std::string, const BodyDoc*> bodies;
    for (const BodyDoc& b : doc.bodies) bodies[b.name] = &b;
    std::vector<SketchPivot> out;
    for (const MarkerDoc& m : doc.markers) {
        SketchPivot p;
        p.marker = m.name;
        p.body = m.body;
        if (m.body == kGroundName) {
            p.point = m.position;
        } else {
            auto it = bodies.find(m.body);
            if (it == bodies.end()) continue;
            p.point = it->second->position + it->second->orientation.normalized() * m.position;
        }
        out.push_back(p);
    }
    return out;
}

SnapResult snapSketchPoint(const std::vector<SketchPivot>& pivots, const WorkPlane& plane, const Vec3& point,
                           double radius, double grid) {
    SnapResult r;
    const Vec3 onPlane = plane.project(point);
    // Coincident pivots are equally near; prefer the ground's, whose position never moves.
    double best = radius;
    for (size_t i = 0; i < pivots.size(); ++i) {
        const Vec3& q = pivots[i].point;
        if (std::abs(plane.normal().dot(q)) > 1e-9 * std::max(1.0, q.norm())) continue;
        const double d = (q - onPlane).norm();
        const bool closer = d < best - 1e-12;
        const bool tieGround = r.pivot >= 0 && std::abs(d - best) <= 1e-12 && pivots[i].ground() &&
                               !pivots[static_cast<size_t>(r.pivot)].ground();
        if (d <= radius && (closer || tieGround || (r.pivot < 0 && d <= best))) {
            best = d;
            r.pivot = static_cast<int>(i);
        }
    }
    if (r.pivot >= 0) {
        r.point = pivots[static_cast<size_t>(r.pivot)].point;
        return r;
    }
    if (grid > 0.0) {
        const double a = std::round(plane.u().dot(onPlane) / grid) * grid;
        const double b = std::round(plane.v().dot(onPlane) / grid) * grid;
        r.point = a * plane.u() + b * plane.v();
    } else {
        r.point = onPlane;
    }
    return r;
}

}  // namespace looplab
