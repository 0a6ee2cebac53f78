#include "model/CouplerBuilder.h"

#include "model/BevelGear.h"
#include "model/CamBuilder.h"

#include "looplab/model/State.h"

#include <cmath>
#include <cstdio>
#include <numeric>
#include <set>

namespace looplab {
namespace {


// p/q ≈ r ≥ 0 with q ≤ maxDenominator and |r − p/q| ≤ tolerance·r, from the continued
// fraction of r (its convergents are the best approximations for their denominators).
bool rationalApproximation(double r, long long maxDenominator, double tolerance, long long& p, long long& q) {
    double x = r;
    long long h0 = 0, h1 = 1, k0 = 1, k1 = 0;
    for (int i = 0; i < 64; ++i) {
        const double a = std::floor(x);
        if (!(a < 1e12)) return false;
        const long long ai = static_cast<long long>(a);
        const long long h2 = ai * h1 + h0, k2 = ai * k1 + k0;
        if (k2 > maxDenominator) return false;
        h0 = h1, h1 = h2, k0 = k1, k1 = k2;
        if (std::abs(r - static_cast<double>(h1) / static_cast<double>(k1)) <= tolerance * r) {
            p = h1;
            q = k1;
            return true;
        }
        const double fraction = x - a;
        if (!(fraction > 0.0)) return false;
        x = 1.0 / fraction;
    }
    return false;
}

std::string numberText(double x) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.6g", x);
    return buffer;
}

double degrees(double radians) { return radians * 180.0 / M_PI; }

// A joint's axis and point (frame 1's z axis and origin) in the document's initial pose.
struct JointLine {
    Vec3 axis, point;
};

JointLine jointLine(const Model& m, const State& s, const Joint& j) {
    return {bodyOrientation(m, s, j.frame1.body) * j.frame1.axes.col(2),
            pointPosition(m, s, j.frame1.body, j.frame1.origin)};
}

// The wheel on joint j's other body than `common`, with its frame on that body.
CouplerWheel wheelOf(const Joint& j, BodyIndex common, double radius, int teeth) {
    const BodyFrame& f = j.frame1.body == common ? j.frame2 : j.frame1;
    CouplerWheel w;
    w.body = f.body;
    w.centre = f.origin;
    w.axis = f.axes.col(2);
    w.reference = f.axes.col(0);
    w.radius = radius;
    w.teeth = teeth;
    return w;
}

// Square to the axis and unit: the part of `v` across the axis.
Vec3 across(const Vec3& v, const Vec3& axis) {
    const Vec3 r = v - v.dot(axis) * axis;
    const double n = r.norm();
    return n > 0.0 ? Vec3(r / n) : Vec3::Zero();
}

// Tooth counts to draw for wheels of radii r₁, r₂ given without teeth: the radii's whole
// ratio, scaled to at least 12 teeth; none (a plain pitch circle) beyond 400.
void drawnTeeth(double r1, double r2, int& n1, int& n2) {
    std::vector<double> whole;
    double unit = 0.0;
    n1 = n2 = 0;
    if (!wholeNumberRatio({r1, r2}, whole, unit)) return;
    const double smallest = std::min(std::abs(whole[0]), std::abs(whole[1]));
    const double k = std::ceil(12.0 / smallest);
    if (std::max(std::abs(whole[0]), std::abs(whole[1])) * k > 400.0) return;
    n1 = static_cast<int>(std::abs(whole[0]) * k);
    n2 = static_cast<int>(std::abs(whole[1]) * k);
}

class CouplerBuilder {
public:
    CouplerBuilder(Model& m, const CouplerBuildContext& context) : m_(m), c_(context), s0_(initialState(m)) {}

