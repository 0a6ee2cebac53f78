// A stiff model, where the implicit solver earns its place: the pendulum of the examples
// without gravity, held by a stiff, strongly damped rotational spring-damper at its pivot.
// Its angle obeys I θ̈ + c θ̇ + k (θ − θ_free) = 0 with modes at λ = −100 and −100 000 1/s:
// an explicit solver's step is bounded by the fast mode long after it has died out,
// CVODE's BDF is not. Both are checked against the exact solution.
#include "TestModels.h"

#include "looplab/integrate/DormandPrince5.h"
#include "looplab/integrate/EmbeddedRungeKutta.h"
#include "looplab/integrate/StiffnessDetector.h"
#include "looplab/simulation/Simulation.h"

#include <cmath>
#include <memory>

using namespace looplab;

namespace {

constexpr double kSlow = -100.0, kFast = -1e5;  // modes [1/s]
constexpr double kFreeAngle = 0.1;              // rad; the pendulum starts at θ = 0

struct Stiff {
    LoadedModel lm;
    double inertia = 0.0;  // about the pivot [kg m²]
};

Stiff stiffPendulum() {
    ModelDocument doc = test::exampleDocument("pendulum.json");
    doc.gravity = Vec3::Zero();
    Stiff s;
    if (doc.bodies.size() != 1) return s;
    // I about the pivot: the bob's own inertia plus m L² (L = 1 m, from the file).
    s.inertia = doc.bodies[0].inertia(2, 2) + doc.bodies[0].mass * 1.0;
    ForceDoc spring;
    spring.name = "stiff support";
    spring.type = ForceType::RotationalSpringDamper;
    spring.joint = "pivot";
    // I λ² + c λ + k = 0 with roots kSlow and kFast.
    spring.stiffness = s.inertia * kSlow * kFast;
    spring.damping = -s.inertia * (kSlow + kFast);
    spring.freeAngle = kFreeAngle;
    doc.forces.push_back(spring);
    s.lm = prepareModel(doc, "stiff pendulum");
    return s;
}

// θ(t) from θ(0) = 0, θ̇(0) = 0.
double exactAngle(double t) {
    const double a = -kFreeAngle * kFast / (kFast - kSlow), b = kFreeAngle * kSlow / (kFast - kSlow);
    return kFreeAngle + a * std::exp(kSlow * t) + b * std::exp(kFast * t);
}

struct Run {
    SimulationResult result;
    double worstError = 0.0;
    int frames = 0;
};

Run simulate(const Stiff& s, const char* integrator, bool stopWhenStiff = false) {
    SimulationSettings st;
    st.stopWhenStiff = stopWhenStiff;
    st.method = "projection";
    st.integrator = integrator;
    st.tEnd = 0.5;
    st.outputStep = 0.01;
    st.ode.rtol = 1e-8;
    st.ode.atol = 1e-10;
    Run r;
    const JointIndex pivot = *s.lm.model->findJoint("pivot");
    Simulator sim(s.lm.model, st);
    r.result = sim.run(s.lm.initial, [&](const SimulationFrame& f) {
        const double theta = jointAngle(*s.lm.model, f.state, pivot);
        r.worstError = std::max(r.worstError, std::abs(theta - exactAngle(f.state.t)));
        ++r.frames;
    });
    return r;
}

std::unique_ptr<OdeSolver> explicitSolver(const QString& name) {
    if (name == "dopri5") return std::make_unique<DormandPrince5>();
    return std::make_unique<EmbeddedRungeKutta>(name == "verner6" ? EmbeddedPair::Verner65 : EmbeddedPair::Fehlberg78,
                                                name.toStdString());
}

// Prothero & Robinson's equation beside a slow decay: y0' = −y0, y1' = λ (y1 − cos t) − sin t,
// whose solution from y1(0) = 1 is cos t for any λ: with λ ≪ −1 the step of an explicit
// method is held by |hλ| at its stability boundary while the motion is slow.
OdeSystem proxy(double lambda) {
    OdeSystem sys;
    sys.size = 2;
    sys.rhs = [lambda](double t, const VecX& y, VecX& dy) {
        dy.resize(2);
        dy[0] = -y[0];
        dy[1] = lambda * (y[1] - std::cos(t)) - std::sin(t);
        return true;
    };
    return sys;
}

}  // namespace

