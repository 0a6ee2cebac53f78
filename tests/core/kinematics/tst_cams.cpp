// Cams (Cams in docs/methods.md) against closed forms: the follower of each example moves
// by its motion law (lift, velocity, acceleration at 100 cam angles, written out here
// independently of the library's law); the segments join as their laws say (cycloidal and
// 3-4-5 with continuous acceleration, harmonic with its known jump); the table's periodic
// spline is fourth-order and smooth over the turn's end; the profile is the envelope of the
// follower (the roller touches it everywhere without cutting in, the flat face is tangent
// to it); the pressure angle of a radial roller follower is atan(f'/(r + f)); in quasi-static
// balance the contact force is the load over cos α and the cam's torque the load times f'
// (virtual work); an oscillating follower swings by its law; and the builder's diagnostics.
// The derivatives of the cam's equation are checked with every other equation in
// tst_constraints and tst_linearization.
#include "TestModels.h"

#include "looplab/dynamics/Reactions.h"
#include "looplab/kinematics/Constraints.h"
#include "looplab/kinematics/KinematicSimulation.h"
#include "looplab/analysis/Statics.h"
#include "looplab/model/Cam.h"
#include "looplab/scene/Scene.h"
#include "looplab/simulation/Simulation.h"
#include "looplab/study/StudyFile.h"
#include "looplab/study/StudyRunner.h"

#include <Eigen/Dense>

#include <cmath>

using namespace looplab;

namespace {

constexpr double kTau = 2.0 * M_PI;

struct Motion {
    double s = 0.0, v = 0.0, a = 0.0;  // lift and its first two derivatives in the cam angle
};

// A rise of h over β at x = θ/β in [0, 1] (the textbook forms).
Motion cycloidalRise(double h, double beta, double theta) {
    const double x = theta / beta;
    return {h * (x - std::sin(kTau * x) / kTau), h / beta * (1.0 - std::cos(kTau * x)),
            kTau * h / (beta * beta) * std::sin(kTau * x)};
}

Motion polynomial345Rise(double h, double beta, double theta) {
    const double x = theta / beta;
    return {h * (10.0 * std::pow(x, 3) - 15.0 * std::pow(x, 4) + 6.0 * std::pow(x, 5)),
            h / beta * (30.0 * x * x - 60.0 * std::pow(x, 3) + 30.0 * std::pow(x, 4)),
            h / (beta * beta) * (60.0 * x - 180.0 * x * x + 120.0 * std::pow(x, 3))};
}

// Rise over β₁, dwell over δ₁, return (the rise mirrored) over β₁, dwell to 2π.
Motion riseDwellReturnDwell(Motion (*rise)(double, double, double), double h, double beta, double dwell, double phi) {
    phi = std::fmod(phi, kTau);
    if (phi < 0.0) phi += kTau;
    if (phi <= beta) return rise(h, beta, phi);
    if (phi <= beta + dwell) return {h, 0.0, 0.0};
    if (phi <= 2.0 * beta + dwell) {
        const Motion m = rise(h, beta, phi - beta - dwell);
        return {h - m.s, -m.v, -m.a};
    }
    return {};
}

Motion rollerExampleLaw(double phi) {
    return riseDwellReturnDwell(cycloidalRise, 0.025, kTau / 3.0, kTau / 6.0, phi);
}

Motion flatExampleLaw(double phi) {
    return riseDwellReturnDwell(polynomial345Rise, 0.020, 150.0 * M_PI / 180.0, M_PI / 6.0, phi);
}

// An example and its law, with the law's lift.
struct ExampleLaw {
    const char* file;
    Motion (*law)(double);
    double h;
};

const Coupler& onlyCam(const Model& m) { return m.couplers.front(); }

std::string problems(const ModelDocument& doc) {
    const BuildResult b = buildModel(doc, "test.json");
    return b.ok() ? std::string() : formatDiagnostics(b.diagnostics);
}

// A cam that swings a roller on an arm: the cam turns about z at the origin; the arm's
// pivot is 120 mm to the right of the roller's centre, which sits 50 mm above the axis; a
// harmonic swing of 15° up over half a turn and back.
ModelDocument oscillatingCam() {
    ModelDocument doc = test::exampleDocument("cam-roller-follower.json");
    doc.bodies[1].position = Vec3(0.06, 0.05, 0.0);
    doc.joints[1] = JointDoc();
    doc.joints[1].name = "arm pivot";
    doc.joints[1].type = JointType::Revolute;
    doc.joints[1].body1 = "ground";
    doc.joints[1].body2 = "follower";
    doc.joints[1].point = Vec3(0.12, 0.05, 0.0);
    doc.joints[1].axis = Vec3::UnitZ();
    CamDoc& cam = doc.couplers[0].cam;
    doc.couplers[0].joints = {"camshaft", "arm pivot"};
    cam.followerPoint = Vec3(0.0, 0.05, 0.0);
    cam.rollerRadius = 0.01;
    cam.segments = {{CamMotion::Harmonic, 180.0, 15.0}, {CamMotion::Harmonic, 180.0, -15.0}};
    return doc;
}

}  // namespace

