// Joint limits and distance stops (StopSupervisor.h, ImpactImpulse.h, StopGaps.h,
// EventLocation.h; docs/methods.md, "Stops and impacts") against closed forms: a pendulum
// striking a limit keeps e² of its kinetic energy and rebounds to e² of its drop; a ball
// bouncing on a floor ends its infinite sequence of impacts at t∞ = t₀ + (2v₀/g)·e/(1 − e)
// within the plastic-impact threshold; an impulse leaves every loop of a four-bar closed in
// velocity to rounding; Newton's cradle with e = 1 hands the first ball's momentum to the
// last; the energy balance E − E₀ + dissipated holds between the events. The model file's
// limits and stops are read, written back and refused with their place when wrong.
#include "TestModels.h"

#include "looplab/dynamics/Dynamics.h"
#include "looplab/dynamics/ImpactImpulse.h"
#include "looplab/kinematics/Constraints.h"
#include "looplab/kinematics/StopGaps.h"
#include "looplab/simulation/Simulation.h"
#include "looplab/simulation/StopSupervisor.h"

#include <cmath>
#include <map>
#include <sstream>

using namespace looplab;

namespace {

constexpr double kG = 9.81;

LoadedModel loadText(const std::string& text) {
    DocumentResult r = parseModelDocument(text, "test.json");
    if (!r.document) {
        qWarning("%s", formatDiagnostics(r.diagnostics).c_str());
        return {};
    }
    LoadedModel lm = prepareModel(*r.document, "test.json");
    if (!lm.ok()) qWarning("%s", formatDiagnostics(lm.diagnostics).c_str());
    return lm;
}

std::string diagnosticsOf(const std::string& text) {
    DocumentResult r = parseModelDocument(text, "test.json");
    if (!r.document) return formatDiagnostics(r.diagnostics);
    const BuildResult b = buildModel(*r.document, "test.json");
    return formatDiagnostics(b.diagnostics);
}

// A parameter as a user would type it ("0.8", "0.1"), so that tests can find it in the text.
std::string num(double x) {
    std::ostringstream s;
    s << x;
    return s.str();
}

std::string ball(const std::string& name, double x, double y, double qw = 1.0, double qz = 0.0, double r = 0.05) {
    std::ostringstream s;
    s.precision(17);
    s << R"({"name": ")" << name << R"(", "mass": 1.0, "inertia": [)" << 0.4 * r * r << ", " << 0.4 * r * r << ", "
      << 0.4 * r * r << R"(], "position": [)" << x << ", " << y << R"(, 0], "orientation": [)" << qw << ", 0, 0, " << qz
      << R"(], "shape": {"type": "sphere", "radius": )" << r << "}}";
    return s.str();
}

// A pendulum of length 1 m released from rest horizontal (θ = 0 is the start, the bottom is
// θ = −π/2), its revolute limited to [−π/2, 1] with restitution e.
std::string pendulumText(double e, double lower = -M_PI / 2, double upper = 1.0) {
    std::ostringstream s;
    s.precision(17);
    s << R"({"format": "looplab-model", "version": 1, "name": "limited pendulum", "gravity": [0, -9.81, 0],
      "bodies": [)" << ball("bob", 1.0, 0.0) << R"(],
      "joints": [{"name": "pivot", "type": "revolute", "body1": "ground", "body2": "bob", "point": [0, 0, 0],
                  "axis": [0, 0, 1], "limits": [)" << lower << ", " << upper << R"(], "restitution": )" << num(e) << "}]}";
    return s.str();
}

