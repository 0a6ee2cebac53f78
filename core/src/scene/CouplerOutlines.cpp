#include "scene/CouplerOutlines.h"

#include "looplab/model/State.h"
#include "looplab/model/Model.h"

#include <cmath>

namespace looplab {
namespace {


// A wheel's centre and in-plane axes e₁ (its reference) and e₂ = axis × e₁, global.
struct WheelPlacement {
    Vec3 centre, axis, e1, e2;
};

WheelPlacement place(const Model& model, const State& state, const CouplerWheel& w) {
    const Quat A = bodyOrientation(model, state, w.body);
    WheelPlacement p;
    p.centre = pointPosition(model, state, w.body, w.centre);
    p.axis = A * w.axis;
    p.e1 = A * w.reference;
    p.e2 = p.axis.cross(p.e1);
    return p;
}

Vec3 onCircle(const WheelPlacement& p, double radius, double angle) {
    return p.centre + radius * (std::cos(angle) * p.e1 + std::sin(angle) * p.e2);
}

// Teeth of a standard proportion (addendum one module m = 2r/N, dedendum 1.25 m) as a
// trapezoid each, or a pitch circle with three spokes for a pulley (or a wheel with too
// many teeth to see).
void addWheel(const WheelPlacement& p, const CouplerWheel& w, std::vector<std::vector<Vec3>>& lines) {
    if (w.teeth <= 0) {
        std::vector<Vec3> circle;
        constexpr int kSegments = 72;
        for (int i = 0; i <= kSegments; ++i) circle.push_back(onCircle(p, w.radius, w.phase + 2.0 * M_PI * i / kSegments));
        lines.push_back(std::move(circle));
        for (int k = 0; k < 3; ++k) lines.push_back({p.centre, onCircle(p, w.radius, w.phase + 2.0 * M_PI * k / 3)});
        return;
    }
    const double module = 2.0 * w.radius / w.teeth, pitch = 2.0 * M_PI / w.teeth;
    const double sense = w.internal ? -1.0 : 1.0;  // a ring's teeth point inwards
    const double tip = w.radius + sense * module, root = w.radius - sense * 1.25 * module;
    std::vector<Vec3> outline;
    for (int i = 0; i < w.teeth; ++i) {
        const double middle = w.phase + i * pitch;
        outline.push_back(onCircle(p, root, middle - 0.5 * pitch));
        outline.push_back(onCircle(p, root, middle - 0.25 * pitch));
        outline.push_back(onCircle(p, tip, middle - 0.12 * pitch));
        outline.push_back(onCircle(p, tip, middle + 0.12 * pitch));
        outline.push_back(onCircle(p, root, middle + 0.25 * pitch));
    }
    outline.push_back(outline.front());
    lines.push_back(std::move(outline));
    if (!w.internal) lines.push_back({p.centre, onCircle(p, root, w.phase)});  // a mark that shows it turn
}

// The belt's two straight spans, tangent to both pitch circles: open, the outer tangents
// (the unit normal n of a span is the same at both pulleys: n·(c₂ − c₁) = r₁ − r₂); crossed,
// the inner ones (n·(c₂ − c₁) = r₁ + r₂, the second pulley touched at c₂ − r₂n).
void addBeltSpans(const WheelPlacement& a, const CouplerWheel& wa, const WheelPlacement& b, const CouplerWheel& wb,
                  bool crossed, std::vector<std::vector<Vec3>>& lines) {
    Vec3 d = b.centre - a.centre;
    d -= d.dot(a.axis) * a.axis;
    const double distance = d.norm();
    const double reach = crossed ? wa.radius + wb.radius : wa.radius - wb.radius;
    if (!(distance > std::abs(reach))) return;
    const Vec3 u = d / distance, w = a.axis.cross(u);
    const double s = reach / distance, c = std::sqrt(1.0 - s * s);
    for (double side : {1.0, -1.0}) {
        const Vec3 n = side * c * w + s * u;
        lines.push_back({a.centre + wa.radius * n, b.centre + (crossed ? -wb.radius : wb.radius) * n});
    }
}

void addRack(const Model& model, const State& state, const CouplerRack& r, std::vector<std::vector<Vec3>>& lines) {
    const Quat A = bodyOrientation(model, state, r.body);
    const Vec3 origin = bodyPosition(model, state, r.body);
    const Vec3 along = A * r.direction, up = A * r.normal, start = origin + A * r.start;
    const double module = r.pitch / M_PI;
    std::vector<Vec3> outline;
    auto at = [&](double x, double height) { return Vec3(start + x * along + height * up); };
    for (int k = 0; k < r.teeth; ++k) {
        const double middle = k * r.pitch;
        outline.push_back(at(middle - 0.5 * r.pitch, -1.25 * module));
        outline.push_back(at(middle - 0.25 * r.pitch, -1.25 * module));
        outline.push_back(at(middle - 0.12 * r.pitch, module));
        outline.push_back(at(middle + 0.12 * r.pitch, module));
        outline.push_back(at(middle + 0.25 * r.pitch, -1.25 * module));
    }
    outline.push_back(at((r.teeth - 0.5) * r.pitch, -1.25 * module));
    lines.push_back(std::move(outline));
}

// The cam's profile (fixed in the cam), a line from its axis to where the law starts (to
// see it turn), and the follower's end: the roller, the flat face, or the knife's point.
void addCam(const Model& model, const State& state, const Cam& cam, std::vector<std::vector<Vec3>>& lines) {
    const Quat A = bodyOrientation(model, state, cam.camBody);
    const Vec3 centre = pointPosition(model, state, cam.camBody, cam.camCentre);
    const Vec3 e1 = A * cam.camE1, e2 = A * cam.camE2;
    constexpr int kSamples = 360;
    std::vector<Vec3> profile;
    for (int i = 0; i <= kSamples; ++i) {
        const Vec2 c = camPoint(cam, cam.startAngle + 2.0 * M_PI * i / kSamples).contact;
        profile.push_back(centre + c.x() * e1 + c.y() * e2);
    }
    lines.push_back(std::move(profile));
    lines.push_back({centre, centre + 0.5 * cam.base.norm() * e1});
    const Quat F = bodyOrientation(model, state, cam.followerBody);
    const Vec3 point = pointPosition(model, state, cam.followerBody, cam.followerPoint);
    const Vec3 f1 = F * cam.followerE1, f2 = F * cam.followerE2;
    auto at = [&](const Vec2& v) { return Vec3(point + v.x() * f1 + v.y() * f2); };
    switch (cam.follower) {
    case CamFollower::Roller: {
        std::vector<Vec3> circle;
        for (int i = 0; i <= 48; ++i) {
            const double a = 2.0 * M_PI * i / 48;
            circle.push_back(at(cam.rollerRadius * Vec2(std::cos(a), std::sin(a))));
        }
        lines.push_back(std::move(circle));
        break;
    }
    case CamFollower::FlatFace: {
        const Vec2 along(-cam.direction.y(), cam.direction.x());
        lines.push_back({at(-cam.faceHalfWidth * along), at(cam.faceHalfWidth * along)});
        break;
    }
    case CamFollower::KnifeEdge: {
        // A wedge with its point on the profile, opening away from the cam.
        const Vec2 away = cam.oscillating ? Vec2((cam.base - cam.pivot).normalized()) : cam.direction;
        const Vec2 side(-away.y(), away.x());
        const double size = 0.08 * cam.base.norm();
        lines.push_back({at(size * (away + 0.5 * side)), at(Vec2::Zero()), at(size * (away - 0.5 * side))});
        break;
    }
    }
}

}  // namespace

SceneCoupler couplerOutlines(const Model& model, const State& state, const Coupler& coupler) {
    SceneCoupler out;
    out.name = coupler.name;
    std::vector<WheelPlacement> placed;
    for (const CouplerWheel& w : coupler.wheels) {
        placed.push_back(place(model, state, w));
        addWheel(placed.back(), w, out.lines);
    }
    if (coupler.type == CouplerType::Belt && placed.size() == 2)
        addBeltSpans(placed[0], coupler.wheels[0], placed[1], coupler.wheels[1], coupler.crossed, out.lines);
    if (coupler.rack) addRack(model, state, *coupler.rack, out.lines);
    if (coupler.cam) addCam(model, state, *coupler.cam, out.lines);
    return out;
}

}  // namespace looplab
