#include "looplab/bodies/State.h"

#include "looplab/bodies/RigidBodyCoordinates.h"

#include <cmath>

namespace looplab {

namespace {
const double* positions(const Model& m, const State& s, BodyIndex b) { return s.q.data() + m.positionOffset(b); }
const double* velocities(const Model& m, const State& s, BodyIndex b) { return s.v.data() + m.velocityOffset(b); }
}  // namespace

State initialState(const Model& model) {
    State s;
    s.q.resize(model.positionSize());
    s.v.resize(model.velocitySize());
    for (int b = 1; b < model.bodyCount(); ++b) {
        const Body& body = model.body(BodyIndex(b));
        if (body.kind == BodyKind::Beam || body.kind == BodyKind::Solid) {
            // Undeformed and at rest; beams and solids come after the document's rigid bodies.
            s.q.segment(body.slice.positionOffset, body.slice.positionSize) =
                body.kind == BodyKind::Beam ? body.beam->initialCoordinates() : body.solid->initialCoordinates();
            s.v.segment(body.slice.velocityOffset, body.slice.velocitySize).setZero();
            continue;
        }
        const BodyDoc& doc = model.document.bodies[static_cast<size_t>(b - 1)];
        if (body.kind == BodyKind::Rigid)
            rigid::set(s.q.data() + body.slice.positionOffset, s.v.data() + body.slice.velocityOffset,
                       doc.position, doc.orientation.normalized(), doc.velocity, doc.angularVelocity);
    }
    return s;
}

Vec3 bodyPosition(const Model& m, const State& s, BodyIndex b) {
    if (m.body(b).kind != BodyKind::Rigid) return Vec3::Zero();
    return rigid::position(positions(m, s, b));
}

Quat bodyOrientation(const Model& m, const State& s, BodyIndex b) {
    if (m.body(b).kind != BodyKind::Rigid) return Quat::Identity();
    return rigid::orientation(positions(m, s, b));
}

Vec3 bodyVelocity(const Model& m, const State& s, BodyIndex b) {
    if (m.body(b).kind != BodyKind::Rigid) return Vec3::Zero();
    return rigid::velocity(velocities(m, s, b));
}

Vec3 bodyAngularVelocityLocal(const Model& m, const State& s, BodyIndex b) {
    if (m.body(b).kind != BodyKind::Rigid) return Vec3::Zero();
    return rigid::angularVelocityLocal(velocities(m, s, b));
}

Vec3 bodyAngularVelocity(const Model& m, const State& s, BodyIndex b) {
    return bodyOrientation(m, s, b) * bodyAngularVelocityLocal(m, s, b);
}

VecX positionDerivative(const Model& m, const State& s) {
    VecX qd(s.q.size());
    for (const Body& body : m.bodies) {
        if (body.kind == BodyKind::Rigid)
            rigid::positionDerivative(s.q.data() + body.slice.positionOffset, s.v.data() + body.slice.velocityOffset,
                                      qd.data() + body.slice.positionOffset);
        else if (body.kind == BodyKind::Beam || body.kind == BodyKind::Solid)  // absolute nodal coordinates: q̇ = v
            qd.segment(body.slice.positionOffset, body.slice.positionSize) =
                s.v.segment(body.slice.velocityOffset, body.slice.velocitySize);
    }
    return qd;
}

void retract(const Model& m, VecX& q, const VecX& dv) {
    for (const Body& body : m.bodies) {
        if (body.kind == BodyKind::Rigid)
            rigid::retract(q.data() + body.slice.positionOffset, dv.data() + body.slice.velocityOffset);
        else if (body.kind == BodyKind::Beam || body.kind == BodyKind::Solid)  // nodal coordinates: addition
            q.segment(body.slice.positionOffset, body.slice.positionSize) +=
                dv.segment(body.slice.velocityOffset, body.slice.velocitySize);
    }
}

void normalizePositions(const Model& m, VecX& q) {
    for (const Body& body : m.bodies) {
        if (body.kind == BodyKind::Rigid) rigid::normalize(q.data() + body.slice.positionOffset);
    }
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

// A beam node's only direction is its slope r_x,k: it is frame 2's x axis of a revolute
// joint on the node (ModelBuilder.cpp), whose length does not change the angle. The slope's
// place in the body's slices of q and v, or −1 for a frame on another kind of body.
int beamSlopeIndex(const Model& m, const BodyFrame& f) {
    return m.body(f.body).kind == BodyKind::Beam ? ancf::kNodeSize * f.node + 3 : -1;
}
}  // namespace

double jointAngle(const Model& model, const State& s, JointIndex j) {
    const Joint& jt = model.joint(j);
    const Mat3 a1 = globalAxes(model, s, jt.frame1);
    const int slope = beamSlopeIndex(model, jt.frame2);
    const Vec3 x2 = slope >= 0 ? Vec3(s.q.segment<3>(model.positionOffset(jt.frame2.body) + slope))
                               : Vec3(globalAxes(model, s, jt.frame2).col(0));
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
    const Vec3 z1 = globalAxes(model, s, jt.frame1).col(2);
    Vec3 omega2 = bodyAngularVelocity(model, s, jt.frame2.body);
    if (const int slope = beamSlopeIndex(model, jt.frame2); slope >= 0) {
        // The slope's turning rate r_x × ṙ_x / |r_x|² (its stretching rate has no part in it).
        const Vec3 a = s.q.segment<3>(model.positionOffset(jt.frame2.body) + slope);
        const Vec3 ad = s.v.segment<3>(model.velocityOffset(jt.frame2.body) + slope);
        omega2 = a.cross(ad) / a.squaredNorm();
    }
    return z1.dot(omega2 - bodyAngularVelocity(model, s, jt.frame1.body));
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
