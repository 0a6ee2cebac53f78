// Traces of body points (PointTrace.h) against the closed-form planar four-bar
// (PlanarFourBar.h), and the example mechanisms of the coupler-curve, Grashof,
// quick-return and toggle-clamp demonstrations against their textbook figures.
#include "CliRunner.h"
#include "CrankRockerReference.h"
#include "TestModels.h"

#include "looplab/kinematics/JointCoordinates.h"
#include "looplab/kinematics/KinematicSimulation.h"
#include "looplab/model/Model.h"
#include "looplab/kinematics/PlanarFourBar.h"
#include "looplab/kinematics/PointTrace.h"
#include "looplab/simulation/Simulation.h"
#include "looplab/model/State.h"

#include <QtTest>

#include <nlohmann/json.hpp>

#include <cmath>
#include <sstream>

using namespace looplab;
using namespace looplab::test;

namespace {

int coordinateIndex(const Model& model, const std::string& joint) {
    JointCoordinateTracker tracker(model);
    for (size_t k = 0; k < tracker.coordinates().size(); ++k)
        if (model.joint(tracker.coordinates()[k].joint).name == joint) return int(k);
    return -1;
}

}  // namespace

class TestTrace : public QObject {
    Q_OBJECT

private slots:
    // The closed form itself: every pose closes all four links to rounding.
    void closedFormClosesTheLoop() {
        PlanarFourBar l{{0, 0}, {0.4, 0}, 0.1, 0.3, 0.35};
        for (int k = 0; k < 36; ++k) {
            const double th = k * M_PI / 18;
            for (FourBarBranch br : {FourBarBranch::Left, FourBarBranch::Right}) {
                const std::optional<FourBarPose> p = solvePlanarFourBar(l, th, br);
                QVERIFY(p);
                QVERIFY(std::abs((p->crankPin - l.crankPivot).norm() - 0.1) < 1e-15);
                QVERIFY(std::abs((p->rockerPin - p->crankPin).norm() - 0.3) < 1e-15);
                QVERIFY(std::abs((p->rockerPin - l.rockerPivot).norm() - 0.35) < 1e-15);
                QCOMPARE(fourBarBranch(l, p->crankPin, p->rockerPin), br);
            }
        }
        // Beyond the reach limit of a non-Grashof input link there is no pose.
        PlanarFourBar ng{{0, 0}, {0.4, 0}, 0.28, 0.35, 0.30};
        QVERIFY(!solvePlanarFourBar(ng, M_PI, FourBarBranch::Left));
    }

    // The coupler point of the crank-rocker traced over one turn of the driven crank
    // (kinematic analysis, 200 samples) against the closed-form coupler curve.
    void couplerCurveMatchesClosedFormKinematics() {
        const ModelDocument doc = test::exampleDocument("crank-rocker-coupler-curve.json");
        const LoadedModel lm = test::loadExample("crank-rocker-coupler-curve.json");
        QVERIFY(lm.ok());
        std::vector<State> states;
        const KinematicResult r = runKinematics(*lm.model, lm.initial, 1.0, 1.0 / 200,
                                                [&](const KinematicSample& s) { states.push_back(s.state); });
        QVERIFY2(r.ok, r.message.c_str());
        QCOMPARE(int(states.size()), 201);
        PointTrace trace;
        const Status s = tracePoint(*lm.model, states, *markerPoint(doc, "coupler-point"), &trace);
        QVERIFY2(s.ok, s.message.c_str());
        const CrankRocker cr = crankRockerFromFile(doc);
        const double error = traceError(trace, cr, crankRate(doc));
        qInfo("coupler curve, kinematics: largest distance from the closed form %.3e m over %zu points",
              error, trace.times.size());
        // Assembly converges to 1e-12 of the model's length scale; 1e-10 m is 1e-9 of the
        // coupler point's 0.1 m excursion.
        QVERIFY(error < 1e-10);
        // The curve is a closed loop: one turn of the crank brings the point back.
        QVERIFY((trace.positions.front() - trace.positions.back()).norm() < 1e-10);
    }