// A ball on a vertical prismatic joint h above the floor (its lower limit −h).
std::string floorBallText(double h, double e) {
    std::ostringstream s;
    s.precision(17);
    s << R"({"format": "looplab-model", "version": 1, "name": "bouncing ball", "gravity": [0, -9.81, 0],
      "bodies": [)" << ball("ball", 0.0, h) << R"(],
      "joints": [{"name": "slide", "type": "prismatic", "body1": "ground", "body2": "ball", "point": [0, )" << h
      << R"(, 0], "axis": [0, 1, 0], "limits": [)" << -h << R"(, 10], "restitution": )" << num(e) << "}]}";
    return s.str();
}

// Newton's cradle: five balls of radius r on 1 m rigid strings (revolutes to the ground),
// touching in a row (stops of min distance 2r between neighbours); the first drawn aside
// by φ and released from rest.
std::string cradleText(double e, double phi, double r = 0.05) {
    std::ostringstream s;
    s.precision(17);
    s << R"({"format": "looplab-model", "version": 1, "name": "cradle", "gravity": [0, -9.81, 0], "bodies": [)";
    for (int i = 0; i < 5; ++i) {
        const double x = 2.0 * r * i;
        if (i == 0) s << ball("b0", x - std::sin(phi), 1.0 - std::cos(phi), std::cos(phi / 2), -std::sin(phi / 2), r);
        else s << ", " << ball("b" + std::to_string(i), x, 0.0, 1.0, 0.0, r);
    }
    s << R"(], "joints": [)";
    for (int i = 0; i < 5; ++i)
        s << (i ? ", " : "") << R"({"name": "string)" << i << R"(", "type": "revolute", "body1": "ground", "body2": "b)"
          << i << R"(", "point": [)" << 2.0 * r * i << R"(, 1, 0], "axis": [0, 0, 1]})";
    s << R"(], "stops": [)";
    for (int i = 0; i < 4; ++i) {
        // Ball i's centre as it hangs (ball 0 is drawn aside: its centre is where it starts).
        const double x0 = i == 0 ? -std::sin(phi) : 2.0 * r * i, y0 = i == 0 ? 1.0 - std::cos(phi) : 0.0;
        s << (i ? ", " : "") << R"({"name": "contact)" << i << R"(", "body1": "b)" << i << R"(", "body2": "b)" << i + 1
          << R"(", "point1": [)" << x0 << ", " << y0 << R"(, 0], "point2": [)" << 2.0 * r * (i + 1)
          << R"(, 0, 0], "min": )" << num(2.0 * r) << R"(, "restitution": )" << num(e) << "}";
    }
    s << "]}";
    return s.str();
}

SimulationSettings tight(double tEnd, double outputStep) {
    SimulationSettings st;
    st.tEnd = tEnd;
    st.outputStep = outputStep;
    st.ode.rtol = 1e-11;
    st.ode.atol = 1e-13;
    return st;
}

std::vector<SimulationEvent> eventsOf(const SimulationResult& r, RunEventKind kind) {
    std::vector<SimulationEvent> out;
    for (const SimulationEvent& e : r.events)
        if (e.kind == kind) out.push_back(e);
    return out;
}

// The closed form of a ball dropped from h onto a floor of restitution e: it strikes at t₀
// with v₀ = √(2gh); its bounces, each e times slower, take (2v₀/g)·e/(1 − e) in all and end
// at t∞. v_c is the run's plastic-impact speed for the floor.
struct BounceSequence {
    BounceSequence(const Model& model, double h, double e)
        : v0(std::sqrt(2.0 * kG * h)), t0(std::sqrt(2.0 * h / kG)), tInf(t0 + 2.0 * v0 / kG * e / (1.0 - e)),
          vc(plasticImpactSpeed(model, model.stops.front())) {}
    double v0, t0, tInf, vc;
};

}  // namespace