class CamsTest : public QObject {
    Q_OBJECT

private slots:
    // Where segments meet: lift and velocity continuous for every law; acceleration too for
    // the cycloidal and 3-4-5 laws, while the harmonic one jumps by π²h/(2β²) at each end.
    // The derivatives agree with central differences of the lift.
    void segmentsJoinAsTheirLawsSay() {
        const double h = 0.01, beta = M_PI / 2.0;
        for (CamMotion motion : {CamMotion::Cycloidal, CamMotion::Polynomial345, CamMotion::Harmonic}) {
            const CamLaw law = CamLaw::fromSegments(
                {{motion, beta, h}, {CamMotion::Dwell, beta, 0.0}, {motion, beta, -h}, {CamMotion::Dwell, beta, 0.0}});
            for (int join = 0; join < 4; ++join) {
                const double at = join * beta, e = 1e-9;
                const CamLaw::Value before = law.evaluate(at - e), after = law.evaluate(at + e);
                QVERIFY(std::abs(before.lift - after.lift) < 1e-10 * h);
                QVERIFY(std::abs(before.velocity - after.velocity) < 1e-7 * h);
                const double jump = std::abs(before.acceleration - after.acceleration);
                const double expected = motion == CamMotion::Harmonic ? M_PI * M_PI * h / (2.0 * beta * beta) : 0.0;
                QVERIFY2(std::abs(jump - expected) < 1e-6 * h, qPrintable(QString("%1 join %2: jump %3, expected %4")
                                                                             .arg(camMotionName(motion)).arg(join).arg(jump).arg(expected)));
            }
            double worst = 0.0;
            for (int k = 1; k < 100; ++k) {
                const double phi = 0.37 + 0.058 * k, d = 2e-5;
                const CamLaw::Value v = law.evaluate(phi), l = law.evaluate(phi - d), r = law.evaluate(phi + d);
                if (std::abs(std::fmod(phi, beta)) < 2 * d || std::abs(std::fmod(phi, beta) - beta) < 2 * d) continue;
                worst = std::max(worst, std::abs((r.lift - l.lift) / (2 * d) - v.velocity) / (h / beta));
                worst = std::max(worst, std::abs((r.velocity - l.velocity) / (2 * d) - v.acceleration) / (h / (beta * beta)));
                worst = std::max(worst, std::abs((r.acceleration - l.acceleration) / (2 * d) - v.jerk) / (h / std::pow(beta, 3)));
            }
            qInfo("%s: largest difference from central differences %.2e (relative)", camMotionName(motion), worst);
            QVERIFY(worst < 1e-6);
        }
    }

