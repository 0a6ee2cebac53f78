// The embedded explicit Runge–Kutta pairs whose Butcher tables come from SUNDIALS ARKODE
// (EmbeddedRungeKutta.h: verner6, fehlberg8): the orders read from the tables, the order
// of convergence with fixed steps and the adaptive error on the Kepler problem against its
// exact solution, the order of the dense output, failures with a reason, and mechanisms
// against an independent reference (four-bar against dopri5 at rtol 1e-12; the double
// parallelogram through its flat postures against the exact motion).
#include "DoubleParallelogramExact.h"
#include "TestModels.h"

#include "looplab/integrate/EmbeddedRungeKutta.h"
#include "looplab/integrate/MethodRegistry.h"
#include "looplab/simulation/Simulation.h"

#include <cmath>
#include <memory>

using namespace looplab;

namespace {

std::unique_ptr<EmbeddedRungeKutta> makeSolver(const QString& name) {
    return std::make_unique<EmbeddedRungeKutta>(name == "verner6" ? EmbeddedPair::Verner65 : EmbeddedPair::Fehlberg78,
                                                name.toStdString());
}

// The Kepler problem q'' = −q/|q|³ (μ = 1, semi-major axis 1, period 2π) from the
// pericentre with eccentricity e; y = (q, q').
OdeSystem kepler() {
    OdeSystem sys;
    sys.size = 4;
    sys.rhs = [](double, const VecX& y, VecX& dy) {
        const double r = y.head<2>().norm();
        dy.resize(4);
        dy << y(2), y(3), -y.head<2>() / (r * r * r);
        return true;
    };
    return sys;
}

// Exact: the eccentric anomaly E from Kepler's equation E − e sin E = t (Newton).
VecX keplerExact(double e, double t) {
    double E = t;
    for (int it = 0; it < 50; ++it) {
        const double dE = (E - e * std::sin(E) - t) / (1.0 - e * std::cos(E));
        E -= dE;
        if (std::abs(dE) < 1e-16) break;
    }
    const double b = std::sqrt(1.0 - e * e), d = 1.0 - e * std::cos(E);
    VecX y(4);
    y << std::cos(E) - e, b * std::sin(E), -std::sin(E) / d, b * std::cos(E) / d;
    return y;
}

// The harmonic oscillator x'' = −x, y = (x, x'), from (1, 0).
OdeSystem oscillator() {
    OdeSystem sys;
    sys.size = 2;
    sys.rhs = [](double, const VecX& y, VecX& dy) {
        dy.resize(2);
        dy << y(1), -y(0);
        return true;
    };
    return sys;
}

VecX oscillatorExact(double t) {
    VecX y(2);
    y << std::cos(t), -std::sin(t);
    return y;
}

// Fixed steps of T/n: the step and the largest step both T/n, tolerances so loose that
// no step is ever rejected.
OdeSettings fixedSteps(double T, int n) {
    OdeSettings s;
    s.step = s.maxStep = T / n;
    s.rtol = s.atol = 1e30;
    return s;
}

struct FixedRun {
    double endError = 0.0;     // at T, max norm
    double outputError = 0.0;  // interpolated in the middle of the last step
    long steps = 0;
};

// One orbit of eccentricity e in n fixed steps.
FixedRun runFixed(const QString& name, double e, int n) {
    const double T = 2.0 * M_PI;
    auto solver = makeSolver(name);
    FixedRun r;
    if (!solver->initialize(kepler(), 0.0, keplerExact(e, 0.0), fixedSteps(T, n)).ok) return {-1.0, -1.0, 0};
    while (solver->time() < T)
        if (!solver->step(T).ok) return {-1.0, -1.0, 0};
    r.endError = (solver->state() - keplerExact(e, T)).cwiseAbs().maxCoeff();
    const double mid = T - 0.5 * solver->lastStepSize();
    VecX y;
    solver->interpolate(mid, y);
    r.outputError = (y - keplerExact(e, mid)).cwiseAbs().maxCoeff();
    r.steps = solver->statistics().steps;
    if (solver->outputSteps() != 0) return {-1.0, -1.0, 0};  // interpolated at these tolerances
    return r;
}

// Adaptive steps from 0 to T; the end state, or an empty vector with the failure shown.
VecX runAdaptive(EmbeddedRungeKutta& solver, const OdeSystem& sys, const VecX& y0, double T, double rtol) {
    OdeSettings s;
    s.step = 0.0;
    s.rtol = rtol;
    s.atol = rtol * 1e-2;
    Status st = solver.initialize(sys, 0.0, y0, s);
    while (st.ok && solver.time() < T) st = solver.step(T);
    if (!st.ok) qWarning("%s", st.message.c_str());
    return st.ok ? solver.state() : VecX();
}

SimulationSettings runSettings(const std::string& integrator, double tEnd, double rtol) {
    SimulationSettings st;
    st.method = "projection";
    st.integrator = integrator;
    st.tEnd = tEnd;
    st.outputStep = 0.01;
    st.ode.rtol = rtol;
    st.ode.atol = rtol * 1e-2;
    return st;
}

}  // namespace

