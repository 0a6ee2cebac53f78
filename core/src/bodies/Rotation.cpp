#include "looplab/bodies/Rotation.h"

#include <cmath>

namespace looplab {

Vec3 anyPerpendicular(const Vec3& n) {
    // Cross with the coordinate axis least aligned with n, for a well-conditioned result.
    Vec3 a = Vec3::UnitX();
    if (std::abs(n.x()) > std::abs(n.y())) a = Vec3::UnitY();
    if (std::abs(n.z()) < std::min(std::abs(n.x()), std::abs(n.y()))) a = Vec3::UnitZ();
    return n.cross(a).normalized();
}

Mat3 frameFromZAxis(const Vec3& zIn, const Vec3& xHint) {
    const Vec3 z = zIn.normalized();
    Vec3 x = xHint - xHint.dot(z) * z;
    if (x.norm() < 1e-9 * std::max(1.0, xHint.norm())) x = anyPerpendicular(z);
    x.normalize();
    Mat3 r;
    r.col(0) = x;
    r.col(1) = z.cross(x);
    r.col(2) = z;
    return r;
}

}  // namespace looplab
