#pragma once
// Where a sketch click lands. Pivots are the document's markers (a ground pivot is a
// marker on the ground, a moving pivot the end marker of a link), so a click near one
// joins it; elsewhere the click is rounded to the sketch grid.

#include "looplab/model/ModelDocument.h"
#include "looplab/sketch/WorkPlane.h"

#include <string>
#include <vector>

namespace looplab {

/// A marker as a pivot a sketch can join, at the initial configuration.
struct SketchPivot {
    std::string marker;  ///< marker name
    std::string body;    ///< its body ("ground" for a ground pivot)
    Vec3 point = Vec3::Zero();  ///< global [m]
    bool ground() const { return body == kGroundName; }
};

/// Every marker of `doc` whose body exists (or is the ground), with its global position.
std::vector<SketchPivot> sketchPivots(const ModelDocument& doc);

struct SnapResult {
    Vec3 point = Vec3::Zero();  ///< on the work plane [m]
    int pivot = -1;             ///< index into the pivots, or −1 when no pivot was near
};

/// Snaps `point` (any point; projected onto the plane first) to the nearest pivot lying on
/// the plane within `radius` [m] of it — of coincident pivots, a ground one first, then
/// the first listed — or else rounds its in-plane coordinates to multiples of `grid`
/// (no rounding for grid ≤ 0).
SnapResult snapSketchPoint(const std::vector<SketchPivot>& pivots, const WorkPlane& plane, const Vec3& point,
                           double radius, double grid);

}  // namespace looplab
