// How flexible members start (StartMotion.h): the flexible slider-crank of
// flexible-slider-crank.json (crank r = 0.1 m at 30°, driven at 2π rad/s; aluminium rod
// l = 0.3 m of 4 cable elements pinned to the crank and to a slider on the x axis) against
// the rigid slider-crank's closed form,
//
//   x = r cos θ + √(l² − r² sin²θ),   ẋ = −r ω sin θ (1 + r cos θ / √(l² − r² sin²θ)).
//
// At rest only the rod's root node takes the crank pin's velocity; the slider stays still,
// and the jump rings the rod's axial mode (0.93 kHz) for the whole run. The consistent
// start gives the whole rod and the slider the rigid mechanism's velocities; the
// equilibrium start deforms them first into quasi-static equilibrium with the rigid motion
// (StartEquilibrium.h), checked on the cantilever under its weight against qL⁴/8EI.
#include "TestModels.h"

#include "looplab/dynamics/StartEquilibrium.h"
#include "looplab/analysis/StartModes.h"
#include "looplab/analysis/Statics.h"

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

// The part of a departure d(t) that is not smooth on the crank's scale: the residual of its
// least-squares polynomial of degree 6 over the run (kSliderSpan below), which follows the
// quasi-static deflection to well below 1e-10 m and leaves the rod's modes (0.1–1 kHz).
double ringing(const std::vector<double>& t, const std::vector<double>& d) {
    const int n = static_cast<int>(t.size()), degree = 6;
    MatX A(n, degree + 1);
    VecX b(n);
    for (int i = 0; i < n; ++i) {
        const double x = 2.0 * t[i] / t.back() - 1.0;
        double p = 1.0;
        for (int k = 0; k <= degree; ++k, p *= x) A(i, k) = p;
        b[i] = d[i];
    }
    const VecX c = A.colPivHouseholderQr().solve(b);
    return (A * c - b).cwiseAbs().maxCoeff();
}

struct Departure {
    double largest = 0.0;  ///< of the slider from the rigid slider-crank [m]
    double ringing = 0.0;  ///< its part at the rod's modes [m]
};

// The slider-crank's runs: 0.1 s (93 periods of the rod's axial mode, 36° of crank) in the
// release build; under the sanitizers 0.02 s (19 periods), the same code paths at a fifth of
// the steps (the ringing starts with the run and does not decay, so it shows as well).
constexpr double kSliderSpan = test::kUnderSanitizers ? 0.02 : 0.1;

// The slider against the rigid closed form over kSliderSpan, tlismni with hht at rtol 1e-8.
Departure sliderDeparture(const LoadedModel& lm) {
    const Model& m = *lm.model;
    const BodyIndex slider = *m.findBody("slider");
    SimulationSettings st;
    st.method = "tlismni";
    st.integrator = "hht";
    st.tEnd = kSliderSpan;
    st.outputStep = 1e-4;
    st.ode.rtol = 1e-8;
    st.ode.atol = 1e-10;
    std::vector<double> t, d;
    const SimulationResult r = Simulator(lm.model, st).run(lm.initial, [&](const SimulationFrame& f) {
        t.push_back(f.state.t);
        d.push_back(bodyPosition(m, f.state, slider).x() - rigidSlider(crankAngle(m, f.state)));
    });
    if (!r.ok) qWarning("%s", r.message.c_str());
    Departure out;
    qInfo("slider-crank over %g s: %ld steps, %ld evaluations, %ld factorisations", st.tEnd, r.statistics.steps,
          r.statistics.rhsEvaluations, r.statistics.factorizations);
    for (double x : d) out.largest = std::max(out.largest, std::abs(x));
    out.ringing = ringing(t, d);
    return out;
}

LoadedModel sliderCrank(const char* start) {
    ModelDocument doc = test::exampleDocument("flexible-slider-crank.json");
    doc.run.start = start;
    LoadedModel lm = prepareModel(doc);
    if (!lm.ok()) qWarning("%s", formatDiagnostics(lm.diagnostics).c_str());
    return lm;
}

// The consistent start's run, made once for the two tests that measure it.
const Departure& consistentDeparture() {
    static const Departure d = sliderDeparture(sliderCrank("consistent"));
    return d;
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
    void equilibriumStartHoldsTheStaticDeflection();
    void equilibriumStartDoesNotRing();
    void restStartRingsTheRodsAxialMode();
};

