#pragma once
// The pitch cones of a bevel gear pair (methods.md, "Couplers"): two wheels on axes that
// meet at the cones' apex, rolling on each other along a line through it.

#include "looplab/common/Types.h"

#include <optional>
#include <string>

namespace looplab {

struct BevelMesh {
    Vec3 apex = Vec3::Zero();     ///< where the axes meet [m]
    Vec3 toWheel1, toWheel2;      ///< unit, along each axis from the apex towards its wheel
    Vec3 contact;                 ///< unit, the cones' line of contact from the apex
    double cone1 = 0.0, cone2 = 0.0;  ///< pitch cone half-angles [rad], summing to the shaft angle
};

/// The mesh of wheels with n₁ and n₂ teeth (or pitch radii in that ratio) turning about the
/// axes through point1 along axis1 and point2 along axis2 (unit, not parallel), the wheels'
/// bodies at wheel1 and wheel2 (which side of the apex each lies on); or nothing, with the
/// reason in `why`, when the axes pass each other or a wheel sits at the apex.
std::optional<BevelMesh> bevelMesh(const Vec3& point1, const Vec3& axis1, const Vec3& wheel1, const Vec3& point2,
                                   const Vec3& axis2, const Vec3& wheel2, double n1, double n2, std::string& why);

}  // namespace looplab
