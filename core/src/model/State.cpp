#include "looplab/model/State.h"


#include <cmath>

namespace looplab {

namespace {
const double* positions(const Model& m, const State& s, BodyIndex b) { return s.q.data() + m.positionOffset(b); }
// A position-only state may have no velocities; a body without a frame does not read them.
const double* velocities(const Model& m, const State& s, BodyIndex b) {
    return s.v.size() ? s.v.data() + m.velocityOffset(b) : nullptr;
}
}  // namespace

State initialState(const Model& model) {
    State s;
    s.q.resize(model.positionSize());
    s.v.resize(model.velocitySize());
    for (const Body& body : model.bodies)
        body.formulation->initialCoordinates(s.q.data() + body.slice.positionOffset,
                                             s.v.data() + body.slice.velocityOffset);
    return s;
}

Vec3 bodyPosition(const Model& m, const State& s, BodyIndex b) {
    return m.body(b).formulation->framePosition(positions(m, s, b));
}

Quat bodyOrientation(const Model& m, const State& s, BodyIndex b) {
    return m.body(b).formulation->frameOrientation(positions(m, s, b));
}

Vec3 bodyVelocity(const Model& m, const State& s, BodyIndex b) {
    return m.body(b).formulation->frameVelocity(velocities(m, s, b));
}

Vec3 bodyAngularVelocityLocal(const Model& m, const State& s, BodyIndex b) {
    return m.body(b).formulation->frameAngularVelocityLocal(velocities(m, s, b));
}

Vec3 bodyAngularVelocity(const Model& m, const State& s, BodyIndex b) {
    return bodyOrientation(m, s, b) * bodyAngularVelocityLocal(m, s, b);
}

VecX positionDerivative(const Model& m, const State& s) {
    VecX qd(s.q.size());
    for (const Body& body : m.bodies)
        body.formulation->positionDerivative(s.q.data() + body.slice.positionOffset,
                                             s.v.data() + body.slice.velocityOffset,
                                             qd.data() + body.slice.positionOffset);
    return qd;
}

void retract(const Model& m, VecX& q, const VecX& dv) {
    for (const Body& body : m.bodies)
        body.formulation->retract(q.data() + body.slice.positionOffset, dv.data() + body.slice.velocityOffset);
}

void normalizePositions(const Model& m, VecX& q) {
    for (const Body& body : m.bodies) body.formulation->normalize(q.data() + body.slice.positionOffset);
}

Vec3 pointPosition(const Model& m, const State& s, BodyIndex b, const Vec3& p) {
    return bodyPosition(m, s, b) + bodyOrientation(m, s, b) * p;
}

Vec3 pointVelocity(const Model& m, const State& s, BodyIndex b, const Vec3& p) {
    return bodyVelocity(m, s, b) + bodyOrientation(m, s, b) * bodyAngularVelocityLocal(m, s, b).cross(p);
}

namespace {
Mat3 globalAxes(const Model& m, const State& s, const BodyFrame& f) {
    return bodyOrientation(m, s, f.body).toRotationMatrix() * f.axes;
}

// A beam node's only direction is its slope r_x,k. A hinge between a rigid body (or the
// ground) and a node measures the slope's angle φ about the rigid frame's z axis from its
// x axis (ModelBuilder.cpp sets that frame); the slope's length does not change it. The
// joint's angle is that of body 2 relative to body 1, so φ when the node is body 2 and −φ
// when it is body 1 (NodeJoints.h).
struct SlopeHinge {
    const BodyFrame* rigid = nullptr;  // the frame that carries the axes
    const BodyFrame* node = nullptr;
    double sign = 1.0;
};
bool slopeHinge(const Model& m, const Joint& j, SlopeHinge& h) {
    const bool beam1 = m.body(j.frame1.body).attachedFrame() == AttachedFrame::PointAndSlope;
    const bool beam2 = m.body(j.frame2.body).attachedFrame() == AttachedFrame::PointAndSlope;
    if (beam1 == beam2) return false;
    h.rigid = beam2 ? &j.frame1 : &j.frame2;
    h.node = beam2 ? &j.frame2 : &j.frame1;
    h.sign = beam2 ? 1.0 : -1.0;
    return true;
}
Vec3 slopeOf(const Model& m, const VecX& x, const BodyFrame& f, bool velocity) {
    const int o = velocity ? m.velocityOffset(f.body) : m.positionOffset(f.body);
    return x.segment<3>(o + m.body(f.body).nodeSize() * f.node + 3);
}
}  // namespace

double jointAngle(const Model& model, const State& s, JointIndex j) {
    const Joint& jt = model.joint(j);
    SlopeHinge h;
    if (slopeHinge(model, jt, h)) {
        const Mat3 a = globalAxes(model, s, *h.rigid);
        const Vec3 slope = slopeOf(model, s.q, *h.node, false);
        return h.sign * std::atan2(slope.dot(a.col(1)), slope.dot(a.col(0)));
    }
    const Mat3 a1 = globalAxes(model, s, jt.frame1);
    const Vec3 x2 = globalAxes(model, s, jt.frame2).col(0);
    return std::atan2(x2.dot(a1.col(1)), x2.dot(a1.col(0)));
}

double jointDisplacement(const Model& model, const State& s, JointIndex j) {
    const Joint& jt = model.joint(j);
    const Vec3 d = pointPosition(model, s, jt.frame2.body, jt.frame2.origin) -
                   pointPosition(model, s, jt.frame1.body, jt.frame1.origin);
    return globalAxes(model, s, jt.frame1).col(2).dot(d);
}

double jointAngleRate(const Model& model, const State& s, JointIndex j) {
    const Joint& jt = model.joint(j);
    SlopeHinge h;
    if (slopeHinge(model, jt, h)) {
        // The exact rate of σ atan2(b, a), a = x·r_x, b = y·r_x, the rigid axes turning
        // with ω: ȧ = (ω × x)·r_x + x·ṙ_x, and the same for b.
        const Mat3 ax = globalAxes(model, s, *h.rigid);
        const Vec3 w = bodyAngularVelocity(model, s, h.rigid->body);
        const Vec3 slope = slopeOf(model, s.q, *h.node, false), slopeRate = slopeOf(model, s.v, *h.node, true);
        const double a = ax.col(0).dot(slope), b = ax.col(1).dot(slope);
        const double ad = w.cross(ax.col(0)).dot(slope) + ax.col(0).dot(slopeRate);
        const double bd = w.cross(ax.col(1)).dot(slope) + ax.col(1).dot(slopeRate);
        const double rho2 = a * a + b * b;
        return rho2 > 0.0 ? h.sign * (a * bd - b * ad) / rho2 : 0.0;
    }
    const Vec3 z1 = globalAxes(model, s, jt.frame1).col(2);
    return z1.dot(bodyAngularVelocity(model, s, jt.frame2.body) - bodyAngularVelocity(model, s, jt.frame1.body));
}

double jointDisplacementRate(const Model& model, const State& s, JointIndex j) {
    const Joint& jt = model.joint(j);
    const Vec3 p1 = pointPosition(model, s, jt.frame1.body, jt.frame1.origin);
    const Vec3 p2 = pointPosition(model, s, jt.frame2.body, jt.frame2.origin);
    const Vec3 z1 = globalAxes(model, s, jt.frame1).col(2);
    const Vec3 w1 = bodyAngularVelocity(model, s, jt.frame1.body);
    const Vec3 d = p2 - p1;
    const Vec3 dd = pointVelocity(model, s, jt.frame2.body, jt.frame2.origin) -
                    pointVelocity(model, s, jt.frame1.body, jt.frame1.origin);
    return w1.cross(z1).dot(d) + z1.dot(dd);
}

}  // namespace looplab