class StopsTest : public QObject {
    Q_OBJECT
private slots:
    // Falling from rest horizontal, the bob meets the limit at the bottom with T⁻ = m g L
    // (the drop L); Newton's law leaves ω⁺ = −e ω⁻, so the impact takes (1 − e²) m g L and
    // the bob rises e² L above the bottom. At rtol 1e-11 the motion before and after is
    // accurate to about 1e-9 of L: the dissipated energy is held to 1e-8 of m g L and the
    // rebound's height, the vertex of the parabola through the three highest frames (its
    // error O(h³) with h = 1 ms, below 1e-8 m), to 1e-7 m. Between the events the balance
    // E − E₀ + dissipated stays within 1e-8 of m g L.
    void pendulumStrikingALimitKeepsESquaredOfItsEnergy() {
        const double e = 0.8, L = 1.0, m = 1.0;
        const LoadedModel lm = loadText(pendulumText(e));
        QVERIFY(lm.ok());
        QCOMPARE(lm.model->stops.size(), size_t(1));
        const double e0 = mechanicalEnergy(*lm.model, lm.initial).total();
        std::vector<double> ts, ys;
        double worstBalance = 0.0, dissipated = 0.0;
        Simulator sim(lm.model, tight(1.4, 1e-3));
        const SimulationResult r = sim.run(lm.initial, [&](const SimulationFrame& f) {
            ts.push_back(f.state.t);
            ys.push_back(f.state.q[1]);
            dissipated = f.dissipated;
            worstBalance = std::max(worstBalance, std::abs(f.energy.total() - e0 + f.dissipated));
        });
        QVERIFY2(r.ok, r.message.c_str());
        const auto impacts = eventsOf(r, RunEventKind::Impact);
        QCOMPARE(impacts.size(), size_t(1));
        QVERIFY(eventsOf(r, RunEventKind::StopEngaged).empty());
        // The highest frame after the impact, refined by the parabola through its neighbours.
        size_t top = 0;
        for (size_t k = 1; k + 1 < ys.size(); ++k)
            if (ts[k] > impacts[0].t && (top == 0 || ys[k] > ys[top])) top = k;
        QVERIFY(top > 0 && top + 1 < ys.size());
        const double a = ys[top - 1], b = ys[top], c = ys[top + 1];
        const double peak = b + (a - c) * (a - c) / (8.0 * (a - 2.0 * b + c)) * -1.0;
        const double rise = peak - (-L);
        const double expectedLoss = (1.0 - e * e) * m * kG * L;
        qInfo("impact at t = %.9f s; dissipated %.12f J (closed form %.12f); rebound %.10f m (e^2 L = %.10f); "
              "balance within %.2e J",
              impacts[0].t, dissipated, expectedLoss, rise, e * e * L, worstBalance);
        QVERIFY(std::abs(dissipated - expectedLoss) < 1e-8 * m * kG * L);
        QVERIFY(std::abs(rise - e * e * L) < 1e-7);
        QVERIFY(worstBalance < 1e-8 * m * kG * L);
    }

    // A ball dropped from h = 1 m onto a floor with e = 0.5 meets it at t₀ = √(2h/g) with
    // v₀ = √(2gh); its bounces, each e times slower, take (2v₀/g)·e/(1 − e) in all, and
    // end at t∞ = t₀ + that. The run makes plastic the first impact slower than v_c
    // (plasticImpactSpeed()), which cuts the sequence short by the rest of its bounces: at
    // most 2 v_c e / (g (1 − e)). So |t_engaged − t∞| is within that bound (plus the
    // motion's own error, 1e-9 s at rtol 1e-11), and the ball then rests on the floor, its
    // contact force pushing, until the end.
    void bouncingBallEndsAtTheClosedFormTime() {
        const double h = 1.0, e = 0.5;
        const LoadedModel lm = loadText(floorBallText(h, e));
        QVERIFY(lm.ok());
        const BounceSequence seq(*lm.model, h, e);
        const double v0 = seq.v0, t0 = seq.t0, tInf = seq.tInf, vc = seq.vc;
        const double bound = 2.0 * vc * e / (kG * (1.0 - e)) + 1e-9;
        double lastY = 0.0, worstBalance = 0.0;
        const double e0 = mechanicalEnergy(*lm.model, lm.initial).total();
        Simulator sim(lm.model, tight(tInf + 0.5, 1e-3));
        const SimulationResult r = sim.run(lm.initial, [&](const SimulationFrame& f) {
            lastY = f.state.q[1];
            worstBalance = std::max(worstBalance, std::abs(f.energy.total() - e0 + f.dissipated));
        });
        QVERIFY2(r.ok, r.message.c_str());
        const auto impacts = eventsOf(r, RunEventKind::Impact);
        const auto engaged = eventsOf(r, RunEventKind::StopEngaged);
        QCOMPARE(engaged.size(), size_t(1));
        QVERIFY(eventsOf(r, RunEventKind::StopReleased).empty());
        // The first impact at t₀, and as many as the bounces faster than v_c.
        const int expectedImpacts = 1 + static_cast<int>(std::floor(std::log(vc / v0) / std::log(e))) + 1;
        qInfo("%zu impacts, first at %.10f s (t0 = %.10f); engaged at %.10f s against t_inf = %.10f s "
              "(bound %.2e s, v_c = %.3e m/s); at rest %.3e m above the floor; balance within %.2e J",
              impacts.size(), impacts.front().t, t0, engaged[0].t, tInf, bound, vc, lastY, worstBalance);
        QVERIFY(std::abs(impacts.front().t - t0) < 1e-9);
        QCOMPARE(static_cast<int>(impacts.size()), expectedImpacts);
        QVERIFY(std::abs(engaged[0].t - tInf) <= bound);
        QVERIFY(engaged[0].t <= tInf);
        QVERIFY(std::abs(lastY) < 1e-12);
        QVERIFY(worstBalance < 1e-8 * kG * h);
    }