    void run() {
        for (size_t i = 0; i < c_.couplers->size(); ++i) build((*c_.couplers)[i], i);
    }

private:
    void build(const CouplerDoc& cd, size_t i) {
        where_ = "/couplers/" + std::to_string(i);
        c_.checkName(cd.name, where_ + "/name");
        const bool linear = cd.type == CouplerType::Linear;
        const size_t count = cd.joints.size();
        if (linear ? (count < 2 || count > 3) : count != 2) {
            fail("/joints", std::string("a ") + couplerTypeName(cd.type) + " coupler names " +
                                (linear ? "two or three joints" : "two joints") + ", found " + std::to_string(count));
            return;
        }
        std::vector<JointIndex> joints;
        std::vector<bool> angular;
        std::set<std::string> seen;
        for (size_t k = 0; k < count; ++k) {
            const std::string& name = cd.joints[k];
            const std::string at = "/joints/" + std::to_string(k);
            const auto it = c_.joints->find(name);
            if (it == c_.joints->end()) {
                if (!c_.declaredJoint(name)) fail(at, "unknown joint '" + name + "'");
                return;
            }
            if (!seen.insert(name).second) {
                fail(at, "joint '" + name + "' is named twice");
                return;
            }
            const Joint& j = m_.joint(it->second);
            for (const BodyFrame* f : {&j.frame1, &j.frame2})
                if (m_.body(f->body).nodeSize() > 0) {
                    fail(at, "joint '" + name + "' holds a beam or solid node: couplers act on joints between rigid "
                                               "bodies and the ground");
                    return;
                }
            if (j.type == JointType::Revolute || j.type == JointType::Cylindrical) {
                angular.push_back(true);
            } else if (j.type == JointType::Prismatic) {
                angular.push_back(false);
            } else {
                fail(at, "joint '" + name + "' is a " + jointTypeName(j.type) +
                             " joint: a coupler takes the angle of a revolute or cylindrical joint or the "
                             "displacement of a prismatic joint");
                return;
            }
            joints.push_back(it->second);
        }
        Coupler c;
        c.name = cd.name;
        c.type = cd.type;
        std::vector<double> x;  // the relation Σ xᵢ (coordinate i) = const
        switch (cd.type) {
        case CouplerType::Gear: if (!gear(cd, joints, angular, c, x) || !teethAngle(cd, c)) return; break;
        case CouplerType::Belt: if (!belt(cd, joints, angular, c, x)) return; break;
        case CouplerType::RackAndPinion: if (!rack(cd, joints, angular, c, x) || !teethAngle(cd, c)) return; break;
        case CouplerType::Linear: if (!linearCoefficients(cd, x)) return; break;
        case CouplerType::Cam: if (!cam(cd, joints, angular, c)) return; break;
        }
        if (cd.type != CouplerType::Cam && !makeTerms(cd, joints, angular, x, c)) return;
        c.equation = m_.equationCount();
        const char* component = cd.type == CouplerType::Belt ? "belt"
                                : cd.type == CouplerType::Cam ? "contact"
                                : linear                      ? "coupler"
                                                              : "mesh";
        m_.equations.push_back({c.name, component, c.dimensionless()});
        m_.couplers.push_back(c);
    }

    void fail(const std::string& field, const std::string& what) { c_.error(where_ + field, what); }

    // A wheel's centre in the initial pose, global [m].
    Vec3 centreOf(const CouplerWheel& w) const { return pointPosition(m_, s0_, w.body, w.centre); }
    // The angle of the global direction g about the wheel's axis from its reference, in
    // the initial pose.
    double angleIn(const CouplerWheel& w, const Vec3& g) const {
        const Vec3 local = bodyOrientation(m_, s0_, w.body).inverse() * g;
        return std::atan2(w.axis.cross(w.reference).dot(local), w.reference.dot(local));
    }
    // Two wheels in mesh (or pulleys on one belt) are drawn in one plane, halfway between
    // their joints' planes: a compound wheel's pinion then shows beside its big wheel.
    void commonPlane(CouplerWheel& a, CouplerWheel& b) const {
        const Vec3 axis = bodyOrientation(m_, s0_, a.body) * a.axis;
        const double half = 0.5 * (centreOf(b) - centreOf(a)).dot(axis);
        a.centre += half * a.axis;
        b.centre -= half * (bodyOrientation(m_, s0_, b.body).inverse() * axis);
    }
    // The tooth (at angle phase) of the first wheel points at the second, whose gap faces it.
    void meshPhases(CouplerWheel& a, CouplerWheel& b, bool internal) const {
        const Vec3 axis = bodyOrientation(m_, s0_, a.body) * a.axis;
        // External: the contact lies from a's centre towards b's; internal (b the ring):
        // from the ring's centre through the pinion's.
        const Vec3 u = internal ? across(centreOf(a) - centreOf(b), axis) : across(centreOf(b) - centreOf(a), axis);
        a.phase = angleIn(a, u);
        b.phase = angleIn(b, internal ? u : Vec3(-u)) + (b.teeth > 0 ? M_PI / b.teeth : 0.0);
        b.internal = internal;
    }

