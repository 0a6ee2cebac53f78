// The quantities the workbench draws as arrows and plots (PointMotion.h, MotionArrows.h,
// WorkCounter.h, TransmissionAngle.h) against closed forms: the pendulum of
// pendulum.json (energy gives θ̇, the equation of motion θ̈), the driven crank-rocker of
// crank-rocker-coupler-curve.json (work of the motor against its change of mechanical
// energy; transmission angle by the law of cosines from the file's link lengths); a
// cantilever beam under a tip load (the load's work against F·Δr of its node) and under
// its weight (no work; the change of the gravity energy against m g Δy of its centre of
// mass).
#include "CliRunner.h"
#include "CrankRockerReference.h"
#include "TestModels.h"

#include "looplab/simulation/InputPower.h"
#include "looplab/analysis/MotionArrows.h"
#include "looplab/analysis/PointMotion.h"
#include "looplab/analysis/TransmissionAngle.h"
#include "looplab/kinematics/NodalOutputs.h"
#include "looplab/dynamics/Dynamics.h"
#include "looplab/model/Model.h"
#include "looplab/simulation/Simulation.h"

#include <QtTest>

#include <nlohmann/json.hpp>

#include <cmath>

using namespace looplab;

namespace {

SimulationSettings accurate(double tEnd, double outputStep) {
    SimulationSettings s;
    s.method = "projection";
    s.integrator = "dopri5";
    s.tEnd = tEnd;
    s.outputStep = outputStep;
    s.ode.rtol = 1e-11;
    s.ode.atol = 1e-13;
    return s;
}

// The example cantilever with 2 elements and E lowered 100-fold (2.1e9 Pa), so that an
// explicit integrator needs few steps, released straight from rest: with gravity, or
// without it and with a 1 N downward tip load.
LoadedModel softCantilever(bool weight) {
    ModelDocument doc = test::exampleDocument("cantilever-beam.json");
    doc.beams.at(0).elements = 2;
    doc.beams.at(0).material.youngModulus = 2.1e9;
    if (weight) {
        doc.forces.clear();
    } else {
        doc.gravity = Vec3::Zero();
        doc.forces.at(0).vector = Vec3(0.0, -1.0, 0.0);
    }
    LoadedModel lm;
    lm.model = std::make_shared<const Model>(test::buildOrStop(doc));
    lm.initial = initialState(*lm.model);
    return lm;
}

std::vector<SimulationFrame> run(const LoadedModel& lm, const SimulationSettings& settings) {
    std::vector<SimulationFrame> frames;
    Simulator sim(lm.model, settings);
    const SimulationResult r = sim.run(lm.initial, [&](const SimulationFrame& f) { frames.push_back(f); });
    if (!r.ok) qWarning("run failed: %s", r.message.c_str());
    return frames;
}

}  // namespace

