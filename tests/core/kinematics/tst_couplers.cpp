// Gear pairs, racks, belts, linear couplers and screw joints (Couplers in docs/methods.md)
// against closed forms: the examples' ratios over a kinematic run (a gear train, a planetary
// set by Willis' equation, a rack and pinion, a steering rack turning two wheels through tie
// rods, a belt-driven crank-rocker, a screw jack's lift
// and its torque from the lead), the acceleration of a geared
// train from its reduced inertia, the static balance of torques through the ratio (virtual
// work), the redundancy a belt adds in parallel with a parallelogram, and the builder's
// diagnostics. The derivatives of the coupler equation are checked with every other
// equation in tst_constraints.
#include "TestModels.h"

#include "looplab/analysis/Statics.h"
#include "looplab/dynamics/Reactions.h"
#include "looplab/kinematics/Constraints.h"
#include "looplab/kinematics/JointCoordinates.h"
#include "looplab/kinematics/KinematicSimulation.h"
#include "looplab/kinematics/Mobility.h"
#include "looplab/posing/JointCoordinateAssembly.h"
#include "looplab/posing/MechanismAdvice.h"
#include "looplab/scene/Scene.h"
#include "looplab/simulation/Simulation.h"
#include "looplab/study/StudyRunner.h"

#include <cmath>
#include <map>

using namespace looplab;

namespace {

// The continuous coordinate of every revolute and prismatic joint at every output of a
// kinematic run of an example, by joint name.
struct Run {
    std::vector<std::map<std::string, double>> values, rates;
    double largestViolation = 0.0;
};

Run runExample(const char* file, double tEnd, double step) {
    Run out;
    LoadedModel lm = test::loadExample(file);
    if (!lm.ok()) return out;
    const Model& m = *lm.model;
    JointCoordinateTracker tracker(m);
    const KinematicResult r = runKinematics(m, lm.initial, tEnd, step, [&](const KinematicSample& s) {
        const std::vector<double> x = tracker.update(s.state);
        std::map<std::string, double> v, w;
        for (size_t i = 0; i < x.size(); ++i) {
            const JointCoordinate& c = tracker.coordinates()[i];
            const std::string& joint = m.joint(c.joint).name;
            const double rate = c.angular ? jointAngleRate(m, s.state, c.joint) : jointDisplacementRate(m, s.state, c.joint);
            // By joint (its first coordinate) and by coordinate ("thread.displacement").
            for (const std::string& key : {joint, c.name})
                if (!v.count(key)) {
                    v[key] = x[i];
                    w[key] = rate;
                }
        }
        out.values.push_back(v);
        out.rates.push_back(w);
        out.largestViolation = std::max(out.largestViolation, s.positionViolation);
    });
    if (!r.ok) qWarning("%s: %s", file, r.message.c_str());
    return out;
}

// Largest |Δy − ratio·Δx| over a run (Δ from the first output) and of the rates.
std::pair<double, double> ratioError(const Run& run, const std::string& x, const std::string& y, double ratio) {
    double position = 0.0, rate = 0.0;
    const auto& first = run.values.front();
    for (size_t k = 0; k < run.values.size(); ++k) {
        const auto& v = run.values[k];
        const auto& w = run.rates[k];
        position = std::max(position, std::abs((v.at(y) - first.at(y)) - ratio * (v.at(x) - first.at(x))));
        rate = std::max(rate, std::abs(w.at(y) - ratio * w.at(x)));
    }
    return {position, rate};
}

// The gear train without its motor, a torque T [N·m] about z on its input wheel instead.
ModelDocument trainWithInputTorque(double T) {
    ModelDocument doc = test::exampleDocument("gear-train.json");
    doc.drivers.clear();
    ForceDoc torque;
    torque.name = "torque";
    torque.type = ForceType::BodyTorque;
    torque.body = "input";
    torque.vector = Vec3(0, 0, T);
    doc.forces.push_back(torque);
    return doc;
}

// The diagnostics of a document that should not build, joined.
std::string problems(const ModelDocument& doc) {
    const BuildResult b = buildModel(doc, "test.json");
    return b.ok() ? std::string() : formatDiagnostics(b.diagnostics);
}

}  // namespace