    // The body both joints hold (the frame that carries both axes) and the sign that
    // makes each joint's coordinate that of its other body relative to it (a joint's
    // coordinate is body 2's relative to body 1).
    bool commonBody(const Joint& a, const Joint& b, double& signA, double& signB, BodyIndex& common) {
        const BodyIndex ba[2] = {a.frame1.body, a.frame2.body}, bb[2] = {b.frame1.body, b.frame2.body};
        int found = 0;
        for (int i = 0; i < 2; ++i)
            for (int k = 0; k < 2; ++k)
                if (ba[i] == bb[k]) {
                    ++found;
                    common = ba[i];
                    signA = i == 0 ? 1.0 : -1.0;
                    signB = k == 0 ? 1.0 : -1.0;
                }
        if (found == 1) return true;
        if (found == 0)
            fail("/joints", "joints '" + a.name + "' and '" + b.name +
                                "' share no body: the pair turns about two axes held by one body (the ground or a "
                                "carrier); for wheels on different bodies, as in a planetary set, write a linear "
                                "coupler with the carrier's joint (Willis' equation, docs/model-format.md)");
        else
            fail("/joints", "joints '" + a.name + "' and '" + b.name + "' join the same two bodies");
        return false;
    }

    // Gear wheels and pulleys turn about parallel axes; the second's angle is measured
    // about the first's axis (signB flips if the axes point opposite ways). Returns the
    // centre distance.
    bool parallelAxes(const Joint& a, const Joint& b, double& signB, double& distance) {
        const JointLine la = jointLine(m_, s0_, a), lb = jointLine(m_, s0_, b);
        const double sine = la.axis.cross(lb.axis).norm();
        if (!(sine <= 1e-6)) {
            fail("/joints", "the axes of '" + a.name + "' and '" + b.name + "' are " +
                                numberText(degrees(std::asin(std::min(1.0, sine)))) +
                                "° from parallel: a belt's pulleys turn about parallel axes");
            return false;
        }
        if (la.axis.dot(lb.axis) < 0.0) signB = -signB;
        Vec3 d = lb.point - la.point;
        d -= d.dot(la.axis) * la.axis;
        distance = d.norm();
        return true;
    }

    // Involute teeth of 14.5°, 20° (the default) or 25°; beyond 45° a tooth would push its
    // mate apart harder than it turns it.
    bool teethAngle(const CouplerDoc& cd, Coupler& c) {
        const double degreesGiven = cd.pressureAngle.value_or(20.0);
        if (!(degreesGiven >= 0.0 && degreesGiven < 45.0)) {
            fail("/pressure_angle", "a pressure angle lies from 0° to below 45° (14.5°, 20° and 25° are usual), found " +
                                        numberText(degreesGiven) + "°");
            return false;
        }
        c.pressureAngle = degreesGiven * M_PI / 180.0;
        return true;
    }

    bool positiveRadius(const std::optional<double>& r, const char* key) {
        if (!r) return true;
        if (!(std::isfinite(*r) && *r > 0.0)) {
            fail(std::string("/") + key, "a radius is a positive number of metres, found " + numberText(*r));
            return false;
        }
        return true;
    }

