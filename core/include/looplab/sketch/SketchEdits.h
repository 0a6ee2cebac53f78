#pragma once
// The document edits a sketch makes. A ground pivot is a marker on the ground; a link is
// a body with a bar shape (a box L × height × thickness, its length along body x, its
// thickness along the plane normal) whose mass properties follow from its density, with
// a marker at each end; a pin joint (revolute by markers, axis the plane normal) joins a
// link end to the pivot it was drawn from or to. A slider is a block on a prismatic joint
// along a line of the plane, pinned to the pivot it was placed on.

#include "looplab/model/ModelDocument.h"
#include "looplab/sketch/WorkPlane.h"

#include <string>
#include <vector>

namespace looplab {

/// The material and section of sketched links and sliders.
struct BarStyle {
    double density = 2700.0;   ///< kg/m³ (aluminium)
    double height = 0.04;      ///< m, in the plane, across the link
    double thickness = 0.01;   ///< m, along the plane normal
};

/// One end of a link or the place of a slider: a point on the plane, and the marker of
/// the pivot it snapped to (empty: a new moving pivot).
struct SketchEnd {
    Vec3 point = Vec3::Zero();
    std::string pivot;
};

struct SketchEditResult {
    bool ok = false;
    std::string message;               ///< why not, when !ok
    std::string body;                  ///< the link or slider added
    std::vector<std::string> markers;  ///< markers added (a link: its ends A, B)
    std::vector<std::string> joints;   ///< joints added
};

/// A marker on the ground at `point` (projected onto the plane), z along the normal.
SketchEditResult addGroundPivot(ModelDocument& doc, const WorkPlane& plane, const Vec3& point);

/// A link from `a` to `b`, pinned at each end that names a pivot. Fails when the ends
/// coincide or name a marker that does not exist.
SketchEditResult addLink(ModelDocument& doc, const WorkPlane& plane, const SketchEnd& a, const SketchEnd& b,
                         const BarStyle& style);

/// A slider block at `at` on a prismatic joint to the ground along `direction` (in the
/// plane), pinned to the pivot `at` names, if any.
SketchEditResult addSlider(ModelDocument& doc, const WorkPlane& plane, const SketchEnd& at, const Vec3& direction,
                           const BarStyle& style);

/// `base` followed by the smallest number ≥ 1 that no body, marker, joint, driver, force,
/// beam or solid of `doc` uses as its name.
std::string freshSketchName(const ModelDocument& doc, const std::string& base);

}  // namespace looplab