    // The acceptance test: the follower of each translating example, driven once a second,
    // moves by its law at 100 cam angles: lift, velocity ωf' and acceleration ω²f'' to 1e-9
    // of the lift (and of its largest rate and acceleration).
    void followersMoveByTheirLaws() {
        for (const ExampleLaw& c : {ExampleLaw{"cam-roller-follower.json", rollerExampleLaw, 0.025},
                                    ExampleLaw{"cam-flat-follower.json", flatExampleLaw, 0.020}}) {
            LoadedModel lm = test::loadExample(c.file);
            QVERIFY(lm.ok());
            const Model& m = *lm.model;
            const JointIndex guide = *m.findJoint("guide");
            const BodyIndex follower = *m.findBody("follower");
            const double s0 = jointDisplacement(m, lm.initial, guide);
            double lift = 0.0, rate = 0.0, acceleration = 0.0;
            int samples = 0;
            const KinematicResult r = runKinematics(m, lm.initial, 0.99, 0.01, [&](const KinematicSample& s) {
                const Motion law = c.law(kTau * s.state.t);
                const double v = jointDisplacementRate(m, s.state, guide);
                const double a = s.acceleration[m.velocityOffset(follower) + 1];  // the guide runs along y
                lift = std::max(lift, std::abs(jointDisplacement(m, s.state, guide) - s0 - law.s));
                rate = std::max(rate, std::abs(v - kTau * law.v));
                acceleration = std::max(acceleration, std::abs(a - kTau * kTau * law.a));
                ++samples;
            });
            QVERIFY2(r.ok, r.message.c_str());
            QCOMPARE(samples, 100);
            qInfo("%s: largest error in lift %.2e m, velocity %.2e m/s, acceleration %.2e m/s^2", c.file, lift, rate,
                  acceleration);
            QVERIFY(lift < 1e-9 * c.h);
            QVERIFY(rate < 1e-9 * c.h * kTau * 2.0);
            QVERIFY(acceleration < 1e-9 * c.h * kTau * kTau * 8.0);
        }
    }

    // A table sampled from a harmonic lift every 10°: the periodic spline passes through the
    // points, errs between them by no more than the cubic spline's bound (5/384) Δ⁴ max|f⁗|,
    // and its slope and curvature are continuous over 360° → 0°.
    void tableSplineIsPeriodicAndFourthOrder() {
        const double A = 0.01;
        auto f = [&](double x) { return 0.5 * A * (1.0 - std::cos(x)); };
        std::vector<double> angles, lifts;
        const int n = 36;
        const double step = kTau / n;
        for (int i = 0; i < n; ++i) {
            angles.push_back(i * step);
            lifts.push_back(f(i * step));
        }
        const CamLaw law = CamLaw::fromTable(angles, lifts);
        double atKnots = 0.0, between = 0.0;
        for (int i = 0; i < n; ++i) {
            atKnots = std::max(atKnots, std::abs(law.evaluate(angles[size_t(i)]).lift - lifts[size_t(i)]));
            for (double t : {0.25, 0.5, 0.75}) {
                const double x = (i + t) * step;
                between = std::max(between, std::abs(law.evaluate(x).lift - f(x)));
            }
        }
        const double bound = 5.0 / 384.0 * std::pow(step, 4) * 0.5 * A;
        qInfo("spline: %.2e at the knots, %.2e between them (bound %.2e)", atKnots, between, bound);
        QVERIFY(atKnots < 1e-15);
        QVERIFY(between < bound);
        QVERIFY(between > 1e-3 * bound);  // the spline is not the function itself
        const CamLaw::Value end = law.evaluate(kTau - 1e-10), start = law.evaluate(1e-10);
        QVERIFY(std::abs(end.velocity - start.velocity) < 1e-9 * A);
        QVERIFY(std::abs(end.acceleration - start.acceleration) < 1e-8 * A);
        // And one turn on, or one back, it repeats.
        QVERIFY(std::abs(law.evaluate(1.234).lift - law.evaluate(1.234 + 2 * kTau).lift) < 1e-15);
        QVERIFY(std::abs(law.evaluate(1.234).lift - law.evaluate(1.234 - kTau).lift) < 1e-15);
    }