class TestMotionQuantities : public QObject {
    Q_OBJECT

private slots:
    // Pendulum (pivot at the origin, centre of mass L = 1 m from it, released from rest at
    // θ0 = 120°): by energy ½ I_p θ̇² = m g L (cos θ − cos θ0), and I_p θ̈ = −m g L sin θ.
    // The velocity arrow of the centre of mass is ω L · scale long along the tangent; its
    // acceleration has L θ̇² toward the pivot and L θ̈ along the tangent; the pivot pulls
    // the bob along the rod with m (g cos θ + L θ̇²) (the centripetal balance, exact also
    // for a bob with its own inertia).
    void pendulumArrowsAndPivotReaction() {
        const LoadedModel lm = test::loadExample("pendulum.json");
        QVERIFY(lm.ok());
        const Model& m = *lm.model;
        const double mass = m.bodies[1].rigid()->mass(), g = 9.81, L = 1.0, theta0 = 2 * M_PI / 3;
        const double Ip = m.bodies[1].rigid()->inertia()(2, 2) + mass * L * L;
        const std::vector<SimulationFrame> frames = run(lm, accurate(2.0, 0.05));
        QVERIFY(frames.size() > 30);

        ArrowRequest request;
        for (ArrowKind k : {ArrowKind::Velocity, ArrowKind::Acceleration, ArrowKind::ReactionForce,
                            ArrowKind::ReactionTorque})
            request.set(k, true);
        ArrowScale scale;
        scale.velocity = 0.2;
        scale.acceleration = 0.03;
        scale.force = 0.05;
        double worstLength = 0, worstDirection = 0, worstRadialAcc = 0, worstTangentialAcc = 0, worstReaction = 0;
        for (const SimulationFrame& f : frames) {
            const Vec3 r = bodyPosition(m, f.state, BodyIndex(1));
            const double theta = std::atan2(r.x(), -r.y());
            const double rate2 = 2 * mass * g * L * (std::cos(theta) - std::cos(theta0)) / Ip;
            const double omega = std::sqrt(std::max(rate2, 0.0));
            const double thetaDDot = -mass * g * L * std::sin(theta) / Ip;
            const Vec3 radial = r.normalized();                   // pivot → bob
            const Vec3 tangent = Vec3::UnitZ().cross(radial);     // direction of increasing θ

            std::vector<MotionArrow> arrows;
            const Status st = motionArrows(m, f.state, f.acceleration, f.reactions, request, scale, &arrows);
            QVERIFY2(st.ok, st.message.c_str());
            QCOMPARE(int(arrows.size()), 4);  // velocity, acceleration of the bob; force, torque at the pivot
            const MotionArrow& v = arrows[0];
            QCOMPARE(v.kind, ArrowKind::Velocity);
            QVERIFY((v.origin - r).norm() < 1e-12);
            worstLength = std::max(worstLength, std::abs(v.drawn.norm() - omega * L * scale.velocity));
            if (omega > 0.5) worstDirection = std::max(worstDirection, std::abs(v.drawn.normalized().dot(radial)));

            const MotionArrow& a = arrows[1];
            QCOMPARE(a.kind, ArrowKind::Acceleration);
            worstRadialAcc = std::max(worstRadialAcc, std::abs(-a.value.dot(radial) - L * rate2));
            worstTangentialAcc = std::max(worstTangentialAcc, std::abs(a.value.dot(tangent) - L * thetaDDot));
            QVERIFY(std::abs(a.drawn.norm() - a.value.norm() * scale.acceleration) < 1e-14);

            const MotionArrow& F = arrows[2];
            QCOMPARE(F.kind, ArrowKind::ReactionForce);
            QCOMPARE(F.label, std::string("pivot"));
            QVERIFY(F.origin.norm() < 1e-12);
            const double alongRod = -F.value.dot(radial);
            worstReaction = std::max(worstReaction, std::abs(alongRod - mass * (g * std::cos(theta) + L * rate2)));
        }
        qInfo("pendulum: |arrow length − ωL·scale| ≤ %.2e m, |cos(arrow, rod)| ≤ %.2e, "
              "acceleration radial/tangential error ≤ %.2e / %.2e m/s², rod force error ≤ %.2e N",
              worstLength, worstDirection, worstRadialAcc, worstTangentialAcc, worstReaction);
        // The run's tolerance (rtol 1e-11) bounds the state's error; 1e-8 leaves room for
        // its growth over two seconds and still rejects any mistake of a term.
        QVERIFY(worstLength < 1e-8);
        QVERIFY(worstDirection < 1e-8);
        QVERIFY(worstRadialAcc < 1e-7);
        QVERIFY(worstTangentialAcc < 1e-7);
        QVERIFY(worstReaction < 1e-7);
    }

    // The motor of the crank-rocker turns the crank at one turn per second against
    // gravity: the work it does equals the change of the linkage's mechanical energy.
    void driverWorkBalancesEnergy() {
        const LoadedModel lm = test::loadExample("crank-rocker-coupler-curve.json");
        QVERIFY(lm.ok());
        const Model& m = *lm.model;
        QCOMPARE(int(m.drivers.size()), 1);
        const std::vector<SimulationFrame> frames = run(lm, accurate(0.75, 1e-3));
        QVERIFY(frames.size() > 700);
        const double e0 = frames.front().energy.total();
        double worst = 0.0, largestWork = 0.0, largestChange = 0.0;
        for (const SimulationFrame& f : frames) {
            worst = std::max(worst, std::abs(f.energy.total() - e0 - f.work));
            largestWork = std::max(largestWork, std::abs(f.work));
            largestChange = std::max(largestChange, std::abs(f.energy.total() - e0));
        }
        qInfo("crank-rocker over 0.75 s: largest |W| %.4f J, largest |E − E0| %.4f J, largest |E − E0 − W| %.2e J",
              largestWork, largestChange, worst);
        // The work is far from zero (the motor lifts the links and speeds them up)...
        QVERIFY(largestWork > 0.05);
        // ...and counted over the run's steps (WorkCounter.h) the balance is the run's own
        // error: 1.6e-9 J measured (by the trapezoidal rule over the 1 ms frames, as
        // before, 6e-6 J; over the steps, 3.5e-4 J: dopri5's steps are long at rtol 1e-11).
        QVERIFY2(worst < 1e-6 * std::max(1.0, largestWork), qPrintable(QString::number(worst)));
        // A run that ignores the motor's work would not balance.
        QVERIFY(largestChange > 100 * worst);
    }

