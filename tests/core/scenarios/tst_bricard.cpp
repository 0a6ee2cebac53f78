// Bricard's orthogonal 6R linkage moving under gravity: Grübler count 0, yet one degree
// of freedom because one of its thirty joint equations is redundant. Forward dynamics
// with the projection method must keep it closed, conserve energy and keep that rank.
#include "TestModels.h"

#include "looplab/kinematics/Mobility.h"
#include "looplab/simulation/Simulation.h"

#include <algorithm>
#include <cmath>

using namespace looplab;

namespace {
double wrapped(double a) { return std::remainder(a, 2 * M_PI); }
}  // namespace

class BricardTest : public QObject {
    Q_OBJECT
private slots:
    void overconstrainedYetMobile() {
        const LoadedModel lm = test::loadExample("bricard.json");
        QVERIFY(lm.ok());
        const Model& m = *lm.model;
        QCOMPARE(m.velocitySize(), 30);
        QCOMPARE(m.equationCount(), 30);
        QCOMPARE(m.grueblerCount(), 0);
        const MobilityReport mob = analyzeMobility(m, lm.initial);
        QCOMPARE(mob.rank, 29);
        QCOMPARE(mob.dof, 1);
    }

    void movesUnderGravity() {
        const LoadedModel lm = test::loadExample("bricard.json");
        QVERIFY(lm.ok());
        const Model& m = *lm.model;
        SimulationSettings st;
        st.method = "projection";
        st.integrator = "dopri5";
        st.tEnd = 2.0;
        st.outputStep = 0.01;
        st.ode.rtol = 1e-10;
        st.ode.atol = 1e-12;
        Simulator sim(lm.model, st);

        const int nj = static_cast<int>(m.joints.size());
        std::vector<double> angle0(static_cast<size_t>(nj)), maxChange(static_cast<size_t>(nj), 0.0);
        for (int j = 0; j < nj; ++j) angle0[size_t(j)] = jointAngle(m, lm.initial, JointIndex(j));

        std::vector<SimulationFrame> frames;
        const SimulationResult res = sim.run(lm.initial, [&](const SimulationFrame& f) { frames.push_back(f); });
        QVERIFY2(res.ok, res.message.c_str());
        QCOMPARE(frames.size(), size_t(201));
        QCOMPARE(res.tFinal, 2.0);

        std::vector<double> rankChanges;
        for (const SimulationEvent& e : res.events) {
            QVERIFY2(e.kind != RunEventKind::Failure, e.detail.c_str());
            if (e.kind == RunEventKind::RankChange) rankChanges.push_back(e.t);
        }
        const double e0 = frames.front().energy.total();
        QVERIFY(std::abs(e0) > 1.0);
        double worstViolation = 0.0, worstVelocity = 0.0, worstDrift = 0.0, maxKinetic = 0.0;
        int fullRankFrames = 0;
        for (const SimulationFrame& f : frames) {
            QVERIFY(f.state.q.allFinite() && f.state.v.allFinite());
            worstViolation = std::max(worstViolation, f.violation.position);
            worstVelocity = std::max(worstVelocity, f.violation.velocity);
            worstDrift = std::max(worstDrift, std::abs(f.energy.total() - e0) / std::abs(e0));
            maxKinetic = std::max(maxKinetic, f.energy.kinetic);
            for (int j = 0; j < nj; ++j) {
                const double d = std::abs(wrapped(jointAngle(m, f.state, JointIndex(j)) - angle0[size_t(j)]));
                maxChange[size_t(j)] = std::max(maxChange[size_t(j)], d);
            }
            if (f.rank == 29) {
                ++fullRankFrames;
                continue;
            }
            // Any other rank must come with a rank_change event near this frame.
            const bool reported = std::any_of(rankChanges.begin(), rankChanges.end(), [&](double t) {
                return std::abs(t - f.state.t) <= st.outputStep + 1e-12;
            });
            QVERIFY2(reported, qPrintable(QString("rank %1 at t = %2 without a rank_change event")
                                              .arg(f.rank)
                                              .arg(f.state.t)));
        }
        const double largestChange = *std::max_element(maxChange.begin(), maxChange.end());
        QString changes;
        for (int j = 0; j < nj; ++j)
            changes += QString(" %1 %2").arg(QString::fromStdString(m.joints[size_t(j)].name)).arg(maxChange[size_t(j)], 0, 'f', 4);
        qInfo("max position violation %.3g m, velocity violation %.3g m/s, relative energy drift %.3g, "
              "max kinetic energy %.4g J, %d of %zu frames at rank 29, %zu rank changes; largest joint "
              "angle change [rad]:%s",
              worstViolation, worstVelocity, worstDrift, maxKinetic, fullRankFrames, frames.size(),
              rankChanges.size(), qPrintable(changes));
        QVERIFY2(worstViolation < 1e-12, qPrintable(QString::number(worstViolation)));
        QVERIFY2(worstDrift < 1e-9, qPrintable(QString::number(worstDrift)));
        QVERIFY2(largestChange > 0.1, qPrintable(changes));
        QVERIFY(maxKinetic > 1e-3);
        // One degree of freedom throughout: the rank stays 29 unless a change is reported.
        if (rankChanges.empty()) QCOMPARE(fullRankFrames, int(frames.size()));
        QVERIFY(fullRankFrames > 0);
    }
};

QTEST_APPLESS_MAIN(BricardTest)
#include "tst_bricard.moc"
