#pragma once
// The rigid-body kind's coordinates (RigidBody.h): a position slice of 7 numbers,
// centre of mass r (global) and unit quaternion p = (w, x, y, z) (body to global), and a
// velocity slice of 6 numbers, centre-of-mass velocity ṙ (global) and angular velocity ω
// (body frame). These functions work on one body's slices.

#include "looplab/common/Types.h"

namespace looplab::rigid {

inline constexpr int kPositionSize = 7;
inline constexpr int kVelocitySize = 6;

inline Vec3 position(const double* q) { return Vec3(q[0], q[1], q[2]); }
/// Orientation, normalised.
inline Quat orientation(const double* q) { return Quat(q[3], q[4], q[5], q[6]).normalized(); }
inline Vec3 velocity(const double* v) { return Vec3(v[0], v[1], v[2]); }
inline Vec3 angularVelocityLocal(const double* v) { return Vec3(v[3], v[4], v[5]); }

/// Writes the slices for a pose and a velocity (angular velocity given in the global frame).
void set(double* q, double* v, const Vec3& r, const Quat& p, const Vec3& rdot, const Vec3& omegaGlobal);
/// q̇ from v: ṙ = v_trans, ṗ = ½ p ⊗ (0, ω_body).
void positionDerivative(const double* q, const double* v, double* qdot);
/// q ← q ⊕ dv: translation added, orientation rotated by exp(dω) in the body frame.
void retract(double* q, const double* dv);
/// Brings the quaternion back to unit length.
void normalize(double* q);
/// Scale of each velocity coordinate (1 for translations, 1/L for rotations; see
/// coordinateScales()).
void velocityScales(double lengthScale, double* scales);

}  // namespace looplab::rigid