    // The profile is what the follower sweeps: at 72 cam angles the roller's centre is one
    // roller radius from the nearest of 7200 profile points (tangent, never cutting in), and
    // the flat face touches the profile with every profile point on the cam's side of it.
    // The radial roller's pressure angle is atan(f'/(r₀ + f)) with r₀ the prime circle's
    // radius; the flat face touches f' from its axis where its profile's radius is r₀ + f + f''.
    void profileIsTheFollowersEnvelope() {
        {
            LoadedModel lm = test::loadExample("cam-roller-follower.json");
            QVERIFY(lm.ok());
            const Cam& cam = *onlyCam(*lm.model).cam;
            std::vector<Vec2> profile;
            for (int i = 0; i < 7200; ++i) profile.push_back(camPoint(cam, kTau * i / 7200).contact);
            double gap = 0.0, pressure = 0.0;
            for (int k = 0; k < 72; ++k) {
                const double phi = kTau * k / 72 + 0.01;
                const CamPoint p = camPoint(cam, phi);
                size_t best = 0;
                for (size_t i = 0; i < profile.size(); ++i)
                    if ((profile[i] - p.pitch).norm() < (profile[best] - p.pitch).norm()) best = i;
                // The nearest profile point between the neighbouring samples, by golden section.
                auto distance = [&](double a) { return (camPoint(cam, a).contact - p.pitch).norm(); };
                double lo = kTau * (double(best) - 1.0) / 7200, hi = kTau * (double(best) + 1.0) / 7200;
                for (int it = 0; it < 80; ++it) {
                    const double a = hi - 0.618033988749895 * (hi - lo), b = lo + 0.618033988749895 * (hi - lo);
                    if (distance(a) < distance(b))
                        hi = b;
                    else
                        lo = a;
                }
                gap = std::max(gap, std::abs(distance(0.5 * (lo + hi)) - 0.012));
                const Motion law = rollerExampleLaw(phi);
                pressure = std::max(pressure, std::abs(p.pressureAngle - std::atan(std::abs(law.v) / (0.052 + law.s))));
            }
            qInfo("roller: largest |distance to the profile - roller radius| %.2e m; pressure angle error %.2e rad", gap,
                  pressure);
            QVERIFY(gap < 1e-12);
            QVERIFY(pressure < 1e-12);
            const CamCycle cycle = camCycle(cam);
            qInfo("roller: base radius %.6f m, pressure angle up to %.4f deg, smallest radius %.6f m", cycle.baseRadius,
                  cycle.largestPressureAngle * 180 / M_PI, cycle.smallestRadius);
            QVERIFY(std::abs(cycle.baseRadius - 0.040) < 1e-9);
            QVERIFY(!cycle.undercut);
        }
        {
            LoadedModel lm = test::loadExample("cam-flat-follower.json");
            QVERIFY(lm.ok());
            const Cam& cam = *onlyCam(*lm.model).cam;
            std::vector<Vec2> profile;
            for (int i = 0; i < 7200; ++i) profile.push_back(camPoint(cam, kTau * i / 7200).contact);
            double touch = 0.0, offset = 0.0, radius = 0.0;
            for (int k = 0; k < 72; ++k) {
                const double phi = kTau * k / 72 + 0.01;
                const CamPoint p = camPoint(cam, phi);
                const Motion law = flatExampleLaw(phi);
                // The face's normal in the cam's frame at this angle: the lift direction turned back by φ.
                const double c = std::cos(-phi), s = std::sin(-phi);
                const Vec2 n(c * cam.direction.x() - s * cam.direction.y(), s * cam.direction.x() + c * cam.direction.y());
                double highest = -1e9;
                for (const Vec2& x : profile) highest = std::max(highest, n.dot(x));
                touch = std::max(touch, std::abs(highest - (0.050 + law.s)));
                offset = std::max(offset, std::abs(std::abs(p.faceOffset) - std::abs(law.v)));
                radius = std::max(radius, std::abs(p.radiusOfCurvature - (0.050 + law.s + law.a)));
            }
            qInfo("flat face: tangency %.2e m, contact offset %.2e m, radius of curvature %.2e m", touch, offset, radius);
            // The samples' spacing Δs (6e-5 m) bounds the tangency's error by Δs²/2ρ.
            QVERIFY(touch < 5e-8);
            QVERIFY(offset < 1e-12);
            QVERIFY(radius < 1e-12);
            QVERIFY(!camCycle(cam).undercut);
        }
    }