class CouplersTest : public QObject {
    Q_OBJECT
private slots:
    // 20:60 then 15:45: the compound wheel turns −1/3 of the input, the output +1/9.
    void gearTrainHoldsItsRatios() {
        const Run run = runExample("gear-train.json", 2.0, 0.01);
        QCOMPARE(run.values.size(), size_t(201));
        const auto [c, cRate] = ratioError(run, "input shaft", "compound shaft", -1.0 / 3.0);
        const auto [o, oRate] = ratioError(run, "input shaft", "output shaft", 1.0 / 9.0);
        const double turned = run.values.back().at("input shaft") - run.values.front().at("input shaft");
        qInfo("input turned %.6f rad; ratio errors: compound %.2e rad, %.2e rad/s; output %.2e rad, %.2e rad/s; "
              "largest |Phi| %.2e",
              turned, c, cRate, o, oRate, run.largestViolation);
        QVERIFY(std::abs(turned - 4.0 * M_PI) < 1e-9);  // two turns: the angles go through ±π
        QVERIFY(c < 1e-12 && o < 1e-12);
        QVERIFY(cRate < 1e-12 && oRate < 1e-12);
    }

    // Sun 24, planet 24, fixed ring 72: ω_carrier = ω_sun N_s/(N_s + N_r) = ω_sun/4 (Willis),
    // and the planet turns relative to the carrier at −(N_s/N_p)(ω_sun − ω_carrier).
    void planetarySetFollowsWillis() {
        const Run run = runExample("planetary-gear.json", 4.0, 0.02);
        QCOMPARE(run.values.size(), size_t(201));
        const auto [carrier, carrierRate] = ratioError(run, "sun shaft", "carrier shaft", 24.0 / 96.0);
        const auto [planet, planetRate] = ratioError(run, "sun shaft", "planet pin", -(1.0 - 24.0 / 96.0));
        qInfo("carrier against Willis: %.2e rad, %.2e rad/s; planet %.2e rad, %.2e rad/s", carrier, carrierRate,
              planet, planetRate);
        QVERIFY(carrier < 1e-12 && carrierRate < 1e-12);
        QVERIFY(planet < 1e-12 && planetRate < 1e-12);
    }

    // s = r θ with r = 30 mm, the rack on the −y side of the pinion: θ > 0 moves it to +x.
    void rackTravelsRadiusTimesAngle() {
        const Run run = runExample("rack-and-pinion.json", 2.0, 0.01);
        QCOMPARE(run.values.size(), size_t(201));
        const auto [s, sRate] = ratioError(run, "pinion shaft", "rack slide", 0.03);
        double travel = 0.0;
        for (const auto& v : run.values) travel = std::max(travel, v.at("rack slide") - run.values.front().at("rack slide"));
        qInfo("rack travel up to %.6f m (0.03 pi/2 = %.6f); against s = r theta: %.2e m, %.2e m/s", travel,
              0.03 * M_PI / 2, s, sRate);
        QVERIFY(std::abs(travel - 0.03 * M_PI / 2) < 1e-6);  // the harmonic law's crest falls between outputs
        QVERIFY(s < 1e-13 && sRate < 1e-13);
    }

    // Steering: the rack moves s = rθ, and each wheel's knuckle turns to where its tie rod
    // reaches: with the arm a = A₀ − K from the kingpin K and d = R − K to the rack's end R
    // (moved by s), |R(δ)a − d| = L gives P cos δ + Q sin δ = (|a|² + |d|² − L²)/2 with
    // P = d·a, Q = d × a: δ = atan2(Q, P) ± arccos(…/√(P² + Q²)), the root nearer zero.
    void steeringTurnsTheWheelsThroughTheTieRods() {
        const Run run = runExample("rack-and-pinion-steering.json", 2.0, 0.01);
        QCOMPARE(run.values.size(), size_t(201));
        const auto [s, sRate] = ratioError(run, "steering shaft", "rack guide", 0.02);
        auto knuckle = [](double kx, double ax, double rx, double travel) {
            const double a[2] = {ax - kx, 0.12}, d[2] = {rx + travel - kx, 0.07};
            const double L2 = (ax - rx) * (ax - rx) + 0.05 * 0.05;
            const double P = d[0] * a[0] + d[1] * a[1], Q = d[1] * a[0] - d[0] * a[1];
            const double c = 0.5 * (a[0] * a[0] + a[1] * a[1] + d[0] * d[0] + d[1] * d[1] - L2);
            const double base = std::atan2(Q, P), w = std::acos(c / std::hypot(P, Q));
            return std::abs(base + w) < std::abs(base - w) ? base + w : base - w;
        };
        double worst = 0.0, left = 0.0, right = 0.0;
        const auto& first = run.values.front();
        for (const auto& v : run.values) {
            const double travel = v.at("rack guide") - first.at("rack guide");
            const double dl = v.at("left kingpin") - first.at("left kingpin"), dr = v.at("right kingpin") - first.at("right kingpin");
            worst = std::max({worst, std::abs(dl - knuckle(-0.6, -0.672, -0.3, travel)), std::abs(dr - knuckle(0.6, 0.672, 0.3, travel))});
            if (travel > 0.0314) {  // half a turn of the pinion to the right: both wheels right, the inner more
                left = dl;
                right = dr;
            }
        }
        qInfo("rack against s = r theta: %.2e m; kingpin angles against the closed form: %.2e rad; at half a turn "
              "left %.4f deg, right %.4f deg",
              s, worst, left * 180 / M_PI, right * 180 / M_PI);
        QVERIFY(s < 1e-13 && sRate < 1e-13);
        QVERIFY(worst < 1e-11);
        QVERIFY(left < 0.0 && right < left);  // clockwise seen from above: a right turn, the right wheel inside
    }

