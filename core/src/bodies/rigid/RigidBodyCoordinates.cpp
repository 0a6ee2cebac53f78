#include "looplab/bodies/rigid/RigidBodyCoordinates.h"

#include "looplab/bodies/Rotation.h"

namespace looplab {

namespace rigid {

void set(double* q, double* v, const Vec3& r, const Quat& p, const Vec3& rdot, const Vec3& omegaGlobal) {
    q[0] = r.x(), q[1] = r.y(), q[2] = r.z();
    q[3] = p.w(), q[4] = p.x(), q[5] = p.y(), q[6] = p.z();
    const Vec3 w = p.toRotationMatrix().transpose() * omegaGlobal;
    v[0] = rdot.x(), v[1] = rdot.y(), v[2] = rdot.z();
    v[3] = w.x(), v[4] = w.y(), v[5] = w.z();
}

void positionDerivative(const double* q, const double* v, double* qd) {
    qd[0] = v[0], qd[1] = v[1], qd[2] = v[2];
    const double* p = q + 3;
    const double wx = v[3], wy = v[4], wz = v[5];
    // ṗ = ½ p ⊗ (0, ω'), written out for (w, x, y, z) storage.
    qd[3] = 0.5 * (-p[1] * wx - p[2] * wy - p[3] * wz);
    qd[4] = 0.5 * (p[0] * wx + p[2] * wz - p[3] * wy);
    qd[5] = 0.5 * (p[0] * wy + p[3] * wx - p[1] * wz);
    qd[6] = 0.5 * (p[0] * wz + p[1] * wy - p[2] * wx);
}

void retract(double* q, const double* dv) {
    q[0] += dv[0], q[1] += dv[1], q[2] += dv[2];
    Quat p(q[3], q[4], q[5], q[6]);
    p = (p * quaternionFromRotationVector(Vec3(dv[3], dv[4], dv[5]))).normalized();
    q[3] = p.w(), q[4] = p.x(), q[5] = p.y(), q[6] = p.z();
}

void normalize(double* q) {
    Eigen::Map<Eigen::Vector4d> p(q + 3);
    p.normalize();
}

void velocityScales(double lengthScale, double* s) {
    s[0] = s[1] = s[2] = 1.0;
    s[3] = s[4] = s[5] = 1.0 / lengthScale;
}

}  // namespace rigid
}  // namespace looplab