    // The same curve from forward dynamics (the driver holds the crank's angle), to the
    // run's constraint tolerance.
    void couplerCurveMatchesClosedFormDynamics() {
        const ModelDocument doc = test::exampleDocument("crank-rocker-coupler-curve.json");
        const LoadedModel lm = test::loadExample("crank-rocker-coupler-curve.json");
        SimulationSettings settings;
        settings.tEnd = 1.0;
        settings.outputStep = 0.01;
        settings.ode.rtol = 1e-10;
        settings.ode.atol = 1e-12;
        Simulator sim(lm.model, settings);
        std::vector<State> states;
        const SimulationResult res = sim.run(lm.initial, [&](const SimulationFrame& f) { states.push_back(f.state); });
        QVERIFY2(res.ok, res.message.c_str());
        PointTrace trace;
        QVERIFY(tracePoint(*lm.model, states, *markerPoint(doc, "coupler-point"), &trace).ok);
        const double error = traceError(trace, crankRockerFromFile(doc), crankRate(doc));
        qInfo("coupler curve, dynamics (projection, dopri5, rtol 1e-10): largest distance %.3e m, "
              "max position violation %.3e", error, res.maxViolation.position);
        QVERIFY(error < 1e-8);
    }

    void csvRoundTrip() {
        PointTrace a{{"coupler", Vec3(0.1, 0.2, 0), "P"}, {0.0, 0.5}, {Vec3(1, 2, 3), Vec3(0.1, 1.0 / 3.0, -2e-17)}};
        PointTrace b{{"crank", Vec3(0, 0, 0), ""}, {0.0, 0.5}, {Vec3(4, 5, 6), Vec3(7, 8, 9)}};
        std::ostringstream out;
        QVERIFY(writeTraceCsv(out, {a, b}).ok);
        std::istringstream in(out.str());
        std::string header, row1, row2;
        std::getline(in, header);
        std::getline(in, row1);
        std::getline(in, row2);
        QCOMPARE(QString::fromStdString(header), QString("t,P.x,P.y,P.z,crank(0;0;0).x,crank(0;0;0).y,crank(0;0;0).z"));
        double v[7];
        QCOMPARE(std::sscanf(row2.c_str(), "%lf,%lf,%lf,%lf,%lf,%lf,%lf", v, v + 1, v + 2, v + 3, v + 4, v + 5, v + 6), 7);
        QCOMPARE(v[2], 1.0 / 3.0);  // 17 significant digits: the double comes back exactly
        QCOMPARE(v[3], -2e-17);
        b.times[1] = 0.6;
        std::ostringstream bad;
        QVERIFY(!writeTraceCsv(bad, {a, b}).ok);
        QVERIFY(bad.str().empty());
    }

    void tracedPointSpecs() {
        const ModelDocument doc = test::exampleDocument("crank-rocker-coupler-curve.json");
        TracedPoint p;
        QVERIFY(parseTracedPoint(doc, "coupler-point", &p).ok);
        QCOMPARE(QString::fromStdString(p.body), QString("coupler"));
        QVERIFY(parseTracedPoint(doc, "rocker:0.1,0,-0.5e-2", &p).ok);
        QCOMPARE(p.localPoint.z(), -0.005);
        for (const char* bad : {"nowhere", "rocker:0.1,0", "rocker:a,b,c", "wheel:0,0,0", "rocker:0,0,0,0"}) {
            const Status s = parseTracedPoint(doc, bad, &p);
            QVERIFY2(!s.ok && s.message.find(bad) != std::string::npos, bad);
        }
        // A body the model does not have is refused when tracing, naming it.
        const LoadedModel lm = test::loadExample("crank-rocker-coupler-curve.json");
        PointTrace t;
        const Status s = tracePoint(*lm.model, {lm.initial}, TracedPoint{"wheel", Vec3::Zero(), ""}, &t);
        QVERIFY(!s.ok && s.message.find("wheel") != std::string::npos);
    }

