// Static equilibrium (Statics.h):
//  - a compound pendulum started 0.8 rad off hanging: Newton and dynamic relaxation both
//    bring it to hanging straight down, with the net force at the tolerance;
//  - the same pendulum upright is an equilibrium, reported unstable; the four-bar without
//    loads is reported as a mechanism with no stiffness; a Newton budget too small is
//    reported as no convergence with its residual, the last state kept and assembled;
//  - the example four-bar (3 redundant equations) with a rotational spring at its crank
//    under gravity: Newton and relaxation agree on the equilibrium, and the energy is
//    stationary there along the mechanism's path (computed from energies alone);
//  - the tensioned cantilever example: tip deflections against the closed forms of a
//    cantilever under axial tension, and without the tension against PL³/3EI;
//  - the cantilever example made ever stiffer (E up to 1e300): its clamp carries the whole
//    load, 40.8 N, or statics fails naming the residual; never "ok" with part of the load.
#include "ModesTestModels.h"

#include "looplab/kinematics/Constraints.h"
#include "looplab/analysis/Statics.h"
#include "looplab/dynamics/Reactions.h"
#include "looplab/kinematics/Mobility.h"

#include <QtTest>

#include <cmath>

using namespace looplab;

namespace {

double phiNorm(const Model& model, const State& s) {
    ConstraintValues cv;
    evaluateConstraints(model, s, cv, kPhi);
    return cv.phi.cwiseAbs().maxCoeff();
}

}  // namespace

class StaticsTest : public QObject {
    Q_OBJECT
private slots:
    void pendulumHangsDown_data() {
        QTest::addColumn<int>("method");
        QTest::newRow("newton") << int(StaticsMethod::Newton);
        QTest::newRow("relaxation") << int(StaticsMethod::Relaxation);
        QTest::newRow("automatic") << int(StaticsMethod::Automatic);
    }
    void pendulumHangsDown() {
        QFETCH(int, method);
        const test::CompoundPendulum p;
        const Model model = test::buildOrStop(p.document(0.8));
        State s = initialState(model);
        StaticsOptions o;
        o.method = StaticsMethod(method);
        const StaticsResult r = findEquilibrium(model, s, o);
        qInfo("%s: %d Newton iterations, %d relaxation steps, force residual %.3g N of %.3g N", r.method.c_str(),
              r.newtonIterations, r.relaxationSteps, r.forceResidual, r.forceScale);
        QVERIFY2(r.ok, r.message.c_str());
        QCOMPARE(int(r.outcome), int(StaticsOutcome::Converged));
        // The tolerance asked for: 1e-10 of the applied force m g.
        QVERIFY(r.forceResidual <= 1e-10 * r.forceScale);
        // Hanging: the centre of mass straight below the pivot. A force residual ε m g is a
        // moment ε m g l about the pivot, an angle ε m g l / (m g l) = ε: the position is
        // off by at most ε l (here 1e-10 × 0.7 m), with a margin of 10 for rounding.
        const Vec3 c = bodyPosition(model, s, BodyIndex(1));
        QVERIFY2((c - Vec3(0.0, -p.l, 0.0)).norm() < 1e-9 * p.l,
                 qPrintable(QString("centre of mass at %1 %2").arg(c.x()).arg(c.y())));
        QVERIFY(phiNorm(model, s) < 1e-12);
        QVERIFY(r.squaredFrequencies.size() == 1);
        // The stability check's ω² is the closed form (an independent computation: a
        // dense eigenproblem of the projected K and M); 1e-9 covers the residual angle.
        QVERIFY(std::abs(r.squaredFrequencies[0] - p.omega2()) < 1e-9 * p.omega2());
    }

    void uprightPendulumIsUnstable() {
        const test::CompoundPendulum p;
        const Model model = test::buildOrStop(p.document(M_PI));
        State s = initialState(model);
        const StaticsResult r = findEquilibrium(model, s);
        QVERIFY(!r.ok);
        QCOMPARE(int(r.outcome), int(StaticsOutcome::Unstable));
        QVERIFY2(QString::fromStdString(r.message).contains("unstable"), r.message.c_str());
        // It stays where it was: upright is an equilibrium.
        QVERIFY((bodyPosition(model, s, BodyIndex(1)) - Vec3(0.0, p.l, 0.0)).norm() < 1e-12);
        QVERIFY(std::abs(r.squaredFrequencies[0] + p.omega2()) < 1e-9 * p.omega2());
    }