    bool gear(const CouplerDoc& cd, const std::vector<JointIndex>& joints, const std::vector<bool>& angular,
              Coupler& c, std::vector<double>& x) {
        const Joint &a = m_.joint(joints[0]), &b = m_.joint(joints[1]);
        if (!angular[0] || !angular[1]) {
            fail("/joints", "a gear pair couples two revolute (or cylindrical) joints; '" +
                                (angular[0] ? b.name : a.name) + "' is prismatic (a rack meshes with a pinion: "
                                "type rack_and_pinion)");
            return false;
        }
        double signA = 1.0, signB = 1.0, d = 0.0;
        BodyIndex common;
        if (!commonBody(a, b, signA, signB, common)) return false;
        // Axes that are not parallel must meet: a bevel pair.
        const bool bevel = jointLine(m_, s0_, a).axis.cross(jointLine(m_, s0_, b).axis).norm() > 1e-6;
        if (!bevel && !parallelAxes(a, b, signB, d)) return false;
        const bool teeth = cd.teeth1 || cd.teeth2, radii = cd.radius1 || cd.radius2;
        if ((cd.teeth1.has_value() != cd.teeth2.has_value()) || (cd.radius1.has_value() != cd.radius2.has_value())) {
            fail("", "a gear pair gives both tooth counts (teeth1, teeth2) or both pitch radii (radius1, radius2), "
                     "or all four");
            return false;
        }
        if (!teeth && !radii) {
            fail("", "a gear pair needs its tooth counts (teeth1, teeth2) or its pitch radii (radius1, radius2)");
            return false;
        }
        if (!positiveRadius(cd.radius1, "radius1") || !positiveRadius(cd.radius2, "radius2")) return false;
        const double n1 = teeth ? *cd.teeth1 : *cd.radius1, n2 = teeth ? *cd.teeth2 : *cd.radius2;
        if (cd.internal && !(n2 > n1)) {
            fail("", "in an internal gear pair the second wheel is the ring (annulus): it needs more teeth (a larger "
                     "pitch radius) than the first");
            return false;
        }
        if (teeth && radii && std::abs(*cd.radius1 / *cd.radius2 - n1 / n2) > 1e-9 * (n1 / n2)) {
            fail("", "the pitch radii " + numberText(*cd.radius1) + " and " + numberText(*cd.radius2) +
                         " m are not in the ratio of the tooth counts " + numberText(n1) + ":" + numberText(n2));
            return false;
        }
        if (bevel) return bevelPair(cd, a, b, signA, signB, common, n1, n2, c, x);
        const double sum = cd.internal ? n2 - n1 : n1 + n2;  // in teeth or in metres
        if (!(d > 1e-12 * std::max(1.0, std::abs(sum)))) {
            fail("/joints", "the axes of '" + a.name + "' and '" + b.name +
                                "' coincide: the wheels of a gear pair turn about two axes apart");
            return false;
        }
        if (radii) {
            c.radius1 = *cd.radius1;
            c.radius2 = *cd.radius2;
            if (std::abs(d - sum) > 1e-6 * sum) {
                fail("", "the pitch circles do not touch: the axes of '" + a.name + "' and '" + b.name + "' are " +
                             numberText(d) + " m apart, " + (cd.internal ? "radius2 − radius1 = " : "radius1 + radius2 = ") +
                             numberText(sum) + " m");
                return false;
            }
        } else {
            // Tooth counts alone: the pitch circles touch at the axes' distance.
            c.radius1 = d * n1 / sum;
            c.radius2 = d * n2 / sum;
        }
        // External pair: r₁θ₁ + r₂θ₂ = const (the wheels turn opposite ways); internal: r₁θ₁ − r₂θ₂.
        x = {signA * n1, (cd.internal ? -1.0 : 1.0) * signB * n2};
        int t1 = 0, t2 = 0;
        if (teeth) {
            t1 = *cd.teeth1;
            t2 = *cd.teeth2;
        } else {
            drawnTeeth(c.radius1, c.radius2, t1, t2);
        }
        c.wheels = {wheelOf(a, common, c.radius1, t1), wheelOf(b, common, c.radius2, t2)};
        commonPlane(c.wheels[0], c.wheels[1]);
        meshPhases(c.wheels[0], c.wheels[1], cd.internal);
        return true;
    }