    // Quasi-static balance at 24 cam angles (velocities zero, the motor holding the cam):
    // the follower's weight W rests on the roller, so the contact force is W / cos α and by
    // virtual work the motor's torque is W f'(φ). The multipliers come from Φ_qᵀλ = Q by
    // least squares here, independently of the solvers.
    void contactForceFollowsThePressureAngle() {
        LoadedModel lm = test::loadExample("cam-roller-follower.json");
        QVERIFY(lm.ok());
        const Model& m = *lm.model;
        const double W = m.body(*m.findBody("follower")).rigid()->mass() * 9.81;
        std::vector<State> states;
        const KinematicResult run = runKinematics(m, lm.initial, 0.96, 0.04, [&](const KinematicSample& s) { states.push_back(s.state); });
        QVERIFY2(run.ok, run.message.c_str());
        double force = 0.0, torque = 0.0;
        for (State s : states) {
            s.v.setZero();
            ConstraintValues cv;
            evaluateConstraints(m, s, cv, kJacobian);
            const Eigen::MatrixXd JT = Eigen::MatrixXd(cv.jacobian).transpose();
            const VecX Q = staticNetForce(m, s, VecX::Zero(m.equationCount()));
            const VecX lambda = JT.colPivHouseholderQr().solve(Q);
            QVERIFY((JT * lambda - Q).norm() < 1e-10 * Q.norm());
            const CouplerEffort e = couplerEfforts(m, s, lambda).front();
            const Motion law = rollerExampleLaw(kTau * s.t);
            const double alpha = std::atan(std::abs(law.v) / (0.052 + law.s));
            force = std::max(force, std::abs(e.contactForce - W / std::cos(alpha)) / W);
            const double motor = -lambda[m.drivers.front().equation];
            torque = std::max(torque, std::abs(motor - W * law.v) / (W * 0.025));
        }
        qInfo("weight %.4f N: contact force relative error %.2e, motor torque relative error %.2e", W, force, torque);
        QVERIFY(force < 1e-9);
        QVERIFY(torque < 1e-9);
    }

    // In motion the follower's weight and its inertia rest on the cam: N cos α = m(g + ω²f'').
    // At three turns a second the end of the rise needs more deceleration than gravity
    // gives, from x = 1/2 + asin(gβ²/(2πhω²))/2π of the rise on: there the contact force
    // turns negative and the run says so once, at the first output past that instant.
    void contactForceTurnsNegativeWhereAFollowerWouldLeave() {
        ModelDocument doc = test::exampleDocument("cam-roller-follower.json");
        const double omega = 3.0 * kTau, g = 9.81, h = 0.025, beta = kTau / 3.0;
        doc.drivers[0].law.rate = omega;
        const LoadedModel lm = prepareModel(doc);
        QVERIFY2(lm.ok(), formatDiagnostics(lm.diagnostics).c_str());
        const Model& m = *lm.model;
        const double mass = m.body(*m.findBody("follower")).rigid()->mass();
        SimulationSettings settings;
        settings.tEnd = 0.3;
        settings.outputStep = 0.001;
        Simulator sim(lm.model, settings);
        double worst = 0.0;
        const SimulationResult r = sim.run(lm.initial, [&](const SimulationFrame& f) {
            const Motion law = rollerExampleLaw(omega * f.state.t);
            const double alpha = std::atan(std::abs(law.v) / (0.052 + law.s));
            const double expected = mass * (g + omega * omega * law.a) / std::cos(alpha);
            worst = std::max(worst, std::abs(f.couplers.front().contactForce - expected) / (mass * g));
        });
        QVERIFY2(r.ok, r.message.c_str());
        const double x = std::asin(g * beta * beta / (kTau * h * omega * omega)) / kTau;
        const double leaves = (0.5 + x) * beta / omega;
        std::vector<double> times;
        for (const SimulationEvent& e : r.events)
            if (e.kind == RunEventKind::FollowerLiftOff) times.push_back(e.t);
        qInfo("contact force against m(g + w^2 f'')/cos a: %.2e of the weight; it turns negative at t = %.6f s, "
              "reported at %s",
              worst, leaves, times.empty() ? "-" : qPrintable(QString::number(times.front(), 'f', 6)));
        QVERIFY(worst < 1e-6);
        QCOMPARE(times.size(), size_t(1));
        QVERIFY(times.front() >= leaves && times.front() < leaves + settings.outputStep + 1e-12);
        // At one turn a second gravity keeps it on, the whole turn through.
        doc.drivers[0].law.rate = kTau;
        settings.tEnd = 1.0;
        settings.outputStep = 0.005;
        const LoadedModel slow = prepareModel(doc);
        const SimulationResult quiet = Simulator(slow.model, settings).run(slow.initial, [](const SimulationFrame&) {});
        QVERIFY(quiet.ok);
        for (const SimulationEvent& e : quiet.events) QVERIFY(e.kind != RunEventKind::FollowerLiftOff);
    }

