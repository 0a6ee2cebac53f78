// Simple (physical) pendulum of resources/examples/pendulum.json against its exact
// solution: the period 4 K(k) / ω0 for a large amplitude (K by the arithmetic–geometric
// mean), the whole trajectory sin(θ/2) = k sn(K − ω0 t, k), and the pivot reaction from the
// multipliers, including m g + m L θ̇² at the lowest point.
#include "EllipticFunctions.h"
#include "TestModels.h"

#include "looplab/kinematics/Mobility.h"
#include "looplab/simulation/Simulation.h"

#include <cmath>
#include <vector>

using namespace looplab;
using looplab::test::ellipticK;
using looplab::test::jacobiSn;

namespace {

constexpr double kMass = 1.0, kLength = 1.0, kGravity = 9.81;

// Pendulum of the example file, moved to release angle theta0 (from the downward
// vertical, counter-clockwise about +z) if given.
ModelDocument pendulumDocument(double theta0) {
    ModelDocument doc = test::exampleDocument("pendulum.json");
    if (doc.bodies.size() == 1) {
        BodyDoc& b = doc.bodies[0];
        b.position = Vec3(kLength * std::sin(theta0), -kLength * std::cos(theta0), 0.0);
        b.orientation = Quat(Eigen::AngleAxisd(theta0, Vec3::UnitZ()));
    }
    return doc;
}

// One output frame reduced to the pendulum's coordinate.
struct Sample {
    double t, theta, rate, accel;
    Vec3 force, torque;
};

// Angle from the downward vertical, read from the centre of mass (no unwrapping needed
// below ±π), its rate and acceleration (rotation about global z only).
Sample sampleOf(const Model& m, const SimulationFrame& f) {
    const BodyIndex bob(1);
    const Vec3 r = bodyPosition(m, f.state, bob);
    Sample s;
    s.t = f.state.t;
    s.theta = std::atan2(r.x(), -r.y());
    s.rate = bodyAngularVelocity(m, f.state, bob).z();
    s.accel = (bodyOrientation(m, f.state, bob) * Vec3(f.acceleration.segment<3>(3))).z();
    s.force = f.reactions.empty() ? Vec3::Constant(NAN) : f.reactions[0].forceGlobal;
    s.torque = f.reactions.empty() ? Vec3::Constant(NAN) : f.reactions[0].torqueGlobal;
    return s;
}

SimulationSettings accurateSettings(double tEnd) {
    SimulationSettings s;
    s.method = "projection";
    s.integrator = "dopri5";
    s.tEnd = tEnd;
    s.outputStep = 1e-3;
    s.ode.rtol = 1e-12;
    s.ode.atol = 1e-14;
    return s;
}

// Zero crossings of θ between successive samples, each refined by Newton steps on the
// second-order Taylor polynomial of the nearer sample (θ, θ̇, θ̈ of that frame).
std::vector<double> zeroCrossings(const std::vector<Sample>& samples) {
    std::vector<double> out;
    for (size_t i = 0; i + 1 < samples.size(); ++i) {
        const Sample& a = samples[i];
        const Sample& b = samples[i + 1];
        if (!((a.theta > 0 && b.theta <= 0) || (a.theta < 0 && b.theta >= 0))) continue;
        const Sample& s = std::abs(a.theta) < std::abs(b.theta) ? a : b;
        double d = 0.0;
        for (int it = 0; it < 4; ++it) d = -(s.theta + 0.5 * s.accel * d * d) / s.rate;
        out.push_back(s.t + d);
    }
    return out;
}

}  // namespace

class PendulumTest : public QObject {
    Q_OBJECT

private slots:
    void exactHelpers() {
        // K(0) = π/2; K(sin 45°) = Γ(1/4)² / (4 √π); sn(K, k) = 1; sn(u, 0) = sin u.
        QVERIFY(std::abs(ellipticK(0.0) - M_PI / 2) < 1e-15);
        const double g14 = std::tgamma(0.25);
        const double k45 = g14 * g14 / (4.0 * std::sqrt(M_PI));
        QVERIFY2(std::abs(ellipticK(std::sqrt(0.5)) - k45) < 4e-16 * k45,
                 qPrintable(QString::number(ellipticK(std::sqrt(0.5)) - k45)));
        for (double k : {0.1, 0.5, 0.866, 0.99}) {
            QVERIFY(std::abs(jacobiSn(ellipticK(k), k) - 1.0) < 1e-14);
            QVERIFY(std::abs(jacobiSn(0.3, k) - jacobiSn(-0.3, k) - 2 * jacobiSn(0.3, k)) < 1e-15);
        }
        QVERIFY(std::abs(jacobiSn(0.7, 0.0) - std::sin(0.7)) < 1e-15);
        // sn(u, k) near k → 1 approaches tanh u.
        QVERIFY(std::abs(jacobiSn(0.7, 1.0 - 1e-12) - std::tanh(0.7)) < 1e-10);
    }