    // Bevel wheels roll on each other along the pitch cones' line of contact p: their points
    // there move alike, θ̇₁ (k₁ × p) = θ̇₂ (k₂ × p) with k the joints' axes, both along
    // n = u₁ × u₂ (u from the apex towards each wheel) and |k × p| = sin γ in the ratio of the
    // teeth, so n₁σ₁θ₁ − n₂σ₂θ₂ = const with σ = sign((k × p)·n).
    bool bevelPair(const CouplerDoc& cd, const Joint& a, const Joint& b, double signA, double signB, BodyIndex common,
                   double n1, double n2, Coupler& c, std::vector<double>& x) {
        if (cd.internal) {
            fail("/internal", "an internal pair turns about parallel axes; the axes of '" + a.name + "' and '" + b.name +
                                  "' meet at an angle (a bevel pair, external)");
            return false;
        }
        const JointLine la = jointLine(m_, s0_, a), lb = jointLine(m_, s0_, b);
        CouplerWheel wa = wheelOf(a, common, 0.0, 0), wb = wheelOf(b, common, 0.0, 0);
        std::string why;
        const std::optional<BevelMesh> mesh = bevelMesh(la.point, la.axis, bodyPosition(m_, s0_, wa.body), lb.point,
                                                        lb.axis, bodyPosition(m_, s0_, wb.body), n1, n2, why);
        if (!mesh) {
            const double sine = std::min(1.0, la.axis.cross(lb.axis).norm());
            fail("/joints", "the axes of '" + a.name + "' and '" + b.name + "' are " + numberText(degrees(std::asin(sine))) +
                                "° from parallel and " + why);
            return false;
        }
        const Vec3 n = mesh->toWheel1.cross(mesh->toWheel2).normalized();
        const double s1 = la.axis.cross(mesh->contact).dot(n) > 0.0 ? 1.0 : -1.0;
        const double s2 = lb.axis.cross(mesh->contact).dot(n) > 0.0 ? 1.0 : -1.0;
        x = {signA * s1 * n1, -signB * s2 * n2};
        // The cones' length from the apex to the wheels' pitch circles: from the radii, or
        // where the first wheel's body sits on its axis.
        const double cone = cd.radius1 ? *cd.radius1 / std::sin(mesh->cone1)
                                       : (bodyPosition(m_, s0_, wa.body) - mesh->apex).dot(mesh->toWheel1) / std::cos(mesh->cone1);
        c.radius1 = cone * std::sin(mesh->cone1);
        c.radius2 = cone * std::sin(mesh->cone2);
        int t1 = 0, t2 = 0;
        if (cd.teeth1) {
            t1 = *cd.teeth1;
            t2 = *cd.teeth2;
        } else {
            drawnTeeth(c.radius1, c.radius2, t1, t2);
        }
        // Each wheel's pitch circle at its cone's base, a tooth of the first (and a gap of the
        // second) at the contact line.
        const Vec3 touch = mesh->apex + cone * mesh->contact;
        const double radii[2] = {c.radius1, c.radius2}, cones[2] = {mesh->cone1, mesh->cone2};
        const Vec3 toWheel[2] = {mesh->toWheel1, mesh->toWheel2};
        const int teethDrawn[2] = {t1, t2};
        CouplerWheel* wheels[2] = {&wa, &wb};
        for (int k = 0; k < 2; ++k) {
            CouplerWheel& w = *wheels[k];
            const Vec3 centre = mesh->apex + cone * std::cos(cones[k]) * toWheel[k];
            const Quat toBody = bodyOrientation(m_, s0_, w.body).inverse();
            w.centre = toBody * Vec3(centre - bodyPosition(m_, s0_, w.body));
            w.radius = radii[k];
            w.teeth = teethDrawn[k];
            const Vec3 axis = bodyOrientation(m_, s0_, w.body) * w.axis;
            w.phase = angleIn(w, across(touch - centre, axis)) + (k == 1 && w.teeth > 0 ? M_PI / w.teeth : 0.0);
        }
        c.wheels = {wa, wb};
        return true;
    }

