#include "looplab/posing/PoseDocument.h"

#include <algorithm>
#include <cmath>

namespace looplab {
namespace {

Vec3 frameOrigin(const Model& m, const State& s, const BodyFrame& f) {
    return pointPosition(m, s, f.body, f.origin);
}

Vec3 frameAxisZ(const Model& m, const State& s, const BodyFrame& f) {
    return (bodyOrientation(m, s, f.body).toRotationMatrix() * f.axes.col(2)).normalized();
}

// s(t) − by, for every kind of law.
void shiftLaw(TimeLaw& law, double by) {
    switch (law.kind) {
    case TimeLaw::Kind::Constant:
    case TimeLaw::Kind::ConstantVelocity: law.initial -= by; break;
    case TimeLaw::Kind::Polynomial:
        if (law.coefficients.empty()) law.coefficients.push_back(0.0);
        law.coefficients[0] -= by;
        break;
    case TimeLaw::Kind::Harmonic: law.offset -= by; break;
    case TimeLaw::Kind::SmoothStep:
        law.h0 -= by;
        law.h1 -= by;
        break;
    }
}

}  // namespace

PoseDocumentResult documentWithPose(const Model& m, const State& s, PoseVelocities velocities) {
    PoseDocumentResult r;
    r.document = m.document;
    ModelDocument& doc = r.document;
    if (!doc.beams.empty()) {
        r.status = Status::failure("a model with beams cannot take a new initial pose: the beams' "
                                   "undeformed shape is their initial one");
        return r;
    }
    for (BodyDoc& b : doc.bodies) {
        const auto idx = m.findBody(b.name);
        if (!idx) continue;
        b.position = bodyPosition(m, s, *idx);
        b.orientation = bodyOrientation(m, s, *idx);
        if (velocities == PoseVelocities::Keep) {
            b.velocity = bodyVelocity(m, s, *idx);
            b.angularVelocity = bodyAngularVelocity(m, s, *idx);
        } else {
            b.velocity = Vec3::Zero();
            b.angularVelocity = Vec3::Zero();
        }
    }
    for (JointDoc& jd : doc.joints) {
        const auto idx = m.findJoint(jd.name);
        if (!idx) continue;
        const Joint& j = m.joint(*idx);
        const bool turns =
            j.type == JointType::Revolute || j.type == JointType::Cylindrical || j.type == JointType::Screw;
        const double angle = turns ? jointAngle(m, s, *idx) : 0.0;
        for (DriverDoc& dd : doc.drivers) {
            if (dd.joint != jd.name) continue;
            // What the driver prescribes: the angle, or the slide (a prismatic joint, or a
            // cylindrical one's driver that slides).
            const auto driver = std::find_if(m.drivers.begin(), m.drivers.end(),
                                             [&](const Driver& d) { return d.name == dd.name; });
            const bool rotational = driver != m.drivers.end() ? driver->rotational : turns;
            // A joint given by points and axes counts its coordinates from the initial pose,
            // so at the new one they read 0; one given by markers keeps its frames in the
            // bodies, and its coordinates there.
            const double atPose =
                !jd.byMarkers ? 0.0 : (rotational ? jointAngle(m, s, *idx) : jointDisplacement(m, s, *idx));
            const double by = dd.law.evaluate(s.t).value - atPose;
            shiftLaw(dd.law, by);
            if (std::abs(by) > 1e-12) r.shiftedDrivers.emplace_back(dd.name, -by);
        }
        if (jd.byMarkers) continue;  // markers live in body frames: nothing else moves
        for (ForceDoc& fd : doc.forces)
            if (fd.type == ForceType::RotationalSpringDamper && fd.joint == jd.name) fd.freeAngle -= angle;
        // Limits count from the initial pose as the coordinates do: they keep their place
        // on the mechanism (a revolute's angle, a prismatic's or cylindrical's slide).
        if (jd.limits && (j.type == JointType::Revolute || j.type == JointType::Prismatic ||
                          j.type == JointType::Cylindrical)) {
            const double at = j.type == JointType::Revolute ? angle : jointDisplacement(m, s, *idx);
            (*jd.limits)[0] -= at;
            (*jd.limits)[1] -= at;
        }
        jd.axis = frameAxisZ(m, s, j.frame1);
        if (j.type == JointType::Distance) {
            jd.point = frameOrigin(m, s, j.frame1);
            jd.point2 = frameOrigin(m, s, j.frame2);
            jd.length = j.length;
        } else {
            // Body 2's attachment point; body 1's frame slides along its own line or
            // plane to meet it, which leaves the joint's equations unchanged.
            jd.point = frameOrigin(m, s, j.frame2);
        }
        if (j.type == JointType::Universal) jd.axis2 = frameAxisZ(m, s, j.frame2);
    }
    // A distance stop's points move with their bodies.
    for (StopDoc& sd : doc.stops)
        for (const Stop& stop : m.stops)
            if (stop.kind == Stop::Kind::Distance && stop.name == sd.name) {
                sd.point1 = frameOrigin(m, s, stop.point1);
                sd.point2 = frameOrigin(m, s, stop.point2);
            }
    for (size_t i = 0; i < doc.forces.size() && i < m.forces.size(); ++i) {
        ForceDoc& fd = doc.forces[i];
        const ForceElement& f = m.forces[i];
        if (fd.type != ForceType::SpringDamper || f.name != fd.name) continue;
        fd.point1 = frameOrigin(m, s, f.point1);
        fd.point2 = frameOrigin(m, s, f.point2);
        fd.freeLength = f.freeLength;
    }
    return r;
}

}  // namespace looplab
