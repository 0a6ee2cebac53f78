#include "model/CamBuilder.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <memory>
#include <optional>

namespace looplab {
namespace {

constexpr double kRadiansPerDegree = M_PI / 180.0;

std::string quantityText(double x) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.6g", x);
    return buffer;
}

using Fail = std::function<void(const std::string&, const std::string&)>;

// The law in the follower's unit (m, or rad for an oscillating follower), checked: the
// segments fill one turn and come back to the lift they started from; the table's angles
// rise within one turn.
bool compileLaw(const CamDoc& doc, bool oscillating, CamLaw& law, const Fail& fail) {
    const double liftUnit = oscillating ? kRadiansPerDegree : 1.0;
    if (int(!doc.segments.empty()) + int(!doc.table.empty()) + int(!doc.profile.empty()) != 1) {
        fail("", "a cam gives its law as segments (law), a table (lift_table) or its profile (profile), one of them");
        return false;
    }
    if (!doc.profile.empty()) {
        // Its lifts follow from the geometry (liftsFromProfile()).
        if (oscillating) {
            fail("/profile", "a profile drives a translating follower; give an oscillating follower's law");
            return false;
        }
        if (doc.profile.size() < 8) {
            fail("/profile", "a profile needs eight points or more, found " + std::to_string(doc.profile.size()));
            return false;
        }
        for (size_t i = 0; i < doc.profile.size(); ++i)
            if (!doc.profile[i].allFinite()) {
                fail("/profile/" + std::to_string(i), "a profile point is three finite numbers");
                return false;
            }
        return true;
    }
    if (!doc.segments.empty()) {
        double turn = 0.0, net = 0.0, largest = 0.0;
        std::vector<CamSegment> segments;
        for (size_t i = 0; i < doc.segments.size(); ++i) {
            const CamSegment& s = doc.segments[i];
            const std::string at = "/law/" + std::to_string(i);
            if (!(std::isfinite(s.angle) && s.angle > 0.0)) {
                fail(at + "/angle", "a segment turns the cam by a positive angle [deg], found " + quantityText(s.angle));
                return false;
            }
            if (!std::isfinite(s.lift) || (s.motion == CamMotion::Dwell && s.lift != 0.0)) {
                fail(at + "/lift", s.motion == CamMotion::Dwell ? "a dwell has no lift" : "a lift is a finite number");
                return false;
            }
            turn += s.angle;
            net += s.lift;
            largest = std::max(largest, std::abs(s.lift));
            segments.push_back({s.motion, s.angle * kRadiansPerDegree, s.lift * liftUnit});
        }
        if (std::abs(turn - 360.0) > 1e-9 * 360.0) {
            fail("/law", "the segments' angles add up to " + quantityText(turn) + "°: a cam's law fills one turn, 360°");
            return false;
        }
        if (std::abs(net) > 1e-9 * largest) {
            fail("/law", "the lifts add up to " + quantityText(net) + (oscillating ? "°" : " m") +
                             ": the follower comes back to where it started after one turn (rises and returns "
                             "balance)");
            return false;
        }
        law = CamLaw::fromSegments(std::move(segments));
        return true;
    }
    if (doc.table.size() < 4) {
        fail("/lift_table", "a lift table needs four points or more, found " + std::to_string(doc.table.size()));
        return false;
    }
    std::vector<double> angles, lifts;
    for (size_t i = 0; i < doc.table.size(); ++i) {
        const auto& [angle, lift] = doc.table[i];
        const std::string at = "/lift_table/" + std::to_string(i);
        if (!(std::isfinite(angle) && angle >= 0.0 && angle < 360.0) || (i > 0 && !(angle > doc.table[i - 1].first))) {
            fail(at + "/0", "the table's angles rise from 0° to below 360°, found " + quantityText(angle) + "°" +
                                (i > 0 ? " after " + quantityText(doc.table[i - 1].first) + "°" : std::string()));
            return false;
        }
        if (!std::isfinite(lift)) {
            fail(at + "/1", "a lift is a finite number");
            return false;
        }
        angles.push_back(angle * kRadiansPerDegree);
        lifts.push_back(lift * liftUnit);
    }
    law = CamLaw::fromTable(std::move(angles), std::move(lifts));
    return true;
}

Vec2 rotatedInPlane(const Vec2& v, double angle) {
    const double c = std::cos(angle), s = std::sin(angle);
    return Vec2(c * v.x() - s * v.y(), s * v.x() + c * v.y());
}

// Where the follower's line P + s d (plane coordinates, from the cam's axis) meets the
// closed polygon `profile` farthest out: the face's reach for a flat face, else the largest
// s with the roller (radius r ≥ 0, a knife edge r = 0) touching a side or a corner.
std::optional<double> farthestContact(const std::vector<Vec2>& profile, const Vec2& P, const Vec2& d, double r,
                                      bool flat) {
    std::optional<double> best;
    auto keep = [&](double s) {
        if (!best || s > *best) best = s;
    };
    const Vec2 across(-d.y(), d.x());
    const size_t n = profile.size();
    for (size_t i = 0; i < n; ++i) {
        const Vec2& a = profile[i];
        const Vec2& b = profile[(i + 1) % n];
        if (flat) {
            keep((a - P).dot(d));
            continue;
        }
        // A corner: the roller's centre r from it.
        const double along = (a - P).dot(d), off = (a - P).dot(across);
        if (r > 0.0 && std::abs(off) <= r) keep(along + std::sqrt(r * r - off * off));
        // A side: the centre on a line r from it, its foot within the side.
        const Vec2 side = b - a;
        const double length2 = side.squaredNorm();
        if (!(length2 > 0.0)) continue;
        const Vec2 normal = Vec2(side.y(), -side.x()).normalized();
        const double dn = d.dot(normal);
        if (dn == 0.0) continue;
        for (double sign : {1.0, -1.0}) {
            const double s = (sign * r - (P - a).dot(normal)) / dn;
            const double t = (P + s * d - a).dot(side) / length2;
            if (t >= 0.0 && t <= 1.0) keep(s);
        }
    }
    return best;
}

// The lift table of a translating follower from the cam's profile (plane coordinates at the
// law's start angle φ₀): at law angle φ the cam has turned by τ(φ − φ₀), and the lift is
// where the follower meets it, sampled every half degree. The follower must touch the
// profile in the initial configuration.
bool liftsFromProfile(const CamDoc& doc, const std::vector<Vec2>& profile, const Vec2& point, const Vec2& d,
                      double turnSense, double startAngle, CamLaw& law, const Fail& fail, double& atStart) {
    const double r = doc.follower == CamFollower::Roller ? doc.rollerRadius : 0.0;
    const bool flat = doc.follower == CamFollower::FlatFace;
    auto liftAt = [&](double phi) {
        std::vector<Vec2> turned(profile.size());
        for (size_t i = 0; i < profile.size(); ++i) turned[i] = rotatedInPlane(profile[i], turnSense * (phi - startAngle));
        return farthestContact(turned, point, d, r, flat);
    };
    const std::optional<double> start = liftAt(startAngle);
    if (!start) {
        fail("/profile", "the follower's line misses the profile in the initial configuration");
        return false;
    }
    atStart = *start;
    constexpr int kSamples = 720;
    std::vector<double> angles, lifts;
    for (int k = 0; k < kSamples; ++k) {
        const double phi = 2.0 * M_PI * k / kSamples;
        const std::optional<double> s = liftAt(phi);
        if (!s) {
            fail("/profile", "the follower's line misses the profile when the law's angle is " +
                                 quantityText(phi / kRadiansPerDegree) + "°");
            return false;
        }
        angles.push_back(phi);
        lifts.push_back(*s);
    }
    law = CamLaw::fromTable(std::move(angles), std::move(lifts));
    return true;
}

Vec3 camJointAxis(const Model& m, const State& s, const Joint& j) {
    return bodyOrientation(m, s, j.frame1.body) * j.frame1.axes.col(2);
}

Vec3 camJointPoint(const Model& m, const State& s, const Joint& j) {
    return pointPosition(m, s, j.frame1.body, j.frame1.origin);
}

}  // namespace