    void modelFacts() {
        const LoadedModel lm = test::loadExample("pendulum.json");
        QVERIFY(lm.ok());
        const Model& m = *lm.model;
        QCOMPARE(m.movingBodyCount(), 1);
        QCOMPARE(m.grueblerCount(), 1);
        QCOMPARE(*m.expected.dof, 1);
        QCOMPARE(*m.expected.redundant, 0);
        const MobilityReport rep = analyzeMobility(m, lm.initial);
        QCOMPARE(rep.rank, 5);
        QCOMPARE(rep.dof, 1);
        QVERIFY(rep.redundant.empty());
        // Released at 120° from the downward vertical.
        const Vec3 r = bodyPosition(*lm.model, lm.initial, BodyIndex(1));
        QVERIFY(std::abs(std::atan2(r.x(), -r.y()) - 2 * M_PI / 3) < 1e-15);
        QVERIFY(std::abs(r.norm() - kLength) < 1e-15);
        QCOMPARE(lm.initial.v.norm(), 0.0);
    }

    void periodAndTrajectory_data() {
        QTest::addColumn<double>("theta0");
        QTest::addColumn<bool>("fromFile");
        QTest::newRow("120 deg (file)") << 2 * M_PI / 3 << true;
        QTest::newRow("10 deg") << 10 * M_PI / 180 << false;
        QTest::newRow("170 deg") << 170 * M_PI / 180 << false;
    }

    // Period and trajectory of the projection + dopri5 run against the exact solution.
    void periodAndTrajectory() {
        QFETCH(double, theta0);
        QFETCH(bool, fromFile);
        const LoadedModel lm = fromFile ? test::loadExample("pendulum.json")
                                        : prepareModel(pendulumDocument(theta0), "pendulum");
        QVERIFY2(lm.ok(), formatDiagnostics(lm.diagnostics).c_str());
        const Model& m = *lm.model;
        const double Ip = m.bodies[1].rigid()->inertia()(2, 2) + kMass * kLength * kLength;
        const double w0 = std::sqrt(kMass * kGravity * kLength / Ip);
        const double k = std::sin(theta0 / 2);
        const double K = ellipticK(k);
        const double T = 4.0 * K / w0;

        std::vector<Sample> samples;
        double worstTheta = 0.0, worstRate = 0.0;
        Simulator sim(lm.model, accurateSettings(2.1 * T));
        const SimulationResult res = sim.run(lm.initial, [&](const SimulationFrame& f) {
            const Sample s = sampleOf(*lm.model, f);
            samples.push_back(s);
            // Exact: sin(θ/2) = k sn(K − ω0 t); θ̇² = 2 ω0² (cos θ − cos θ0).
            const double exact = 2.0 * std::asin(k * jacobiSn(K - w0 * s.t, k));
            worstTheta = std::max(worstTheta, std::abs(s.theta - exact));
            const double rate2 = 2 * w0 * w0 * (std::cos(s.theta) - std::cos(theta0));
            worstRate = std::max(worstRate, std::abs(s.rate * s.rate - rate2) / (w0 * w0));
        });
        QVERIFY2(res.ok, res.message.c_str());

        const std::vector<double> tz = zeroCrossings(samples);
        QCOMPARE(int(tz.size()), 4);  // at T/4, 3T/4, 5T/4, 7T/4
        const double Tsim = (tz.back() - tz.front()) / 1.5;
        double worstCrossing = 0.0;
        for (size_t i = 0; i < tz.size(); ++i)
            worstCrossing = std::max(worstCrossing, std::abs(tz[i] - (2.0 * i + 1.0) * T / 4.0) / T);
        const double periodError = std::abs(Tsim - T) / T;
        qInfo("theta0 %.1f deg: T exact %.15f s, simulated %.15f s, relative error %.2e; crossings "
              "%.2e T; trajectory %.2e rad; energy (rate^2) %.2e; %ld steps, %.2f s",
              theta0 * 180 / M_PI, T, Tsim, periodError, worstCrossing, worstTheta, worstRate,
              res.statistics.steps, res.wallTime);
        QVERIFY2(periodError < 1e-8, qPrintable(QString::number(periodError)));
        QVERIFY2(worstCrossing < 1e-8, qPrintable(QString::number(worstCrossing)));
        QVERIFY2(worstTheta < 1e-8, qPrintable(QString::number(worstTheta)));
        QVERIFY2(worstRate < 1e-8, qPrintable(QString::number(worstRate)));
        QVERIFY2(res.maxViolation.position < 1e-12, qPrintable(QString::number(res.maxViolation.position)));
        QVERIFY2(res.maxViolation.velocity < 1e-12, qPrintable(QString::number(res.maxViolation.velocity)));
    }