void StartMotionTest::names() {
    for (StartMotion m : {StartMotion::Rest, StartMotion::Consistent, StartMotion::Equilibrium}) {
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

// The slider's position over the run against the rigid closed form: started at rest it rings
// at ±7.1e-5 m (3.6e-4 of the 0.2 m stroke); started consistently the difference is the
// rod's own deflection under its inertia and weight, 2.5e-7 m measured, held below 2e-6 of
// the stroke.
void StartMotionTest::consistentStartDoesNotRing() {
    QVERIFY(sliderCrank("consistent").ok());
    const Departure& d = consistentDeparture();
    qInfo("largest departure of the slider from the rigid slider-crank over %g s: %.3g m (%.3g of the stroke), "
          "ringing %.3g m",
          kSliderSpan, d.largest, d.largest / (2 * kCrank), d.ringing);
    QVERIFY2(d.largest < 2e-6 * 2 * kCrank, qPrintable(QString::number(d.largest)));
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

// cantilever-beam.json without its tip load: a steel beam 1 m long, 20 mm square, clamped,
// under its weight q = ρAg = 30.8 N/m. Started in equilibrium it is at its static
// deflection, qL⁴/8EI = 1.375 mm at the tip by Euler–Bernoulli (cubic elements give the
// nodes exactly in the linear theory; the cable's geometric nonlinearity moves it by about
// (w/L)² ≈ 2e-6), the same as statics finds for the discretisation to its force tolerance;
// and it stays there: over 0.2 s (three periods of the first bending mode, 16.7 Hz) the tip
// moves by 2e-15 m measured (rounding; held below 1e-9 of the deflection), where the
// consistent (straight) start swings it through twice the deflection.
void StartMotionTest::equilibriumStartHoldsTheStaticDeflection() {
    ModelDocument doc = test::exampleDocument("cantilever-beam.json");
    doc.forces.clear();
    const double E = 210e9, a = 0.02, I = a * a * a * a / 12.0, q = 7850 * a * a * 9.81, L = 1.0;
    const double closedForm = q * std::pow(L, 4) / (8 * E * I);
    auto tipY = [](const Model& m, const State& s) {
        const Body& beam = m.body(*m.findBody("beam"));
        return s.q[beam.slice.positionOffset + beam.slice.positionSize - beam.nodeSize() + 1];
    };
    doc.run.start = "equilibrium";
    const LoadedModel lm = prepareModel(doc);
    QVERIFY(lm.ok());
    QVERIFY2(lm.start.equilibrium, lm.start.message.c_str());
    State stat = initialState(*lm.model);
    const StaticsResult sr = findEquilibrium(*lm.model, stat);
    QVERIFY2(sr.ok, sr.message.c_str());
    const double started = -tipY(*lm.model, lm.initial), statics = -tipY(*lm.model, stat);
    qInfo("tip deflection: closed form %.6g m, statics %.9g m, equilibrium start %.9g m (%d rounds)", closedForm,
          statics, started, lm.start.equilibriumRounds);
    QVERIFY2(std::abs(started - closedForm) < 1e-5 * closedForm, qPrintable(QString::number(started / closedForm - 1)));
    QVERIFY2(std::abs(started - statics) < 1e-9 * closedForm, qPrintable(QString::number(started - statics)));
    QCOMPARE(lm.initial.v.cwiseAbs().maxCoeff(), 0.0);

    for (const char* start : {"equilibrium", "consistent"}) {
        doc.run.start = start;
        const LoadedModel run = prepareModel(doc);
        QVERIFY(run.ok());
        SimulationSettings st;
        st.method = "tlismni";
        st.integrator = "hht";
        // The consistent start swings the tip through twice the deflection in its first half
        // period (30 ms): under the sanitizers that swing, 40 ms, is run instead of three
        // periods (98 000 steps of 0.2 s in the release build).
        const bool swing = std::string(start) == "consistent" && test::kUnderSanitizers;
        st.tEnd = swing ? 0.04 : 0.2;
        st.outputStep = 1e-3;
        st.ode.rtol = 1e-8;
        st.ode.atol = 1e-12;
        const double y0 = tipY(*run.model, run.initial);
        double moved = 0.0;
        const SimulationResult r = Simulator(run.model, st).run(run.initial, [&](const SimulationFrame& f) {
            moved = std::max(moved, std::abs(tipY(*run.model, f.state) - y0));
        });
        QVERIFY2(r.ok, r.message.c_str());
        qInfo("cantilever over %g s: %ld steps, %ld evaluations, %ld factorisations", st.tEnd, r.statistics.steps,
              r.statistics.rhsEvaluations, r.statistics.factorizations);
        qInfo("%s start: the tip moves by up to %.3g m (%.3g of the deflection) over %g s", start, moved,
              moved / closedForm, st.tEnd);
        if (std::string(start) == "equilibrium")
            QVERIFY2(moved < 1e-9 * closedForm, qPrintable(QString::number(moved)));
        else
            QVERIFY(moved > 1.5 * closedForm);
    }
}

// The flexible slider-crank started in equilibrium: the rod deflected under its weight and
// the inertia of the rigid motion, with the rigid mechanism's velocities. Its departure
// from the rigid slider-crank is then the quasi-static deflection alone, with no ringing of
// the rod's modes above 1e-6 of the stroke (measured: consistent 1.3e-7 m of ringing,
// equilibrium below 1e-9 m).
void StartMotionTest::equilibriumStartDoesNotRing() {
    const LoadedModel equilibrium = sliderCrank("equilibrium");
    QVERIFY(equilibrium.ok());
    QVERIFY2(equilibrium.start.equilibrium, equilibrium.start.message.c_str());
    QVERIFY(equilibrium.start.rigidField);
    QVERIFY(equilibrium.start.vibrationEnergy < 1e-15);
    const Departure& c = consistentDeparture();
    const Departure e = sliderDeparture(equilibrium);
    qInfo("slider's departure from the rigid slider-crank over %g s: consistent %.3g m (ringing %.3g m), "
          "equilibrium %.3g m (ringing %.3g m); the start moved the nodes by %.3g m in %d rounds",
          kSliderSpan, c.largest, c.ringing, e.largest, e.ringing, equilibrium.start.equilibriumShift,
          equilibrium.start.equilibriumRounds);
    QVERIFY2(e.ringing < 1e-6 * 2 * kCrank, qPrintable(QString::number(e.ringing)));
    QVERIFY2(e.ringing < 0.1 * c.ringing, qPrintable(QString::number(e.ringing / c.ringing)));
}

// The jump of the rest start (the rod and the slider still, the crank pin moving) against
// the rigid mechanism's velocities rings the slider on the rod's axial stiffness: a rod
// held at the crank pin with the slider's mass M = 0.5 kg at its end, ρAL = 0.0636 kg,
// β tan β = ρAL / M, f = β c / (2π l) with c = √(E/ρ), the slider moving along x at the
// angle φ to the rod (sin φ = r sin θ / l) seeing the stiffness cos²φ EA/l: f ≈ cos φ β c /
// (2π l) = 931 Hz, neglecting the rod's turn about the pin (its inertia, 0.1 % of M's sin²φ
// share). The modes computed with the drivers held about the start must put most of the
// jump's energy in that mode.
void StartMotionTest::restStartRingsTheRodsAxialMode() {
    const LoadedModel rest = sliderCrank("rest"), consistent = sliderCrank("consistent");
    QVERIFY(rest.ok() && consistent.ok());
    const StartModes sm = excitedModes(*rest.model, rest.initial);
    QVERIFY2(sm.ok, sm.message.c_str());
    QVERIFY(!sm.modes.empty());
    const double E = 70e9, rho = 2700, A = M_PI * 0.005 * 0.005, M = 0.5;
    const double ratio = rho * A * kRod / M;
    double beta = std::sqrt(ratio);
    for (int i = 0; i < 50; ++i) beta -= (beta * std::tan(beta) - ratio) / (std::tan(beta) + beta / std::pow(std::cos(beta), 2));
    const double sinPhi = kCrank * std::sin(M_PI / 6) / kRod;
    const double closedForm = std::sqrt(1.0 - sinPhi * sinPhi) * beta * std::sqrt(E / rho) / (2 * M_PI * kRod);
    qInfo("jump %.4g J (vibration energy %.4g J); lowest %d modes hold %.4g of it; most in %.6g Hz (%.4g), then "
          "%.6g Hz (%.3g); closed form %.6g Hz",
          sm.jumpEnergy, rest.start.vibrationEnergy, sm.computed, sm.covered, sm.modes[0].frequencyHz,
          sm.modes[0].share, sm.modes.size() > 1 ? sm.modes[1].frequencyHz : 0.0,
          sm.modes.size() > 1 ? sm.modes[1].share : 0.0, closedForm);
    QVERIFY2(std::abs(sm.modes[0].frequencyHz / closedForm - 1.0) < 5e-3,
             qPrintable(QString::number(sm.modes[0].frequencyHz / closedForm - 1.0)));
    QVERIFY(sm.modes[0].share > 0.5);
    QVERIFY(sm.covered <= 1.0 + 1e-9);
    // Started consistently there is no jump, and no mode to report.
    const StartModes none = excitedModes(*consistent.model, consistent.initial);
    QVERIFY2(none.ok, none.message.c_str());
    QVERIFY(none.modes.empty());
    QVERIFY(none.jumpEnergy < 1e-15);
}

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
    for (StartMotion m : {StartMotion::Rest, StartMotion::Consistent, StartMotion::Equilibrium})
        QVERIFY2(names.count(startMotionName(m)) == 1, startMotionName(m));
}

QTEST_GUILESS_MAIN(StartMotionTest)
#include "tst_startmotion.moc"
