#pragma once
// The plane a planar linkage is sketched on: one of the three coordinate planes, through
// the origin. Pivot axes are its normal; links lie in it.

#include "looplab/common/Types.h"

namespace looplab {

struct WorkPlane {
    enum class Kind { XY, YZ, ZX };
    Kind kind = Kind::XY;

    /// In-plane axes u, v and the normal n = u × v: XY (x, y, z), YZ (y, z, x), ZX (z, x, y).
    Vec3 u() const;
    Vec3 v() const;
    Vec3 normal() const;
    /// The point of the plane nearest to `p`.
    Vec3 project(const Vec3& p) const;
    /// Where the line through `origin` along `direction` meets the plane; false when the
    /// line lies parallel to it.
    bool intersect(const Vec3& origin, const Vec3& direction, Vec3& out) const;
};

/// "XY", "YZ", "ZX".
const char* workPlaneName(WorkPlane::Kind kind);

}  // namespace looplab