    // The same sequence under every other method: each engages the floor once, within the
    // threshold's bound of t∞ plus 1e-6 s for the motion's own error (rtol 1e-8 for the
    // second-order steppers; a free fall is a parabola, which they follow to rounding, so
    // the error is the event location's), and leaves the ball on the floor to 1e-6 m (the
    // penalty method's static deflection under the ball's weight is below that).
    void bouncingBallUnderEveryMethod() {
        const double h = 1.0, e = 0.5;
        const LoadedModel lm = loadText(floorBallText(h, e));
        QVERIFY(lm.ok());
        const BounceSequence seq(*lm.model, h, e);
        const double v0 = seq.v0, t0 = seq.t0, tInf = seq.tInf, vc = seq.vc;
        const double bound = 2.0 * vc * e / (kG * (1.0 - e)) + 1e-6;
        for (const char* method : {"baumgarte", "penalty", "augmented-lagrangian", "tlismni", "hht-index3"}) {
            SimulationSettings st = tight(tInf + 0.5, 1e-3);
            st.method = method;
            const bool secondOrder = std::string(method) == "tlismni" || std::string(method) == "hht-index3";
            if (secondOrder) st.integrator = "hht";
            if (secondOrder || std::string(method) == "penalty") {
                st.ode.rtol = 1e-8;
                st.ode.atol = 1e-10;
            }
            double lastY = 0.0;
            const SimulationResult r =
                Simulator(lm.model, st).run(lm.initial, [&](const SimulationFrame& f) { lastY = f.state.q[1]; });
            QVERIFY2(r.ok, (std::string(method) + ": " + r.message).c_str());
            const auto engaged = eventsOf(r, RunEventKind::StopEngaged);
            qInfo("%s: %zu impacts, engaged at %.9f s (t_inf %.9f s, bound %.2e s), at rest %.2e m above the floor",
                  method, eventsOf(r, RunEventKind::Impact).size(), engaged.empty() ? -1.0 : engaged[0].t, tInf, bound,
                  lastY);
            QCOMPARE(engaged.size(), size_t(1));
            QVERIFY(std::abs(engaged[0].t - tInf) <= bound);
            QVERIFY(std::abs(lastY) < 1e-6);
        }
    }

