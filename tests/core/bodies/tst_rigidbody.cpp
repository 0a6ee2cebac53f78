// Rigid-body dynamics against invariants and closed-form motions: a free asymmetric body
// (energy and global angular momentum conserved, the intermediate-axis flip), a heavy
// symmetric top in steady precession about a spherical joint, and the three ODE solvers
// on the simple pendulum of resources/examples/pendulum.json.
#include "EllipticFunctions.h"
#include "TestModels.h"

#include "looplab/simulation/Simulation.h"

#include <chrono>
#include <cmath>
#include <vector>

using namespace looplab;
using looplab::test::ellipticK;
using looplab::test::jacobiSn;

namespace {

// Angle of a rotation about +z from the downward vertical (−y) of the pendulum's centre
// of mass; the pivot is at the origin.
double pendulumAngle(const Model& m, const State& s) {
    const Vec3 r = bodyPosition(m, s, BodyIndex(1));
    return std::atan2(r.x(), -r.y());
}

// Heavy symmetric top about a fixed point (the pivot at the origin, l below the centre
// of mass along the body z axis), gravity −z.
struct Top {
    double m, l, I1, I3, g, theta0, omega3;
    double I1p() const { return I1 + m * l * l; }
    // Slow root of m g l = Ω (I3 ω3 − I1' Ω cos θ0).
    double precession() const {
        const double a = I1p() * std::cos(theta0), b = I3 * omega3, c = m * g * l;
        // Ω = (b − √(b² − 4ac)) / 2a, written without cancellation.
        return 2.0 * c / (b + std::sqrt(b * b - 4.0 * a * c));
    }
};

}  // namespace

class RigidBodyTest : public QObject {
    Q_OBJECT

private slots:
    // ---- (a) free asymmetric body -------------------------------------------------

    void freeBody_data() {
        QTest::addColumn<double>("wx");
        QTest::addColumn<double>("wy");
        QTest::addColumn<double>("wz");
        QTest::addColumn<int>("axis");
        QTest::addColumn<bool>("flips");
        // Rotation about the intermediate axis is unstable: the small perturbation grows
        // at rate ω √((J2 − J1)(J3 − J2) / (J1 J3)) = 0.58 /s and the body turns over.
        QTest::newRow("intermediate axis") << 0.01 << 1.0 << 0.01 << 1 << true;
        // About the smallest and the largest moment it is stable.
        QTest::newRow("minor axis") << 1.0 << 0.01 << 0.01 << 0 << false;
        QTest::newRow("major axis") << 0.01 << 0.01 << 1.0 << 2 << false;
    }

    void freeBody() {
        QFETCH(double, wx);
        QFETCH(double, wy);
        QFETCH(double, wz);
        const Vec3 omegaBody(wx, wy, wz);
        QFETCH(int, axis);
        QFETCH(bool, flips);
        const Mat3 J = Vec3(1.0, 2.0, 3.0).asDiagonal();
        // A general initial orientation, so that the body and global frames differ.
        const Quat A0 = Quat(Eigen::AngleAxisd(0.7, Vec3(1.0, -2.0, 0.5).normalized()));
        ModelDocument doc;
        doc.name = "free body";
        BodyDoc b;
        b.name = "block";
        b.mass = 2.5;
        b.inertia = J;
        b.position = Vec3(0.3, -0.2, 1.0);
        b.orientation = A0;
        b.angularVelocity = A0 * omegaBody;  // the document holds it in the global frame
        doc.bodies.push_back(b);
        const LoadedModel lm = prepareModel(doc, "free-body");
        QVERIFY2(lm.ok(), formatDiagnostics(lm.diagnostics).c_str());
        QVERIFY((bodyAngularVelocityLocal(*lm.model, lm.initial, BodyIndex(1)) - omegaBody).norm() < 1e-15);

        SimulationSettings set;
        set.method = "projection";
        set.integrator = "dopri5";
        set.tEnd = 20.0;
        set.outputStep = 0.01;
        set.ode.rtol = 1e-12;
        set.ode.atol = 1e-14;
        Simulator sim(lm.model, set);

        const double T0 = 0.5 * omegaBody.dot(J * omegaBody);
        const Vec3 H0 = A0 * (J * omegaBody);
        double worstT = 0.0, worstH = 0.0, worstCore = 0.0, worstV = 0.0;
        int signChanges = 0, frames = 0;
        double previous = omegaBody[axis];
        const SimulationResult res = sim.run(lm.initial, [&](const SimulationFrame& f) {
            const Vec3 w = bodyAngularVelocityLocal(*lm.model, f.state, BodyIndex(1));
            const Quat A = bodyOrientation(*lm.model, f.state, BodyIndex(1));
            const double T = 0.5 * w.dot(J * w);
            const Vec3 H = A * (J * w);
            worstT = std::max(worstT, std::abs(T - T0) / T0);
            worstH = std::max(worstH, (H - H0).norm() / H0.norm());
            worstCore = std::max(worstCore, std::abs(f.energy.total() - T0) / T0);
            worstV = std::max(worstV, bodyVelocity(*lm.model, f.state, BodyIndex(1)).norm());
            if (w[axis] * previous < 0) ++signChanges;
            previous = w[axis];
            ++frames;
        });
        QVERIFY2(res.ok, res.message.c_str());
        QCOMPARE(frames, 2001);
        qInfo("energy %.2e, angular momentum %.2e (relative, worst frame); omega[%d] changed sign "
              "%d times; %ld steps, %.2f s",
              worstT, worstH, axis, signChanges, res.statistics.steps, res.wallTime);
        QVERIFY2(worstT < 1e-10, qPrintable(QString::number(worstT)));
        QVERIFY2(worstH < 1e-10, qPrintable(QString::number(worstH)));
        QVERIFY2(worstCore < 1e-10, qPrintable(QString::number(worstCore)));
        QCOMPARE(worstV, 0.0);  // no force: the centre of mass stays at rest
        if (flips)
            QVERIFY2(signChanges >= 1, "the intermediate-axis rotation did not turn over in 20 s");
        else
            QCOMPARE(signChanges, 0);
    }

