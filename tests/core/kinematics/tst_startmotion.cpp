// How flexible members start (StartMotion.h): the flexible slider-crank of
// flexible-slider-crank.json (crank r = 0.1 m at 30°, driven at 2π rad/s; aluminium rod
// l = 0.3 m of 4 cable elements pinned to the crank and to a slider on the x axis) against
// the rigid slider-crank's closed form,
//
//   x = r cos θ + √(l² − r² sin²θ),   ẋ = −r ω sin θ (1 + r cos θ / √(l² − r² sin²θ)).
//
// At rest only the rod's root node takes the crank pin's velocity; the slider stays still,
// and the jump rings the rod's axial mode (0.93 kHz) for the whole run. The consistent
// start gives the whole rod and the slider the rigid mechanism's velocities.
#include "TestModels.h"

#include "looplab/files/ModelFile.h"
#include "looplab/kinematics/StartMotion.h"
#include "looplab/simulation/Simulation.h"

#include <cmath>
#include <set>
#include <string>

using namespace looplab;

namespace {

constexpr double kCrank = 0.1, kOmega = 2.0 * M_PI;
const double kRod = std::hypot(0.3824065295334247 - 0.08660254037844388, 0.049999999999999996);

double crankAngle(const Model& m, const State& s) {
    const Quat q = bodyOrientation(m, s, *m.findBody("crank"));
    return 2.0 * std::atan2(q.z(), q.w());
}
double rigidSlider(double theta) {
    return kCrank * std::cos(theta) + std::sqrt(kRod * kRod - std::pow(kCrank * std::sin(theta), 2));
}
double rigidSliderSpeed(double theta) {
    const double root = std::sqrt(kRod * kRod - std::pow(kCrank * std::sin(theta), 2));
    return -kCrank * kOmega * std::sin(theta) * (1.0 + kCrank * std::cos(theta) / root);
}

LoadedModel sliderCrank(const char* start) {
    ModelDocument doc = test::exampleDocument("flexible-slider-crank.json");
    doc.run.start = start;
    LoadedModel lm = prepareModel(doc);
    if (!lm.ok()) qWarning("%s", formatDiagnostics(lm.diagnostics).c_str());
    return lm;
}

}  // namespace

class StartMotionTest : public QObject {
    Q_OBJECT
private slots:
    void names();
    void consistentStartIsTheRigidField();
    void consistentStartDoesNotRing();
    void unconstrainedBeamKeepsItsRest();
    void choicesNameEveryStart();
};

void StartMotionTest::names() {
    for (StartMotion m : {StartMotion::Rest, StartMotion::Consistent}) {
        StartMotion back = m == StartMotion::Rest ? StartMotion::Consistent : StartMotion::Rest;
        QVERIFY(parseStartMotion(startMotionName(m), back));
        QVERIFY(back == m);
    }
    StartMotion m;
    QVERIFY(!parseStartMotion("equilibrium-ish", m));
}

// The slider's speed at t = 0 against the closed form, and the rod's vibration energy:
// measured 7.2e-4 J at rest (the slider still), 6e-18 J consistent (rounding of a kinetic
// energy of 0.05 J), the slider's speed to 2e-16 of ωr.
void StartMotionTest::consistentStartIsTheRigidField() {
    const LoadedModel rest = sliderCrank("rest"), consistent = sliderCrank("consistent");
    QVERIFY(rest.ok() && consistent.ok());
    const Model& m = *consistent.model;
    const BodyIndex slider = *m.findBody("slider");
    const double theta = crankAngle(m, consistent.initial);
    QVERIFY(std::abs(theta - M_PI / 6) < 1e-12);
    const double expected = rigidSliderSpeed(theta);
    const double atRest = bodyVelocity(m, rest.initial, slider).x();
    const double started = bodyVelocity(m, consistent.initial, slider).x();
    qInfo("slider speed: closed form %.15g m/s, consistent %.15g, rest %.3g; vibration energy: rest %.3g J in '%s', "
          "consistent %.3g J",
          expected, started, atRest, rest.start.vibrationEnergy, rest.start.member.c_str(),
          consistent.start.vibrationEnergy);
    QVERIFY(consistent.start.rigidField && consistent.start.message.empty());
    QVERIFY(!rest.start.rigidField);
    QVERIFY(std::abs(atRest) < 1e-12);
    // ẋ is a few ωr; its rounding through the velocity equations is tens of ε ωr.
    QVERIFY2(std::abs(started - expected) < 1e-13 * kOmega * kCrank, qPrintable(QString::number(started - expected)));
    QCOMPARE(QString::fromStdString(rest.start.member), QString("rod"));
    // Against a total energy of 0.08 J at rest: 0.7 mJ of vibration there, none here.
    QVERIFY(rest.start.vibrationEnergy > 1e-4);
    QVERIFY(consistent.start.vibrationEnergy < 1e-15);
}

