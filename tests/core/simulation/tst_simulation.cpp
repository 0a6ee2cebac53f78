// The simulator's own promises (core/src/simulation/Simulation.cpp): a run that says ok reached its
// end time and reported a frame there; limits on frames, steps and wall time end a run as
// a failure with a "failure" event.
#include "TestModels.h"

#include "looplab/simulation/Simulation.h"
#include "looplab/simulation/StepPace.h"

#include <cmath>
#include <limits>

using namespace looplab;

namespace {

struct Run {
    SimulationResult result;
    int frames = 0;
    double lastT = -1.0;
};

Run simulate(const LoadedModel& lm, const SimulationSettings& st) {
    Run out;
    Simulator sim(lm.model, st);
    out.result = sim.run(lm.initial, [&](const SimulationFrame& f) {
        ++out.frames;
        out.lastT = f.state.t;
    });
    return out;
}

}  // namespace

class SimulationTest : public QObject {
    Q_OBJECT
private slots:
    // An output step so small that the number of output times does not fit an integer
    // used to stop the output after the first frame and still report ok.
    void tinyOutputStepIsNotOk() {
        const LoadedModel lm = test::loadExample("four-bar.json");
        QVERIFY(lm.ok());
        SimulationSettings st;
        st.tEnd = lm.initial.t + 0.05;
        st.outputStep = 1e-300;
        const Run r = simulate(lm, st);
        QCOMPARE(r.result.ok, false);
        QVERIFY2(QString::fromStdString(r.result.message).contains("frames"), r.result.message.c_str());
        QVERIFY(!r.result.events.empty());
        QCOMPARE(QString(runEventKindName(r.result.events.back().kind)), QString("failure"));
    }

    // The frame limit counts exactly: the first frame, one per output step and the end.
    void frameLimitIsExact() {
        const LoadedModel lm = test::loadExample("four-bar.json");
        SimulationSettings st;
        st.tEnd = lm.initial.t + 0.105;
        st.outputStep = 0.01;
        st.maxFrames = 12;  // t = 0, 0.01, …, 0.1, 0.105
        Run r = simulate(lm, st);
        QVERIFY2(r.result.ok, r.result.message.c_str());
        QCOMPARE(r.frames, 12);
        QCOMPARE(r.lastT, st.tEnd);
        st.maxFrames = 11;
        r = simulate(lm, st);
        QCOMPARE(r.result.ok, false);
        QCOMPARE(r.frames, 0);
    }

    // The step limit ends the run after exactly that many steps, as a failure.
    void stepLimit() {
        const LoadedModel lm = test::loadExample("four-bar.json");
        SimulationSettings st;
        st.tEnd = lm.initial.t + 1.0;
        st.maxSteps = 7;
        const Run r = simulate(lm, st);
        QCOMPARE(r.result.ok, false);
        QCOMPARE(r.result.statistics.steps, 7L);
        QVERIFY(r.result.tFinal < st.tEnd);
        QVERIFY2(QString::fromStdString(r.result.message).contains("step limit"), r.result.message.c_str());
        QCOMPARE(QString(runEventKindName(r.result.events.back().kind)), QString("failure"));
    }

