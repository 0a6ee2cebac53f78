// A stiff model, where the implicit solver earns its place: the pendulum of the examples
// without gravity, held by a stiff, strongly damped rotational spring-damper at its pivot.
// Its angle obeys I θ̈ + c θ̇ + k (θ − θ_free) = 0 with modes at λ = −100 and −100 000 1/s:
// an explicit solver's step is bounded by the fast mode long after it has died out,
// CVODE's BDF is not. Both are checked against the exact solution.
#include "TestModels.h"

#include "looplab/simulation/Simulation.h"

#include <cmath>

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

Run simulate(const Stiff& s, const char* integrator) {
    SimulationSettings st;
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
};

QTEST_APPLESS_MAIN(StiffTest)
#include "tst_stiff.moc"