    // An impulse through the constraint space of a closed loop: a four-bar's crank strikes a
    // limit. After the impulse Φ_q v⁺ = 0 to rounding (1e-13 of the speed; the projected
    // state's Φ_q v⁻ was rounding too), the gap's rate is −e of its approach to rounding,
    // and with e = 1 no kinetic energy is lost (to 1e-13 of T).
    void impulseKeepsTheLoopClosed() {
        ModelDocument doc = test::exampleDocument("four-bar.json");
        doc.drivers.clear();
        const LoadedModel lm = prepareModel(doc);
        QVERIFY(lm.ok());
        const Model& m = *lm.model;
        // Some motion of the four-bar: the projection of a generic velocity.
        State s = lm.initial;
        ConstraintValues cv;
        evaluateConstraints(m, s, cv, kJacobian | kPhiT);
        VecX v = VecX::LinSpaced(m.velocitySize(), 0.3, -1.1);
        const MatX J = cv.denseJacobian();
        v -= J.transpose() * (J * J.transpose()).completeOrthogonalDecomposition().solve(J * v);
        s.v = v;
        Stop limit;
        limit.name = m.joints.front().name;
        limit.joint = JointIndex(0);
        limit.angular = true;
        const double theta = jointAngle(m, s, JointIndex(0));
        limit.lower = theta;
        limit.upper = theta + 1.0;
        StopGap gap = stopGap(m, limit, StopSide::Lower, s);
        if (gap.rate > 0.0) {  // approaching the lower limit
            s.v = -s.v;
            gap = stopGap(m, limit, StopSide::Lower, s);
        }
        QVERIFY(gap.rate < 0.0);
        const double T = 0.5 * s.v.dot(applyMass(m, s.v));
        for (double e : {1.0, 0.5, 0.0}) {
            const ImpactImpulse imp = impactImpulse(m, s, gap.gradient, -e * gap.rate);
            QVERIFY2(imp.ok, imp.message.c_str());
            State after = s;
            after.v = imp.velocity;
            evaluateConstraints(m, after, cv, kJacobian | kPhiT);
            const double closure = (cv.jacobian * after.v + cv.phiT).cwiseAbs().maxCoeff();
            const double speed = s.v.cwiseAbs().maxCoeff();
            const double rate = stopGap(m, limit, StopSide::Lower, after).rate;
            qInfo("e = %.1f: |Phi_q v+| = %.2e (speed %.2f), gap rate %.15f against %.15f, impulse %.6f, "
                  "loss %.6e J of %.6f",
                  e, closure, speed, rate, -e * gap.rate, imp.impulse, imp.energyLoss, T);
            QVERIFY(closure < 1e-13 * speed);
            QVERIFY(std::abs(rate + e * gap.rate) < 1e-13 * speed);
            QVERIFY(imp.impulse > 0.0);
            if (e == 1.0) QVERIFY(std::abs(imp.energyLoss) < 1e-13 * T);
            else QVERIFY(imp.energyLoss > 0.0);
        }
    }

    // Newton's cradle with e = 1: the first ball strikes the row at the bottom of its swing
    // with speed v (½(m + I/L²)v² = m g L(1 − cos φ)); struck one after another
    // (StopSupervisor.h), the contacts hand v from ball to ball, so that the last leaves
    // with it and the others stay at rest. At the first frame after the strike the others'
    // speeds are within 1e-9 m/s of zero (rounding and the located time's error: the balls
    // at rest at the bottom feel no force), and the last ball's speed is the closed form's
    // at its height then, v_last² = v² − 2 g y/(1 + I/(m L²)), to 1e-8 of v. It rises as high
    // as the first fell, to 1e-6 m: the frames every 1 ms miss its peak by at most ½ a h²,
    // about 1e-7 m. The swing passes back and forth, three strikes of four impacts each in
    // 2.6 s, and no contact ever engages: the rounding of one strike (1e-11 m/s of approach
    // left between resting balls) is not taken for a plastic impact.
    void cradlePassesTheMomentumToTheLastBall() {
        const double phi = 0.3, r0 = 0.05, I = 0.4 * r0 * r0;
        const LoadedModel lm = loadText(cradleText(1.0, phi, r0));
        QVERIFY(lm.ok());
        const Model& m = *lm.model;
        QCOMPARE(m.stops.size(), size_t(4));
        const int last = m.bodyCount() - 1;
        double tImpact = -1.0;
        std::vector<double> lastY;
        State firstAfter;
        Simulator sim(lm.model, tight(2.6, 1e-3));
        const SimulationResult r = sim.run(
            lm.initial,
            [&](const SimulationFrame& f) {
                if (tImpact >= 0.0 && firstAfter.v.size() == 0) firstAfter = f.state;
                lastY.push_back(f.state.q[m.positionOffset(BodyIndex(last)) + 1]);
            },
            [&](const SimulationEvent& e) {
                if (e.kind == RunEventKind::Impact && tImpact < 0.0) tImpact = e.t;
            });
        QVERIFY2(r.ok, r.message.c_str());
        const auto impacts = eventsOf(r, RunEventKind::Impact);
        QCOMPARE(impacts.size(), size_t(12));
        for (size_t k = 0; k < 12; ++k) QCOMPARE(impacts[k].t, impacts[k - k % 4].t);
        QVERIFY(eventsOf(r, RunEventKind::StopEngaged).empty());
        QVERIFY(firstAfter.v.size() > 0);
        const double v = std::sqrt(2.0 * kG * (1.0 - std::cos(phi)) / (1.0 + I));
        double others = 0.0;
        for (int b = 1; b < last; ++b)
            others = std::max(others, firstAfter.v.segment<3>(m.velocityOffset(BodyIndex(b))).norm());
        const double vLast = firstAfter.v.segment<3>(m.velocityOffset(BodyIndex(last))).norm();
        const double yLast = firstAfter.q[m.positionOffset(BodyIndex(last)) + 1];
        const double expected = std::sqrt(v * v - 2.0 * kG * yLast / (1.0 + I));
        // Its first swing out: the frames before the second strike.
        const size_t beforeSecond = static_cast<size_t>((impacts[4].t - lm.initial.t) / 1e-3);
        const double rise = *std::max_element(lastY.begin(), lastY.begin() + static_cast<long>(beforeSecond));
        qInfo("%zu impacts, the first four at t = %.9f s; at t = %.4f s the last ball moves at %.12f m/s (closed "
              "form %.12f), the others at most %.2e m/s; it rises %.9f m (the first fell %.9f)",
              impacts.size(), tImpact, firstAfter.t, vLast, expected, others, rise, 1.0 - std::cos(phi));
        QVERIFY(std::abs(vLast - expected) < 1e-8 * v);
        QVERIFY(others < 1e-9);
        QVERIFY(std::abs(rise - (1.0 - std::cos(phi))) < 1e-6);
    }

