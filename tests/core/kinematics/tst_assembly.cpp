// Position analysis from perturbed guesses, its failure report, and its idempotence.
#include "TestModels.h"

#include "looplab/kinematics/Assembly.h"
#include "looplab/kinematics/Constraints.h"
#include "looplab/bodies/Rotation.h"

using namespace looplab;

namespace {
double phiNorm(const Model& m, const State& s) {
    ConstraintValues cv;
    evaluateConstraints(m, s, cv, kPhi);
    return cv.phi.norm();
}
}  // namespace

class AssemblyTest : public QObject {
    Q_OBJECT
private slots:
    void fourBarFromPerturbedGuess_data() {
        QTest::addColumn<double>("degrees");
        QTest::newRow("+10") << 10.0;
        QTest::newRow("-10") << -10.0;
    }

    // Every link rotated by 10° about its own centre: all four joints open.
    void fourBarFromPerturbedGuess() {
        QFETCH(double, degrees);
        const BuildResult built = buildModel(test::exampleDocument("four-bar.json"));
        QVERIFY(built.ok());
        const Model& m = *built.model;
        const State exact = initialState(m);
        State guess = exact;
        const Quat turn(Eigen::AngleAxisd(degrees * M_PI / 180.0, Vec3::UnitZ()));
        for (int b = 1; b < m.bodyCount(); ++b) {
            const int o = m.positionOffset(BodyIndex(b)) + 3;
            const Quat q = turn * bodyOrientation(m, guess, BodyIndex(b));
            guess.q.segment<4>(o) << q.w(), q.x(), q.y(), q.z();
        }
        const double before = phiNorm(m, guess);
        QVERIFY(before > 1e-2);
        const AssemblyResult r = assemble(m, guess);
        qInfo("guess |Phi| %.3g -> %.3g after %d iterations", before, phiNorm(m, guess), r.iterations);
        QVERIFY2(r.ok, r.message.c_str());
        QVERIFY2(phiNorm(m, guess) < 1e-12, qPrintable(QString::number(phiNorm(m, guess))));
        // Same assembly branch as the exact configuration: the coupler–rocker joint C
        // stays above the ground line, and every body stays within a few degrees.
        for (int b = 1; b < m.bodyCount(); ++b) {
            const double angle =
                bodyOrientation(m, guess, BodyIndex(b)).angularDistance(bodyOrientation(m, exact, BodyIndex(b)));
            QVERIFY2(angle < 20.0 * M_PI / 180.0, qPrintable(QString("body %1 moved %2 rad").arg(b).arg(angle)));
        }
        QVERIFY(r.iterations < 20);
    }

    void assembledModelStaysPut() {
        const LoadedModel lm = test::loadExample("bricard.json");
        QVERIFY(lm.ok());
        State s = lm.initial;
        const double before = phiNorm(*lm.model, s);
        const AssemblyResult r = assemble(*lm.model, s);
        QVERIFY(r.ok);
        QVERIFY(phiNorm(*lm.model, s) <= before);
        QVERIFY((s.q - lm.initial.q).cwiseAbs().maxCoeff() < 1e-14);
    }

    // A coupler too short to reach: the report names the joints that stay open.
    void impossibleLoopIsReported() {
        ModelDocument doc = test::exampleDocument("four-bar.json");
        // Joints given by global points always close at the initial configuration, so
        // move the rocker pivot with markers: 0.9 m away, beyond the 0.8 m the links reach.
        doc.markers.push_back({"groundPivot", "ground", Vec3(0.9, 0.0, 0.0), Quat::Identity()});
        doc.markers.push_back({"rockerEnd", "rocker", Vec3(-0.15, 0.0, 0.0), Quat::Identity()});
        doc.joints[3].byMarkers = true;
        doc.joints[3].marker1 = "groundPivot";
        doc.joints[3].marker2 = "rockerEnd";
        const BuildResult built = buildModel(doc);
        QVERIFY(built.ok());
        State s = initialState(*built.model);
        const AssemblyResult r = assemble(*built.model, s);
        QVERIFY(!r.ok);
        QVERIFY(!r.openJoints.empty());
        QVERIFY(r.message.find("do not close") != std::string::npos);
        bool named = false;
        for (const auto& [joint, residual] : r.openJoints) {
            named = named || (joint == "B" || joint == "C" || joint == "D" || joint == "A");
            QVERIFY(std::isfinite(residual) && residual > 0.0);
        }
        QVERIFY(named);
        QVERIFY(s.q.allFinite());
    }
};

QTEST_APPLESS_MAIN(AssemblyTest)
#include "tst_assembly.moc"