// The slider's position over 0.1 s (93 periods of the axial mode) against the rigid
// closed form, tlismni at rtol 1e-8: started at rest it rings at ±7.1e-5 m (3.6e-4 of the
// 0.2 m stroke); started consistently the difference is the rod's own deflection under
// its inertia and weight, 2.5e-7 m measured, held below 2e-6 of the stroke.
void StartMotionTest::consistentStartDoesNotRing() {
    const LoadedModel lm = sliderCrank("consistent");
    QVERIFY(lm.ok());
    const Model& m = *lm.model;
    const BodyIndex slider = *m.findBody("slider");
    SimulationSettings st;
    st.method = "tlismni";
    st.integrator = "hht";
    st.tEnd = 0.1;
    st.outputStep = 1e-4;
    st.ode.rtol = 1e-8;
    st.ode.atol = 1e-10;
    double worst = 0.0;
    const SimulationResult r = Simulator(lm.model, st).run(lm.initial, [&](const SimulationFrame& f) {
        const double x = bodyPosition(m, f.state, slider).x();
        worst = std::max(worst, std::abs(x - rigidSlider(crankAngle(m, f.state))));
    });
    QVERIFY2(r.ok, r.message.c_str());
    qInfo("largest departure of the slider from the rigid slider-crank over 0.1 s: %.3g m (%.3g of the stroke)",
          worst, worst / (2 * kCrank));
    QVERIFY2(worst < 2e-6 * 2 * kCrank, qPrintable(QString::number(worst)));
}

// Without constraints there is nothing to follow: a cantilever's beam, clamped, and a free
// beam stay at rest.
void StartMotionTest::unconstrainedBeamKeepsItsRest() {
    for (const char* name : {"cantilever-beam.json"}) {
        ModelDocument doc = test::exampleDocument(name);
        doc.run.start = "consistent";
        const LoadedModel lm = prepareModel(doc);
        QVERIFY(lm.ok());
        QCOMPARE(lm.initial.v.cwiseAbs().maxCoeff(), 0.0);
        QVERIFY(lm.start.member.empty());
        doc.joints.clear();
        doc.drivers.clear();
        const LoadedModel free = prepareModel(doc);
        QVERIFY(free.ok());
        QCOMPARE(free.initial.v.cwiseAbs().maxCoeff(), 0.0);
    }
}

QTEST_GUILESS_MAIN(StartMotionTest)
// The list a user chooses from (the workbench's run panel) offers each start once, by the
// name the run block reads back to the same start, with words to say what it does.
void StartMotionTest::choicesNameEveryStart() {
    std::set<std::string> names;
    for (const StartMotionChoice& c : startMotionChoices()) {
        QCOMPARE(std::string(c.name), std::string(startMotionName(c.motion)));
        StartMotion back = c.motion == StartMotion::Rest ? StartMotion::Consistent : StartMotion::Rest;
        QVERIFY(parseStartMotion(c.name, back));
        QVERIFY(back == c.motion);
        QVERIFY2(std::string(c.description).size() > 20, c.name);
        QVERIFY2(names.insert(c.name).second, c.name);
    }
    QVERIFY(names.count("rest") == 1 && names.count("consistent") == 1);
}

#include "tst_startmotion.moc"
