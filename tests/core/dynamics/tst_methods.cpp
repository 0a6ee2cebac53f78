// Conformance of the constraint methods on the free four-bar under gravity: the same
// model, integrator and tolerances for every method, so that the differences in
// constraint violation come from the method alone.
#include "TestModels.h"

#include "looplab/integrate/MethodRegistry.h"
#include "looplab/simulation/Simulation.h"

#include <algorithm>
#include <cmath>
#include <map>

using namespace looplab;

namespace {

struct MethodRun {
    SimulationResult result;
    int frames = 0;
    bool finite = true;
    double maxPosition = 0.0;     ///< max ‖Φ‖∞ over the output frames
    double maxVelocity = 0.0;
    double maxEnergyDrift = 0.0;  ///< max |E − E0| / |E0| over the output frames
    double energy0 = 0.0;
    double lastTime = 0.0;
    int minRank = 1 << 30, maxRank = -1;
};

// 10 s of the four-bar, dopri5 at rtol 1e-10, atol 1e-12, a frame every 0.01 s. Under the
// sanitizers (tests/CMakeLists.txt) the first 2 s: the same code paths, and a maximum over a
// part of the run is bounded by the bounds below; the release build runs the whole 10 s.
#ifdef LOOPLAB_UNDER_SANITIZERS
constexpr double kSpan = 2.0;
#else
constexpr double kSpan = 10.0;
#endif
constexpr double kOutputStep = 0.01;
constexpr int kFrames = static_cast<int>(kSpan / kOutputStep + 0.5) + 1;

MethodRun runFourBar(const std::string& method) {
    const LoadedModel lm = test::loadExample("four-bar.json");
    MethodRun out;
    if (!lm.ok()) return out;
    SimulationSettings st;
    st.method = method;
    st.integrator = "dopri5";
    st.tEnd = kSpan;
    st.outputStep = kOutputStep;
    st.ode.rtol = 1e-10;
    st.ode.atol = 1e-12;
    Simulator sim(lm.model, st);
    bool first = true;
    out.result = sim.run(lm.initial, [&](const SimulationFrame& f) {
        const double e = f.energy.total();
        if (first) {
            out.energy0 = e;
            first = false;
        }
        out.finite = out.finite && f.state.q.allFinite() && f.state.v.allFinite() && std::isfinite(e);
        out.maxPosition = std::max(out.maxPosition, f.violation.position);
        out.maxVelocity = std::max(out.maxVelocity, f.violation.velocity);
        out.maxEnergyDrift = std::max(out.maxEnergyDrift, std::abs(e - out.energy0) / std::abs(out.energy0));
        out.lastTime = f.state.t;
        out.minRank = std::min(out.minRank, f.rank);
        out.maxRank = std::max(out.maxRank, f.rank);
        ++out.frames;
    });
    return out;
}

// Runs are shared between the data-driven test and the ordering test.
std::map<std::string, MethodRun>& runCache() {
    static std::map<std::string, MethodRun> cache;
    return cache;
}

const MethodRun& fourBar(const std::string& method) {
    auto it = runCache().find(method);
    if (it == runCache().end()) it = runCache().emplace(method, runFourBar(method)).first;
    return it->second;
}

}  // namespace

