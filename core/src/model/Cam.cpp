#include "looplab/model/Cam.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace looplab {
namespace {

// A quarter turn counter-clockwise.
Vec2 quarterTurn(const Vec2& v) { return Vec2(-v.y(), v.x()); }

Vec2 rotated(const Vec2& v, double angle) {
    const double c = std::cos(angle), s = std::sin(angle);
    return Vec2(c * v.x() - s * v.y(), s * v.x() + c * v.y());
}

double planeCross(const Vec2& a, const Vec2& b) { return a.x() * b.y() - a.y() * b.x(); }

}  // namespace

// In the common body's plane the follower's point is w(φ) (its derivatives w', w'' from
// the law); the cam has turned by c(φ − φ₀) there, so in the cam's frame the pitch curve is
// z = R(−c(φ − φ₀)) w, with z' = R(…)(w' − cJw) and z'' = R(…)(w'' − 2cJw' − w) (J the
// quarter turn). Rotation keeps lengths, angles and z' × z'', so everything but the points
// themselves is computed from w.
CamPoint camPoint(const Cam& cam, double phi) {
    CamPoint p;
    p.angle = phi;
    p.law = cam.law.evaluate(phi);
    const double f = p.law.lift, f1 = p.law.velocity, f2 = p.law.acceleration, c = cam.turnSense;
    Vec2 w, w1, w2, motion;
    if (cam.oscillating) {
        const Vec2 arm = rotated(cam.base - cam.pivot, cam.liftSense * f);
        w = cam.pivot + arm;
        motion = cam.liftSense * quarterTurn(arm);
        w1 = f1 * motion;
        w2 = f2 * motion - f1 * f1 * arm;
    } else {
        w = cam.base + f * cam.direction;
        motion = cam.direction;
        w1 = f1 * cam.direction;
        w2 = f2 * cam.direction;
    }
    const double turn = -c * (phi - cam.startAngle);
    p.pitch = rotated(w, turn);
    if (cam.follower == CamFollower::FlatFace) {
        // The face {x : d·x = d·w} turns with −c in the cam's frame; its envelope touches it
        // at x = (d·w) d − c f' Jd, and the profile's radius there is the support function's
        // h + h'' = d·w + f''.
        const Vec2& d = cam.direction;
        const Vec2 touch = d.dot(w) * d - c * f1 * quarterTurn(d);
        p.contact = rotated(touch, turn);
        p.faceOffset = quarterTurn(d).dot(touch - w);
        p.radiusOfCurvature = d.dot(w) + f2;
        p.pitchRadius = std::numeric_limits<double>::infinity();
        p.pressureAngle = 0.0;
        p.liftPerContactForce = 1.0;
        return p;
    }
    const Vec2 t = w1 - c * quarterTurn(w), t2 = w2 - 2.0 * c * quarterTurn(w1) - w;
    const double speed = t.norm();
    const double curvature = cam.orientation * planeCross(t, t2) / (speed * speed * speed);
    const Vec2 outward = cam.orientation * Vec2(t.y(), -t.x()) / speed;
    const double radius = curvature != 0.0 ? 1.0 / curvature : std::numeric_limits<double>::infinity();
    p.pitchRadius = radius > 0.0 ? radius : std::numeric_limits<double>::infinity();
    const double roller = cam.follower == CamFollower::Roller ? cam.rollerRadius : 0.0;
    p.contact = rotated(w - roller * outward, turn);
    p.radiusOfCurvature = radius - roller;
    p.liftPerContactForce = outward.dot(motion);
    p.pressureAngle = std::acos(std::clamp(p.liftPerContactForce / motion.norm(), -1.0, 1.0));
    return p;
}

CamCycle camCycle(const Cam& cam, int samples) {
    CamCycle out;
    out.smallestRadius = std::numeric_limits<double>::infinity();
    out.baseRadius = std::numeric_limits<double>::infinity();
    for (int k = 0; k < samples; ++k) {
        const double phi = 2.0 * M_PI * k / samples;
        const CamPoint p = camPoint(cam, phi);
        if (p.pressureAngle > out.largestPressureAngle) {
            out.largestPressureAngle = p.pressureAngle;
            out.largestPressureAt = phi;
        }
        // Convex parts only: a hollow flank has no smallest radius that a follower fails on.
        const bool convex = cam.follower == CamFollower::FlatFace ? true : std::isfinite(p.pitchRadius);
        if (convex && p.radiusOfCurvature < out.smallestRadius) {
            out.smallestRadius = p.radiusOfCurvature;
            out.smallestRadiusAt = phi;
        }
        if (convex && cam.follower != CamFollower::KnifeEdge && !(p.radiusOfCurvature > 0.0) && !out.undercut) {
            out.undercut = true;
            out.undercutAt = phi;
        }
        out.baseRadius = std::min(out.baseRadius, p.contact.norm());
    }
    return out;
}

}  // namespace looplab