    bool belt(const CouplerDoc& cd, const std::vector<JointIndex>& joints, const std::vector<bool>& angular,
              Coupler& c, std::vector<double>& x) {
        const Joint &a = m_.joint(joints[0]), &b = m_.joint(joints[1]);
        if (!angular[0] || !angular[1]) {
            fail("/joints", "a belt couples two revolute (or cylindrical) joints; '" + (angular[0] ? b.name : a.name) +
                                "' is prismatic");
            return false;
        }
        double signA = 1.0, signB = 1.0, d = 0.0;
        BodyIndex common;
        if (!commonBody(a, b, signA, signB, common) || !parallelAxes(a, b, signB, d)) return false;
        if (!cd.radius1 || !cd.radius2) {
            fail("", "a belt needs the radii of its two pulleys (radius1, radius2)");
            return false;
        }
        if (!positiveRadius(cd.radius1, "radius1") || !positiveRadius(cd.radius2, "radius2")) return false;
        c.radius1 = *cd.radius1;
        c.radius2 = *cd.radius2;
        // Pulleys in one plane are discs: open or crossed, they overlap unless their
        // centres are more than radius1 + radius2 apart (the belt's clearance aside).
        const double clear = c.radius1 + c.radius2;
        if (!(d > clear)) {
            fail("/joints", "the pulleys on '" + a.name + "' and '" + b.name + "' overlap: their axes are " +
                                numberText(d) + " m apart, and a belt's pulleys need more than radius1 + radius2 = " +
                                numberText(clear) + " m");
            return false;
        }
        // Open belt: r₁θ₁ − r₂θ₂ = const (both pulleys turn the same way); crossed: r₁θ₁ + r₂θ₂.
        x = {signA * c.radius1, (cd.crossed ? 1.0 : -1.0) * signB * c.radius2};
        c.wheels = {wheelOf(a, common, c.radius1, 0), wheelOf(b, common, c.radius2, 0)};
        commonPlane(c.wheels[0], c.wheels[1]);
        c.crossed = cd.crossed;
        return true;
    }

    bool rack(const CouplerDoc& cd, const std::vector<JointIndex>& joints, const std::vector<bool>& angular,
              Coupler& c, std::vector<double>& x) {
        const Joint &a = m_.joint(joints[0]), &b = m_.joint(joints[1]);
        if (!angular[0] || angular[1]) {
            fail("/joints", "a rack and pinion names the pinion's revolute (or cylindrical) joint, then the rack's "
                            "prismatic joint");
            return false;
        }
        double signA = 1.0, signB = 1.0;
        BodyIndex common;
        if (!commonBody(a, b, signA, signB, common)) return false;
        if (!cd.radius1) {
            fail("", "a rack and pinion needs the pinion's pitch radius (radius1)");
            return false;
        }
        if (!positiveRadius(cd.radius1, "radius1")) return false;
        c.radius1 = *cd.radius1;
        const JointLine pinion = jointLine(m_, s0_, a), slide = jointLine(m_, s0_, b);
        const double cosine = pinion.axis.dot(slide.axis);
        if (!(std::abs(cosine) <= 1e-6)) {
            fail("/joints", "the rack's slide ('" + b.name + "') is " + numberText(90.0 - degrees(std::acos(std::min(1.0, std::abs(cosine))))) +
                                "° from square to the pinion's axis ('" + a.name + "'): a rack moves across the pinion's axis");
            return false;
        }
        // The rack lies on the side of the pinion where its body is; its pitch line moves
        // with the pinion's pitch point: ṡ = r θ̇ (z × n)·u, with n the unit vector from the
        // pinion's axis towards the rack and u the slide's direction.
        const BodyIndex rackBody = b.frame1.body == common ? b.frame2.body : b.frame1.body;
        const Vec3 toRack = bodyPosition(m_, s0_, rackBody) - pinion.point;
        Vec3 n = toRack - toRack.dot(pinion.axis) * pinion.axis;
        n -= n.dot(slide.axis) * slide.axis;
        if (!(n.norm() > 1e-9 * std::max(toRack.norm(), c.radius1))) {
            fail("/joints", "the rack's body '" + m_.body(rackBody).name +
                                "' has its centre on the line through the pinion's axis along the slide: which side of "
                                "the pinion the rack meshes on is not defined");
            return false;
        }
        n.normalize();
        const double g = pinion.axis.cross(n).dot(slide.axis);
        // s_rack − g r θ_pinion = const, both relative to the common body.
        x = {-g * c.radius1 * signA, signB};
        // Drawn with 20 teeth on the pinion, one pointing at the rack, and a rack of twice
        // as many whose gap faces it at the pitch point.
        constexpr int kPinionTeeth = 20;
        c.wheels = {wheelOf(a, common, c.radius1, kPinionTeeth)};
        c.wheels[0].phase = angleIn(c.wheels[0], n);
        CouplerRack r;
        r.body = rackBody;
        r.pitch = 2.0 * M_PI * c.radius1 / kPinionTeeth;
        r.teeth = 2 * kPinionTeeth;
        const Quat rackFrame = bodyOrientation(m_, s0_, rackBody).inverse();
        const Vec3 pitchPoint = pinion.point + c.radius1 * n;
        r.start = rackFrame * Vec3(pitchPoint - (kPinionTeeth - 0.5) * r.pitch * slide.axis - bodyPosition(m_, s0_, rackBody));
        r.direction = rackFrame * slide.axis;
        r.normal = rackFrame * Vec3(-n);
        c.rack = r;
        return true;
    }