    // The pivot reaction from the multipliers at every frame: along the bar (towards the
    // pivot) m (g cos θ + L θ̇²), across it m (g sin θ + L θ̈) with the exact θ̈ of the
    // state, nothing along z, and no torque (a revolute carries none about z, and the
    // motion is planar).
    void reactionAlongTheSwing() {
        const LoadedModel lm = test::loadExample("pendulum.json");
        QVERIFY(lm.ok());
        const double Ip = lm.model->bodies[1].rigid()->inertia()(2, 2) + kMass * kLength * kLength;
        double worstForce = 0.0, worstTorque = 0.0;
        int frames = 0;
        Simulator sim(lm.model, accurateSettings(3.0));
        const SimulationResult res = sim.run(lm.initial, [&](const SimulationFrame& f) {
            QCOMPARE(f.reactions.size(), size_t(1));
            QCOMPARE(f.reactions[0].joint, std::string("pivot"));
            const Sample s = sampleOf(*lm.model, f);
            const double st = std::sin(s.theta), ct = std::cos(s.theta);
            const Vec3 towardPivot(-st, ct, 0.0), forward(ct, st, 0.0);
            const double accel = -kMass * kGravity * kLength * st / Ip;
            const Vec3 exact = kMass * (kGravity * ct + kLength * s.rate * s.rate) * towardPivot +
                               kMass * (kGravity * st + kLength * accel) * forward;
            worstForce = std::max(worstForce, (s.force - exact).norm() / (kMass * kGravity));
            worstTorque = std::max(worstTorque, s.torque.norm() / (kMass * kGravity * kLength));
            ++frames;
        });
        QVERIFY2(res.ok, res.message.c_str());
        QCOMPARE(frames, 3001);
        qInfo("reaction along the swing: force %.2e m g, torque %.2e m g L", worstForce, worstTorque);
        QVERIFY2(worstForce < 1e-8, qPrintable(QString::number(worstForce)));
        QVERIFY2(worstTorque < 1e-8, qPrintable(QString::number(worstTorque)));
    }

    // At the lowest point: |F| = m g + m L θ̇², straight up. The first crossing is found
    // from a first run, and a second run ends exactly there (the end time is a frame).
    void reactionAtLowestPoint() {
        const LoadedModel lm = test::loadExample("pendulum.json");
        QVERIFY(lm.ok());
        std::vector<Sample> samples;
        {
            Simulator sim(lm.model, accurateSettings(1.0));
            const SimulationResult res =
                sim.run(lm.initial, [&](const SimulationFrame& f) { samples.push_back(sampleOf(*lm.model, f)); });
            QVERIFY2(res.ok, res.message.c_str());
        }
        const std::vector<double> tz = zeroCrossings(samples);
        QCOMPARE(int(tz.size()), 1);
        Simulator sim(lm.model, accurateSettings(tz[0]));
        Sample last{};
        const SimulationResult res = sim.run(lm.initial, [&](const SimulationFrame& f) { last = sampleOf(*lm.model, f); });
        QVERIFY2(res.ok, res.message.c_str());
        QCOMPARE(last.t, tz[0]);
        QVERIFY2(std::abs(last.theta) < 1e-9, qPrintable(QString::number(last.theta)));
        const double expected = kMass * kGravity + kMass * kLength * last.rate * last.rate;
        const double error = std::abs(last.force.norm() - expected) / expected;
        const double sideways = std::hypot(last.force.x(), last.force.z()) / expected;
        qInfo("lowest point at t = %.12f s: theta %.1e rad, rate %.12f rad/s, |F| %.12f N, "
              "m g + m L rate^2 = %.12f N, relative error %.2e, sideways %.1e",
              last.t, last.theta, last.rate, last.force.norm(), expected, error, sideways);
        QVERIFY2(error < 1e-8, qPrintable(QString::number(error)));
        QVERIFY(last.force.y() > 0);  // the ground pulls the bob up
        QVERIFY2(sideways < 1e-8, qPrintable(QString::number(sideways)));
    }
};

QTEST_APPLESS_MAIN(PendulumTest)
#include "tst_pendulum.moc"