    // ---- (b) heavy symmetric top in steady precession -----------------------------

    void steadyPrecession_data() {
        QTest::addColumn<double>("theta0");
        QTest::addColumn<double>("omega3");
        QTest::newRow("30 deg, 40 rad/s") << 30 * M_PI / 180 << 40.0;
        QTest::newRow("60 deg, 25 rad/s") << 60 * M_PI / 180 << 25.0;
    }

    void steadyPrecession() {
        QFETCH(double, theta0);
        QFETCH(double, omega3);
        const Top top{1.0, 0.1, 0.02, 0.03, 9.81, theta0, omega3};
        const double Omega = top.precession();
        // The root satisfies the steady-precession condition.
        QVERIFY(std::abs(Omega * (top.I3 * omega3 - top.I1p() * Omega * std::cos(theta0)) -
                         top.m * top.g * top.l) < 1e-14);
        const double psiDot = omega3 - Omega * std::cos(theta0);

        const Quat A0(Eigen::AngleAxisd(theta0, Vec3::UnitY()));
        const Vec3 axis0 = A0 * Vec3::UnitZ();  // symmetry axis, azimuth 0
        ModelDocument doc;
        doc.name = "heavy top";
        doc.gravity = Vec3(0, 0, -top.g);
        BodyDoc b;
        b.name = "top";
        b.mass = top.m;
        b.inertia = Vec3(top.I1, top.I1, top.I3).asDiagonal();
        b.position = top.l * axis0;
        b.orientation = A0;
        b.angularVelocity = Omega * Vec3::UnitZ() + psiDot * axis0;
        b.velocity = b.angularVelocity.cross(b.position);
        doc.bodies.push_back(b);
        JointDoc j;
        j.name = "pivot";
        j.type = JointType::Spherical;
        j.body1 = kGroundName;
        j.body2 = "top";
        j.point = Vec3::Zero();
        doc.joints.push_back(j);
        const LoadedModel lm = prepareModel(doc, "heavy-top");
        QVERIFY2(lm.ok(), formatDiagnostics(lm.diagnostics).c_str());
        // The initial state is consistent: assembly leaves it as written.
        QVERIFY((bodyVelocity(*lm.model, lm.initial, BodyIndex(1)) - b.velocity).norm() < 1e-14);
        QVERIFY((bodyAngularVelocity(*lm.model, lm.initial, BodyIndex(1)) - b.angularVelocity).norm() < 1e-13);

        const double period = 2 * M_PI / Omega;
        SimulationSettings set;
        set.method = "projection";
        set.integrator = "dopri5";
        // Half a period under the sanitizers (the same code; three periods take 30 s there).
        set.tEnd = (test::kUnderSanitizers ? 0.5 : 3.0) * period;
        set.outputStep = 1e-3;  // the azimuth is unwrapped frame by frame
        set.ode.rtol = 1e-11;
        set.ode.atol = 1e-13;
        Simulator sim(lm.model, set);

        double worstNutation = 0.0, worstPhase = 0.0, worstForce = 0.0, azimuth = 0.0, previous = 0.0;
        double tLast = 0.0;
        const SimulationResult res = sim.run(lm.initial, [&](const SimulationFrame& f) {
            const Vec3 e = bodyOrientation(*lm.model, f.state, BodyIndex(1)) * Vec3::UnitZ();
            const double nutation = std::atan2(e.head<2>().norm(), e.z());
            worstNutation = std::max(worstNutation, std::abs(nutation - theta0));
            const double a = std::atan2(e.y(), e.x());
            azimuth += std::remainder(a - previous, 2 * M_PI);
            previous = a;
            tLast = f.state.t;
            worstPhase = std::max(worstPhase, std::abs(azimuth - Omega * tLast));
            // Pivot reaction of steady precession: m (a_cm − g), a_cm centripetal.
            const Vec3 rho(e.x(), e.y(), 0.0);
            const Vec3 exact = top.m * (-Omega * Omega * top.l * rho + Vec3(0, 0, top.g));
            worstForce = std::max(worstForce, (f.reactions.at(0).forceGlobal - exact).norm() / (top.m * top.g));
        });
        QVERIFY2(res.ok, res.message.c_str());
        QCOMPARE(tLast, set.tEnd);
        const double measured = azimuth / tLast;
        const double rateError = std::abs(measured - Omega) / Omega;
        qInfo("Omega %.12f rad/s (spin %.3f rad/s), measured %.12f, relative error %.2e; nutation "
              "%.2e rad; phase %.2e rad; reaction %.2e m g; %ld steps, %.2f s",
              Omega, psiDot, measured, rateError, worstNutation, worstPhase, worstForce,
              res.statistics.steps, res.wallTime);
        QVERIFY2(worstNutation < 1e-6, qPrintable(QString::number(worstNutation)));
        QVERIFY2(rateError < 1e-6, qPrintable(QString::number(rateError)));
        QVERIFY2(worstForce < 1e-9, qPrintable(QString::number(worstForce)));
    }