    void unloadedFourBarIsAMechanism() {
        ModelDocument doc = test::exampleDocument("four-bar.json");
        doc.gravity = Vec3::Zero();
        const Model model = test::buildOrStop(doc);
        State s = initialState(model);
        const StaticsResult r = findEquilibrium(model, s);
        QCOMPARE(int(r.outcome), int(StaticsOutcome::Mechanism));
        QVERIFY2(QString::fromStdString(r.message).contains("no stiffness"), r.message.c_str());
        QCOMPARE(r.degreesOfFreedom, 1);
        QCOMPARE(r.rank, 17);  // 20 equations, 3 redundant
    }

    // A straight steel cantilever without gravity or load: its nodes (multiples of 1/8 m)
    // give the elastic forces 1e-8 N of rounding, which is no load; the start is the
    // equilibrium, found at once, stable, with the nodes where they were.
    void unloadedBeamIsAtEquilibrium() {
        ModelDocument doc = test::exampleDocument("cantilever-beam.json");
        doc.gravity = Vec3::Zero();
        doc.forces.clear();
        const Model model = test::buildOrStop(doc);
        State s = initialState(model);
        const State start = s;
        const StaticsResult r = findEquilibrium(model, s);
        QVERIFY2(r.ok, r.message.c_str());
        QCOMPARE(int(r.outcome), int(StaticsOutcome::Converged));
        QCOMPARE(r.method, std::string("none (no load)"));
        QVERIFY(r.forceScale > 0.0 && r.forceScale < 1e-6);
        QVERIFY((s.q - start.q).cwiseAbs().maxCoeff() < 1e-15);
        QVERIFY(r.forceResidual < 1e-6);
        // A real load, if small, is not rounding: 1 mN at the tip bends the beam by
        // PL³/3EI = 1.19e-7 m.
        ModelDocument loaded = doc;
        ForceDoc tip;
        tip.name = "tip";
        tip.type = ForceType::BodyForce;
        tip.body = "beam.tip";
        tip.vector = Vec3(0, -1e-3, 0);
        loaded.forces.push_back(tip);
        const Model lm = test::buildOrStop(loaded);
        State t = initialState(lm);
        const StaticsResult rl = findEquilibrium(lm, t);
        QVERIFY2(rl.ok, rl.message.c_str());
        QVERIFY(rl.method != "none (no load)");
        // The tip node's y (8 elements of 6 nodal coordinates) against PL³/3EI, EI = E a⁴/12;
        // a residual at the rounding bound, 10 ε L max|K_ij| = 5e-6 N (max|K_ij| = 2.3e9 N/m),
        // would move it by 5e-6 N / (3EI/L³) = 6e-10 m, 5e-3 of the deflection.
        const auto beam = lm.findBody("beam");
        QVERIFY(beam.has_value());
        const double tipY = t.q[lm.positionOffset(*beam) + 6 * 8 + 1];
        const double expected = -1e-3 / (3.0 * 210e9 * std::pow(0.02, 4) / 12.0);
        qInfo("1 mN at the tip: %.6e m, PL^3/3EI %.6e m, force residual %.2e N, method %s", tipY, expected,
              rl.forceResidual, rl.method.c_str());
        QVERIFY(std::abs(tipY - expected) < 6e-3 * std::abs(expected));
    }