    // The four-bar falling under gravity with its crank limited to ±0.3 rad about its start
    // (restitution 0.7): a closed loop striking a stop, run by every method. The projection's run keeps E − E₀ + dissipated within 1e-7 of the energy it
    // exchanges (rtol 1e-11; its frames are on the manifolds). The other methods locate the
    // first impact within 1e-6 s of it (their constraint errors, within their bounds, and
    // the second-order steppers' rtol 1e-8 move the motion by less) and raise no
    // constraint_violation: no loop opens at an impact. After every impulse, under every
    // method, the loops are closed in velocity to rounding.
    void fourBarStrikingALimitUnderEveryMethod() {
        ModelDocument doc = test::exampleDocument("four-bar.json");
        QCOMPARE(doc.joints[0].name, std::string("A"));
        doc.joints[0].limits = std::array<double, 2>{-0.3, 0.3};
        doc.joints[0].restitution = 0.7;
        const LoadedModel lm = prepareModel(doc);
        QVERIFY(lm.ok());
        const double e0 = mechanicalEnergy(*lm.model, lm.initial).total();
        std::map<std::string, double> firstImpact;
        for (const char* method : {"projection", "baumgarte", "penalty", "augmented-lagrangian", "tlismni", "hht-index3"}) {
            SimulationSettings st = tight(1.5, 2e-3);
            st.method = method;
            if (std::string(method) == "tlismni" || std::string(method) == "hht-index3") {
                st.integrator = "hht";
                st.ode.rtol = 1e-8;
                st.ode.atol = 1e-10;
            }
            if (std::string(method) == "penalty" || std::string(method) == "augmented-lagrangian") {
                st.ode.rtol = 1e-9;
                st.ode.atol = 1e-11;
            }
            double worstBalance = 0.0, exchanged = 0.0;
            const SimulationResult r = Simulator(lm.model, st).run(lm.initial, [&](const SimulationFrame& f) {
                worstBalance = std::max(worstBalance, std::abs(f.energy.total() - e0 + f.dissipated));
                exchanged = std::max(exchanged, f.energy.kinetic);
            });
            QVERIFY2(r.ok, (std::string(method) + ": " + r.message).c_str());
            const auto impacts = eventsOf(r, RunEventKind::Impact);
            QVERIFY2(impacts.size() >= 2, method);
            QVERIFY(eventsOf(r, RunEventKind::ConstraintViolation).empty());
            firstImpact[method] = impacts.front().t;
            // Each impact says how closed the loops are in velocity after its impulse
            // (‖Φ_q v⁺ + Φ_t‖∞): rounding, 1e-12 against speeds of about 1 m/s.
            double worstClosure = 0.0;
            for (const SimulationEvent& e : impacts) {
                const size_t at = e.detail.find("loops closed to ");
                QVERIFY2(at != std::string::npos, e.detail.c_str());
                worstClosure = std::max(worstClosure, std::stod(e.detail.substr(at + 16)));
            }
            QVERIFY2(worstClosure < 1e-12, method);
            qInfo("%s: %zu impacts, the first at %.9f s; balance within %.2e J of %.4f J exchanged; "
                  "velocity violation up to %.2e over the frames, %.2e after the impulses",
                  method, impacts.size(), impacts.front().t, worstBalance, exchanged, r.maxViolation.velocity,
                  worstClosure);
            if (std::string(method) == "projection") QVERIFY(worstBalance < 1e-7 * exchanged);
        }
        for (const auto& [method, t] : firstImpact) QVERIFY2(std::abs(t - firstImpact["projection"]) < 1e-6, method.c_str());
    }

