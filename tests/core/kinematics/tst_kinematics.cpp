// Driven slider-crank against its closed-form slider position, velocity and acceleration.
#include "TestModels.h"

#include "looplab/kinematics/Assembly.h"
#include "looplab/kinematics/KinematicSimulation.h"

using namespace looplab;

namespace {
// Crank r, rod l, crank angle φ, constant crank speed ω (α = 0).
struct SliderExact {
    double x, v, a;
};
SliderExact slider(double r, double l, double phi, double w) {
    const double s = std::sin(phi), c = std::cos(phi);
    const double D = std::sqrt(l * l - r * r * s * s);
    SliderExact e;
    e.x = r * c + D;
    e.v = -r * s * w - r * r * s * c * w / D;
    e.a = -r * c * w * w - r * r * w * w * (std::cos(2 * phi) / D + r * r * s * s * c * c / (D * D * D));
    return e;
}
}  // namespace

class KinematicsTest : public QObject {
    Q_OBJECT
private slots:
    void sliderCrankClosedForm() {
        const LoadedModel lm = test::loadExample("slider-crank.json");
        QVERIFY(lm.ok());
        const Model& m = *lm.model;
        const BodyIndex sliderBody = *m.findBody("slider");
        const double r = 0.1, l = 0.3, w = 2 * M_PI, phi0 = M_PI / 6;
        int samples = 0;
        double worstX = 0, worstV = 0, worstA = 0;
        const KinematicResult res = runKinematics(m, lm.initial, 0.99, 0.01, [&](const KinematicSample& s) {
            const SliderExact e = slider(r, l, phi0 + w * s.state.t, w);
            const int vo = m.velocityOffset(sliderBody);
            worstX = std::max(worstX, std::abs(bodyPosition(m, s.state, sliderBody).x() - e.x));
            worstV = std::max(worstV, std::abs(s.state.v[vo] - e.v));
            worstA = std::max(worstA, std::abs(s.acceleration[vo] - e.a) / std::abs(w * w * r));
            QVERIFY(s.positionViolation < 1e-12);
            QVERIFY(s.velocityViolation < 1e-12);
            QVERIFY(s.accelerationViolation < 1e-9);
            ++samples;
        });
        QVERIFY2(res.ok, res.message.c_str());
        QCOMPARE(samples, 100);
        qInfo("100 crank angles: slider position error %.3g m, velocity %.3g m/s, acceleration %.3g "
              "(relative to r w^2)",
              worstX, worstV, worstA);
        QVERIFY2(worstX < 1e-10, qPrintable(QString::number(worstX)));
        QVERIFY2(worstV < 1e-10, qPrintable(QString::number(worstV)));
        QVERIFY2(worstA < 1e-10, qPrintable(QString::number(worstA)));
    }

    // sin(θ_joint − θ(t)) also vanishes half a turn away from the law: that root must be
    // refused, with the driver named, rather than reported as assembled.
    void driverHalfTurnAwayIsRefused() {
        const LoadedModel lm = test::loadExample("slider-crank.json");
        QVERIFY(lm.ok());
        State s = lm.initial;
        s.t = 0.5;  // the law asks for the crank half a turn from where it is
        const AssemblyResult r = assemble(*lm.model, s);
        QVERIFY(!r.ok);
        QVERIFY(r.message.find("motor") != std::string::npos);
        QVERIFY(r.message.find("half a turn") != std::string::npos);
    }

    void undrivenModelIsRefused() {
        const LoadedModel lm = test::loadExample("four-bar.json");
        QVERIFY(lm.ok());
        const KinematicResult res = runKinematics(*lm.model, lm.initial, 1.0, 0.1, [](const KinematicSample&) {});
        QVERIFY(!res.ok);
        QVERIFY(res.message.find("1 degree(s) of freedom") != std::string::npos);
    }

    // An end time between two steps gets its own last sample.
    void lastSampleAtEndTime() {
        const LoadedModel lm = test::loadExample("slider-crank.json");
        QVERIFY(lm.ok());
        std::vector<double> times;
        const KinematicResult res = runKinematics(*lm.model, lm.initial, 0.105, 0.01,
                                                  [&](const KinematicSample& s) { times.push_back(s.state.t); });
        QVERIFY2(res.ok, res.message.c_str());
        QCOMPARE(int(times.size()), 12);  // 0, 0.01, …, 0.1, 0.105
        QCOMPARE(times.back(), 0.105);
        QVERIFY(std::abs(times[10] - 0.1) < 1e-15);
    }

    // A step so small that the number of samples overflows an integer used to produce no
    // sample at all and report ok; it is refused.
    void tinyStepIsRefused() {
        const LoadedModel lm = test::loadExample("slider-crank.json");
        QVERIFY(lm.ok());
        int samples = 0;
        const KinematicResult res =
            runKinematics(*lm.model, lm.initial, 1.0, 1e-300, [&](const KinematicSample&) { ++samples; });
        QVERIFY(!res.ok);
        QCOMPARE(samples, 0);
        QVERIFY2(res.message.find("more samples") != std::string::npos, res.message.c_str());
    }

    // A run past its wall time stops between samples as a failure saying so, in the words
    // of a dynamic run; without a limit the same run ends at its end time.
    void wallTimeLimit() {
        const LoadedModel lm = test::loadExample("slider-crank.json");
        QVERIFY(lm.ok());
        int samples = 0;
        KinematicResult res = runKinematics(
            *lm.model, lm.initial, 1.0, 1e-3, [&](const KinematicSample&) { ++samples; }, {}, KinematicLimits{1e-9});
        QVERIFY(!res.ok);
        QVERIFY2(res.message.find("wall-time limit reached") != std::string::npos, res.message.c_str());
        QVERIFY(samples >= 1 && samples < 1001);
        QCOMPARE(res.steps, samples - 1);
        samples = 0;
        res = runKinematics(*lm.model, lm.initial, 1.0, 1e-3, [&](const KinematicSample&) { ++samples; });
        QVERIFY2(res.ok, res.message.c_str());
        QCOMPARE(samples, 1001);
    }
};

QTEST_APPLESS_MAIN(KinematicsTest)
#include "tst_kinematics.moc"