    // The driven flexible slider-crank at its own settings (tlismni, hht, rtol 1e-6): the
    // work is counted over the integrator's steps, so E − E₀ − W stays at the run's error
    // at every output (measured 1.2e-6 and 1.0e-6 J against 0.27 J exchanged), and W at a
    // given time is the same whether the frames are 1 ms or 10 ms apart (to the bit).
    // Counted between frames (as before), the balance reached 1.3e-3 J at 1 ms and
    // 8.8e-3 J at 10 ms against 0.17 J exchanged over 1 s.
    void flexibleDriverWorkAtAnyOutputStep() {
        ModelDocument doc = test::exampleDocument("flexible-slider-crank.json");
        const LoadedModel lm = prepareModel(doc);
        QVERIFY(lm.ok());
        std::vector<std::vector<SimulationFrame>> runs;
        for (const double output : {1e-3, 1e-2}) {
            SimulationSettings s;
            s.method = "tlismni";
            s.integrator = "hht";
            s.tEnd = 0.2;
            s.outputStep = output;
            runs.push_back(run(lm, s));
            QCOMPARE(int(runs.back().size()), int(std::lround(0.2 / output)) + 1);
        }
        double exchanged = 0.0;
        std::vector<double> worst;
        for (const std::vector<SimulationFrame>& frames : runs) {
            const double e0 = frames.front().energy.total();
            double w = 0.0;
            for (const SimulationFrame& f : frames) {
                w = std::max(w, std::abs(f.energy.total() - e0 - f.work));
                exchanged = std::max(exchanged, std::abs(f.work) + f.energy.kinetic);
            }
            worst.push_back(w);
        }
        double apart = 0.0;
        for (size_t k = 0; k < runs[1].size(); ++k)
            apart = std::max(apart, std::abs(runs[1][k].work - runs[0][10 * k].work));
        qInfo("flexible slider-crank over 0.2 s: largest |E − E0 − W| %.2e J (1 ms frames), %.2e J (10 ms); W at the "
              "same times differs by %.2e J; energy exchanged %.3g J",
              worst[0], worst[1], apart, exchanged);
        QVERIFY(exchanged > 0.05);
        // The run's own error at rtol 1e-6 of the energy exchanged, with room for its
        // growth over the steps; the same bound at both output steps.
        for (const double w : worst) QVERIFY2(w < 1e-5 * exchanged, qPrintable(QString::number(w)));
        // The same steps: the same work, to rounding of the sums.
        QVERIFY2(apart < 1e-12 * exchanged, qPrintable(QString::number(apart)));
    }

    // A constant force F on a node does the work F·(r(t) − r(0)) whatever the motion: the
    // run's work of its power F·ṙ must equal it, and E − E₀ − W must stay at the run's
    // error, below 1e-9 of the work (measured 2e-10 of it; by the trapezoidal rule over
    // the 20 µs frames, as before, 2e-7; E − E₀ itself meets F·Δr to 1e-15). Loads on
    // nodes counted as no work would leave a "drift" equal to the whole work.
    void nodalLoadWorkBalancesEnergy() {
        const LoadedModel lm = softCantilever(false);
        QVERIFY(lm.ok());
        const Model& m = *lm.model;
        // What the workbench asks before it plots E − E₀ as work and balance, not as drift.
        QVERIFY(hasWorkInput(m));
        const std::vector<SimulationFrame> frames = run(lm, accurate(0.05, 2e-5));
        QVERIFY(frames.size() > 2000);
        const int tipY = m.positionOffset(*m.findBody("beam")) + 6 * 2 + 1;
        const double e0 = frames.front().energy.total();
        double worst = 0.0, worstWork = 0.0;
        for (const SimulationFrame& f : frames) {
            const double exactWork = -1.0 * (f.state.q[tipY] - lm.initial.q[tipY]);
            worst = std::max(worst, std::abs(f.energy.total() - e0 - f.work));
            worstWork = std::max(worstWork, std::abs(f.work - exactWork));
        }
        const double work = -1.0 * (frames.back().state.q[tipY] - lm.initial.q[tipY]);
        qInfo("1 N on the tip over 0.05 s: F·Δr %.10e J, W %.10e J, largest |W − F·Δr| %.2e J, "
              "largest |E − E0 − W| %.2e J", work, frames.back().work, worstWork, worst);
        QVERIFY(work > 1e-3);  // the tip moved down by more than a millimetre
        QVERIFY2(worstWork < 1e-9 * work, qPrintable(QString::number(worstWork)));
        QVERIFY2(worst < 1e-9 * work, qPrintable(QString::number(worst)));
        QVERIFY(std::abs(frames.back().energy.total() - e0 - work) < 1e-9 * work);
    }