    // Grashof: s + l < p + q with the shortest link next to the ground, so the coasting
    // input link turns round; non-Grashof: it swings between the closed-form limits where
    // coupler and rocker lie in line, cos θ = (a² + d² − (b + c)²) / (2 a d).
    void grashofInputTurnsNonGrashofSwings() {
        struct Case { const char* file; bool turns; };
        for (const Case c : {Case{"grashof-four-bar.json", true}, Case{"non-grashof-four-bar.json", false}}) {
            const ModelDocument doc = test::exampleDocument(c.file);
            const LoadedModel lm = test::loadExample(c.file);
            const double a = (jointNamed(doc, "B").point - jointNamed(doc, "A").point).norm();
            const double b = (jointNamed(doc, "C").point - jointNamed(doc, "B").point).norm();
            const double cc = (jointNamed(doc, "C").point - jointNamed(doc, "D").point).norm();
            const double d = (jointNamed(doc, "D").point - jointNamed(doc, "A").point).norm();
            const double s = std::min({a, b, cc, d}), l = std::max({a, b, cc, d});
            QCOMPARE(s + l < a + b + cc + d - s - l, c.turns);
            SimulationSettings settings;
            settings.tEnd = 3.0;
            settings.outputStep = 0.001;
            settings.ode.rtol = 1e-10;
            settings.ode.atol = 1e-12;
            Simulator sim(lm.model, settings);
            const int k = coordinateIndex(*lm.model, "A");
            double lo = HUGE_VAL, hi = -HUGE_VAL;
            const SimulationResult res = sim.run(lm.initial, [&](const SimulationFrame& f) {
                lo = std::min(lo, f.jointCoordinates[size_t(k)]);
                hi = std::max(hi, f.jointCoordinates[size_t(k)]);
            });
            QVERIFY2(res.ok, res.message.c_str());
            const double theta0 = std::atan2(jointNamed(doc, "B").point.y(), jointNamed(doc, "B").point.x());
            if (c.turns) {
                qInfo("%s: the input link turned through %.1f degrees in 3 s", c.file, (hi - lo) * 180 / M_PI);
                QVERIFY(hi - lo > 2 * M_PI);
            } else {
                const double limit = std::acos((a * a + d * d - (b + cc) * (b + cc)) / (2 * a * d));
                // Joint coordinates count from the file's configuration (θ0 = 0 here).
                QCOMPARE(theta0, 0.0);
                qInfo("%s: input link between %.4f and %.4f degrees; closed-form limits +/-%.4f", c.file,
                      lo * 180 / M_PI, hi * 180 / M_PI, limit * 180 / M_PI);
                QVERIFY(hi <= limit + 1e-6 && lo >= -limit - 1e-6);
                // Sampled every millisecond, the turning points come within 0.5 degrees.
                QVERIFY(hi > limit - 0.5 * M_PI / 180 && lo < -limit + 0.5 * M_PI / 180);
            }
        }
    }