    // cantilever-beam.json with Young's modulus E: whatever E, the clamp carries the weight
    // ρ a² L g = 7850 · 0.02² · 1 · 9.81 = 30.8034 N and the 10 N tip load, 40.8034 N up.
    // Where double precision cannot resolve the elastic forces that balance the loads (the
    // rounding of the positions, ε L, times the stiffness: 17 N at E = 1e18, measured
    // residual 0.33 N), statics must fail and say so, not report the start as an
    // equilibrium whose clamp holds only its own node's share (1.93 N).
    void stiffCantileverCarriesItsLoadOrFails_data() {
        QTest::addColumn<double>("youngModulus");
        QTest::addColumn<bool>("mustSucceed");
        QTest::addColumn<bool>("mustFail");
        QTest::newRow("steel") << 210e9 << true << false;
        QTest::newRow("1e14") << 1e14 << false << false;
        QTest::newRow("1e16") << 1e16 << false << false;
        QTest::newRow("1e18") << 1e18 << false << false;
        QTest::newRow("1e20") << 1e20 << false << false;
        // 40 N on a floor of 1.7e13 N and 1.7e283 N: nothing right can come out.
        QTest::newRow("1e30") << 1e30 << false << true;
        QTest::newRow("1e300") << 1e300 << false << true;
    }
    void stiffCantileverCarriesItsLoadOrFails() {
        QFETCH(double, youngModulus);
        QFETCH(bool, mustSucceed);
        QFETCH(bool, mustFail);
        ModelDocument doc = test::exampleDocument("cantilever-beam.json");
        doc.beams.at(0).material.youngModulus = youngModulus;
        const Model model = test::buildOrStop(doc);
        State s = initialState(model);
        const StaticsResult r = findEquilibrium(model, s);
        const double load = 7850.0 * 0.02 * 0.02 * 1.0 * 9.81 + 10.0;
        qInfo("E = %g: %s, %s, force residual %.3g N of loads %.4g N; %s", youngModulus,
              staticsOutcomeName(r.outcome), r.method.c_str(), r.forceResidual, r.loadScale, r.message.c_str());
        // The largest applied nodal force: the tip's 10 N and its share of the weight, 1/16.
        QVERIFY(std::abs(r.loadScale - (10.0 + 30.8034 / 16.0)) < 1e-3);
        if (mustSucceed) QVERIFY2(r.ok, r.message.c_str());
        if (mustFail) QVERIFY(!r.ok);
        if (!r.ok) {
            QCOMPARE(int(r.outcome), int(StaticsOutcome::NoConvergence));
            QVERIFY2(QString::fromStdString(r.message).contains("force residual"), r.message.c_str());
            QVERIFY(!(r.forceResidual <= 1e-3 * r.loadScale));
            return;
        }
        QVERIFY(r.forceResidual <= 1e-3 * r.loadScale);
        ConstraintValues cv;
        evaluateConstraints(model, s, cv, kJacobian);
        ConstraintSpaces spaces;
        factorizeConstraints(model, s, spaces);
        std::vector<JointReaction> reactions;
        std::vector<DriverEffort> drivers;
        computeReactions(model, s, cv.jacobian, r.lambda, spaces.indeterminateEquations(), reactions, drivers);
        QCOMPARE(int(reactions.size()), 1);
        // What the clamp may miss of the load is the sum of the residuals of the 9 nodes.
        QVERIFY2(std::abs(reactions[0].forceGlobal.y() - load) <= 1e-9 * load + 9.0 * r.forceResidual,
                 qPrintable(QString::number(reactions[0].forceGlobal.y(), 'g', 12)));
        QVERIFY(std::abs(reactions[0].forceGlobal.x()) <= 1e-9 * load + 9.0 * r.forceResidual);
    }