    // Gravity is in E, not in W: the falling beam's work is zero and E stays constant,
    // while its gravity energy changes by −m g·Δc of its centre of mass (m = ρ a² L).
    void weightIsEnergyNotWork() {
        const LoadedModel lm = softCantilever(true);
        QVERIFY(lm.ok());
        const Model& m = *lm.model;
        QVERIFY(!hasWorkInput(m));  // E − E₀ of a conservative run is its drift
        const std::vector<SimulationFrame> frames = run(lm, accurate(0.05, 2e-5));
        QVERIFY(frames.size() > 2000);
        const BodyIndex beam = *m.findBody("beam");
        const double mass = 7850.0 * 0.02 * 0.02 * 1.0;
        const double e0 = frames.front().energy.total();
        double worst = 0.0, largestGravityChange = 0.0, worstGravity = 0.0;
        const Vec3 c0 = flexibleCentreOfMass(m, lm.initial, beam);
        const double g0 = mechanicalEnergy(m, lm.initial).gravity;
        for (const SimulationFrame& f : frames) {
            QCOMPARE(appliedLoadPower(m, f.state), 0.0);
            QCOMPARE(f.work, 0.0);
            worst = std::max(worst, std::abs(f.energy.total() - e0 - f.work));
            const double change = mechanicalEnergy(m, f.state).gravity - g0;
            const double closedForm = -mass * m.gravity.dot(flexibleCentreOfMass(m, f.state, beam) - c0);
            largestGravityChange = std::max(largestGravityChange, std::abs(change));
            worstGravity = std::max(worstGravity, std::abs(change - closedForm));
        }
        qInfo("own weight over 0.05 s: largest |ΔE_gravity| %.6e J, largest |ΔE_gravity + m g·Δc| %.2e J, "
              "largest |E − E0 − W| %.2e J, W %.2e J",
              largestGravityChange, worstGravity, worst, frames.back().work);
        QVERIFY(largestGravityChange > 1e-4);
        QVERIFY2(worstGravity < 1e-9 * largestGravityChange, qPrintable(QString::number(worstGravity)));
        QVERIFY2(worst < 1e-6 * largestGravityChange, qPrintable(QString::number(worst)));
    }

    // The transmission angle along the crank-rocker's motion against the law of cosines
    // in triangle B C D with |BD| from the crank angle, lengths read from the file.
    void transmissionAngleMatchesLawOfCosines() {
        const LoadedModel lm = test::loadExample("crank-rocker-coupler-curve.json");
        QVERIFY(lm.ok());
        const test::CrankRocker cr = test::crankRockerFromFile(test::exampleDocument("crank-rocker-coupler-curve.json"));
        const std::vector<SimulationFrame> frames = run(lm, accurate(1.0, 0.02));
        double worst = 0.0, lo = M_PI, hi = 0.0;
        for (const SimulationFrame& f : frames) {
            double mu = 0.0;
            const Status st = transmissionAngle(*lm.model, f.state, &mu);
            QVERIFY2(st.ok, st.message.c_str());
            const double th = cr.crankAngle0 + 2 * M_PI * f.state.t;
            const Eigen::Vector2d B = cr.linkage.crankPivot + cr.linkage.crank * Eigen::Vector2d(std::cos(th), std::sin(th));
            const double bd2 = (cr.linkage.rockerPivot - B).squaredNorm();
            const double b = cr.linkage.coupler, c = cr.linkage.rocker;
            const double expected = std::acos((b * b + c * c - bd2) / (2 * b * c));
            worst = std::max(worst, std::abs(mu - expected));
            lo = std::min(lo, mu);
            hi = std::max(hi, mu);
        }
        qInfo("transmission angle %.2f°..%.2f°, largest error %.2e rad", lo * 180 / M_PI, hi * 180 / M_PI, worst);
        QVERIFY(worst < 1e-7);
        QVERIFY(hi - lo > 0.3);  // it does swing over the turn

        // A pendulum is no four-bar: the failure says so.
        const LoadedModel pendulum = test::loadExample("pendulum.json");
        double mu = 0.0;
        const Status st = transmissionAngle(*pendulum.model, pendulum.initial, &mu);
        QVERIFY(!st.ok);
        QVERIFY(st.message.find("four-bar") != std::string::npos);
    }

