#pragma once
// The document edits a sketch makes. A ground pivot is a marker on the ground; a link is
// a body with a bar shape (a box L × height × thickness, its length along body x, its
// thickness along the plane normal) whose mass properties follow from its density, with
// a marker at each end; a pin joint (revolute by markers, axis the plane normal) joins a
// link end to the pivot it was drawn from or to. A slider is a block on a prismatic joint
// along a line of the plane, pinned to the pivot it was placed on. A gear pair is a coupler
// between two wheels turning about ground pivots; a cam a coupler between a wheel on a
// ground pivot and a follower on a guide.

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
    std::string body;                  ///< the link, slider or (first) wheel added
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

/// A gear pair between two ground pivots, meshing at `pitchPoint` (projected onto the line
/// between them, strictly inside it): at each pivot the wheel is the body a revolute already
/// holds there (a crank turns with its gear), or a new disc on a new pin. Tooth counts in
/// the ratio of the pitch radii, 60 teeth between them (module: a thirtieth of the
/// distance), at least 6 each.
SketchEditResult addGearPair(ModelDocument& doc, const WorkPlane& plane, const SketchEnd& a, const SketchEnd& b,
                             const Vec3& pitchPoint, const BarStyle& style);

/// A disc cam turning about a ground pivot (on the body a revolute already holds there, or
/// a new disc) and a translating roller follower whose roller's centre is at
/// `followerPoint`, on a guide pointing away from the pivot: a cycloidal rise of a quarter
/// of the distance over 120°, a dwell of 60°, the return and a dwell of 60°, the roller a
/// fifth of the distance across, so the base circle's radius is the rest.
SketchEditResult addCam(ModelDocument& doc, const WorkPlane& plane, const SketchEnd& pivot, const Vec3& followerPoint,
                        const BarStyle& style);

/// `base` followed by the smallest number ≥ 1 that no body, marker, joint, driver, coupler,
/// force, beam or solid of `doc` uses as its name.
std::string freshSketchName(const ModelDocument& doc, const std::string& base);

}  // namespace looplab