    bool cam(const CouplerDoc& cd, const std::vector<JointIndex>& joints, const std::vector<bool>& angular,
             Coupler& c) {
        const Joint &a = m_.joint(joints[0]), &b = m_.joint(joints[1]);
        if (!angular[0] || a.type != JointType::Revolute) {
            fail("/joints/0", "a cam names the cam's revolute joint first; '" + a.name + "' is a " +
                                  jointTypeName(a.type) + " joint");
            return false;
        }
        if (b.type != JointType::Revolute && b.type != JointType::Prismatic) {
            fail("/joints/1", "a cam's follower moves on a prismatic joint (translating) or a revolute (oscillating); '" +
                                  b.name + "' is a " + jointTypeName(b.type) + " joint");
            return false;
        }
        CamJoints cj;
        cj.cam = joints[0];
        cj.follower = joints[1];
        cj.followerTurns = angular[1];
        if (!commonBody(a, b, cj.camSign, cj.followerSign, cj.common)) return false;
        return buildCam(m_, s0_, cd, cj, c, [this](const std::string& field, const std::string& what) { fail(field, what); });
    }

    bool linearCoefficients(const CouplerDoc& cd, std::vector<double>& x) {
        if (cd.coefficients.size() != cd.joints.size()) {
            fail("/coefficients", "a linear coupler gives one coefficient per joint: " +
                                      std::to_string(cd.joints.size()) + " joints, " +
                                      std::to_string(cd.coefficients.size()) + " coefficients");
            return false;
        }
        for (size_t k = 0; k < cd.coefficients.size(); ++k)
            if (!(std::isfinite(cd.coefficients[k]) && cd.coefficients[k] != 0.0)) {
                fail("/coefficients/" + std::to_string(k), "a coefficient is a finite number other than zero");
                return false;
            }
        x = cd.coefficients;
        return true;
    }