    // The command line reports the same figures: the motor's work equals the change of
    // energy, and the transmission angle's range is the closed form's over the turn.
    void commandLineReportsWorkAndTransmissionAngle() {
        const test::CliResult sim = test::runCli({"simulate", QString::fromStdString(test::examplePath("crank-rocker-coupler-curve.json")),
                                                  "--t-end", "0.75", "--output-step", "0.001", "--rtol", "1e-11", "--atol", "1e-13", "--json"});
        QVERIFY2(sim.finished && sim.exitCode == 0, sim.err.constData());
        const nlohmann::json j = nlohmann::json::parse(sim.out.toStdString());
        const double work = j["energy"]["work"].get<double>();
        const double change = j["energy"]["final"].get<double>() - j["energy"]["initial"].get<double>();
        qInfo("CLI: W = %.9f J, E − E0 = %.9f J, max |balance| %.2e J", work, change,
              j["energy"]["max_abs_balance"].get<double>());
        QVERIFY(std::abs(change) > 0.1);  // three quarters of a turn: the energy has changed
        QVERIFY(std::abs(work - change) < 1e-5);
        QVERIFY(j["energy"]["max_abs_balance"].get<double>() < 1e-5);
        // The crank starts upright; at 0.25 s and 0.75 s B lies on the line AD (|BD| = d ± a),
        // where the transmission angle takes the closed form's extremes.
        const test::CrankRocker cr = test::crankRockerFromFile(test::exampleDocument("crank-rocker-coupler-curve.json"));
        const double d = (cr.linkage.rockerPivot - cr.linkage.crankPivot).norm(), a = cr.linkage.crank;
        const double b = cr.linkage.coupler, c = cr.linkage.rocker;
        const double muMin = std::acos((b * b + c * c - (d - a) * (d - a)) / (2 * b * c));
        const double muMax = std::acos((b * b + c * c - (d + a) * (d + a)) / (2 * b * c));
        // The frames sample the turn every 0.36°: the extremes are met to within the
        // curvature of μ there (|dμ/dθ| = 0 at the extremes), well below 1e-4 rad.
        QVERIFY(std::abs(j["transmission_angle"]["min"].get<double>() - muMin) < 1e-4);
        QVERIFY(std::abs(j["transmission_angle"]["max"].get<double>() - muMax) < 1e-4);
        // A pendulum has no transmission angle.
        const test::CliResult p = test::runCli({"simulate", QString::fromStdString(test::examplePath("pendulum.json")),
                                                "--t-end", "0.1", "--json"});
        QVERIFY(p.finished && p.exitCode == 0);
        QVERIFY(!nlohmann::json::parse(p.out.toStdString()).contains("transmission_angle"));
    }

    // Bad requests fail with a reason instead of drawing garbage.
    void badPointsFail() {
        const LoadedModel lm = test::loadExample("pendulum.json");
        ArrowRequest request;
        request.set(ArrowKind::Velocity, true);
        request.points.push_back({"nothing", Vec3::Zero(), ""});
        std::vector<MotionArrow> arrows;
        const Status st = motionArrows(*lm.model, lm.initial, VecX(), {}, request, ArrowScale{}, &arrows);
        QVERIFY(!st.ok);
        QVERIFY(st.message.find("nothing") != std::string::npos);
        PointMotion pm;
        QVERIFY(!pointMotion(*lm.model, lm.initial, VecX::Zero(3), BodyIndex(1), Vec3::Zero(), &pm).ok);
    }
};

QTEST_APPLESS_MAIN(TestMotionQuantities)
#include "tst_motionquantities.moc"