class StiffTest : public QObject {
    Q_OBJECT
private slots:
    void implicitSolverTakesFewSteps() {
        const Stiff s = stiffPendulum();
        QVERIFY2(s.lm.ok(), formatDiagnostics(s.lm.diagnostics).c_str());
        const Run bdf = simulate(s, "bdf");
        const Run dopri = simulate(s, "dopri5");
        for (const Run* r : {&bdf, &dopri}) {
            QVERIFY2(r->result.ok, r->result.message.c_str());
            QCOMPARE(r->frames, 51);
        }
        qInfo("bdf: %ld steps, %ld evaluations, angle error %.3g rad; dopri5: %ld steps (%ld "
              "rejected), %ld evaluations, angle error %.3g rad",
              bdf.result.statistics.steps, bdf.result.statistics.rhsEvaluations, bdf.worstError,
              dopri.result.statistics.steps, dopri.result.statistics.rejectedSteps,
              dopri.result.statistics.rhsEvaluations, dopri.worstError);
        // Both accurate (the angle moves by 0.1 rad)...
        QVERIFY2(bdf.worstError < 1e-7, qPrintable(QString::number(bdf.worstError)));
        QVERIFY2(dopri.worstError < 1e-7, qPrintable(QString::number(dopri.worstError)));
        // ...but the explicit solver is held near its stability limit, |h λ_fast| ≈ 3.3,
        // for the whole 0.5 s: at least 0.5 · 1e5 / 3.3 ≈ 15 000 steps.
        QVERIFY(dopri.result.statistics.steps > 10000);
        QVERIFY(bdf.result.statistics.steps * 10 < dopri.result.statistics.steps);
    }

    // The real stability boundaries the stiffness test compares h·ρ with: explicit Euler's
    // is 2, the classic Runge–Kutta method's 2.785293563405282 (Hairer & Wanner II, §IV.2).
    void stabilityBoundaries() {
        QCOMPARE(StiffnessDetector::realStabilityBoundary({{}}, {1.0}), 2.0);
        const double rk4 = StiffnessDetector::realStabilityBoundary({{}, {0.5}, {0.0, 0.5}, {0.0, 0.0, 1.0}},
                                                                    {1.0 / 6, 1.0 / 3, 1.0 / 3, 1.0 / 6});
        QVERIFY2(std::abs(rk4 - 2.785293563405282) < 1e-9, qPrintable(QString::number(rk4, 'g', 17)));
    }

    // Hairer's test on an equation whose stiff eigenvalue is known: ρ estimates |λ| and the
    // stiff component carries the difference of the stages; without stiffness it never fires.
    void explicitPairsFindTheStiffEigenvalue_data() {
        QTest::addColumn<QString>("solver");
        for (const char* name : {"dopri5", "verner6", "fehlberg8"}) QTest::newRow(name) << QString(name);
    }
    void explicitPairsFindTheStiffEigenvalue() {
        QFETCH(QString, solver);
        const double lambda = -1e5;
        OdeSettings settings;
        settings.step = 0.0;
        settings.rtol = 1e-6;
        settings.atol = 1e-8;
        VecX y0(2);
        y0 << 1.0, 1.0;
        std::unique_ptr<OdeSolver> stiff = explicitSolver(solver);
        QVERIFY(stiff->initialize(proxy(lambda), 0.0, y0, settings).ok);
        while (!stiff->stiffness() && stiff->statistics().steps < 1000) QVERIFY(stiff->step(1.0).ok);
        const StiffnessFinding* f = stiff->stiffness();
        QVERIFY2(f, qPrintable(QString("not found in %1 steps").arg(stiff->statistics().steps)));
        QVERIFY2(std::abs(f->rho / -lambda - 1.0) < 0.05, qPrintable(QString::number(f->rho)));
        QVERIFY(f->stepSize * f->rho > f->threshold);
        QVERIFY2(f->share[1] > 0.99, qPrintable(QString::number(f->share[1])));

        std::unique_ptr<OdeSolver> smooth = explicitSolver(solver);
        QVERIFY(smooth->initialize(proxy(-1.0), 0.0, y0, settings).ok);
        while (smooth->time() < 20.0) QVERIFY(smooth->step(20.0).ok);
        QVERIFY(smooth->statistics().steps > StiffnessDetector::kStiffSteps);
        QVERIFY(!smooth->stiffness());
    }

    // In a run: a warning that names the body and the methods to use instead, and the run
    // goes on (it is accurate, only slow); asked to, the run stops there instead.
    void runSaysItIsStiff() {
        const Stiff s = stiffPendulum();
        QVERIFY2(s.lm.ok(), formatDiagnostics(s.lm.diagnostics).c_str());
        const Run warned = simulate(s, "dopri5");
        QVERIFY2(warned.result.ok, warned.result.message.c_str());
        int found = 0;
        for (const SimulationEvent& e : warned.result.events) {
            if (e.kind != RunEventKind::Stiffness) continue;
            ++found;
            QVERIFY2(e.detail.find("bob") != std::string::npos, e.detail.c_str());
            QVERIFY2(e.detail.find("tlismni/hht") != std::string::npos, e.detail.c_str());
            QVERIFY2(e.detail.find("projection/bdf") != std::string::npos, e.detail.c_str());
            QVERIFY(e.t < 0.01);
        }
        QCOMPARE(found, 1);

        const Run stopped = simulate(s, "dopri5", true);
        QVERIFY(!stopped.result.ok);
        QVERIFY2(stopped.result.message.find("stiff") != std::string::npos, stopped.result.message.c_str());
        QVERIFY(stopped.result.statistics.steps <= 1000);

        const Run implicit = simulate(s, "bdf");
        for (const SimulationEvent& e : implicit.result.events) QVERIFY(e.kind != RunEventKind::Stiffness);
    }
};

QTEST_APPLESS_MAIN(StiffTest)
#include "tst_stiff.moc"