    // The angle coefficients as whole numbers (so that the phase is a function of the
    // configuration) and the displacements' in the same unit; the offset that makes the
    // initial pose a root, and the equation's scale.
    bool makeTerms(const CouplerDoc& cd, const std::vector<JointIndex>& joints, const std::vector<bool>& angular,
                   const std::vector<double>& x, Coupler& c) {
        std::vector<double> angles;
        for (size_t k = 0; k < x.size(); ++k)
            if (angular[k]) angles.push_back(x[k]);
        std::vector<double> whole;
        double unit = 1.0;
        if (!angles.empty() && !wholeNumberRatio(angles, whole, unit)) {
            if (cd.teeth1 && cd.teeth2 && cd.type != CouplerType::Linear) {
                // The counts are whole numbers already, each within its range: what is too
                // large is the ratio they make once reduced.
                const long long t1 = *cd.teeth1, t2 = *cd.teeth2, g = std::gcd(t1, t2);
                fail("/teeth1", "the tooth counts " + std::to_string(t1) + " and " + std::to_string(t2) +
                                    " make the ratio " + std::to_string(t1 / g) + ":" + std::to_string(t2 / g) +
                                    " in lowest terms, and a coupler takes ratios of whole numbers up to " +
                                    std::to_string(kLargestCouplerWhole) +
                                    " (its equation is written in the phase of the meshing, whose roots would "
                                    "otherwise lie too close for the solver to keep to one)");
                return false;
            }
            std::string list;
            for (double a : angles) list += (list.empty() ? "" : ", ") + numberText(std::abs(a));
            fail(cd.type == CouplerType::Linear ? "/coefficients" : "",
                 "the angles' coefficients (" + list + (cd.type == CouplerType::Linear ? "" : ", from the radii") +
                     ") are not in the ratio of whole numbers up to " + std::to_string(kLargestCouplerWhole) +
                     ": a coupler's angles turn in the ratio of tooth counts (give teeth1 and teeth2 for a gear)");
            return false;
        }
        double psi = 0.0, largestAngle = 0.0, largestDisplacement = 0.0;
        for (size_t k = 0, w = 0; k < x.size(); ++k) {
            CoupledCoordinate t;
            t.joint = joints[k];
            t.angular = angular[k];
            t.coefficient = angular[k] ? whole[w++] : x[k] / unit;
            (t.angular ? largestAngle : largestDisplacement) =
                std::max(t.angular ? largestAngle : largestDisplacement, std::abs(t.coefficient));
            psi += t.coefficient * (t.angular ? jointAngle(m_, s0_, t.joint) : jointDisplacement(m_, s0_, t.joint));
            c.terms.push_back(t);
        }
        c.scale = largestDisplacement > 0.0 ? largestDisplacement : largestAngle;
        c.offset = c.periodic() ? std::remainder(psi, 2.0 * M_PI) : psi;
        return true;
    }

    Model& m_;
    const CouplerBuildContext& c_;
    State s0_;
    std::string where_;
};

}  // namespace

bool wholeNumberRatio(const std::vector<double>& x, std::vector<double>& whole, double& unit) {
    if (x.empty()) return false;
    for (double v : x)
        if (!(std::isfinite(v) && v != 0.0)) return false;
    std::vector<long long> p(x.size()), q(x.size());
    long long denominators = 1;
    for (size_t i = 0; i < x.size(); ++i) {
        // |aᵢ/a₀| = |xᵢ/x₀| with 1 ≤ |aᵢ| ≤ kLargestCouplerWhole.
        const double ratio = std::abs(x[i] / x[0]);
        if (!(ratio <= kLargestCouplerWhole && ratio * kLargestCouplerWhole >= 1.0)) return false;
        if (!rationalApproximation(std::abs(x[i] / x[0]), kLargestCouplerWhole, 1e-9, p[i], q[i])) return false;
        denominators = std::lcm(denominators, q[i]);
        if (denominators > kLargestCouplerWhole) return false;
    }
    long long common = 0;
    std::vector<long long> a(x.size());
    for (size_t i = 0; i < x.size(); ++i) {
        a[i] = p[i] * (denominators / q[i]) * ((x[i] < 0.0) != (x[0] < 0.0) ? -1 : 1);
        common = std::gcd(common, std::abs(a[i]));
    }
    whole.assign(x.size(), 0.0);
    for (size_t i = 0; i < x.size(); ++i) {
        a[i] /= common;
        if (std::abs(a[i]) > kLargestCouplerWhole) return false;
        whole[i] = static_cast<double>(a[i]);
    }
    unit = x[0] / whole[0];
    return true;
}

void buildCouplers(Model& model, const CouplerBuildContext& context) { CouplerBuilder(model, context).run(); }

}  // namespace looplab