    // The pace of the steps so far forecasts the whole span's: once known (1 000 steps, or
    // a hundredth of the limit), a run that needs more than twice the limit stops there.
    void stepPaceForecast() {
        QCOMPARE(stepsNeededBeyondLimit(999, 1.0, 100.0, 40'000), 0.0);           // pace not known yet
        QCOMPARE(stepsNeededBeyondLimit(1'000, 1.0, 100.0, 40'000), 100'000.0);   // 1e5 > 2 × 4e4
        QCOMPARE(stepsNeededBeyondLimit(1'000, 1.0, 100.0, 60'000), 0.0);         // 1e5 < 2 × 6e4
        QCOMPARE(stepsNeededBeyondLimit(1'000, 1.0, 1e6, 10'000'000), 0.0);       // 1e5 steps first
        QCOMPARE(stepsNeededBeyondLimit(100'000, 1.0, 1e3, 10'000'000), 1e8);
        QCOMPARE(stepsNeededBeyondLimit(5'000, 1.0, 100.0, 0), 0.0);              // no limit

        // The four-bar over 1 000 s at rtol 1e-10 needs far more than 2 × 3 000 steps: it
        // stops at its 1 000th step, where 10 s of it would have taken ten times longer.
        const LoadedModel lm = test::loadExample("four-bar.json");
        SimulationSettings st;
        st.tEnd = lm.initial.t + 1000.0;
        st.ode.rtol = 1e-10;
        st.maxSteps = 3'000;
        const Run r = simulate(lm, st);
        QCOMPARE(r.result.ok, false);
        QCOMPARE(r.result.statistics.steps, 1'000L);
        QVERIFY2(QString::fromStdString(r.result.message).contains("step limit would be reached"),
                 r.result.message.c_str());
        QVERIFY2(QString::fromStdString(r.result.message).contains("bdf or tlismni/hht step over it"),
                 r.result.message.c_str());
        const double needed = 1'000.0 * 1000.0 / (r.result.tFinal - lm.initial.t);
        qInfo("1 000 steps reached t = %.4g s: about %.3g steps for 1 000 s", r.result.tFinal - lm.initial.t, needed);
        QVERIFY(needed > 6'000.0);
        // Its pace holds: the first 10 s take about a hundredth of that.
        st.tEnd = lm.initial.t + 10.0;
        st.maxSteps = 10'000'000;
        const Run ten = simulate(lm, st);
        QVERIFY2(ten.result.ok, ten.result.message.c_str());
        qInfo("10 s took %ld steps", ten.result.statistics.steps);
        QVERIFY(std::abs(ten.result.statistics.steps * 100.0 / needed - 1.0) < 0.5);

        // With an implicit integrator the advice is the tolerances, not another method: it
        // is the one the explicit advice points to.
        SimulationSettings implicitRun = st;
        implicitRun.method = "tlismni";
        implicitRun.integrator = "hht";
        implicitRun.tEnd = lm.initial.t + 1000.0;
        implicitRun.maxSteps = 3'000;
        const Run h = simulate(lm, implicitRun);
        QCOMPARE(h.result.ok, false);
        const QString message = QString::fromStdString(h.result.message);
        QVERIFY2(message.contains("step limit would be reached") && message.contains("looser rtol and atol") &&
                     !message.contains("step over it"),
                 h.result.message.c_str());
    }

    // A wall-time limit shorter than any step ends the run after its first step.
    void wallTimeLimit() {
        const LoadedModel lm = test::loadExample("four-bar.json");
        SimulationSettings st;
        st.tEnd = lm.initial.t + 1.0;
        st.maxWallTime = 1e-12;
        const Run r = simulate(lm, st);
        QCOMPARE(r.result.ok, false);
        QCOMPARE(r.result.statistics.steps, 1L);
        QVERIFY2(QString::fromStdString(r.result.message).contains("wall-time limit"), r.result.message.c_str());
        QCOMPARE(QString(runEventKindName(r.result.events.back().kind)), QString("failure"));
    }

    // The bounds of docs/methods.md: projection within 64 ε L; the stabilising methods
    // within ten times the integrator's tolerance on the length scale; the mechanism has
    // come apart beyond 1e-2 L.
    void violationBounds() {
        const LoadedModel lm = test::loadExample("four-bar.json");
        const double L = lm.model->lengthScale;
        SimulationSettings st;
        ViolationBound b = constraintViolationBound(*lm.model, st);
        QCOMPARE(b.warning, 64 * std::numeric_limits<double>::epsilon() * L);
        QCOMPARE(b.gross, 1e-2 * L);
        QCOMPARE(b.perMultiplier, 0.0);
        st.method = "baumgarte";
        st.ode.rtol = 1e-6;
        st.ode.atol = 1e-9;
        b = constraintViolationBound(*lm.model, st);
        QVERIFY(std::abs(b.warning - 10 * (1e-6 * L + 1e-9)) < 1e-15);
        st.method = "penalty";
        b = constraintViolationBound(*lm.model, st);
        QVERIFY(b.perMultiplier > 0.0);
        st.constraints.penaltyFactor *= 10;
        QVERIFY(std::abs(constraintViolationBound(*lm.model, st).perMultiplier * 10 - b.perMultiplier) <
                1e-12 * b.perMultiplier);
        // A run within its bound raises no warning, and the frames' scaled violation is
        // the one compared.
        st = SimulationSettings{};
        st.tEnd = lm.initial.t + 1.0;
        double worst = 0.0;
        Simulator sim(lm.model, st);
        const SimulationResult r =
            sim.run(lm.initial, [&](const SimulationFrame& f) { worst = std::max(worst, f.violation.positionScaled); });
        QVERIFY2(r.ok, r.message.c_str());
        QVERIFY(worst <= 64 * std::numeric_limits<double>::epsilon() * L);
        for (const SimulationEvent& e : r.events) QVERIFY2(e.kind != RunEventKind::ConstraintViolation, e.detail.c_str());
    }
};

QTEST_APPLESS_MAIN(SimulationTest)
#include "tst_simulation.moc"
