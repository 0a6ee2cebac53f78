// Andrews' squeezing mechanism (resources/examples/andrews.json) against the Test Set for
// IVP Solvers reference solution at t = 0.03 s (PSIDE, rtol = atol = 1e-14). The mapping
// of the seven Test Set angles to joint angles is explained in andrews.md.
#include "TestModels.h"

#include "looplab/kinematics/JointCoordinates.h"
#include "looplab/simulation/Simulation.h"

#include <cmath>
#include <map>

using namespace looplab;

namespace {

constexpr double kEnd = 0.03;

// Test Set coordinate, LoopLab joint coordinate, published reference change
// y_ref(k) − q0(k) (andrews.md), and the change recomputed from the Test Set's own
// equations (subroutine andfunc, index-1 form with the acceleration constraint, classic
// Runge–Kutta in long double with h = 2.5e-7 s; halving h changes β by 3e-14).
// The recomputation differs from the published y_ref by −1.1e-9 (β), +1.4e-9 (Θ),
// ~2e-11 (γ, Φ, Ω) and < 1e-12 (δ, ε): the published values (PSIDE on a Cray C90 in Cray
// double precision) carry errors of that size. The published reference is checked to
// 1e-7 as specified; the recomputed one to 1e-10.
struct Reference {
    const char* coordinate;
    const char* joint;
    double change;
    double recomputed;
};
const Reference kReference[] = {
    {"beta", "O.angle", 15.87248508631332, 15.872485085167981},
    {"Theta", "P.angle", -15.75637105984298, -15.756371058411837},
    {"gamma", "B.angle", -0.4144575790323394, -0.414457579043424},
    {"Phi", "G.angle", -0.7573985064885808, -0.757398506507965},
    {"delta", "A5.angle", 0.03704498633668779, 0.037044986336111},
    {"Omega", "H.angle", 0.7573985064885808, 0.757398506507965},
    {"epsilon", "A7.angle", -0.1824667035075582, -0.182466703507883},
};

}  // namespace

class AndrewsTest : public QObject {
    Q_OBJECT

    std::map<std::string, double> change_;  // joint coordinate change from t = 0 at kEnd
    SimulationResult result_;
    int frames_ = 0;

private slots:
    // One run, shared by the comparisons below.
    void initTestCase() {
        const LoadedModel lm = test::loadExample("andrews.json");
        QVERIFY(lm.ok());
        SimulationSettings set;
        set.method = "projection";
        set.integrator = "dopri5";
        set.tEnd = lm.initial.t + kEnd;
        set.outputStep = 1e-5;  // β turns at up to ~1100 rad/s: unwrap every 1e-5 s
        set.ode.rtol = 1e-12;
        set.ode.atol = 1e-14;
        Simulator sim(lm.model, set);
        JointCoordinateTracker tracker(*lm.model);
        std::vector<double> first, last;
        double tLast = 0.0;
        result_ = sim.run(lm.initial, [&](const SimulationFrame& f) {
            last = tracker.update(f.state);
            if (first.empty()) first = last;
            tLast = f.state.t;
            ++frames_;
        });
        QVERIFY2(result_.ok, result_.message.c_str());
        QCOMPARE(tLast, set.tEnd);
        const auto& coords = tracker.coordinates();
        for (size_t k = 0; k < coords.size(); ++k) change_[coords[k].name] = last[k] - first[k];
        qInfo("andrews: %d frames, %ld steps (%ld rejected), %ld rhs evaluations, %.2f s; max "
              "violation position %.1e, velocity %.1e",
              frames_, result_.statistics.steps, result_.statistics.rejectedSteps,
              result_.statistics.rhsEvaluations, result_.wallTime, result_.maxViolation.position,
              result_.maxViolation.velocity);
    }

    void angleChange_data() {
        QTest::addColumn<QString>("joint");
        QTest::addColumn<double>("reference");
        QTest::addColumn<double>("recomputed");
        for (const Reference& r : kReference)
            QTest::newRow(r.coordinate) << QString(r.joint) << r.change << r.recomputed;
    }

    void angleChange() {
        QFETCH(QString, joint);
        QFETCH(double, reference);
        QFETCH(double, recomputed);
        const auto it = change_.find(joint.toStdString());
        QVERIFY2(it != change_.end(), qPrintable(joint));
        const double error = it->second - reference;
        const double error2 = it->second - recomputed;
        qInfo("%s: change %.15f rad; published reference %.15f, error %.2e rad; recomputed "
              "%.15f, error %.2e rad",
              qPrintable(joint), it->second, reference, error, recomputed, error2);
        QVERIFY2(std::abs(error) < 1e-7, qPrintable(QString::number(error)));
        QVERIFY2(std::abs(error2) < 1e-10, qPrintable(QString::number(error2)));
    }

    // The three joints at E are the differences of the angles above (andrews.md).
    void jointsAtE() {
        auto ref = [](const char* j) {
            for (const Reference& r : kReference)
                if (std::string(r.joint) == j) return r.change;
            return double(NAN);
        };
        const double rod = ref("O.angle") + ref("P.angle");
        const std::pair<const char*, double> rows[] = {
            {"E3.angle", ref("B.angle") - rod},
            {"E4.angle", ref("G.angle") + ref("A5.angle") - rod},
            {"E6.angle", ref("H.angle") + ref("A7.angle") - rod},
        };
        for (const auto& [joint, reference] : rows) {
            const double error = change_.at(joint) - reference;
            qInfo("%s: change %.15f rad, reference %.15f rad, error %.2e rad", joint,
                  change_.at(joint), reference, error);
            QVERIFY2(std::abs(error) < 1e-7, joint);
        }
    }
};

QTEST_APPLESS_MAIN(AndrewsTest)
#include "tst_andrews.moc"