    // An arm swung by the cam: its angle moves by the law (15° up and back, harmonic) at
    // 100 cam angles, the roller's centre moving away from the cam's axis as it rises.
    void oscillatingFollowerSwingsByItsLaw() {
        const LoadedModel lm = prepareModel(oscillatingCam());
        QVERIFY2(lm.ok(), formatDiagnostics(lm.diagnostics).c_str());
        const Model& m = *lm.model;
        const JointIndex pivot = *m.findJoint("arm pivot");
        const double psi0 = jointAngle(m, lm.initial, pivot);
        const Cam& cam = *onlyCam(m).cam;
        double worst = 0.0, outward = 1.0;
        const KinematicResult r = runKinematics(m, lm.initial, 0.99, 0.01, [&](const KinematicSample& s) {
            const double x = kTau * s.state.t;
            const double law = x <= M_PI ? 7.5 * (1 - std::cos(x)) : 15.0 - 7.5 * (1 - std::cos(x - M_PI));
            const double swing = std::abs(jointAngle(m, s.state, pivot) - psi0) * 180.0 / M_PI;
            worst = std::max(worst, std::abs(swing - law));
            const Vec2 centre = camPoint(cam, x).pitch;
            if (law > 1.0) outward = std::min(outward, centre.norm() - 0.05);
        });
        QVERIFY2(r.ok, r.message.c_str());
        qInfo("arm: largest error in its swing %.2e deg", worst);
        QVERIFY(worst < 1e-9 * 15.0);
        QVERIFY(outward > 0.0);
    }

    // A cam given by its profile: a circle of radius R = 40 mm whose centre is e = 10 mm
    // from the axis (an eccentric), as a polygon of 720 points. Turned by β, its centre is at
    // e(−sin β, cos β), so the follower on the vertical line through the axis rides at
    // e cos β + √((R + r)² − e² sin² β) for a roller of radius r (a knife edge: r = 0), and a
    // flat face at e cos β + R. The guide's travel follows these at 100 angles to within the
    // polygon's own error, R(1 − cos(π/720)) = 4e-7 m.
    void profileGivesTheLift() {
        const double R = 0.04, e = 0.01, r = 0.012;
        for (CamFollower follower : {CamFollower::Roller, CamFollower::KnifeEdge, CamFollower::FlatFace}) {
            ModelDocument doc = test::exampleDocument("cam-roller-follower.json");
            CamDoc& cam = doc.couplers[0].cam;
            cam.segments.clear();
            cam.follower = follower;
            const double reach = follower == CamFollower::Roller ? R + r : R;
            for (int i = 0; i < 720; ++i) {
                const double a = kTau * i / 720;
                cam.profile.emplace_back(R * std::cos(a), e + R * std::sin(a), 0.0);
            }
            cam.followerPoint = Vec3(0.0, e + reach, 0.0);
            const LoadedModel lm = prepareModel(doc);
            QVERIFY2(lm.ok(), formatDiagnostics(lm.diagnostics).c_str());
            const Model& m = *lm.model;
            const JointIndex guide = *m.findJoint("guide");
            const double s0 = jointDisplacement(m, lm.initial, guide);
            double worst = 0.0;
            const KinematicResult run = runKinematics(m, lm.initial, 0.99, 0.01, [&](const KinematicSample& s) {
                const double b = kTau * s.state.t;
                const double height = follower == CamFollower::FlatFace
                                          ? e * std::cos(b) + R
                                          : e * std::cos(b) + std::sqrt(reach * reach - e * e * std::sin(b) * std::sin(b));
                worst = std::max(worst, std::abs(jointDisplacement(m, s.state, guide) - s0 - (height - e - reach)));
            });
            QVERIFY2(run.ok, run.message.c_str());
            qInfo("%s on an eccentric circle: largest difference from the closed form %.2e m", camFollowerName(follower),
                  worst);
            QVERIFY(worst < 1e-6);
        }
        // A follower that does not rest on the profile is refused with the point where it would.
        ModelDocument doc = test::exampleDocument("cam-roller-follower.json");
        doc.couplers[0].cam.segments.clear();
        for (int i = 0; i < 720; ++i)
            doc.couplers[0].cam.profile.emplace_back(R * std::cos(kTau * i / 720), e + R * std::sin(kTau * i / 720), 0.0);
        doc.couplers[0].cam.followerPoint = Vec3(0.0, 0.07, 0.0);
        const std::string p = problems(doc);
        QVERIFY2(p.find("/couplers/0/follower_point") != std::string::npos && p.find("clear of") != std::string::npos &&
                     p.find("(0, 0.062, 0)") != std::string::npos,
                 p.c_str());
    }