    // cantilever-beam-tension.json: 1 m, EI = 2 800 N m², 8 cubic elements, clamped at the
    // root, an axial force N = 10 kN held by its preload and the tip force that keeps it
    // (so the straight beam keeps its length), a tip load P = 10 N and its own weight
    // q = ρAg = 30.8 N/m. Linear theory of a tensioned cantilever, k = √(N/EI):
    //   tip load:      w_P = P/N (L − tanh(kL)/k)                                = 0.4944723 mm
    //   uniform load:  w_q = qL²/2N − (qL/N) sinh(kL)/k + B (cosh(kL) − 1)/k,
    //                  B = q (1 + kL sinh(kL)) / (N k cosh(kL))                  = 0.5906421 mm
    // (w_q integrates the slope θ = w', θ'' − k²θ = −q(L − x)/EI, θ(0) = 0, θ'(L) = 0).
    // The error is the mesh's: cubic Hermite elements hold the untensioned deflection lines
    // (cubics and quartics, exact at the nodes) but not the sinh and cosh of the tensioned
    // ones, whose first term beyond the cubic over an element of length h is (kh)⁴/4! of
    // the deflection: 1.3e-4 at kh = 0.236. The geometric non-linearity, (w/L)² ≈ 1e-6, and
    // the force residual (1e-10 of the load) are far below. Without the axial force (no
    // preload, no tip force) the same statics gives PL³/3EI + qL⁴/8EI, where the elements
    // are exact and the bound is the non-linearity alone: the preload is what changes the
    // answer, by a factor 0.42.
    void tensionedCantileverTipDeflection() {
        const double L = 1.0, EI = 210e9 * std::pow(0.02, 4) / 12.0, N = 1e4, P = 10.0;
        const double q = 7850.0 * 0.02 * 0.02 * 9.81;
        const double k = std::sqrt(N / EI), kL = k * L;
        const double wP = P / N * (L - std::tanh(kL) / k);
        const double B = q * (1.0 + kL * std::sinh(kL)) / (N * k * std::cosh(kL));
        const double wq = q * L * L / (2.0 * N) - q * L / N * std::sinh(kL) / k + B * (std::cosh(kL) - 1.0) / k;
        const double h = L / 8.0, meshBound = std::pow(k * h, 4) / 24.0;
        // Tip deflection (downward) at the equilibrium of a variant of the example.
        auto tipDeflection = [&](bool weight, bool tension) {
            ModelDocument doc = test::exampleDocument("cantilever-beam-tension.json");
            if (!weight) doc.gravity.setZero();
            if (!tension) {
                doc.beams.at(0).preload = 0.0;
                doc.forces.erase(doc.forces.begin());  // "tension", the tip force that keeps it
            }
            const Model model = test::buildOrStop(doc);
            State s = initialState(model);
            const StaticsResult r = findEquilibrium(model, s);
            if (!r.ok) qWarning("%s", r.message.c_str());
            return r.ok ? -s.q[model.positionOffset(*model.findBody("beam")) + 6 * 8 + 1] : NAN;
        };
        const double tensioned = tipDeflection(false, true), shipped = tipDeflection(true, true);
        const double slack = tipDeflection(false, false), slackShipped = tipDeflection(true, false);
        const double bending = P * L * L * L / (3.0 * EI), sag = q * std::pow(L, 4) / (8.0 * EI);
        qInfo("tip load, N = 10 kN:   %.7f mm, analytic %.7f mm, relative error %.2e (mesh bound %.2e)", 1e3 * tensioned,
              1e3 * wP, tensioned / wP - 1.0, meshBound);
        qInfo("with its own weight:   %.7f mm, analytic %.7f mm, relative error %.2e", 1e3 * shipped, 1e3 * (wP + wq),
              shipped / (wP + wq) - 1.0);
        qInfo("no axial force:        %.7f mm, PL^3/3EI %.7f mm, relative error %.2e", 1e3 * slack, 1e3 * bending,
              slack / bending - 1.0);
        qInfo("no axial force, weight %.7f mm, PL^3/3EI + qL^4/8EI %.7f mm, relative error %.2e", 1e3 * slackShipped,
              1e3 * (bending + sag), slackShipped / (bending + sag) - 1.0);
        QVERIFY(std::abs(tensioned / wP - 1.0) < meshBound);
        QVERIFY(std::abs(shipped / (wP + wq) - 1.0) < meshBound);
        // The non-linearity is of order (w/L)², 6.6e-6 for the weighted beam (measured
        // 0.9 of it); five times that, 3.3e-5, still catches a missing or wrong load term.
        const double nonlinearBound = std::pow((bending + sag) / L, 2) * 5.0;
        QVERIFY(std::abs(slack / bending - 1.0) < nonlinearBound);
        QVERIFY(std::abs(slackShipped / (bending + sag) - 1.0) < nonlinearBound);
        QVERIFY(std::abs(tensioned / slack - wP / bending) < meshBound);
    }

    void tooFewIterationsIsReported() {
        const test::CompoundPendulum p;
        const Model model = test::buildOrStop(p.document(1.2));
        State s = initialState(model);
        StaticsOptions o;
        o.method = StaticsMethod::Newton;
        o.maxNewtonIterations = 1;
        const StaticsResult r = findEquilibrium(model, s, o);
        QVERIFY(!r.ok);
        QCOMPARE(int(r.outcome), int(StaticsOutcome::NoConvergence));
        QVERIFY2(QString::fromStdString(r.message).contains("did not converge"), r.message.c_str());
        QVERIFY2(QString::fromStdString(r.message).contains("force residual"), r.message.c_str());
        QVERIFY(r.forceResidual > 1e-10 * r.forceScale);
        // The last state is kept, assembled, and it moved towards hanging (one step).
        QVERIFY(phiNorm(model, s) < 1e-12);
        QVERIFY(std::abs(bodyPosition(model, s, BodyIndex(1)).x()) < p.l * std::sin(1.2));
    }