    // A bevel pair at right angles: 20 teeth about z, 40 about x, the axes meeting at the
    // origin. The cones' contact line p lies between them at γ₁ = atan(20/40); the wheels'
    // points there move alike, θ̇₁ ẑ × p = θ̇₂ x̂ × p, so θ₂ = −θ₁/2; the first wheel's pitch
    // circle, 50 mm up its axis, has r = 50 tan γ₁ = 25 mm, the second 50 mm.
    void bevelPairTurnsAtRightAngles() {
        const char* text = R"({"format": "looplab-model", "version": 1, "gravity": [0, 0, 0],
          "bodies": [{"name": "wheel", "density": 7800, "position": [0, 0, 0.05],
                      "shape": {"type": "cylinder", "radius": 0.025, "length": 0.006}},
                     {"name": "pinion", "density": 7800, "position": [0.08, 0, 0], "orientation": [0.7071067811865476, 0, 0.7071067811865476, 0],
                      "shape": {"type": "cylinder", "radius": 0.05, "length": 0.006}}],
          "joints": [{"name": "vertical shaft", "type": "revolute", "body1": "ground", "body2": "wheel", "point": [0, 0, 0.05], "axis": [0, 0, 1]},
                     {"name": "horizontal shaft", "type": "revolute", "body1": "ground", "body2": "pinion", "point": [0.08, 0, 0], "axis": [1, 0, 0]}],
          "drivers": [{"name": "motor", "joint": "vertical shaft", "law": {"type": "constant_velocity", "rate": 6.283185307179586}}],
          "couplers": [{"name": "bevel", "type": "gear", "joints": ["vertical shaft", "horizontal shaft"], "teeth1": 20, "teeth2": 40}]})";
        const DocumentResult parsed = parseModelDocument(text, "bevel.json");
        QVERIFY2(parsed.document, formatDiagnostics(parsed.diagnostics).c_str());
        const LoadedModel lm = prepareModel(*parsed.document);
        QVERIFY2(lm.ok(), formatDiagnostics(lm.diagnostics).c_str());
        const Model& m = *lm.model;
        QVERIFY(std::abs(m.couplers[0].radius1 - 0.025) < 1e-15 && std::abs(m.couplers[0].radius2 - 0.05) < 1e-15);
        JointCoordinateTracker tracker(m);
        const JointIndex a = *m.findJoint("vertical shaft"), b = *m.findJoint("horizontal shaft");
        std::vector<double> first;
        double worst = 0.0, turned = 0.0;
        const KinematicResult r = runKinematics(m, lm.initial, 1.5, 0.01, [&](const KinematicSample& sample) {
            const std::vector<double> x = tracker.update(sample.state);
            if (first.empty()) first = x;
            double ta = 0.0, tb = 0.0;
            for (size_t i = 0; i < x.size(); ++i) {
                if (tracker.coordinates()[i].joint == a) ta = x[i] - first[i];
                if (tracker.coordinates()[i].joint == b) tb = x[i] - first[i];
            }
            worst = std::max(worst, std::abs(tb + ta / 2.0));
            turned = ta;
        });
        QVERIFY2(r.ok, r.message.c_str());
        qInfo("the wheel turned %.6f rad; the pinion against -1/2 of it: %.2e rad", turned, worst);
        QVERIFY(std::abs(turned - 3.0 * M_PI) < 1e-9);
        QVERIFY(worst < 1e-12);
        // Axes that pass each other (5 mm apart): refused, naming both and the gap.
        ModelDocument skew = *parsed.document;
        skew.joints[1].point.y() = 0.005;
        skew.bodies[1].position.y() = 0.005;
        const std::string p = problems(skew);
        QVERIFY2(p.find("/couplers/0/joints") != std::string::npos && p.find("do not meet") != std::string::npos &&
                     p.find("0.005 m apart") != std::string::npos && p.find("90° from parallel") != std::string::npos,
                 p.c_str());
    }

    // Open belt, radii 30 and 90 mm: the crank turns a third as fast, the same way, while
    // the loop's three redundant equations stay.
    void beltDrivesTheCrankRocker() {
        const Run run = runExample("belt-drive.json", 1.0, 0.01);
        QCOMPARE(run.values.size(), size_t(101));
        const auto [a, aRate] = ratioError(run, "motor shaft", "A", 1.0 / 3.0);
        qInfo("crank against the belt ratio: %.2e rad, %.2e rad/s", a, aRate);
        QVERIFY(a < 1e-12 && aRate < 1e-12);
        LoadedModel lm = test::loadExample("belt-drive.json");
        QVERIFY(lm.ok());
        const MobilityReport r = analyzeMobility(*lm.model, lm.initial);
        QCOMPARE(r.dof, 0);
        QCOMPARE(int(r.redundant.size()), 3);
        QVERIFY(r.repeatingCouplers.empty());  // the belt sets the crank's speed: nothing repeats it
    }

    // A belt of equal pulleys between the two cranks of a parallelogram repeats what the
    // coupler link already imposes (both cranks turn alike): one more redundant equation,
    // the same one degree of freedom.
    void beltBesideAParallelogramIsRedundant() {
        ModelDocument doc = test::exampleDocument("parallelogram.json");
        CouplerDoc belt;
        belt.name = "belt";
        belt.type = CouplerType::Belt;
        belt.joints = {"A", "D"};
        belt.radius1 = belt.radius2 = 0.05;
        doc.couplers.push_back(belt);
        const LoadedModel lm = prepareModel(doc);
        QVERIFY2(lm.ok(), formatDiagnostics(lm.diagnostics).c_str());
        const MobilityReport r = analyzeMobility(*lm.model, lm.initial);
        qInfo("parallelogram with a belt: %d equations, rank %d, dof %d, %zu redundant", r.equations, r.rank, r.dof,
              r.redundant.size());
        QCOMPARE(r.dof, 1);
        QCOMPARE(int(r.redundant.size()), 4);
        QCOMPARE(r.repeatingCouplers, (std::vector<std::string>{"belt"}));
        const auto advice = redundancyAdvice(*lm.model, r);
        QVERIFY(advice);
        qInfo("%s", advice->sentence.c_str());
        QVERIFY2(advice->sentence.find("coupler belt repeats a ratio that the linkage already imposes") != std::string::npos &&
                     advice->sentence.find("for the other 3") != std::string::npos,
                 advice->sentence.c_str());
        // A crossed belt contradicts the parallelogram: the cranks cannot turn at all.
        doc.couplers.back().crossed = true;
        const LoadedModel locked = prepareModel(doc);
        QVERIFY(locked.ok());
        QCOMPARE(analyzeMobility(*locked.model, locked.initial).dof, 0);
    }

    // A torque T on the free gear train's input: θ̈_in = T/I*, I* = I_in + I_c/9 + I_out/81
    // (kinetic energy ½ I* θ̇_in²), from rest: θ_in = ½ (T/I*) t².
    void gearTrainAcceleratesByItsReducedInertia() {
        // Less than half a turn in 0.5 s: the angles need no unwrapping.
        const LoadedModel lm = prepareModel(trainWithInputTorque(0.002));
        QVERIFY2(lm.ok(), formatDiagnostics(lm.diagnostics).c_str());
        const Model& m = *lm.model;
        auto inertia = [&](const char* body) { return m.body(*m.findBody(body)).rigid()->inertia()(2, 2); };
        const double reduced = inertia("input") + inertia("compound") / 9.0 + inertia("output") / 81.0;
        const double alpha = 0.002 / reduced;
        SimulationSettings settings;
        settings.tEnd = 0.5;
        settings.outputStep = 0.5;
        settings.ode.rtol = 1e-11;
        settings.ode.atol = 1e-13;
        Simulator sim(lm.model, settings);
        State last;
        const SimulationResult r = sim.run(lm.initial, [&](const SimulationFrame& f) { last = f.state; });
        QVERIFY2(r.ok, r.message.c_str());
        const JointIndex input = *m.findJoint("input shaft"), output = *m.findJoint("output shaft");
        const double theta = jointAngle(m, last, input) - jointAngle(m, lm.initial, input);
        const double expected = 0.5 * alpha * 0.25;
        const double outputTurn = jointAngle(m, last, output) - jointAngle(m, lm.initial, output);
        qInfo("reduced inertia %.6e kg m^2: input turned %.12f rad, closed form %.12f (relative %.2e); output %.2e "
              "relative to 1/9 of it",
              reduced, theta, expected, std::abs(theta / expected - 1), std::abs(outputTurn / (theta / 9.0) - 1));
        QVERIFY(std::abs(theta / expected - 1) < 1e-8);
        QVERIFY(std::abs(outputTurn / (theta / 9.0) - 1) < 1e-10);
    }

    // Virtual work through the ratio: a torque T on the input against a torsion spring k on
    // the output shaft: T δθ_in = k θ_out δθ_out with δθ_out = δθ_in/9, so θ_out = 9T/k.
    void staticsBalancesTorquesThroughTheRatio() {
        ModelDocument doc = trainWithInputTorque(0.01);
        ForceDoc spring;
        spring.name = "spring";
        spring.type = ForceType::RotationalSpringDamper;
        spring.joint = "output shaft";
        spring.stiffness = 1.0;
        doc.forces.push_back(spring);
        const LoadedModel lm = prepareModel(doc);
        QVERIFY2(lm.ok(), formatDiagnostics(lm.diagnostics).c_str());
        const Model& m = *lm.model;
        State s = lm.initial;
        const StaticsResult r = findEquilibrium(m, s);
        QVERIFY2(r.ok, r.message.c_str());
        const double out = jointAngle(m, s, *m.findJoint("output shaft"));
        const double in = jointAngle(m, s, *m.findJoint("input shaft"));
        qInfo("output shaft at %.12f rad (9T/k = 0.09), input %.12f rad (81T/k = 0.81)", out, in);
        QVERIFY(std::abs(out - 0.09) < 1e-9);
        QVERIFY(std::abs(in - 0.81) < 1e-8);
        // The meshes' efforts: the first stage holds the input against T (−T on it, −T/r₁
        // at the 20-tooth pitch circle, r₁ = 0.02 m); the workless mesh puts 3T on the
        // compound wheel, which the second stage balances: +3T on its first joint, the
        // compound shaft, 3T/r at its 15-tooth pinion (r = 0.015 m).
        const std::vector<CouplerEffort> e = couplerEfforts(m, s, r.lambda);
        QCOMPARE(e.size(), size_t(2));
        qInfo("mesh efforts %.12f N m (%.9f N at the pitch circle), %.12f N m (%.9f N)", e[0].value, e[0].pitchForce,
              e[1].value, e[1].pitchForce);
        QVERIFY(std::abs(e[0].value + 0.01) < 1e-11 && std::abs(e[0].pitchForce + 0.5) < 1e-9);
        QVERIFY(std::abs(e[1].value - 0.03) < 1e-11 && std::abs(e[1].pitchForce - 2.0) < 1e-9);
        // The teeth push along the line of action, 20° from the common tangent unless the
        // file says otherwise (25° on the second stage here): F_t / cos φ.
        QVERIFY(std::abs(e[0].contactForce - 0.5 / std::cos(20.0 * M_PI / 180.0)) < 1e-9);
        doc.couplers[1].pressureAngle = 25.0;
        const LoadedModel steeper = prepareModel(doc);
        QVERIFY(steeper.ok());
        State s2 = steeper.initial;
        const StaticsResult r2 = findEquilibrium(*steeper.model, s2);
        QVERIFY(r2.ok);
        const std::vector<CouplerEffort> e2 = couplerEfforts(*steeper.model, s2, r2.lambda);
        qInfo("tooth forces %.9f N (20 deg), %.9f N (25 deg)", e[1].contactForce, e2[1].contactForce);
        QVERIFY(std::abs(e[1].contactForce - 2.0 / std::cos(20.0 * M_PI / 180.0)) < 1e-9);
        QVERIFY(std::abs(e2[1].contactForce - 2.0 / std::cos(25.0 * M_PI / 180.0)) < 1e-9);
    }

    // What is drawn moves with the bodies and keeps its geometry: every point of a wheel's
    // teeth between its root and tip circles (r − 1.25m, r + m) about the moving axis, the
    // belt's spans tangent to both pulleys, the rack's teeth on its moving pitch line.
    void outlinesFollowTheWheels() {
        {
            LoadedModel lm = test::loadExample("gear-train.json");
            QVERIFY(lm.ok());
            const Model& m = *lm.model;
            State s = lm.initial;
            runKinematics(m, lm.initial, 0.37, 0.37, [&](const KinematicSample& k) { s = k.state; });
            QVERIFY(std::abs(s.t - 0.37) < 1e-12);
            const Scene scene = buildScene(m, s);
            QCOMPARE(scene.couplers.size(), size_t(2));
            const Coupler& stage = m.couplers[0];
            for (int w = 0; w < 2; ++w) {
                const CouplerWheel& wheel = stage.wheels[static_cast<size_t>(w)];
                const std::vector<Vec3>& teeth = scene.couplers[0].lines[static_cast<size_t>(2 * w)];
                QCOMPARE(int(teeth.size()), 5 * wheel.teeth + 1);
                const Vec3 centre = pointPosition(m, s, wheel.body, wheel.centre);
                const Vec3 axis = bodyOrientation(m, s, wheel.body) * wheel.axis;
                const double module = 2.0 * wheel.radius / wheel.teeth;
                double lowest = INFINITY, highest = 0.0;
                for (const Vec3& p : teeth) {
                    const Vec3 d = p - centre;
                    QVERIFY(std::abs(d.dot(axis)) < 1e-12);
                    const double r = (d - d.dot(axis) * axis).norm();
                    lowest = std::min(lowest, r);
                    highest = std::max(highest, r);
                }
                QVERIFY(std::abs(lowest - (wheel.radius - 1.25 * module)) < 1e-12);
                QVERIFY(std::abs(highest - (wheel.radius + module)) < 1e-12);
            }
            QCOMPARE(stage.wheels[0].teeth, 20);
            QCOMPARE(stage.wheels[1].teeth, 60);
            QVERIFY(std::abs(stage.wheels[0].radius - 0.02) < 1e-15 && std::abs(stage.wheels[1].radius - 0.06) < 1e-15);
        }
        {
            LoadedModel lm = test::loadExample("belt-drive.json");
            QVERIFY(lm.ok());
            const Model& m = *lm.model;
            const Scene scene = buildScene(m, lm.initial);
            const std::vector<std::vector<Vec3>>& lines = scene.couplers[0].lines;
            QCOMPARE(lines.size(), size_t(2 * 4 + 2));  // two pulleys with three spokes each, two spans
            double worst = 0.0;
            for (size_t span = lines.size() - 2; span < lines.size(); ++span) {
                const Vec3 a = lines[span][0], b = lines[span][1], u = (b - a).normalized();
                for (const CouplerWheel& w : m.couplers[0].wheels) {
                    const Vec3 d = pointPosition(m, lm.initial, w.body, w.centre) - a;
                    worst = std::max(worst, std::abs((d - d.dot(u) * u).norm() - w.radius));
                }
            }
            qInfo("belt spans: distance to the pulley centres off the radii by %.2e m", worst);
            QVERIFY(worst < 1e-14);
        }
        {
            LoadedModel lm = test::loadExample("rack-and-pinion.json");
            QVERIFY(lm.ok());
            const Model& m = *lm.model;
            State s = lm.initial;
            runKinematics(m, lm.initial, 0.25, 0.25, [&](const KinematicSample& k) { s = k.state; });
            const Scene scene = buildScene(m, s);
            const std::vector<Vec3>& rack = scene.couplers[0].lines.back();
            const CouplerRack& r = *m.couplers[0].rack;
            // The tips lie a module above the pitch line, the roots 1.25 modules below, and
            // the pitch line stays a radius from the pinion's axis.
            const Vec3 pinion = pointPosition(m, s, m.couplers[0].wheels[0].body, m.couplers[0].wheels[0].centre);
            const Vec3 up = bodyOrientation(m, s, r.body) * r.normal;
            const double module = r.pitch / M_PI;
            for (const Vec3& p : rack) {
                const double height = (p - pinion).dot(-up) - 0.03;  // below the pitch line, towards the rack
                QVERIFY2(std::abs(height + module) < 1e-12 || std::abs(height - 1.25 * module) < 1e-12,
                         qPrintable(QString::number(height)));
            }
        }
    }

    // A screw jack, lead 5 mm, turned once a second under 1 kN: the ram rises 5 mm a turn,
    // and the handle's torque is (load + weight)·lead/2π (virtual work, no friction; the
    // ram turns steadily about its axis of symmetry, so no inertia torque).
    void screwJackLiftsByItsLead() {
        const Run run = runExample("screw-jack.json", 2.0, 0.01);
        QCOMPARE(run.values.size(), size_t(201));
        const auto [lift, liftRate] = ratioError(run, "thread.angle", "thread.displacement", 0.005 / (2.0 * M_PI));
        const double risen = run.values.back().at("thread.displacement") - run.values.front().at("thread.displacement");
        qInfo("ram rose %.12f m in two turns; against s = lead theta/2 pi: %.2e m, %.2e m/s", risen, lift, liftRate);
        QVERIFY(std::abs(risen - 0.010) < 1e-12);
        QVERIFY(lift < 1e-14 && liftRate < 1e-14);

        LoadedModel lm = test::loadExample("screw-jack.json");
        QVERIFY(lm.ok());
        const Model& m = *lm.model;
        const double weight = m.body(*m.findBody("ram")).rigid()->mass() * 9.81;
        const double expected = (1000.0 + weight) * 0.005 / (2.0 * M_PI);
        SimulationSettings settings;
        settings.tEnd = 0.5;
        settings.outputStep = 0.05;
        Simulator sim(lm.model, settings);
        double worst = 0.0, effort = 0.0;
        const SimulationResult r = sim.run(lm.initial, [&](const SimulationFrame& f) {
            QCOMPARE(f.drivers.size(), size_t(1));
            effort = f.drivers[0].value;
            worst = std::max(worst, std::abs(effort / expected - 1.0));
        });
        QVERIFY2(r.ok, r.message.c_str());
        qInfo("handle torque %.9f N m, (F + m g) lead / 2 pi = %.9f N m: largest relative difference %.2e", effort,
              expected, worst);
        QVERIFY(worst < 1e-9);
    }

    // Posing holds the couplers: setting the input shaft's angle (a driver added to the
    // built model, after the couplers' rows) turns the output by a ninth of it.
    void posingTurnsTheTrain() {
        LoadedModel lm = test::loadExample("gear-train.json");
        QVERIFY(lm.ok());
        const Model& m = *lm.model;
        State s = lm.initial;
        const JointIndex input = *m.findJoint("input shaft"), output = *m.findJoint("output shaft");
        const double before = jointAngle(m, s, output);
        const JointCoordinateResult r = setJointCoordinate(m, s, input, 1.2);
        QVERIFY2(r.status.ok, r.status.message.c_str());
        qInfo("input at %.15f rad, output turned %.15f rad (1.2/9 = %.15f)", jointAngle(m, s, input),
              jointAngle(m, s, output) - before, 1.2 / 9.0);
        QVERIFY(std::abs(jointAngle(m, s, input) - 1.2) < 1e-10);
        QVERIFY(std::abs(jointAngle(m, s, output) - before - 1.2 / 9.0) < 1e-10);
    }

    // A design study varies a tooth count like any number of the file: the count goes in
    // as the whole number it is (the reader refuses 60.0 written as a real), and a value
    // that is not whole is refused with the reader's reason.
    void toothCountsAreStudyParameters() {
        StudyDescription study;
        StudyParameter teeth;
        teeth.path = "/couplers/0/teeth2";
        study.parameters = {teeth};
        const std::string text = serializeModelDocument(test::exampleDocument("gear-train.json"));
        const DocumentResult varied = parseModelDocument(applyStudyValues(study, text, {40.0}));
        QVERIFY2(varied.document, formatDiagnostics(varied.diagnostics).c_str());
        QCOMPARE(*varied.document->couplers[0].teeth2, 40);
        const LoadedModel lm = prepareModel(*varied.document);
        QVERIFY2(lm.ok(), formatDiagnostics(lm.diagnostics).c_str());
        QCOMPARE(lm.model->couplers[0].terms[1].coefficient, 2.0);  // 20:40, the smallest whole ratio 1:2
        const DocumentResult half = parseModelDocument(applyStudyValues(study, text, {40.5}));
        QVERIFY(!half.diagnostics.empty());
        QVERIFY2(formatDiagnostics(half.diagnostics).find("/couplers/0/teeth2") != std::string::npos,
                 formatDiagnostics(half.diagnostics).c_str());
    }

    void fileRoundTrip() {
        for (const char* file :
             {"gear-train.json", "planetary-gear.json", "rack-and-pinion.json", "belt-drive.json", "screw-jack.json",
              "rack-and-pinion-steering.json", "bevel-gears.json"}) {
            const ModelDocument doc = test::exampleDocument(file);
            QVERIFY(!doc.couplers.empty() || doc.joints[0].type == JointType::Screw);
            const DocumentResult again = parseModelDocument(serializeModelDocument(doc));
            QVERIFY2(again.document, formatDiagnostics(again.diagnostics).c_str());
            QCOMPARE(serializeModelDocument(*again.document), serializeModelDocument(doc));
            QCOMPARE(again.document->couplers.size(), doc.couplers.size());
        }
    }

    void diagnosticsNameTheJoints() {
        ModelDocument train = test::exampleDocument("gear-train.json");
        train.drivers.clear();
        {
            ModelDocument doc = train;
            doc.joints[2].axis = Vec3(1, 0, 1).normalized();  // the output shaft tilted 45°, passing the other
            const std::string p = problems(doc);
            QVERIFY2(p.find("/couplers/1/joints") != std::string::npos && p.find("'compound shaft'") != std::string::npos &&
                         p.find("'output shaft'") != std::string::npos && p.find("45° from parallel") != std::string::npos &&
                         p.find("do not meet") != std::string::npos,
                     p.c_str());
        }
        {
            ModelDocument doc = train;
            doc.couplers[0].teeth1.reset();
            doc.couplers[0].teeth2.reset();
            doc.couplers[0].radius1 = 0.02;
            doc.couplers[0].radius2 = 0.05;  // 0.07 m, the shafts are 0.08 m apart
            const std::string p = problems(doc);
            QVERIFY2(p.find("/couplers/0") != std::string::npos && p.find("do not touch") != std::string::npos &&
                         p.find("0.08 m apart") != std::string::npos,
                     p.c_str());
            doc.couplers[0].radius1 = 0.08 * 1.0 / (1.0 + std::sqrt(2.0));  // an irrational ratio
            doc.couplers[0].radius2 = 0.08 - *doc.couplers[0].radius1;
            const std::string q = problems(doc);
            QVERIFY2(q.find("whole numbers") != std::string::npos, q.c_str());
        }
        {
            // Tooth counts within their range (1 to 1 000 000) whose ratio in lowest terms is
            // too large: said of the tooth counts, not "from the radii" the file does not give.
            ModelDocument doc = train;
            doc.couplers[0].teeth1 = 1000000;
            doc.couplers[0].teeth2 = 3;
            const std::string p = problems(doc);
            QVERIFY2(p.find("/couplers/0/teeth1") != std::string::npos &&
                         p.find("the tooth counts 1000000 and 3 make the ratio 1000000:3 in lowest terms") != std::string::npos &&
                         p.find("radii") == std::string::npos,
                     p.c_str());
            doc.couplers[0].teeth2 = 3000000 / 6;  // 2:1 in lowest terms
            QCOMPARE(problems(doc), std::string());
        }
        {
            // Pulleys of 30 and 250 mm on axes 0.269 m apart: one is not inside the other,
            // but they overlap (an open belt was accepted as long as |r₁ − r₂| < d).
            ModelDocument doc = test::exampleDocument("belt-drive.json");
            QCOMPARE(problems(doc), std::string());
            doc.couplers[0].radius2 = 0.25;
            std::string p = problems(doc);
            QVERIFY2(p.find("/couplers/0") != std::string::npos && p.find("'motor shaft' and 'A' overlap") != std::string::npos &&
                         p.find("0.28 m") != std::string::npos,
                     p.c_str());
            doc.couplers[0].crossed = true;
            p = problems(doc);
            QVERIFY2(p.find("overlap") != std::string::npos, p.c_str());
            doc.couplers[0].radius2 = 0.2;  // 0.23 m < 0.269 m: clear of each other
            QCOMPARE(problems(doc), std::string());
        }
        {
            ModelDocument doc = test::exampleDocument("planetary-gear.json");
            CouplerDoc gear;
            gear.name = "sun to planet";
            gear.joints = {"sun shaft", "planet pin"};
            gear.teeth1 = 24;
            gear.teeth2 = 24;
            doc.couplers.push_back(gear);
            const std::string p = problems(doc);
            QVERIFY2(p.find("share no body") != std::string::npos && p.find("Willis") != std::string::npos, p.c_str());
        }
        {
            ModelDocument doc = train;
            doc.couplers[1].type = CouplerType::Linear;
            doc.couplers[1].coefficients = {1.0};
            QVERIFY(problems(doc).find("one coefficient per joint") != std::string::npos);
            doc.couplers[1].joints = {"compound shaft", "output shaft", "nowhere"};
            doc.couplers[1].coefficients = {1.0, 2.0, 3.0};
            QVERIFY(problems(doc).find("/couplers/1/joints/2: unknown joint 'nowhere'") != std::string::npos);
        }
        {
            const std::string text = R"({"format": "looplab-model", "version": 1, "bodies": [],
                "couplers": [{"name": "c", "type": "worm", "joints": []},
                             {"name": "d", "type": "belt", "joints": ["a", "b"], "teeth1": 3.5}]})";
            const DocumentResult r = parseModelDocument(text, "bad.json");
            const std::string p = formatDiagnostics(r.diagnostics);
            QVERIFY2(p.find("/couplers/0/type") != std::string::npos && p.find("unknown coupler type 'worm'") != std::string::npos,
                     p.c_str());
            QVERIFY2(p.find("/couplers/1/teeth1") != std::string::npos, p.c_str());
        }
    }
};

QTEST_APPLESS_MAIN(CouplersTest)
#include "tst_couplers.moc"