class MethodsTest : public QObject {
    Q_OBJECT
private slots:
    void knownMethods() {
        std::vector<std::string> names;
        for (const ConstraintMethodInfo& m : constraintMethods()) names.push_back(m.name);
        for (const char* n : {"projection", "baumgarte", "penalty", "augmented-lagrangian"})
            QVERIFY2(std::find(names.begin(), names.end(), n) != names.end(), n);
        const LoadedModel lm = test::loadExample("four-bar.json");
        QVERIFY(lm.ok());
        SimulationSettings st;
        st.method = "no-such-method";
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, Simulator(lm.model, st));
    }

    void fourBarConformance_data() {
        QTest::addColumn<QString>("method");
        // Documented magnitude of the max position violation ‖Φ‖∞ [m] over the 10 s run.
        QTest::addColumn<double>("documentedBound");
        // Bound from the measured value (at most 10× the measurement, which is quoted).
        QTest::addColumn<double>("measuredBound");
        // Projection: required below 1e-12; measured 8.3e-16 m (rounding).
        QTest::newRow("projection") << QString("projection") << 1e-12 << 1e-12;
        // Baumgarte α = β = 10: documented below 1e-9; measured 6.8e-12 m.
        QTest::newRow("baumgarte") << QString("baumgarte") << 1e-9 << 5e-11;
        // Penalty factor 1e7: documented below 1e-6; measured 4.9e-8 m.
        QTest::newRow("penalty") << QString("penalty") << 1e-6 << 4e-7;
        // Augmented Lagrangian: documented below 1e-9; measured 6.8e-12 m. Its converged
        // multipliers satisfy Φ̈ + 2ξωΦ̇ + ω²Φ = 0 with ξ = 1, ω = 10, the same constraint
        // dynamics as Baumgarte with α = β = 10, so the two agree closely.
        QTest::newRow("augmented-lagrangian") << QString("augmented-lagrangian") << 1e-9 << 5e-11;
    }

    void fourBarConformance() {
        QFETCH(QString, method);
        QFETCH(double, documentedBound);
        QFETCH(double, measuredBound);
        const MethodRun& r = fourBar(method.toStdString());
        QVERIFY2(r.result.ok, r.result.message.c_str());
        QVERIFY(r.finite);
        QCOMPARE(r.frames, kFrames);
        QCOMPARE(r.lastTime, kSpan);
        QCOMPARE(r.result.tFinal, kSpan);
        qInfo("%s: max position violation %.3g m, velocity violation %.3g m/s, max relative "
              "energy drift %.3g, %ld steps",
              qPrintable(method), r.maxPosition, r.maxVelocity, r.maxEnergyDrift, r.result.statistics.steps);
        QVERIFY2(r.maxPosition < documentedBound,
                 qPrintable(QString("max position violation %1 >= %2").arg(r.maxPosition).arg(documentedBound)));
        QVERIFY2(r.maxPosition < measuredBound,
                 qPrintable(QString("max position violation %1 >= %2").arg(r.maxPosition).arg(measuredBound)));
        QVERIFY(r.result.maxViolation.position <= r.maxPosition);  // the result tracks the frames

        // The planar loop makes three equations redundant: reported once, at t = 0, naming joints.
        int redundantEvents = 0;
        for (const SimulationEvent& e : r.result.events) {
            QVERIFY2(e.kind != RunEventKind::Failure, e.detail.c_str());
            if (e.kind != RunEventKind::RedundantConstraints) continue;
            ++redundantEvents;
            QCOMPARE(e.t, 0.0);
            QVERIFY(!e.joints.empty());
            for (const std::string& j : e.joints)
                QVERIFY2(j == "A" || j == "B" || j == "C" || j == "D", j.c_str());
            QVERIFY2(e.detail.find("3 redundant") != std::string::npos, e.detail.c_str());
        }
        QCOMPARE(redundantEvents, 1);
    }

    // Projection keeps the state on the manifold and conserves energy at every output
    // (measured: ‖Φ‖∞ 8.3e-16 m, ‖Φ_q v‖∞ 6.7e-16 m/s, relative energy drift 5.9e-10).
    void projectionIsExact() {
        const MethodRun& r = fourBar("projection");
        QVERIFY2(r.result.ok, r.result.message.c_str());
        QCOMPARE(r.frames, kFrames);
        QVERIFY2(r.maxPosition < 1e-12, qPrintable(QString::number(r.maxPosition)));
        QVERIFY2(r.maxVelocity < 1e-12, qPrintable(QString::number(r.maxVelocity)));
        QVERIFY2(r.maxEnergyDrift < 1e-9, qPrintable(QString::number(r.maxEnergyDrift)));
        // 18 coordinates, 20 equations of rank 17 at every frame: one degree of freedom.
        QCOMPARE(r.minRank, 17);
        QCOMPARE(r.maxRank, 17);
    }

    // Projection enforces Φ = 0 to rounding; the others only approximately.
    void violationOrdering() {
        const double proj = fourBar("projection").maxPosition;
        const double baum = fourBar("baumgarte").maxPosition;
        const double pen = fourBar("penalty").maxPosition;
        const double al = fourBar("augmented-lagrangian").maxPosition;
        qInfo("max position violation: projection %.3g, baumgarte %.3g, penalty %.3g, "
              "augmented-lagrangian %.3g",
              proj, baum, pen, al);
        QVERIFY(proj < baum);
        QVERIFY(proj < pen);
        // The multiplier iteration removes most of the penalty method's constraint error.
        QVERIFY(al < pen);
    }

    // Every method also runs with the fixed-step integrator.
    void rk4Runs_data() {
        QTest::addColumn<QString>("method");
        QTest::addColumn<double>("bound");  // max ‖Φ‖∞ [m] over 1 s
        // Measured: projection 2.9e-16, baumgarte 8.4e-10, penalty 4.4e-8,
        // augmented-lagrangian 8.4e-10.
        QTest::newRow("projection") << QString("projection") << 1e-12;
        QTest::newRow("baumgarte") << QString("baumgarte") << 8e-9;
        QTest::newRow("penalty") << QString("penalty") << 4e-7;
        QTest::newRow("augmented-lagrangian") << QString("augmented-lagrangian") << 8e-9;
    }

    void rk4Runs() {
        QFETCH(QString, method);
        QFETCH(double, bound);
        const LoadedModel lm = test::loadExample("four-bar.json");
        QVERIFY(lm.ok());
        SimulationSettings st;
        st.method = method.toStdString();
        st.integrator = "rk4";
        st.ode.step = 1e-3;
        st.tEnd = 1.0;
        st.outputStep = 0.01;
        Simulator sim(lm.model, st);
        int frames = 0;
        bool finite = true;
        double worst = 0.0;
        const SimulationResult res = sim.run(lm.initial, [&](const SimulationFrame& f) {
            ++frames;
            finite = finite && f.state.q.allFinite() && f.state.v.allFinite();
            worst = std::max(worst, f.violation.position);
        });
        QVERIFY2(res.ok, res.message.c_str());
        QVERIFY(finite);
        QCOMPARE(frames, 101);
        QCOMPARE(res.tFinal, 1.0);
        QCOMPARE(res.statistics.steps, 1000L);
        for (const SimulationEvent& e : res.events) QVERIFY2(e.kind != RunEventKind::Failure, e.detail.c_str());
        qInfo("rk4 %s: max position violation %.3g m", qPrintable(method), worst);
        QVERIFY2(worst < bound, qPrintable(QString::number(worst)));
    }

    // Slender rods: the four-bar with every body's axial inertia 1e-6 of its transverse
    // one. The Schur complement Φ_q M⁻¹ Φ_qᵀ then spreads over about 1e6 × the square of
    // the Jacobian's spread, and a rank decision on it found 16 dependent equations (3 are
    // redundant) at t = 0. Deciding the rank on Φ_q, every method runs, and the
    // stabilising ones follow the projection method's trajectory.
    void slenderRodsFourBar() {
        ModelDocument doc = test::exampleDocument("four-bar.json");
        QCOMPARE(int(doc.bodies.size()), 3);
        for (BodyDoc& b : doc.bodies) b.inertia(0, 0) = 1e-6 * b.inertia(1, 1);
        const LoadedModel lm = prepareModel(doc, "slender four-bar");
        QVERIFY2(lm.ok(), formatDiagnostics(lm.diagnostics).c_str());
        auto run = [&](const std::string& method, std::vector<SimulationFrame>& frames) {
            SimulationSettings st;
            st.method = method;
            st.tEnd = lm.initial.t + 2.0;
            st.outputStep = 0.01;
            st.ode.rtol = 1e-10;
            st.ode.atol = 1e-12;
            Simulator sim(lm.model, st);
            return sim.run(lm.initial, [&](const SimulationFrame& f) { frames.push_back(f); });
        };
        std::vector<SimulationFrame> reference;
        const SimulationResult ref = run("projection", reference);
        QVERIFY2(ref.ok, ref.message.c_str());
        QCOMPARE(int(reference.size()), 201);
        // Tolerances: Baumgarte and the augmented Lagrangian hold the same constraint
        // dynamics (ξ = 1, ω = α = β = 10 s⁻¹) and drift by 3.5e-12 m here; at rtol 1e-10
        // over 2 s both stay near the integration error of the projection method
        // (measured 9e-10 m and 1.7e-8 rad); 1e-7 leaves a margin of six and is still a
        // millionth of the 0.3 m links' motion. The penalty method's static error
        // λ/(αω²) ≈ 5e-8 m at factor 1e7 shifts its trajectory (measured 4.3e-5 m,
        // 7.8e-4 rad): 5e-3.
        for (const auto& [method, tolerance] : std::vector<std::pair<std::string, double>>{
                 {"baumgarte", 1e-7}, {"augmented-lagrangian", 1e-7}, {"penalty", 5e-3}}) {
            std::vector<SimulationFrame> frames;
            const SimulationResult r = run(method, frames);
            QVERIFY2(r.ok, (method + ": " + r.message).c_str());
            QCOMPARE(frames.size(), reference.size());
            double worstPosition = 0.0, worstAngle = 0.0;
            for (size_t k = 0; k < frames.size(); ++k) {
                for (int b = 1; b < lm.model->bodyCount(); ++b)
                    worstPosition = std::max(worstPosition, (bodyPosition(*lm.model, frames[k].state, BodyIndex(b)) -
                                                             bodyPosition(*lm.model, reference[k].state, BodyIndex(b)))
                                                                .cwiseAbs()
                                                                .maxCoeff());
                for (size_t c = 0; c < frames[k].jointCoordinates.size(); ++c)
                    worstAngle = std::max(worstAngle, std::abs(frames[k].jointCoordinates[c] -
                                                               reference[k].jointCoordinates[c]));
            }
            qInfo("%s on slender rods: worst deviation from projection %.3g m, %.3g rad", method.c_str(),
                  worstPosition, worstAngle);
            QVERIFY2(worstPosition < tolerance, qPrintable(QString::number(worstPosition)));
            QVERIFY2(worstAngle < tolerance, qPrintable(QString::number(worstAngle)));
        }
    }
};

QTEST_APPLESS_MAIN(MethodsTest)
#include "tst_methods.moc"
