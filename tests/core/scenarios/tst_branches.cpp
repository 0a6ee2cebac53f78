// Singular postures, assembly branches and energy. The double parallelogram (two
// parallelogram loops sharing their middle crank, resources/examples) passes a flat
// posture twice per turn, where each loop may go on as a parallelogram or fold into an
// anti-parallelogram. On the parallelogram branch the three cranks stay parallel, so
// their angles are equal: that is the independent measure of which branch a run took,
// against which the run's own branch_change and energy_drift events are checked.
#include "TestModels.h"

#include "looplab/simulation/EnergyMonitor.h"
#include "looplab/kinematics/JointCoordinates.h"
#include "looplab/simulation/Simulation.h"
#include "looplab/simulation/SingularityMonitor.h"

#include <cmath>

using namespace looplab;

namespace {

struct BranchRun {
    SimulationResult result;
    double worstCrankSpread = 0.0;  // largest |θ_A1 − θ_A3| over the frames [rad]
    int singularEpisodes = 0, branchChanges = 0, energyDrifts = 0;
    std::vector<double> turns;  // tangent turns reported for the episodes [rad]
};

BranchRun run(const std::string& method, double rtol, double tEnd) {
    const LoadedModel lm = test::loadExample("double-parallelogram.json");
    BranchRun r;
    if (!lm.ok()) return r;
    const Model& m = *lm.model;
    SimulationSettings st;
    st.method = method;
    st.tEnd = lm.initial.t + tEnd;
    st.outputStep = 0.01;
    st.ode.rtol = rtol;
    st.ode.atol = rtol * 1e-2;
    Simulator sim(lm.model, st);
    JointCoordinateTracker names(m);
    int a1 = -1, a3 = -1;
    for (size_t k = 0; k < names.coordinates().size(); ++k) {
        const std::string& joint = m.joint(names.coordinates()[k].joint).name;
        if (joint == "A1") a1 = int(k);
        if (joint == "A3") a3 = int(k);
    }
    r.result = sim.run(lm.initial, [&](const SimulationFrame& f) {
        if (a1 >= 0 && a3 >= 0)
            r.worstCrankSpread = std::max(r.worstCrankSpread, std::abs(f.jointCoordinates[size_t(a1)] -
                                                                       f.jointCoordinates[size_t(a3)]));
    });
    for (const SimulationEvent& e : r.result.events) {
        if (e.kind == "singular_configuration") {
            ++r.singularEpisodes;
            const auto at = e.detail.find("turned by ");
            if (at != std::string::npos) r.turns.push_back(std::stod(e.detail.substr(at + 10)));
        }
        if (e.kind == "branch_change") {
            ++r.branchChanges;
            QTest::qVerify(!e.joints.empty(), "joints named", "", __FILE__, __LINE__);
        }
        if (e.kind == "energy_drift") ++r.energyDrifts;
    }
    return r;
}

}  // namespace

class BranchesTest : public QObject {
    Q_OBJECT
private slots:
    void conservativeModels() {
        QVERIFY(isConservative(*test::loadExample("double-parallelogram.json").model));
        QVERIFY(isConservative(*test::loadExample("four-bar.json").model));
        QVERIFY(!isConservative(*test::loadExample("slider-crank.json").model));  // driven
    }

    // The projection method stays on the parallelogram branch through four flat postures
    // (0.8 s at 12 rad/s): the cranks stay parallel, the tangent space turns by little
    // across each episode (measured 0.005 to 0.010 rad), no branch change and no energy
    // drift is reported.
    void projectionKeepsItsBranch() {
        const BranchRun r = run("projection", 1e-8, 0.8);
        QVERIFY2(r.result.ok, r.result.message.c_str());
        qInfo("projection: crank spread %.3g rad, %d episodes, turns %s", r.worstCrankSpread, r.singularEpisodes,
              r.turns.empty() ? "-" : std::to_string(*std::max_element(r.turns.begin(), r.turns.end())).c_str());
        // Parallel to the integration error of 0.8 s at rtol 1e-8.
        QVERIFY2(r.worstCrankSpread < 1e-5, qPrintable(QString::number(r.worstCrankSpread)));
        QVERIFY(r.singularEpisodes >= 4);
        QCOMPARE(int(r.turns.size()), r.singularEpisodes);
        for (double turn : r.turns) QVERIFY2(turn < 0.1 * kBranchChangeAngle, qPrintable(QString::number(turn)));
        QCOMPARE(r.branchChanges, 0);
        QCOMPARE(r.energyDrifts, 0);
    }

    // The penalty method folds a loop into the anti-parallelogram at a flat posture and
    // loses half the energy of this conservative model. It used to report ok without a
    // word; now the run says both, and the geometry confirms it (the cranks no longer
    // parallel).
    void penaltyChangesBranchAndSaysSo() {
        const BranchRun r = run("penalty", 1e-8, 0.8);
        QVERIFY2(r.result.ok, r.result.message.c_str());
        qInfo("penalty: crank spread %.3g rad, %d branch changes, energy %.4g -> %.4g J", r.worstCrankSpread,
              r.branchChanges, r.result.energyInitial, r.result.energyFinal);
        QVERIFY2(r.worstCrankSpread > 0.1, qPrintable(QString::number(r.worstCrankSpread)));
        QVERIFY(r.branchChanges >= 1);
        QCOMPARE(r.energyDrifts, 1);  // raised once
        double largest = 0.0;
        for (double turn : r.turns) largest = std::max(largest, turn);
        QVERIFY2(largest > 5.0 * kBranchChangeAngle, qPrintable(QString::number(largest)));
    }

    // The allowed drift grows with the steps taken (local errors add up) from a floor of
    // 1e-6 for the rounding of a long run.
    void energyBoundFollowsTheTolerance() {
        const LoadedModel lm = test::loadExample("four-bar.json");
        SimulationSettings st;
        st.ode.rtol = 1e-10;
        const EnergyMonitor monitor(*lm.model, st, {});
        QCOMPARE(monitor.allowedRelativeDrift(1), 1e-6);
        QCOMPARE(monitor.allowedRelativeDrift(10'000), 1e-5);
        st.integrator = "rk4";  // held to the default tolerance
        const EnergyMonitor fixedStep(*lm.model, st, {});
        QCOMPARE(fixedStep.allowedRelativeDrift(1'000), 10.0 * OdeSettings{}.rtol * 1'000);
    }
};

QTEST_APPLESS_MAIN(BranchesTest)
#include "tst_branches.moc"