    // Crank and slotted lever with centre distance 0.20 m and crank 0.10 m: the lever's
    // extreme positions are where it is tangent to the crank circle, 2·asin(0.5) = 60°
    // apart in lever angle and 120° apart in crank angle on the return side, so forward
    // and return strokes take 240° and 120° of crank turn: a time ratio of 2.
    void quickReturnTimeRatio() {
        const LoadedModel lm = test::loadExample("quick-return.json");
        const int k = coordinateIndex(*lm.model, "O4");
        std::vector<double> t, lever;
        JointCoordinateTracker tracker(*lm.model);
        const KinematicResult r = runKinematics(*lm.model, lm.initial, 1.0, 1e-4, [&](const KinematicSample& s) {
            t.push_back(s.state.t);
            lever.push_back(tracker.update(s.state)[size_t(k)]);
        });
        QVERIFY2(r.ok, r.message.c_str());
        const auto hi = std::max_element(lever.begin(), lever.end()), lo = std::min_element(lever.begin(), lever.end());
        const double swing = *hi - *lo;
        const double tHi = t[size_t(hi - lever.begin())], tLo = t[size_t(lo - lever.begin())];
        // One turn takes 1 s: the stroke from one extreme to the other and back.
        const double first = std::abs(tHi - tLo), second = 1.0 - first;
        const double ratio = std::max(first, second) / std::min(first, second);
        qInfo("quick-return: lever swing %.4f degrees (closed form 60), time ratio %.4f (closed form 2)",
              swing * 180 / M_PI, ratio);
        QVERIFY(std::abs(swing - M_PI / 3) < 1e-6);
        QVERIFY(std::abs(ratio - 2.0) < 2e-3);  // extremes located to the 1e-4 s sampling
    }

    // Push-type toggle clamp: plunger at x = r cos θ + √(l² − r² sin² θ), greatest
    // (r + l) at the dead centre θ = 0 that the handle passes, then drawn back a little.
    void toggleClampPassesDeadCentre() {
        const ModelDocument doc = test::exampleDocument("toggle-clamp.json");
        const LoadedModel lm = test::loadExample("toggle-clamp.json");
        const double r = (jointNamed(doc, "P").point - jointNamed(doc, "O").point).norm();
        const double l = (jointNamed(doc, "S").point - jointNamed(doc, "P").point).norm();
        const double x0 = jointNamed(doc, "S").point.x();
        const int k = coordinateIndex(*lm.model, "guide");
        JointCoordinateTracker tracker(*lm.model);
        double most = -HUGE_VAL, last = 0.0;
        const KinematicResult res = runKinematics(*lm.model, lm.initial, 1.0, 1e-3, [&](const KinematicSample& s) {
            last = x0 + tracker.update(s.state)[size_t(k)];
            most = std::max(most, last);
        });
        QVERIFY2(res.ok, res.message.c_str());
        const double theta1 = 10.0 * M_PI / 180;
        const double xEnd = r * std::cos(theta1) + std::sqrt(l * l - r * r * std::sin(theta1) * std::sin(theta1));
        qInfo("toggle clamp: plunger out to %.9f m (closed form r + l = %.9f), ends at %.9f (closed form %.9f)", most,
              r + l, last, xEnd);
        QVERIFY(std::abs(most - (r + l)) < 1e-6);  // the sampled maximum is within 1e-3 s of the dead centre
        QVERIFY(std::abs(last - xEnd) < 1e-10);
    }

    // A short `simulate` of each example runs within the method's violation bound (their
    // mobility is checked with the other examples' in tst_modelfile).
    void examplesCheckAndSimulate_data() {
        QTest::addColumn<QString>("file");
        for (const char* f : {"crank-rocker-coupler-curve.json", "grashof-four-bar.json", "non-grashof-four-bar.json",
                              "quick-return.json", "toggle-clamp.json"})
            QTest::newRow(f) << QString(f);
    }
    void examplesCheckAndSimulate() {
        QFETCH(QString, file);
        const QString path = QString::fromStdString(test::examplePath(file.toUtf8().constData()));
        const test::CliResult sim = test::runCli({"simulate", path, "--t-end", "0.5", "--json"});
        QVERIFY2(sim.finished && sim.exitCode == 0, sim.err.constData());
        const nlohmann::json j = nlohmann::json::parse(sim.out.toStdString());
        QVERIFY(j["ok"].get<bool>());
        QVERIFY(j["max_violation"]["position"].get<double>() < 1e-9);
    }
};

QTEST_GUILESS_MAIN(TestTrace)
#include "tst_trace.moc"