    // The model file: limits with restitution and a stop are read and written back; bad
    // values are refused with their place.
    void fileRoundTripAndRefusals() {
        DocumentResult r = parseModelDocument(cradleText(0.9, 0.3));
        QVERIFY(r.document);
        QCOMPARE(r.document->stops.size(), size_t(4));
        QCOMPARE(*r.document->stops[0].restitution, 0.9);
        const std::string text = serializeModelDocument(*r.document);
        DocumentResult back = parseModelDocument(text);
        QVERIFY(back.document);
        QCOMPARE(serializeModelDocument(*back.document), text);
        DocumentResult p = parseModelDocument(pendulumText(0.8));
        QVERIFY(p.document);
        QCOMPARE(*p.document->joints[0].restitution, 0.8);
        QCOMPARE(serializeModelDocument(*parseModelDocument(serializeModelDocument(*p.document)).document),
                 serializeModelDocument(*p.document));
        auto refused = [](std::string text, const std::string& from, const std::string& to, const char* where,
                          const char* what) {
            const size_t at = text.find(from);
            QVERIFY2(at != std::string::npos, from.c_str());
            text.replace(at, from.size(), to);
            const std::string d = diagnosticsOf(text);
            qInfo("%s", d.c_str());
            QVERIFY2(d.find(where) != std::string::npos && d.find(what) != std::string::npos, d.c_str());
        };
        refused(pendulumText(0.8), "\"restitution\": 0.8", "\"restitution\": 1.5", "/joints/0/restitution", "between 0");
        refused(pendulumText(0.8, 1.0, -1.0), "\"name\": \"pivot\"", "\"name\": \"pivot\"", "/joints/0/limits",
                "lower not above upper");
        refused(cradleText(0.9, 0.3), "\"min\": 0.1", "\"min\": -0.1", "/stops/0/min", "not negative");
        refused(cradleText(0.9, 0.3), "\"restitution\": 0.9", "\"restitution\": -0.2", "/stops/0/restitution",
                "between 0");
        refused(cradleText(0.9, 0.3), "\"min\": 0.1", "\"max\": 0.05, \"min\": 0.1", "/stops/0/max", "below its min");
    }

    // A start beyond a limit is refused with the joint's name.
    void startBeyondALimitIsRefused() {
        const LoadedModel lm = loadText(floorBallText(1.0, 0.5));
        QVERIFY(lm.ok());
        State s = lm.initial;
        s.q[1] = -1.5;  // half a metre below the floor
        const SimulationResult r = Simulator(lm.model, tight(0.1, 0.01)).run(s, [](const SimulationFrame&) {});
        QVERIFY(!r.ok);
        QVERIFY2(r.message.find("slide") != std::string::npos && r.message.find("beyond") != std::string::npos,
                 r.message.c_str());
    }
};

QTEST_GUILESS_MAIN(StopsTest)
#include "tst_stops.moc"
