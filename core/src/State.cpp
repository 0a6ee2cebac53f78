#include "looplab/State.h"

#include "looplab/Rotation.h"

#include <cmath>

namespace looplab {

State initialState(const Model& model) {
    State s;
    s.q.resize(model.positionSize());
    s.v.resize(model.velocitySize());
    for (int b = 1; b < model.bodyCount(); ++b) {
        const BodyDoc& doc = model.document.bodies[static_cast<size_t>(b - 1)];
        const int qo = Model::positionOffset(BodyIndex(b));
        const int vo = Model::velocityOffset(BodyIndex(b));
        const Quat p = doc.orientation.normalized();
        s.q.segment<3>(qo) = doc.position;
        s.q.segment<4>(qo + 3) << p.w(), p.x(), p.y(), p.z();
        s.v.segment<3>(vo) = doc.velocity;
        s.v.segment<3>(vo + 3) = p.toRotationMatrix().transpose() * doc.angularVelocity;
    }
    return s;
}

Vec3 bodyPosition(const State& s, BodyIndex b) {
    if (b.value() == 0) return Vec3::Zero();
    return s.q.segment<3>(Model::positionOffset(b));
}

Quat bodyOrientation(const State& s, BodyIndex b) {
    if (b.value() == 0) return Quat::Identity();
    const int o = Model::positionOffset(b) + 3;
    return Quat(s.q[o], s.q[o + 1], s.q[o + 2], s.q[o + 3]).normalized();
}

Vec3 bodyVelocity(const State& s, BodyIndex b) {
    if (b.value() == 0) return Vec3::Zero();
    return s.v.segment<3>(Model::velocityOffset(b));
}

Vec3 bodyAngularVelocityLocal(const State& s, BodyIndex b) {
    if (b.value() == 0) return Vec3::Zero();
    return s.v.segment<3>(Model::velocityOffset(b) + 3);
}

Vec3 bodyAngularVelocity(const State& s, BodyIndex b) {
    return bodyOrientation(s, b) * bodyAngularVelocityLocal(s, b);
}

VecX positionDerivative(const State& s) {
    VecX qd(s.q.size());
    const int n = static_cast<int>(s.q.size()) / 7;
    for (int i = 0; i < n; ++i) {
        qd.segment<3>(7 * i) = s.v.segment<3>(6 * i);
        const Eigen::Vector4d p = s.q.segment<4>(7 * i + 3);
        const Vec3 w = s.v.segment<3>(6 * i + 3);
        // ṗ = ½ p ⊗ (0, ω'), written out for (w, x, y, z) storage.
        qd[7 * i + 3] = 0.5 * (-p[1] * w.x() - p[2] * w.y() - p[3] * w.z());
        qd[7 * i + 4] = 0.5 * (p[0] * w.x() + p[2] * w.z() - p[3] * w.y());
        qd[7 * i + 5] = 0.5 * (p[0] * w.y() + p[3] * w.x() - p[1] * w.z());
        qd[7 * i + 6] = 0.5 * (p[0] * w.z() + p[1] * w.y() - p[2] * w.x());
    }
    return qd;
}

void retract(VecX& q, const VecX& dv) {
    const int n = static_cast<int>(q.size()) / 7;
    for (int i = 0; i < n; ++i) {
        q.segment<3>(7 * i) += dv.segment<3>(6 * i);
        Quat p(q[7 * i + 3], q[7 * i + 4], q[7 * i + 5], q[7 * i + 6]);
        p = (p * quaternionFromRotationVector(dv.segment<3>(6 * i + 3))).normalized();
        q.segment<4>(7 * i + 3) << p.w(), p.x(), p.y(), p.z();
    }
}

void normalizeQuaternions(VecX& q) {
    const int n = static_cast<int>(q.size()) / 7;
    for (int i = 0; i < n; ++i) q.segment<4>(7 * i + 3).normalize();
}

Vec3 pointPosition(const State& s, BodyIndex b, const Vec3& p) {
    return bodyPosition(s, b) + bodyOrientation(s, b) * p;
}

Vec3 pointVelocity(const State& s, BodyIndex b, const Vec3& p) {
    return bodyVelocity(s, b) + bodyOrientation(s, b) * bodyAngularVelocityLocal(s, b).cross(p);
}

namespace {
Mat3 globalAxes(const State& s, const BodyFrame& f) {
    return bodyOrientation(s, f.body).toRotationMatrix() * f.axes;
}
}  // namespace

double jointAngle(const Model& model, const State& s, JointIndex j) {
    const Joint& jt = model.joint(j);
    const Mat3 a1 = globalAxes(s, jt.frame1);
    const Mat3 a2 = globalAxes(s, jt.frame2);
    return std::atan2(a2.col(0).dot(a1.col(1)), a2.col(0).dot(a1.col(0)));
}

double jointDisplacement(const Model& model, const State& s, JointIndex j) {
    const Joint& jt = model.joint(j);
    const Vec3 d = pointPosition(s, jt.frame2.body, jt.frame2.origin) -
                   pointPosition(s, jt.frame1.body, jt.frame1.origin);
    return globalAxes(s, jt.frame1).col(2).dot(d);
}

double jointAngleRate(const Model& model, const State& s, JointIndex j) {
    const Joint& jt = model.joint(j);
    const Vec3 z1 = globalAxes(s, jt.frame1).col(2);
    return z1.dot(bodyAngularVelocity(s, jt.frame2.body) - bodyAngularVelocity(s, jt.frame1.body));
}

double jointDisplacementRate(const Model& model, const State& s, JointIndex j) {
    const Joint& jt = model.joint(j);
    const Vec3 p1 = pointPosition(s, jt.frame1.body, jt.frame1.origin);
    const Vec3 p2 = pointPosition(s, jt.frame2.body, jt.frame2.origin);
    const Vec3 z1 = globalAxes(s, jt.frame1).col(2);
    const Vec3 w1 = bodyAngularVelocity(s, jt.frame1.body);
    const Vec3 d = p2 - p1;
    const Vec3 dd = pointVelocity(s, jt.frame2.body, jt.frame2.origin) -
                    pointVelocity(s, jt.frame1.body, jt.frame1.origin);
    return w1.cross(z1).dot(d) + z1.dot(dd);
}

}  // namespace looplab
