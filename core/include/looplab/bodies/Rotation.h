#pragma once
// Small rotation helpers. Orientations are unit quaternions (Euler parameters); Euler
// angles are never used because they are singular somewhere on every body's path.

#include "looplab/common/Types.h"

namespace looplab {

/// Cross-product matrix: skew(a) * b == a.cross(b).
inline Mat3 skew(const Vec3& a) {
    Mat3 s;
    s << 0.0, -a.z(), a.y(), a.z(), 0.0, -a.x(), -a.y(), a.x(), 0.0;
    return s;
}

/// Quaternion of a rotation by the vector phi (axis times angle, radians), exact for any
/// angle; used to move an orientation along an angular-velocity direction.
inline Quat quaternionFromRotationVector(const Vec3& phi) {
    const double angle = phi.norm();
    if (angle < 1e-300) return Quat::Identity();
    return Quat(Eigen::AngleAxisd(angle, phi / angle));
}

/// Any unit vector perpendicular to the unit vector n, chosen continuously enough for
/// building a frame whose z axis is n.
Vec3 anyPerpendicular(const Vec3& n);

/// Rotation whose third column is the unit vector z; the first column is chosen by
/// anyPerpendicular (or along xHint projected on the plane normal to z, if xHint is not
/// parallel to z).
Mat3 frameFromZAxis(const Vec3& z, const Vec3& xHint = Vec3::Zero());

}  // namespace looplab