    // A wall-clock limit ends the search between iterations, says so, and is not followed
    // by the relaxation fallback (a solid of 200 000 elements ran on past any limit given).
    // The limit, a nanosecond, has passed at the first check of any search.
    void wallTimeLimitEndsTheSearch() {
        const test::CompoundPendulum p;
        const Model model = test::buildOrStop(p.document(1.2));
        for (StaticsMethod method : {StaticsMethod::Automatic, StaticsMethod::Relaxation}) {
            State s = initialState(model);
            StaticsOptions o;
            o.method = method;
            o.maxWallTime = 1e-9;
            const StaticsResult r = findEquilibrium(model, s, o);
            QVERIFY(!r.ok);
            QCOMPARE(int(r.outcome), int(StaticsOutcome::NoConvergence));
            QVERIFY2(QString::fromStdString(r.message).startsWith("wall-time limit reached"), r.message.c_str());
            QVERIFY2(QString::fromStdString(r.message).contains("(limit 1e-09 s) after 0 Newton iterations and 0 relaxation steps"),
                     r.message.c_str());
            QCOMPARE(r.relaxationSteps, 0);
            QVERIFY(phiNorm(model, s) < 1e-12);
        }
        // Without a limit the same search converges.
        State s = initialState(model);
        QVERIFY(findEquilibrium(model, s).ok);
    }

    void fourBarWithSpring() {
        // Free angle 0.5 rad past the crank's pose: the spring lifts the linkage against
        // gravity to a stable equilibrium.
        const ModelDocument doc = test::fourBarWithPivotSpring(2.0, 0.0, 0.5);
        const Model model = test::buildOrStop(doc);
        State newton = initialState(model), relaxed = initialState(model);
        StaticsOptions o;
        o.method = StaticsMethod::Newton;
        const StaticsResult rn = findEquilibrium(model, newton, o);
        QVERIFY2(rn.ok, rn.message.c_str());
        o.method = StaticsMethod::Relaxation;
        const StaticsResult rr = findEquilibrium(model, relaxed, o);
        QVERIFY2(rr.ok, rr.message.c_str());
        qInfo("Newton: %d iterations; relaxation: %d steps", rn.newtonIterations, rr.relaxationSteps);
        QString history;
        for (double h : rn.history) history += QString::number(h, 'g', 3) + " ";
        qInfo("Newton residual history: %s", qPrintable(history));
        QVERIFY2(rn.newtonIterations <= 10, qPrintable(history));
        const double crankN = jointAngle(model, newton, JointIndex(0));
        const double crankR = jointAngle(model, relaxed, JointIndex(0));
        qInfo("crank angle: Newton %.12f, relaxation %.12f rad", crankN, crankR);
        // Both meet the force tolerance 1e-10 f0; with the stiffness of the path that is an
        // angle of order 1e-10 f0 L / k_red, well below 1e-8 rad.
        QVERIFY(std::abs(crankN - crankR) < 1e-8);
        QVERIFY(std::abs(crankN - jointAngle(model, initialState(model), JointIndex(0))) > 0.05);
        // The energy is stationary along the path there: dV/dθ ≈ 0 relative to the spring's
        // torque scale k·0.5 rad (central differences, truncation h² V''' ~ 1e-6 relative).
        const test::SingleDofReduction red = test::reduceAlongJoint(doc, "A", crankN, newton);
        QVERIFY(red.ok);
        qInfo("dV/dtheta at the equilibrium %.3g N m, k_red %.6g N m/rad", red.slope, red.stiffness);
        QVERIFY(std::abs(red.slope) < 1e-6 * 2.0 * 0.5);
        QVERIFY(red.stiffness > 0.0);
    }
};

QTEST_APPLESS_MAIN(StaticsTest)
#include "tst_statics.moc"