    // A study varies a rise and, through `also`, its return with the opposite sign: the law
    // still balances and the case's cam rises by the value; a linked path that is not in the
    // model is refused at its place in the study file.
    void riseAndReturnVaryTogetherInAStudy() {
        const std::string model = test::examplePath("cam-roller-follower.json");
        const StudyFileResult f = parseStudyFile(R"({"format": "looplab-study", "version": 1, "model": ")" + model + R"(",
            "analysis": {"type": "statics"}, "outputs": [{"quantity": "guide.displacement"}],
            "parameters": [{"path": "/couplers/0/law/0/lift", "also": [{"path": "/couplers/0/law/2/lift", "factor": -1}],
                            "values": [0.02, 0.03]}]})",
                                                 "rise.json");
        QVERIFY2(f.study, formatDiagnostics(f.diagnostics).c_str());
        const std::string text = serializeModelDocument(test::exampleDocument("cam-roller-follower.json"));
        const DocumentResult varied = parseModelDocument(applyStudyValues(*f.study, text, {0.03}));
        QVERIFY2(varied.document, formatDiagnostics(varied.diagnostics).c_str());
        const LoadedModel lm = prepareModel(*varied.document);
        QVERIFY2(lm.ok(), formatDiagnostics(lm.diagnostics).c_str());
        QVERIFY(std::abs(lm.model->couplers[0].cam->law.evaluate(kTau / 3.0).lift - 0.03) < 1e-15);
        const StudyFileResult bad = parseStudyFile(R"({"format": "looplab-study", "version": 1, "model": ")" + model + R"(",
            "analysis": {"type": "statics"}, "outputs": [{"quantity": "guide.displacement"}],
            "parameters": [{"path": "/couplers/0/law/0/lift", "also": [{"path": "/couplers/0/law/9/lift"}],
                            "values": [0.02]}]})",
                                                   "rise.json");
        const std::string p = formatDiagnostics(bad.diagnostics);
        QVERIFY2(!bad.study && p.find("/parameters/0/also/0/path") != std::string::npos, p.c_str());
    }

    void fileRoundTrip() {
        ModelDocument table = test::exampleDocument("cam-roller-follower.json");
        table.couplers[0].cam.segments.clear();
        for (int i = 0; i < 36; ++i) table.couplers[0].cam.table.emplace_back(10.0 * i, rollerExampleLaw(kTau * i / 36).s);
        table.couplers[0].cam.startAngle = 30.0;
        ModelDocument profile = test::exampleDocument("cam-flat-follower.json");
        profile.couplers[0].cam.segments.clear();
        for (int i = 0; i < 72; ++i)
            profile.couplers[0].cam.profile.emplace_back(0.05 * std::cos(kTau * i / 72), 0.05 * std::sin(kTau * i / 72), 0.0);
        for (const ModelDocument& doc :
             {test::exampleDocument("cam-roller-follower.json"), test::exampleDocument("cam-flat-follower.json"), table,
              oscillatingCam(), profile}) {
            QVERIFY(prepareModel(doc).ok());
            const DocumentResult again = parseModelDocument(serializeModelDocument(doc));
            QVERIFY2(again.document, formatDiagnostics(again.diagnostics).c_str());
            QCOMPARE(serializeModelDocument(*again.document), serializeModelDocument(doc));
        }
    }

    void diagnosticsSayWhatIsWrong() {
        const ModelDocument roller = test::exampleDocument("cam-roller-follower.json");
        {
            ModelDocument doc = roller;
            doc.couplers[0].cam.segments[1].angle = 50.0;
            const std::string p = problems(doc);
            QVERIFY2(p.find("/couplers/0/law") != std::string::npos && p.find("350") != std::string::npos, p.c_str());
        }
        {
            ModelDocument doc = roller;
            doc.couplers[0].cam.segments[2].lift = -0.02;
            const std::string p = problems(doc);
            QVERIFY2(p.find("/couplers/0/law") != std::string::npos && p.find("balance") != std::string::npos, p.c_str());
        }
        {
            // A lift of 1e300 m: finite in the file, but the profile overflows. It was built
            // and called "not undercut" by check; it is refused at the law.
            for (double lift : {1e300, 1e160}) {
                ModelDocument doc = roller;
                doc.couplers[0].cam.segments[0].lift = lift;
                doc.couplers[0].cam.segments[2].lift = -lift;
                const std::string p = problems(doc);
                QVERIFY2(p.find("/couplers/0/law") != std::string::npos && p.find("too large") != std::string::npos, p.c_str());
            }
            // A large lift that is still a cam: built.
            ModelDocument doc = roller;
            doc.couplers[0].cam.segments[0].lift = 0.5;
            doc.couplers[0].cam.segments[2].lift = -0.5;
            QCOMPARE(problems(doc), std::string());
        }
        {
            ModelDocument doc = oscillatingCam();
            doc.couplers[0].cam.follower = CamFollower::FlatFace;
            const std::string p = problems(doc);
            QVERIFY2(p.find("/couplers/0/follower") != std::string::npos && p.find("'arm pivot'") != std::string::npos,
                     p.c_str());
        }
        {
            ModelDocument doc = roller;
            doc.couplers[0].cam.followerPoint = Vec3::Zero();
            QVERIFY(problems(doc).find("/couplers/0/follower_point") != std::string::npos);
            doc = roller;
            doc.couplers[0].cam.rollerRadius = 0.06;
            QVERIFY(problems(doc).find("/couplers/0/roller_radius") != std::string::npos);
            doc = roller;
            doc.couplers[0].joints = {"guide", "camshaft"};
            QVERIFY(problems(doc).find("/couplers/0/joints/0") != std::string::npos);
        }
        {
            const std::string text = R"({"format": "looplab-model", "version": 1, "bodies": [],
                "couplers": [{"name": "c", "type": "cam", "joints": [], "follower": "mushroom", "follower_point": [0, 0, 0],
                              "law": [{"motion": "dwell", "angle": 360, "lift": 0.1}]},
                             {"name": "d", "type": "cam", "joints": [], "follower": "knife_edge", "follower_point": [0, 0, 0],
                              "law": [{"motion": "dwell", "angle": 360}], "lift_table": [[0, 0]]}]})";
            const DocumentResult r = parseModelDocument(text, "bad.json");
            const std::string p = formatDiagnostics(r.diagnostics);
            QVERIFY2(p.find("/couplers/0/follower") != std::string::npos && p.find("'mushroom'") != std::string::npos, p.c_str());
            QVERIFY2(p.find("/couplers/0/law/0/lift") != std::string::npos, p.c_str());
            QVERIFY2(p.find("/couplers/1") != std::string::npos && p.find("one of them") != std::string::npos, p.c_str());
        }
    }
};

QTEST_GUILESS_MAIN(CamsTest)
#include "tst_cams.moc"
