// The two-loop method on a finely meshed beam (TlismniStepper.h, docs/methods.md
// "Termination"): a steel cantilever released under gravity, 30 ms at rtol 1e-4, meshed with
// 100 and with 1 000 ANCF elements. Cubic cable elements have converged in the mesh long
// before 100 elements for the first bending modes that carry this motion, so both meshes
// must give the same tip deflection to well within the time-stepping error. With 1 000
// elements the slope modes near the clamp reach βh²ω² ≈ 1e6 and more: an outer loop that
// holds them to more than the positions need, or carries their residual into the next
// step's accelerations, rejects steps and ends 5e-6 m off (2e-3 of the deflection).
#include "TestModels.h"

#include "looplab/files/ModelFile.h"
#include "looplab/model/Model.h"
#include "looplab/simulation/Simulation.h"

#include <QtTest/QtTest>

#include <cmath>

using namespace looplab;

namespace {

struct TipRun {
    SimulationResult result;
    Vec3 tip = Vec3::Zero();
};

// The example cantilever (steel, 1 m, 20 mm square, clamped at x = 0) of `elements` cable
// elements under its own weight, without its tip load.
TipRun releasedCantilever(int elements) {
    ModelDocument doc = test::exampleDocument("cantilever-beam.json");
    doc.forces.clear();
    doc.beams[0].elements = elements;
    TipRun out;
    const LoadedModel lm = prepareModel(doc);
    if (!lm.ok()) {
        out.result.message = "the cantilever does not build";
        return out;
    }
    SimulationSettings st;
    st.method = "tlismni";
    st.integrator = "hht";
    st.tEnd = 0.03;
    st.outputStep = 0.03;
    st.ode.rtol = 1e-4;
    st.ode.atol = 1e-6;
    st.ode.maxStep = 1e-3;
    Simulator sim(lm.model, st);
    State last = lm.initial;
    out.result = sim.run(lm.initial, [&](const SimulationFrame& f) { last = f.state; });
    const Model& m = *lm.model;
    out.tip = last.q.segment<3>(m.velocityOffset(*m.findBody("beam")) + 6 * elements);
    return out;
}

}  // namespace

class TlismniFineMeshTest : public QObject {
    Q_OBJECT
private slots:
    void fineAndCoarseMeshesAgree() {
        const TipRun coarse = releasedCantilever(100);
        QVERIFY2(coarse.result.ok, coarse.result.message.c_str());
        const TipRun fine = releasedCantilever(1000);
        QVERIFY2(fine.result.ok, fine.result.message.c_str());
        const double apart = (fine.tip - coarse.tip).norm();
        qInfo("tip after 30 ms: %.9g m (100 elements, %ld steps, %ld rejected), %.9g m (1 000 elements, %ld steps, "
              "%ld rejected, %ld iteration matrices): %.3g m apart",
              coarse.tip.y(), coarse.result.statistics.steps, coarse.result.statistics.rejectedSteps, fine.tip.y(),
              fine.result.statistics.steps, fine.result.statistics.rejectedSteps,
              fine.result.statistics.factorizations, apart);
        // The deflection is 2.79 mm; its static value, qL⁴/8EI, is 1.37 mm, and the tip
        // swings about twice that. Both meshes measured 1.5e-8 m apart; the limit, 1e-7 m,
        // is 3.6e-5 of the deflection.
        QVERIFY(coarse.tip.y() < -2.7e-3 && coarse.tip.y() > -2.9e-3);
        QVERIFY(apart <= 1e-7);
    }
};

QTEST_APPLESS_MAIN(TlismniFineMeshTest)
#include "tst_tlismni_fine_mesh.moc"