    // ---- (c) the three ODE solvers on the pendulum -------------------------------

    void integratorsAgree() {
        const LoadedModel lm = test::loadExample("pendulum.json");
        QVERIFY(lm.ok());
        struct Run {
            const char* integrator;
            double step, rtol, atol;
            double angle = NAN;
            double seconds = 0;
            long steps = 0;
        };
        std::vector<Run> runs{{"rk4", 1e-4, 1e-8, 1e-10},
                              {"dopri5", 0.0, 1e-12, 1e-14},
                              {"bdf", 0.0, 1e-10, 1e-12}};
        // Exact angle at t = 2 s: sin(θ/2) = k sn(K − ω0 t, k).
        const double theta0 = 2 * M_PI / 3, tEnd = 2.0;
        const double Ip = lm.model->bodies[1].rigid()->inertia()(2, 2) + 1.0;
        const double w0 = std::sqrt(9.81 / Ip), k = std::sin(theta0 / 2);
        const double exact = 2.0 * std::asin(k * jacobiSn(ellipticK(k) - w0 * tEnd, k));
        for (Run& r : runs) {
            SimulationSettings set;
            set.method = "projection";
            set.integrator = r.integrator;
            set.tEnd = tEnd;
            set.outputStep = 0.01;
            set.ode.step = r.step;
            set.ode.rtol = r.rtol;
            set.ode.atol = r.atol;
            Simulator sim(lm.model, set);
            State last;
            const SimulationResult res = sim.run(lm.initial, [&](const SimulationFrame& f) { last = f.state; });
            QVERIFY2(res.ok, (std::string(r.integrator) + ": " + res.message).c_str());
            QCOMPARE(last.t, tEnd);
            r.angle = pendulumAngle(*lm.model, last);
            r.seconds = res.wallTime;
            r.steps = res.statistics.steps;
            qInfo("%-6s theta(2 s) = %.15f rad, exact %.15f, error %.2e; %ld steps, %.3f s",
                  r.integrator, r.angle, exact, r.angle - exact, r.steps, r.seconds);
        }
        for (size_t i = 0; i < runs.size(); ++i) {
            QVERIFY2(std::abs(runs[i].angle - exact) < 1e-6, runs[i].integrator);
            for (size_t j = i + 1; j < runs.size(); ++j)
                QVERIFY2(std::abs(runs[i].angle - runs[j].angle) < 1e-6,
                         qPrintable(QStringLiteral("%1 vs %2: %3")
                                        .arg(runs[i].integrator, runs[j].integrator)
                                        .arg(runs[i].angle - runs[j].angle)));
        }
    }
};

QTEST_APPLESS_MAIN(RigidBodyTest)
#include "tst_rigidbody.moc"