bool buildCam(const Model& m, const State& s0, const CouplerDoc& cd, const CamJoints& joints, Coupler& c,
              const Fail& fail) {
    const CamDoc& doc = cd.cam;
    const Joint& camJoint = m.joint(joints.cam);
    const Joint& followerJoint = m.joint(joints.follower);
    auto cam = std::make_shared<Cam>();
    cam->follower = doc.follower;
    cam->oscillating = joints.followerTurns;
    if (cam->oscillating && doc.follower == CamFollower::FlatFace) {
        fail("/follower", "a flat face is modelled on a translating follower (a prismatic joint); '" +
                              followerJoint.name + "' is a revolute");
        return false;
    }
    if (doc.follower == CamFollower::Roller && !(std::isfinite(doc.rollerRadius) && doc.rollerRadius > 0.0)) {
        fail("/roller_radius", "a roller follower needs its roller's radius, a positive number of metres");
        return false;
    }
    cam->rollerRadius = doc.follower == CamFollower::Roller ? doc.rollerRadius : 0.0;
    if (!std::isfinite(doc.startAngle)) {
        fail("/start_angle", "the start angle is a finite number of degrees");
        return false;
    }
    if (!compileLaw(doc, cam->oscillating, cam->law, fail)) return false;

    // The cam's plane through the follower's point, origin on the cam's axis.
    const Vec3 k = camJointAxis(m, s0, camJoint);
    const Vec3 axisPoint = camJointPoint(m, s0, camJoint);
    const Vec3 centre = axisPoint + (doc.followerPoint - axisPoint).dot(k) * k;
    const Vec3 toPoint = doc.followerPoint - centre;
    if (!(toPoint.norm() > 0.0) || !std::isfinite(toPoint.norm())) {
        fail("/follower_point", "the follower's point lies on the cam's axis ('" + camJoint.name +
                                    "'): it rides on the cam at some distance from its axis");
        return false;
    }
    const Vec3 e1 = toPoint.normalized(), e2 = k.cross(e1);
    auto inPlane = [&](const Vec3& v) { return Vec2(v.dot(e1), v.dot(e2)); };
    const double reach = toPoint.norm();
    const Vec3 followerAxis = camJointAxis(m, s0, followerJoint);
    double sigma = 1.0;  // lift = σ x + const, x the follower joint's coordinate
    if (cam->oscillating) {
        if (!(followerAxis.cross(k).norm() <= 1e-6)) {
            fail("/joints/1", "the follower's pivot '" + followerJoint.name +
                                  "' is not parallel to the cam's axis: an oscillating follower swings in the cam's plane");
            return false;
        }
        const Vec3 hinge = camJointPoint(m, s0, followerJoint);
        const Vec3 pivot = hinge - (hinge - centre).dot(k) * k;
        const Vec3 arm = doc.followerPoint - pivot;
        // The follower's turn about k per unit of its joint's angle.
        const double turn = joints.followerSign * (followerAxis.dot(k) > 0.0 ? 1.0 : -1.0);
        const Vec3 motion = turn * k.cross(arm);
        const double outward = motion.dot(toPoint);
        if (!(arm.norm() > 1e-9 * reach) || !(std::abs(outward) > 1e-6 * motion.norm() * reach)) {
            fail("/follower_point", "the follower's point swings square to the line from the cam's axis: the cam "
                                    "cannot lift it (put the point where the arm swings it away from the axis)");
            return false;
        }
        sigma = outward > 0.0 ? 1.0 : -1.0;
        cam->liftSense = turn * sigma;
        cam->pivot = inPlane(pivot - centre);
    } else {
        if (!(std::abs(followerAxis.dot(k)) <= 1e-6)) {
            fail("/joints/1", "the follower's slide '" + followerJoint.name +
                                  "' is not square to the cam's axis: a translating follower moves in the cam's plane");
            return false;
        }
        const Vec3 motion = joints.followerSign * followerAxis;
        const double outward = motion.dot(toPoint);
        if (!(std::abs(outward) > 1e-6 * reach)) {
            fail("/follower_point", "the follower's slide runs square to the line from the cam's axis to its point: "
                                    "the cam cannot lift it");
            return false;
        }
        sigma = outward > 0.0 ? 1.0 : -1.0;
        cam->direction = inPlane(sigma * motion).normalized();
    }
    cam->turnSense = joints.camSign;
    cam->startAngle = doc.startAngle * kRadiansPerDegree;
    cam->initialAngle = jointAngle(m, s0, joints.cam);
    const Vec2 point = inPlane(toPoint);
    if (!doc.profile.empty()) {
        std::vector<Vec2> profile;
        for (const Vec3& p : doc.profile) profile.push_back(inPlane(p - centre));
        double gap = 0.0;
        if (!liftsFromProfile(doc, profile, point, cam->direction, cam->turnSense, cam->startAngle, cam->law, fail, gap))
            return false;
        // The lifts are measured from the follower's point; it must rest on the profile.
        if (!(std::abs(gap) <= 1e-6 * reach)) {
            const Vec3 touching = doc.followerPoint + gap * (cam->direction.x() * e1 + cam->direction.y() * e2);
            fail("/follower_point", "the follower is " + quantityText(std::abs(gap)) + " m " +
                                        (gap > 0.0 ? "inside" : "clear of") +
                                        " the profile along its slide: it touches it with its point at (" +
                                        quantityText(touching.x()) + ", " + quantityText(touching.y()) + ", " +
                                        quantityText(touching.z()) + ")");
            return false;
        }
    }
    const double f0 = cam->law.evaluate(cam->startAngle).lift;
    cam->base = cam->oscillating ? Vec2(cam->pivot + rotatedInPlane(point - cam->pivot, -cam->liftSense * f0))
                                 : Vec2(point - f0 * cam->direction);

    // A lift so large that the profile's geometry overflows (1e300 m: the pitch curve's
    // tangent has no finite length) leaves every later check on numbers that are not
    // finite, and would pass them: such a cam is refused at its law.
    {
        constexpr int kChecks = 720;
        const std::string law = !doc.segments.empty() ? "/law" : !doc.table.empty() ? "/lift_table" : "/profile";
        for (int i = 0; i < kChecks; ++i) {
            const double phi = 2.0 * M_PI * i / kChecks;
            const CamPoint p = camPoint(*cam, phi);
            const CamLaw::Value& f = p.law;
            const bool computable = std::isfinite(f.lift * f.lift) && std::isfinite(f.velocity * f.velocity) &&
                                    std::isfinite(f.acceleration * f.acceleration) &&
                                    std::isfinite(p.pitch.squaredNorm()) && std::isfinite(p.contact.squaredNorm()) &&
                                    !std::isnan(p.pressureAngle) && !std::isnan(p.radiusOfCurvature);
            if (!computable) {
                fail(law, "the cam's lift (" + quantityText(f.lift) + (cam->oscillating ? " rad" : " m") + " at " +
                              quantityText(phi / kRadiansPerDegree) +
                              "° of its turn) is too large for its profile to be computed: the pitch curve and its "
                              "curvature overflow; give lifts of the size of the cam (its follower's point is " +
                              quantityText(reach) + " m from the axis)");
                return false;
            }
        }
    }

    // The pitch curve's sense, from the area it encloses.
    double area = 0.0;
    constexpr int kSamples = 720;
    Vec2 previous = camPoint(*cam, 0.0).pitch;
    for (int i = 1; i <= kSamples; ++i) {
        const Vec2 next = camPoint(*cam, 2.0 * M_PI * i / kSamples).pitch;
        area += previous.x() * next.y() - previous.y() * next.x();
        previous = next;
    }
    cam->orientation = area >= 0.0 ? 1.0 : -1.0;
    double closest = std::numeric_limits<double>::infinity(), widest = 0.0;
    for (int i = 0; i < kSamples; ++i) {
        const CamPoint p = camPoint(*cam, 2.0 * M_PI * i / kSamples);
        closest = std::min(closest, p.pitch.norm());
        widest = std::max(widest, std::abs(p.faceOffset));
    }
    if (doc.follower == CamFollower::Roller && !(closest > cam->rollerRadius)) {
        fail("/roller_radius", "the roller (" + quantityText(cam->rollerRadius) + " m) reaches the cam's axis: its centre comes within " +
                                   quantityText(closest) + " m of it");
        return false;
    }
    if (doc.follower == CamFollower::FlatFace && !(cam->direction.dot(cam->base) > 0.0)) {
        fail("/follower_point", "the flat face passes behind the cam's axis at zero lift: it faces the cam from outside");
        return false;
    }
    cam->faceHalfWidth = 1.2 * widest + 0.1 * reach;

    // Drawing: the plane in the cam's and the follower's body frames.
    const BodyFrame& camSide = camJoint.frame1.body == joints.common ? camJoint.frame2 : camJoint.frame1;
    const BodyFrame& followerSide = followerJoint.frame1.body == joints.common ? followerJoint.frame2 : followerJoint.frame1;
    cam->camBody = camSide.body;
    cam->followerBody = followerSide.body;
    const Quat camToGlobal = bodyOrientation(m, s0, cam->camBody);
    const Quat followerToGlobal = bodyOrientation(m, s0, cam->followerBody);
    cam->camCentre = camToGlobal.inverse() * Vec3(centre - bodyPosition(m, s0, cam->camBody));
    cam->camE1 = camToGlobal.inverse() * e1;
    cam->camE2 = camToGlobal.inverse() * e2;
    cam->followerPoint = followerToGlobal.inverse() * Vec3(doc.followerPoint - bodyPosition(m, s0, cam->followerBody));
    cam->followerE1 = followerToGlobal.inverse() * e1;
    cam->followerE2 = followerToGlobal.inverse() * e2;

    // Terms: the cam's angle (through the law), then the follower's coordinate x with
    // σ; the offset makes the initial configuration a root.
    c.terms = {{joints.cam, true, 0.0}, {joints.follower, cam->oscillating, sigma}};
    const double x0 = cam->oscillating ? jointAngle(m, s0, joints.follower) : jointDisplacement(m, s0, joints.follower);
    const double psi = sigma * x0 - f0;
    c.offset = cam->oscillating ? std::remainder(psi, 2.0 * M_PI) : psi;
    c.scale = 1.0;
    c.cam = std::move(cam);
    return true;
}

}  // namespace looplab