class EmbeddedRungeKuttaTest : public QObject {
    Q_OBJECT
private slots:
    void tableAndRegistry_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<int>("order");
        QTest::addColumn<int>("embedded");
        QTest::addColumn<int>("stages");
        QTest::newRow("verner6") << "verner6" << 6 << 5 << 8;
        QTest::newRow("fehlberg8") << "fehlberg8" << 8 << 7 << 13;
    }

    // The orders and stages read from ARKODE's tables, and the registry's entry that the
    // CLI, the workbench and tst_conformance take them from.
    void tableAndRegistry() {
        QFETCH(QString, name);
        QFETCH(int, order);
        QFETCH(int, embedded);
        QFETCH(int, stages);
        const auto solver = makeSolver(name);
        QCOMPARE(solver->order(), order);
        QCOMPARE(solver->embeddedOrder(), embedded);
        QCOMPARE(solver->stages(), stages);
        QVERIFY(!solver->firstSameAsLast());
        QCOMPARE(std::string(solver->name()), name.toStdString());
        const IntegratorInfo* info = findIntegrator(name.toStdString());
        QVERIFY(info);
        QCOMPARE(info->order, order);
        QVERIFY(info->stepControl == StepControl::Adaptive && !info->implicit && info->odeSolver);
        QVERIFY(isSupportedPair("projection", name.toStdString()));
        QVERIFY(!isSupportedPair("tlismni", name.toStdString()));
    }

    // Fixed steps over one circular Kepler orbit: the end-point error falls by 2^q per
    // halving of the step (q = 6, 8 within ±0.3), and so does the error of the dense
    // output in the middle of the last step (there the step's own error dominates the
    // interpolant's, of higher order). verner6 with 50, 100, 200 steps; fehlberg8 with 40
    // and 80 only: at 160 its error (1e-14) is rounding. Measured 6.09, 6.03 and 8.16;
    // with fewer steps fehlberg8 is not yet asymptotic (8.35 from 20 to 40 steps), and on
    // the orbit of eccentricity 0.5 neither is yet below 100 steps.
    void orderOfConvergence_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<int>("order");
        QTest::addColumn<QVector<int>>("steps");
        QTest::newRow("verner6") << "verner6" << 6 << QVector<int>{50, 100, 200};
        QTest::newRow("fehlberg8") << "fehlberg8" << 8 << QVector<int>{40, 80};
    }

    void orderOfConvergence() {
        QFETCH(QString, name);
        QFETCH(int, order);
        QFETCH(QVector<int>, steps);
        std::vector<FixedRun> runs;
        for (int n : steps) {
            runs.push_back(runFixed(name, 0.0, n));
            QVERIFY(runs.back().endError > 0.0);
            QCOMPARE(runs.back().steps, long(n));
        }
        for (size_t i = 1; i < runs.size(); ++i) {
            const double p = std::log2(runs[i - 1].endError / runs[i].endError);
            const double d = std::log2(runs[i - 1].outputError / runs[i].outputError);
            qInfo("%s: %d -> %d steps: error %.3g -> %.3g, order %.2f; dense output %.3g -> %.3g, order %.2f",
                  qPrintable(name), steps[int(i) - 1], steps[int(i)], runs[i - 1].endError, runs[i].endError, p,
                  runs[i - 1].outputError, runs[i].outputError, d);
            QVERIFY2(std::abs(p - order) <= 0.3, qPrintable(QString::number(p)));
            QVERIFY2(std::abs(d - order) <= 0.3, qPrintable(QString::number(d)));
        }
    }

    // Adaptive steps against exact solutions, atol = rtol/100, rtol 1e-6 to 1e-10. Five
    // periods of the harmonic oscillator: the end error within 10 rtol (measured 0.5 rtol
    // for verner6, 3.8 for fehlberg8, 3.9 for dopri5). One Kepler orbit of eccentricity 0.5,
    // whose pericentre passage amplifies the local errors: the error falls with the
    // tolerance by at least 0.8 decades per decade over the four decades (measured 0.90 and
    // 0.90), and stays within 2000 rtol (measured 417 to 997 rtol for verner6, whose
    // estimate is the least cautious there, 35 to 88 for fehlberg8, 77 to 181 for dopri5).
    void adaptiveAccuracy_data() { tableAndRegistry_data(); }

    void adaptiveAccuracy() {
        QFETCH(QString, name);
        double keplerLoose = 0.0, keplerTight = 0.0;
        for (const double rtol : {1e-6, 1e-7, 1e-8, 1e-9, 1e-10}) {
            auto solver = makeSolver(name);
            const double T = 10.0 * M_PI;
            const VecX end = runAdaptive(*solver, oscillator(), oscillatorExact(0.0), T, rtol);
            QCOMPARE(end.size(), 2);
            QCOMPARE(solver->time(), T);
            const double error = (end - oscillatorExact(T)).cwiseAbs().maxCoeff();
            const StepStatistics& stats = solver->statistics();
            // One evaluation per stage for every tried step, the derivative at each
            // accepted end (the tables are not first-same-as-last), the start and the
            // starting-step heuristic's one.
            const long tried = stats.steps + stats.rejectedSteps;
            QCOMPARE(stats.rhsEvaluations, tried * (solver->stages() - 1) + stats.steps + 2);

            auto kepler5 = makeSolver(name);
            const VecX endK = runAdaptive(*kepler5, kepler(), keplerExact(0.5, 0.0), 2.0 * M_PI, rtol);
            QCOMPARE(endK.size(), 4);
            const double errorK = (endK - keplerExact(0.5, 2.0 * M_PI)).cwiseAbs().maxCoeff();
            qInfo("%s rtol %.0e: oscillator error %.3g (%.2f rtol, %ld steps, %ld rejected, %ld evaluations); Kepler "
                  "error %.3g (%.0f rtol, %ld steps, %ld rejected)",
                  qPrintable(name), rtol, error, error / rtol, stats.steps, stats.rejectedSteps, stats.rhsEvaluations,
                  errorK, errorK / rtol, kepler5->statistics().steps, kepler5->statistics().rejectedSteps);
            QVERIFY2(error <= 10.0 * rtol, qPrintable(QString::number(error / rtol)));
            QVERIFY2(errorK <= 2000.0 * rtol, qPrintable(QString::number(errorK / rtol)));
            if (rtol == 1e-6) keplerLoose = errorK;
            keplerTight = errorK;
        }
        const double slope = std::log10(keplerLoose / keplerTight) / 4.0;
        qInfo("%s: Kepler error falls %.2f decades per decade of rtol", qPrintable(name), slope);
        QVERIFY2(slope >= 0.8, qPrintable(QString::number(slope)));
    }

    // The dense output in an adaptive run is as accurate as the steps: over one Kepler
    // orbit of eccentricity 0.5 at rtol 1e-10, the worst error in the middle of the steps
    // within twice the worst at their ends (measured 1.00 and 0.99 times). The
    // interpolants of two degrees disagree there by more than the tolerance, so nearly
    // every output is a step of the method (114 of 115 and 41 of 41); with fixed steps
    // and loose tolerances they agree and none is (orderOfConvergence).
    void denseOutput_data() { tableAndRegistry_data(); }

    void denseOutput() {
        QFETCH(QString, name);
        auto solver = makeSolver(name);
        OdeSettings s;
        s.rtol = 1e-10;
        s.atol = 1e-12;
        QVERIFY(solver->initialize(kepler(), 0.0, keplerExact(0.5, 0.0), s).ok);
        const double T = 2.0 * M_PI;
        double atEnds = 0.0, between = 0.0;
        long outputs = 0;
        while (solver->time() < T) {
            QVERIFY(solver->step(T).ok);
            atEnds = std::max(atEnds, (solver->state() - keplerExact(0.5, solver->time())).cwiseAbs().maxCoeff());
            const double mid = solver->time() - 0.5 * solver->lastStepSize();
            VecX y;
            solver->interpolate(mid, y);
            ++outputs;
            between = std::max(between, (y - keplerExact(0.5, mid)).cwiseAbs().maxCoeff());
        }
        qInfo("%s: worst error %.3g at the step ends, %.3g in their middles; %ld of %ld outputs stepped to",
              qPrintable(name), atEnds, between, solver->outputSteps(), outputs);
        QVERIFY2(between <= 2.0 * atEnds, qPrintable(QString::number(between / atEnds)));
        QVERIFY(solver->outputSteps() > 0 && solver->outputSteps() <= outputs);
    }

    // Every failure says why: tolerances that are not positive, a right-hand side that
    // cannot be evaluated past some time.
    void failuresHaveAReason_data() { tableAndRegistry_data(); }

    void failuresHaveAReason() {
        QFETCH(QString, name);
        auto solver = makeSolver(name);
        OdeSettings bad;
        bad.rtol = 0.0;
        Status st = solver->initialize(kepler(), 0.0, keplerExact(0.5, 0.0), bad);
        QVERIFY(!st.ok);
        QVERIFY2(st.message.find(name.toStdString()) != std::string::npos &&
                     st.message.find("rtol") != std::string::npos,
                 st.message.c_str());

        OdeSystem broken = kepler();
        broken.rhs = [inner = kepler().rhs](double t, const VecX& y, VecX& dy) { return t < 0.5 && inner(t, y, dy); };
        QVERIFY(solver->initialize(broken, 0.0, keplerExact(0.5, 0.0), OdeSettings{}).ok);
        do {
            st = solver->step(1.0);
        } while (st.ok && solver->time() < 1.0);
        QVERIFY(!st.ok);
        // The steps shrink towards t = 0.5 until they fall below the smallest step.
        QVERIFY2(st.message.find(name.toStdString() + ": step size") != std::string::npos &&
                     st.message.find("t = 0.5") != std::string::npos,
                 st.message.c_str());
        QVERIFY(solver->time() < 0.5 && solver->state().allFinite());
    }

    // The four-bar, 2 s at rtol 1e-10 with the projection method, against dopri5 at rtol
    // 1e-12: the end pose within 1e-7 of the length scale (the bound tst_conformance sets
    // bdf against dopri5 at rtol 1e-11; measured 3.5e-9 m for verner6, 7.8e-9 m for
    // fehlberg8), constraints held, and the energy of this conservative model kept to 1e-8
    // of its kinetic scale at the end of the run, a step end (measured 5e-10, 1.0e-9), and to
    // 1e-8 over the frames every 10 ms too, which the dense output gives (measured 7.7e-10
    // and 1.0e-9; the interpolant alone gave 4e-9 and 1.6e-6, fehlberg8's 14 ms steps
    // being too long for it at this motion's toggle passages).
    void fourBarAgainstDopri5_data() { tableAndRegistry_data(); }

    void fourBarAgainstDopri5() {
        QFETCH(QString, name);
        const LoadedModel lm = test::loadExample("four-bar.json");
        QVERIFY(lm.ok());
        const Model& m = *lm.model;
        const double tEnd = lm.initial.t + 2.0;
        struct Run {
            SimulationResult result;
            State last;
            double energyAtEnd = 0.0, energyOverFrames = 0.0;  // relative to the largest kinetic energy
        };
        auto run = [&](const std::string& integrator, double rtol) {
            Simulator sim(lm.model, runSettings(integrator, tEnd, rtol));
            Run r;
            double e0 = NAN, scale = 0.0, last = 0.0;
            r.result = sim.run(lm.initial, [&](const SimulationFrame& f) {
                if (std::isnan(e0)) e0 = f.energy.total();
                scale = std::max(scale, f.energy.kinetic);
                last = std::abs(f.energy.total() - e0);
                r.energyOverFrames = std::max(r.energyOverFrames, last);
                r.last = f.state;
            });
            r.energyAtEnd = last / scale;
            r.energyOverFrames /= scale;
            return r;
        };
        const Run ref = run("dopri5", 1e-12);
        const Run r = run(name.toStdString(), 1e-10);
        QVERIFY2(ref.result.ok && r.result.ok, r.result.message.c_str());
        QCOMPARE(r.last.t, tEnd);
        const double d = test::poseDistance(m, r.last, ref.last);
        qInfo("%s: end pose %.3g m from dopri5 at rtol 1e-12 (length scale %.3g m); energy change %.3g at the end, "
              "%.3g over the frames, of the kinetic scale (dopri5 at 1e-12: %.3g, %.3g); %ld steps, %ld evaluations "
              "(dopri5 at 1e-12: %ld steps)",
              qPrintable(name), d, m.lengthScale, r.energyAtEnd, r.energyOverFrames, ref.energyAtEnd,
              ref.energyOverFrames, r.result.statistics.steps, r.result.statistics.rhsEvaluations,
              ref.result.statistics.steps);
        QVERIFY2(d <= 1e-7 * m.lengthScale, qPrintable(QString::number(d)));
        QVERIFY2(r.energyAtEnd <= 1e-8, qPrintable(QString::number(r.energyAtEnd)));
        QVERIFY2(r.energyOverFrames <= 1e-8, qPrintable(QString::number(r.energyOverFrames)));
        QVERIFY(r.result.maxViolation.position <= 1e-12 * m.lengthScale);
    }

    // Through singular configurations: the double parallelogram over ten flat postures in
    // 2 s, against its exact motion (the energy quadrature of tst_branches'
    // projectionConvergesThroughFlatPostures, where the exact solution is derived). The
    // steps over each forecast crossing follow dopri5's rule with this table's abscissae:
    // no rank change (no stage in a rank window), no branch change, and the coupler within
    // 10 rtol L at rtol 1e-8 and within dopri5's 1.5e-9 m at rtol 1e-10.
    void throughFlatPostures_data() { tableAndRegistry_data(); }

    void throughFlatPostures() {
        if (test::kUnderSanitizers) QSKIP("runs of 2 s at tight tolerances: release build only");
        QFETCH(QString, name);
        const LoadedModel lm = test::loadExample("double-parallelogram.json");
        QVERIFY(lm.ok());
        const Model& m = *lm.model;
        const double tEnd = 2.0;
        const test::DoubleParallelogramExact reference = test::doubleParallelogramAt(tEnd);
        QVERIFY(reference.residual < 1e-13);
        QCOMPARE(static_cast<int>(std::floor(reference.theta / M_PI)), 10);
        const Vec3 exact = reference.coupler;
        const BodyIndex coupler = *m.findBody("coupler1");
        for (const double rtol : {1e-8, 1e-10}) {
            SimulationSettings st = runSettings(name.toStdString(), lm.initial.t + tEnd, rtol);
            st.outputStep = 0.1;
            Simulator sim(lm.model, st);
            State last;
            const SimulationResult r = sim.run(lm.initial, [&](const SimulationFrame& f) { last = f.state; });
            QVERIFY2(r.ok, r.message.c_str());
            int rankChanges = 0;
            for (const SimulationEvent& e : r.events) {
                rankChanges += e.kind == RunEventKind::RankChange;
                QVERIFY2(e.kind != RunEventKind::EnergyDrift && e.kind != RunEventKind::BranchChange, e.detail.c_str());
            }
            const double error = (bodyPosition(m, last, coupler) - exact).norm();
            qInfo("%s rtol %.0e: coupler error %.3g m (%.3g rtol), %ld steps, %ld rejected, %ld kept over their "
                  "estimate (up to %.3g)",
                  qPrintable(name), rtol, error, error / rtol, r.statistics.steps, r.statistics.rejectedSteps,
                  r.statistics.roundingBoundSteps, r.statistics.largestRoundingBoundEstimate);
            QCOMPARE(rankChanges, 0);
            const double bound = rtol >= 1e-9 ? 10.0 * rtol * m.lengthScale : 1.5e-9;
            QVERIFY2(error <= bound, qPrintable(QString("%1 > %2").arg(error).arg(bound)));
        }
    }
};

QTEST_APPLESS_MAIN(EmbeddedRungeKuttaTest)
#include "tst_embeddedrungekutta.moc"
