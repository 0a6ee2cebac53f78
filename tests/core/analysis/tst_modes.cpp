// Eigenanalysis about a static equilibrium (Modes.h, ModesAlongMotion.h) and the
// `statics` and `modes` commands:
//  - a compound pendulum: the one frequency against sqrt(m g l / (I + m l²)) / 2π;
//  - the example four-bar (3 redundant equations) with a rotational spring-damper at its
//    crank, undamped (Lanczos) and damped (state-space Arnoldi): frequency and damping
//    ratio against the single-degree-of-freedom values from the reduced inertia and
//    stiffness computed from energies alone (ModesTestModels.h);
//  - the direct (scaled, shifted, sparse) result against the dense problem projected on
//    the null space of Φ_q, on a triple pendulum (3 modes) and the four-bar;
//  - conditioning with and without scaling on a stiff spring, and the unscaled result
//    flagged;
//  - the cantilever without scaling against the automatic scaling: the condition numbers,
//    the flag and warning (library and JSON), the scaled frequencies against Euler–Bernoulli
//    with the h⁴ mesh convergence;
//  - repeated frequencies (the cantilever's two bending planes) found twice;
//  - the beam four-bar: direct against dense, and the convergence under mesh refinement;
//  - a frequency three times, undamped and damped: all three copies, independent shapes;
//  - the automatic shift near the lowest frequency, against the explicit and reference shifts;
//  - the spurious-mode filter: a shift above the cantilever's spectrum, the rejected pairs
//    not reported and the reported ones against the dense projected problem;
//  - modes along the motion: the spring's anchor turned by a driver locked at 5 angles,
//    each frequency against the single-dof formula at that posture;
//  - tracking through a crossing: two pendulums, one tilted by the driver, each curve
//    against its own closed form on both sides of the crossing;
//  - the command-line tool's JSON, CSV and option checks.
#include "CliRunner.h"
#include "ModesTestModels.h"

#include "looplab/kinematics/Constraints.h"
#include "looplab/analysis/Modes.h"
#include "looplab/files/ModelFile.h"
#include "looplab/analysis/ModesAlongMotion.h"
#include "looplab/analysis/Statics.h"
#include "looplab/dynamics/ProjectionMethod.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <vector>

using namespace looplab;

namespace {

// Three bodies hanging in a chain of revolutes about z: three modes, no closed form
// needed (compared with the dense projected problem).
ModelDocument triplePendulum() {
    ModelDocument doc;
    doc.name = "triple pendulum";
    doc.gravity = Vec3(0.0, -9.81, 0.0);
    const double l = 0.5;
    std::string previous = "ground";
    for (int i = 0; i < 3; ++i) {
        BodyDoc b;
        b.name = "link" + std::to_string(i);
        b.mass = 1.0 + 0.3 * i;
        b.inertia = Vec3(0.02 + 0.01 * i, 0.025 + 0.01 * i, 0.03 + 0.02 * i).asDiagonal();
        b.position = Vec3(0.0, -l * (i + 0.5), 0.0);
        doc.bodies.push_back(b);
        JointDoc j;
        j.name = "J" + std::to_string(i);
        j.type = JointType::Revolute;
        j.body1 = previous;
        j.body2 = b.name;
        j.point = Vec3(0.0, -l * i, 0.0);
        j.axis = Vec3::UnitZ();
        doc.joints.push_back(j);
        previous = b.name;
    }
    return doc;
}

// The four-bar with its crank pivot A moved onto a light "anchor" body that turns about
// the ground on the revolute "base", driven by "turn": the rotational spring-damper acts
// between anchor and crank, so locking the driver at an angle moves the spring's rest
// position and the linkage settles into another posture.
ModelDocument anchoredFourBar(double stiffness) {
    ModelDocument doc = test::fourBarWithPivotSpring(stiffness, 0.0, 0.3);
    BodyDoc anchor;
    anchor.name = "anchor";
    anchor.mass = 0.1;
    anchor.inertia = Vec3(1e-4, 1e-4, 1e-4).asDiagonal();
    doc.bodies.push_back(anchor);
    for (JointDoc& j : doc.joints)
        if (j.name == "A") j.body1 = "anchor";
    JointDoc base;
    base.name = "base";
    base.type = JointType::Revolute;
    base.body1 = "ground";
    base.body2 = "anchor";
    base.axis = Vec3::UnitZ();
    doc.joints.push_back(base);
    DriverDoc turn;
    turn.name = "turn";
    turn.joint = "base";
    doc.drivers.push_back(turn);
    return doc;
}

// Two pendulums that do not interact, for mode tracking through a frequency crossing.
// "fixed" hangs from the ground on a revolute about z: ω² = m g l / (I + m l²), whatever
// the posture. "tilted" hangs from a light frame that the driver "tilt" turns about the x
// axis through its pivot; its revolute axis turns from z by the angle α, the component of
// gravity across that axis is g cos α, so ω² = m g l cos α / (I + m l²): its frequency falls
// through the fixed one's as α grows. Spherical inertias make I the same about any axis.
struct CrossingPendulums {
    double mFixed = 2.0, lFixed = 0.7, iFixed = 0.11;
    double mTilted = 1.0, lTilted = 0.4, iTilted = 0.01;
    double g = 9.81;
    double omega2Fixed() const { return mFixed * g * lFixed / (iFixed + mFixed * lFixed * lFixed); }
    double omega2Tilted(double alpha) const {
        return mTilted * g * lTilted * std::cos(alpha) / (iTilted + mTilted * lTilted * lTilted);
    }
    ModelDocument document() const {
        ModelDocument doc;
        doc.name = "crossing pendulums";
        doc.gravity = Vec3(0.0, -g, 0.0);
        auto body = [&](const char* name, double m, double inertia, const Vec3& at) {
            BodyDoc b;
            b.name = name;
            b.mass = m;
            b.inertia = Vec3::Constant(inertia).asDiagonal();
            b.position = at;
            doc.bodies.push_back(b);
        };
        auto revolute = [&](const char* name, const char* b1, const char* b2, const Vec3& at, const Vec3& axis) {
            JointDoc j;
            j.name = name;
            j.type = JointType::Revolute;
            j.body1 = b1;
            j.body2 = b2;
            j.point = at;
            j.axis = axis;
            doc.joints.push_back(j);
        };
        body("fixed", mFixed, iFixed, Vec3(-1.0, -lFixed, 0.0));
        revolute("fixed pivot", "ground", "fixed", Vec3(-1.0, 0.0, 0.0), Vec3::UnitZ());
        body("frame", 0.1, 1e-4, Vec3(1.0, 0.0, 0.0));
        revolute("frame pivot", "ground", "frame", Vec3(1.0, 0.0, 0.0), Vec3::UnitX());
        body("tilted", mTilted, iTilted, Vec3(1.0, -lTilted, 0.0));
        revolute("tilted pivot", "frame", "tilted", Vec3(1.0, 0.0, 0.0), Vec3::UnitZ());
        DriverDoc tilt;
        tilt.name = "tilt";
        tilt.joint = "frame pivot";
        doc.drivers.push_back(tilt);
        return doc;
    }
};

// Three identical compound pendulums side by side, each with a rotational spring-damper at
// its pivot (one frequency three times: ω² = (m g l + k)/(I + m l²), ζ = c/(2√((m g l + k)(I + m l²)))),
// beside a hanging chain of 20 links whose lowest frequency is below theirs and whose
// second is above: 138 coordinates, more than the 20 Lanczos/Arnoldi vectors.
struct TriplePendulumsAndChain {
    double m = 2.0, l = 0.7, I = 0.11, k = 1.0, g = 9.81;
    double omega2() const { return (m * g * l + k) / (I + m * l * l); }
    double dampingRatio(double c) const { return c / (2.0 * std::sqrt((m * g * l + k) * (I + m * l * l))); }
    ModelDocument document(double c) const {
        ModelDocument doc;
        doc.name = "three pendulums and a chain";
        doc.gravity = Vec3(0.0, -g, 0.0);
        auto link = [&](const std::string& name, const std::string& parent, double mass, const Vec3& inertia,
                        const Vec3& pivot, const Vec3& centre) {
            BodyDoc b;
            b.name = name;
            b.mass = mass;
            b.inertia = inertia.asDiagonal();
            b.position = centre;
            doc.bodies.push_back(b);
            JointDoc j;
            j.name = "pivot " + name;
            j.body1 = parent;
            j.body2 = name;
            j.point = pivot;
            doc.joints.push_back(j);
        };
        for (int i = 0; i < 3; ++i) {
            const std::string name = "pendulum" + std::to_string(i);
            link(name, "ground", m, Vec3(0.05, 0.08, I), Vec3(2.0 * i, 0.0, 0.0), Vec3(2.0 * i, -l, 0.0));
            ForceDoc f;
            f.name = "spring" + std::to_string(i);
            f.type = ForceType::RotationalSpringDamper;
            f.joint = "pivot " + name;
            f.stiffness = k;
            f.damping = c;
            doc.forces.push_back(f);
        }
        std::string previous = "ground";
        for (int i = 0; i < 20; ++i) {
            const std::string name = "link" + std::to_string(i);
            link(name, previous, 0.1, Vec3(1e-4, 1e-4, 1.2e-4), Vec3(-3.0, -0.1 * i, 0.0),
                 Vec3(-3.0, -0.1 * (i + 0.5), 0.0));
            previous = name;
        }
        return doc;
    }
};

// Equilibrium, or fail the test.
StaticsResult equilibrium(const Model& model, State& s) {
    const StaticsResult r = findEquilibrium(model, s);
    if (!r.ok) qWarning("statics: %s", r.message.c_str());
    return r;
}

}  // namespace

// Lowest bending frequencies [Hz] of a clamped–free beam of length L under a tip tension N
// that keeps its direction: the roots of the characteristic equation derived in
// docs/methods.md ("A cantilever under axial tension"),
//   2α²β² + (α⁴ + β⁴) cosh αL cos βL + αβ(α² − β²) sinh αL sin βL = 0,
// found by scanning ω for sign changes and bisecting, the equation divided by cosh αL.
// For N = 0 it is the cantilever's 1 + cosh λ cos λ = 0.
std::vector<double> tensionedCantileverFrequencies(double EI, double rhoA, double L, double N, int count) {
    auto f = [&](double omega) {
        const double root = std::sqrt(N * N + 4.0 * EI * rhoA * omega * omega);
        const double a2 = (root + N) / (2.0 * EI), b2 = (root - N) / (2.0 * EI);
        const double a = std::sqrt(a2), b = std::sqrt(b2);
        return 2.0 * a2 * b2 / std::cosh(a * L) + (a2 * a2 + b2 * b2) * std::cos(b * L) +
               a * b * (a2 - b2) * std::tanh(a * L) * std::sin(b * L);
    };
    std::vector<double> out;
    const double dw = 0.05 * 2.0 * M_PI;  // 0.05 Hz: far below the spacing of the roots
    for (double w = dw; int(out.size()) < count && w < 1e6; w += dw) {
        if ((f(w) > 0.0) == (f(w + dw) > 0.0)) continue;
        double lo = w, hi = w + dw;
        for (int k = 0; k < 200 && hi - lo > 1e-13 * hi; ++k) {
            const double mid = 0.5 * (lo + hi);
            ((f(mid) > 0.0) == (f(lo) > 0.0) ? lo : hi) = mid;
        }
        out.push_back(0.5 * (lo + hi) / (2.0 * M_PI));
    }
    return out;
}

class ModesTest : public QObject {
    Q_OBJECT
private slots:
    void compoundPendulum() {
        const test::CompoundPendulum p;
        const Model model = test::buildOrStop(p.document(0.4));
        State s = initialState(model);
        const StaticsResult st = equilibrium(model, s);
        QVERIFY(st.ok);
        ModesOptions o;
        o.count = 1;
        const ModesResult r = computeModes(model, s, st.lambda, o);
        QVERIFY2(r.ok, r.message.c_str());
        QCOMPARE(int(r.modes.size()), 1);
        const double expected = std::sqrt(p.omega2()) / (2 * M_PI);
        const double err = std::abs(r.modes[0].frequencyHz - expected) / expected;
        qInfo("pendulum: %.15g Hz, closed form %.15g Hz (rel. %.2g); dense check %.2g; beta %.3g, kappa %.3g -> %.3g",
              r.modes[0].frequencyHz, expected, err, r.denseDifference, r.scaling, r.conditionUnscaled, r.conditionScaled);
        // The equilibrium is met to a force residual of 1e-10 (an angle error of the same
        // order, which moves ω² by its square); the rest is rounding: 1e-9 has a margin.
        QVERIFY(err < 1e-9);
        QVERIFY(r.symmetric && !r.damped && !r.flagged);
        QCOMPARE(r.modes[0].dampingRatio, 0.0);
        QVERIFY(r.modes[0].constraintResidual < 1e-12);
        // Unit modal mass.
        QVERIFY(std::abs(r.modes[0].shape.dot(applyMass(model, r.modes[0].shape)) - 1.0) < 1e-12);
        QVERIFY(r.denseChecked && r.denseDifference < 1e-9);
    }

    void fourBarMatchesSingleDof_data() {
        QTest::addColumn<double>("damping");
        QTest::newRow("undamped (Lanczos)") << 0.0;
        QTest::newRow("damped (state space)") << 0.05;
    }
    void fourBarMatchesSingleDof() {
        QFETCH(double, damping);
        const double k = 2.0;
        const ModelDocument doc = test::fourBarWithPivotSpring(k, damping, 0.5);
        const Model model = test::buildOrStop(doc);
        State s = initialState(model);
        const StaticsResult st = equilibrium(model, s);
        QVERIFY(st.ok);
        ModesOptions o;
        o.count = 3;  // more than the one degree of freedom: only one may come back
        const ModesResult r = computeModes(model, s, st.lambda, o);
        QVERIFY2(r.ok, r.message.c_str());
        QCOMPARE(int(r.modes.size()), 1);
        QCOMPARE(r.damped, damping > 0);
        const double theta = jointAngle(model, s, JointIndex(0));
        const test::SingleDofReduction red = test::reduceAlongJoint(doc, "A", theta, s);
        QVERIFY(red.ok);
        const double fn = std::sqrt(red.omega2()) / (2 * M_PI);
        // The spring-damper acts on the joint angle itself: c_red = c.
        const double zeta = damping / (2.0 * std::sqrt(red.stiffness * red.inertia));
        const Mode& m = r.modes[0];
        qInfo("four-bar: %.12g Hz, zeta %.9g; single dof %.12g Hz, zeta %.9g (k_red %.9g, m_red %.9g); "
              "dense check %.2g; beta %.3g, kappa %.3g -> %.3g",
              m.frequencyHz, m.dampingRatio, fn, zeta, red.stiffness, red.inertia, r.denseDifference, r.scaling,
              r.conditionUnscaled, r.conditionScaled);
        // k_red from central differences with h = 1e-3 rad: truncation h²/12 V''''/V'' of
        // order 1e-7 relative, assembly rounding 1e-16 J / h² ~ 1e-10: 1e-6 on ω², 5e-7 on f.
        QVERIFY(std::abs(m.frequencyHz - fn) < 5e-7 * fn);
        if (damping > 0) QVERIFY(std::abs(m.dampingRatio - zeta) < 1e-6 * zeta);
        else QCOMPARE(m.dampingRatio, 0.0);
        QVERIFY(r.denseChecked && r.denseDifference < 1e-6);
    }

    void directAgreesWithDense() {
        for (const ModelDocument& doc : {triplePendulum(), test::fourBarWithPivotSpring(2.0, 0.0, 0.5)}) {
            const Model model = test::buildOrStop(doc);
            State s = initialState(model);
            const StaticsResult st = equilibrium(model, s);
            QVERIFY(st.ok);
            ModesOptions o;
            o.count = 3;
            const ModesResult r = computeModes(model, s, st.lambda, o);
            QVERIFY2(r.ok, r.message.c_str());
            QCOMPARE(int(r.modes.size()), st.degreesOfFreedom);
            qInfo("%s: %d modes, largest difference to the dense projected problem %.3g", doc.name.c_str(),
                  int(r.modes.size()), r.denseDifference);
            // The paper's claim: the scaled direct problem is as accurate as the reduced one.
            QVERIFY(r.denseChecked && r.denseDifference < 1e-6);
            for (size_t i = 0; i < r.modes.size(); ++i) {
                const double wd = std::abs(r.denseEigenvalues[i]);
                QVERIFY(std::abs(r.modes[i].frequencyHz * 2 * M_PI - wd) < 1e-6 * wd);
            }
        }
    }

    // The multiplier increments δλ of each mode against the nonlinear equations of motion,
    // an independent path (no linearisation, no eigensolver): at rest at q* ⊕ εx the
    // projection method's accelerations are −ω²εx and its constraint forces change by
    // −Φ_qᵀδλ ε, to first order in ε (central differences; the forces compared as Φ_qᵀλ,
    // which is unique where λ is not, on the four-bar's redundant equations). The multiplier
    // curvature of K is part of the accelerations, not of Φ_q(q*)ᵀΔλ, so both checks are
    // needed.
    void multiplierIncrementsAgreeWithDynamics() {
        for (const ModelDocument& doc : {triplePendulum(), test::fourBarWithPivotSpring(2.0, 0.0, 0.5)}) {
            const auto model = std::make_shared<const Model>(test::buildOrStop(doc));
            State s = initialState(*model);
            const StaticsResult st = equilibrium(*model, s);
            QVERIFY(st.ok);
            ModesOptions o;
            o.count = 3;
            const ModesResult r = computeModes(*model, s, st.lambda, o);
            QVERIFY2(r.ok, r.message.c_str());
            ConstraintValues cv;
            evaluateConstraints(*model, s, cv, kJacobian);
            ProjectionMethod method(model, ConstraintMethodSettings{});
            for (const Mode& mode : r.modes) {
                // ε: a displacement of 1e-5 of the length scale along the unit-modal-mass shape.
                const double eps = 1e-5 * model->lengthScale / mode.shape.cwiseAbs().maxCoeff();
                MotionEvaluation plus, minus;
                for (const double sign : {1.0, -1.0}) {
                    State d = s;
                    retract(*model, d.q, sign * eps * mode.shape);
                    d.v.setZero();
                    QVERIFY(method.correct(d).ok);
                    QVERIFY(method.evaluate(d, sign > 0 ? plus : minus).ok);
                }
                const VecX acceleration = (plus.acceleration - minus.acceleration) / (2 * eps);
                const VecX force = cv.jacobian.transpose() * ((plus.multipliers - minus.multipliers) / (2 * eps));
                const VecX forceModes = cv.jacobian.transpose() * mode.multipliers;
                const double accelerationError =
                    (acceleration + mode.squaredFrequency * mode.shape).norm() / (mode.squaredFrequency * mode.shape.norm());
                const double forceError = (force - forceModes).norm() / forceModes.norm();
                qInfo("%s, %.6g Hz: accelerations %.3g, constraint forces %.3g (|Phi_q^T dlambda| %.4g) relative "
                      "to the dynamics",
                      doc.name.c_str(), mode.frequencyHz, accelerationError, forceError, forceModes.norm());
                QVERIFY(accelerationError < 1e-7);
                QVERIFY(forceError < 1e-7);
            }
        }
    }

    void scalingConditioning() {
        // A stiff spring (1e6 N·m/rad) makes K's entries ~1e6 against Φ_q's ~1: without
        // scaling the augmented matrix's condition number grows with the square of that
        // ratio (the paper's analysis), with scaling it is of the order of the spread of
        // K and M alone.
        const double k = 1e6;
        const ModelDocument doc = test::fourBarWithPivotSpring(k, 0.0, 0.5);
        const Model model = test::buildOrStop(doc);
        State s = initialState(model);
        const StaticsResult st = equilibrium(model, s);
        QVERIFY(st.ok);
        ModesOptions scaled;
        scaled.count = 1;
        ModesOptions naive = scaled;
        naive.scaling = ModeScaling::None;
        const ModesResult rs = computeModes(model, s, st.lambda, scaled);
        const ModesResult rn = computeModes(model, s, st.lambda, naive);
        QVERIFY2(rs.ok, rs.message.c_str());
        qInfo("stiff four-bar: beta %.3g, kappa unscaled %.3g, scaled %.3g (ratio %.3g); scaled %.12g Hz, "
              "unscaled %s", rs.scaling, rs.conditionUnscaled, rs.conditionScaled,
              rs.conditionUnscaled / rs.conditionScaled,
              rs.modes[0].frequencyHz, rn.ok ? qPrintable(QString::number(rn.modes[0].frequencyHz, 'g', 12)) : rn.message.c_str());
        // Both runs estimate the unscaled matrix: the naive one from its own factors, the
        // scaled one from the factors of the scaled matrix. Two lower bounds of the same
        // κ₁, each within the estimator's factor of 3.
        QVERIFY(rn.conditionUnscaled < 3 * rs.conditionUnscaled && rs.conditionUnscaled < 3 * rn.conditionUnscaled);
        // β² = 1e12 would be the full effect; the mass block and the shift keep part of
        // the spread in both, so ask for 1e8: far beyond any estimator's factor-of-3 slack.
        QVERIFY(rs.conditionUnscaled > 1e8 * rs.conditionScaled);
        QVERIFY(rn.flagged && rn.illConditioned);
        QVERIFY(!rs.flagged);
        bool warned = false;
        for (const std::string& w : rn.warnings) warned = warned || w.find("ill-conditioned") != std::string::npos;
        QVERIFY(warned);
        // The scaled result is right (the single-dof reduction, as above).
        const test::SingleDofReduction red =
            test::reduceAlongJoint(doc, "A", jointAngle(model, s, JointIndex(0)), s);
        const double fn = std::sqrt(red.omega2()) / (2 * M_PI);
        QVERIFY(std::abs(rs.modes[0].frequencyHz - fn) < 5e-7 * fn);
    }

    void alongTheMotion() {
        const ModelDocument doc = anchoredFourBar(2.0);
        const Model model = test::buildOrStop(doc);
        AlongMotionOptions o;
        o.driver = "turn";
        o.from = -0.2;
        o.to = 0.6;
        o.steps = 5;
        o.modes.count = 2;
        const AlongMotionResult r = modesAlongMotion(model, initialState(model), o);
        QVERIFY2(r.ok, r.message.c_str());
        QCOMPARE(int(r.steps.size()), 5);
        double worst = 0.0, lo = 1e300, hi = 0.0;
        for (const AlongMotionStep& step : r.steps) {
            QCOMPARE(int(step.frequenciesHz.size()), 1);  // one degree of freedom
            ModelDocument locked = doc;
            locked.drivers[0].law.kind = TimeLaw::Kind::Constant;
            locked.drivers[0].law.initial = step.coordinate;
            const double theta = jointAngle(model, step.state, JointIndex(0));
            const test::SingleDofReduction red = test::reduceAlongJoint(locked, "A", theta, step.state);
            QVERIFY(red.ok);
            const double fn = std::sqrt(red.omega2()) / (2 * M_PI);
            worst = std::max(worst, std::abs(step.frequenciesHz[0] - fn) / fn);
            lo = std::min(lo, fn);
            hi = std::max(hi, fn);
            qInfo("anchor %.3f rad: %.10f Hz, single dof %.10f Hz", step.coordinate, step.frequenciesHz[0], fn);
        }
        // Tolerance as in fourBarMatchesSingleDof; the curve must really vary, or the
        // comparison would say little.
        QVERIFY2(worst < 5e-7, qPrintable(QString::number(worst)));
        QVERIFY(hi > 1.01 * lo);
    }

    // The postures of a range are (1 − t) from + t to: the ends exactly as given, in either
    // order, and finite even where to − from overflows (−1e308 … 1e308 gave inf and NaN
    // postures). The four-bar cannot hold such angles in equilibrium; only the postures and
    // the failures' reasons are checked.
    void alongRangeEndsAreExactAndFinite() {
        const Model model = test::buildOrStop(anchoredFourBar(2.0));
        AlongMotionOptions o;
        o.driver = "turn";
        o.modes.count = 1;
        o.statics.maxNewtonIterations = 3;
        o.statics.method = StaticsMethod::Newton;
        for (const auto& [from, to] : {std::pair{0.6, -0.2}, std::pair{-1e308, 1e308}}) {
            o.from = from;
            o.to = to;
            o.steps = 3;
            const AlongMotionResult r = modesAlongMotion(model, initialState(model), o);
            QCOMPARE(int(r.steps.size()), 3);
            QCOMPARE(r.steps.front().coordinate, from);
            QCOMPARE(r.steps.back().coordinate, to);
            QCOMPARE(r.steps[1].coordinate, 0.5 * from + 0.5 * to);
            for (const AlongMotionStep& step : r.steps)
                QVERIFY2(step.ok || !step.message.empty(), "a failed posture without a reason");
        }
    }

    // Modes tracked by their shapes through a crossing (CrossingPendulums): the tilted
    // pendulum's frequency falls from 0.76 Hz through the fixed one's 0.56 Hz at α = 0.99 rad.
    // Sorted by frequency, the first curve would jump from one pendulum to the other there;
    // tracked, each curve keeps its pendulum's closed form on both sides.
    void trackingThroughCrossing() {
        const CrossingPendulums p;
        const Model model = test::buildOrStop(p.document());
        AlongMotionOptions o;
        o.driver = "tilt";
        o.from = 0.0;
        o.to = 1.3;
        o.steps = 8;  // 0.186 rad apart; none within 0.06 rad of the crossing
        o.modes.count = 2;
        const AlongMotionResult r = modesAlongMotion(model, initialState(model), o);
        QVERIFY2(r.ok, r.message.c_str());
        QCOMPARE(int(r.steps.size()), 8);
        const double crossing = std::acos(p.omega2Fixed() / p.omega2Tilted(0.0));
        const double fFixed = std::sqrt(p.omega2Fixed()) / (2 * M_PI);
        // Which track is which pendulum is decided at the first posture, where the fixed
        // pendulum is the lower.
        QVERIFY(fFixed < std::sqrt(p.omega2Tilted(0.0)) / (2 * M_PI));
        double worst = 0.0, weakest = 1.0;
        int before = 0, after = 0;
        for (const AlongMotionStep& step : r.steps) {
            QCOMPARE(int(step.frequenciesHz.size()), 2);
            const double fTilted = std::sqrt(p.omega2Tilted(step.coordinate)) / (2 * M_PI);
            qInfo("tilt %.4f rad: tracks %.12f %.12f Hz, closed forms %.12f %.12f Hz, MAC %.9f %.9f",
                  step.coordinate, step.frequenciesHz[0], step.frequenciesHz[1], fFixed, fTilted,
                  step.correlation[0], step.correlation[1]);
            worst = std::max({worst, std::abs(step.frequenciesHz[0] - fFixed) / fFixed,
                              std::abs(step.frequenciesHz[1] - fTilted) / fTilted});
            weakest = std::min({weakest, step.correlation[0], step.correlation[1]});
            (step.coordinate < crossing ? before : after)++;
        }
        qInfo("crossing at %.6f rad; largest relative difference %.3g; smallest MAC %.9f", crossing, worst, weakest);
        // Both sides of the crossing visited, with the order of the frequencies reversed
        // at the end: a sorted assignment would be off there by 30 and 43 %.
        QVERIFY(before >= 3 && after >= 2);
        QVERIFY(r.steps.back().frequenciesHz[1] < 0.75 * r.steps.back().frequenciesHz[0]);
        // Measured 5.6e-16; the equilibrium's force tolerance (1e-10) would allow errors of
        // its order, 1e-8 is far below any swap.
        QVERIFY2(worst < 1e-8, qPrintable(QString::number(worst)));
    }

    // Postures given as a list (as the workbench does for the times of a recording), in
    // an order that is not monotonic, and a sweep cancelled after its second step.
    void alongListedPostures() {
        const ModelDocument doc = anchoredFourBar(2.0);
        const Model model = test::buildOrStop(doc);
        AlongMotionOptions o;
        o.driver = "turn";
        o.coordinates = {0.6, -0.2, 0.2};
        o.modes.count = 1;
        const AlongMotionResult r = modesAlongMotion(model, initialState(model), o);
        QVERIFY2(r.ok, r.message.c_str());
        QCOMPARE(int(r.steps.size()), 3);
        for (size_t i = 0; i < r.steps.size(); ++i) {
            const AlongMotionStep& step = r.steps[i];
            QCOMPARE(step.coordinate, o.coordinates[i]);
            ModelDocument locked = doc;
            locked.drivers[0].law.kind = TimeLaw::Kind::Constant;
            locked.drivers[0].law.initial = step.coordinate;
            const double theta = jointAngle(model, step.state, JointIndex(0));
            const test::SingleDofReduction red = test::reduceAlongJoint(locked, "A", theta, step.state);
            QVERIFY(red.ok);
            const double fn = std::sqrt(red.omega2()) / (2 * M_PI);
            QVERIFY2(std::abs(step.frequenciesHz[0] - fn) < 5e-7 * fn, qPrintable(QString::number(step.frequenciesHz[0])));
        }
        int calls = 0;
        const AlongMotionResult c = modesAlongMotion(model, initialState(model), o, {}, [&] { return ++calls > 2; });
        QVERIFY(!c.ok);
        QCOMPARE(QString::fromStdString(c.message), QString("cancelled"));
        QCOMPARE(int(c.steps.size()), 2);
    }

    // A hanging chain of 200 revolute links (1 200 coordinates: the sparse path of
    // ConstraintSpaces, the determinant test of stability): ten modes against the dense
    // projected problem, and the lowest three against the continuous heavy chain,
    // ω_k = (j₀,ₖ / 2) √(g/ℓ), j₀,ₖ the zeros of J₀.
    // The shipped steel cantilever (1 m, 20 mm square, cable elements) without gravity or
    // tip load, and under its 10 kN tip tension: the five lowest bending frequencies (each
    // twice, one per bending plane of the square section) against the continuous beam's
    // characteristic equation. The issue asks for 0.5 %; with 16 elements the cubic
    // interpolation is far closer, and refining from 8 elements brings the fifth closer.
    void cantileverBendingFrequencies_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<double>("tension");
        QTest::newRow("no tension") << QString("cantilever-beam.json") << 0.0;
        QTest::newRow("10 kN tension") << QString("cantilever-beam-tension.json") << 1e4;
    }

    void cantileverBendingFrequencies() {
        QFETCH(QString, file);
        QFETCH(double, tension);
        const double E = 210e9, rho = 7850.0, side = 0.02, L = 1.0;
        const double EI = E * side * side * side * side / 12.0, rhoA = rho * side * side;
        const std::vector<double> exact = tensionedCantileverFrequencies(EI, rhoA, L, tension, 5);
        QCOMPARE(int(exact.size()), 5);
        if (tension == 0.0) {
            // The textbook roots λ = 1.8751…, 4.6941…: the root finder itself checked.
            const double scale = std::sqrt(EI / rhoA) / (2.0 * M_PI * L * L);
            QVERIFY(std::abs(exact[0] - 1.875104068711961 * 1.875104068711961 * scale) < 1e-9 * exact[0]);
            QVERIFY(std::abs(exact[4] - 14.13716839104647 * 14.13716839104647 * scale) < 1e-9 * exact[4]);
        }
        double fifthError[2] = {0.0, 0.0};
        for (int refinement = 0; refinement < 2; ++refinement) {
            ModelDocument doc = test::exampleDocument(file.toLatin1().constData());
            doc.gravity = Vec3::Zero();
            doc.forces.erase(std::remove_if(doc.forces.begin(), doc.forces.end(),
                                            [](const ForceDoc& f) { return f.name == "tip load"; }),
                             doc.forces.end());
            QCOMPARE(int(doc.beams.size()), 1);
            QCOMPARE(doc.beams[0].preload, tension);
            doc.beams[0].elements = refinement == 0 ? 8 : 16;
            const Model model = test::buildOrStop(doc);
            State s = initialState(model);
            const StaticsResult st = equilibrium(model, s);
            QVERIFY2(st.ok, st.message.c_str());
            ModesOptions o;
            o.count = 10;
            const ModesResult r = computeModes(model, s, st.lambda, o);
            QVERIFY2(r.ok, r.message.c_str());
            QCOMPARE(int(r.modes.size()), 10);
            QString line;
            for (int k = 0; k < 5; ++k) {
                for (int plane = 0; plane < 2; ++plane) {
                    const double fk = r.modes[size_t(2 * k + plane)].frequencyHz;
                    const double err = std::abs(fk - exact[size_t(k)]) / exact[size_t(k)];
                    if (refinement == 1) QVERIFY2(err < 0.005, qPrintable(QString("mode %1: %2 Hz against %3 Hz")
                                                                       .arg(k + 1).arg(fk).arg(exact[size_t(k)])));
                    if (k == 4) fifthError[refinement] = std::max(fifthError[refinement], err);
                    if (plane == 0) line += QString(" %1 (%2)").arg(fk, 0, 'f', 4).arg(err, 0, 'g', 2);
                }
            }
            qInfo("%s, %d elements: Hz (rel. error) %s; exact %.4f %.4f %.4f %.4f %.4f", qPrintable(file),
                  doc.beams[0].elements, qPrintable(line), exact[0], exact[1], exact[2], exact[3], exact[4]);
        }
        QVERIFY2(fifthError[1] < fifthError[0], qPrintable(QString("%1 then %2").arg(fifthError[0]).arg(fifthError[1])));
    }

    // The shipped cantilever (20 mm square steel, cable elements, clamped by 5 constraint
    // equations) without gravity and tip load, its modes computed without scaling (β = 1)
    // and with the automatic β = max|K_ij| (the axial stiffness of an element, 8e8 to
    // 3e9 N/m): the demonstration that the naive augmented matrix is flagged and
    // the scaled result exact. Each bending frequency comes twice (two planes).
    //
    // Scaled, against Euler–Bernoulli: the cubic interpolation converges like h⁴ from above
    // (consistent mass: a Rayleigh–Ritz upper bound). Measured relative errors with 4, 8, 16
    // elements: first 3.27e-5, 2.08e-6, 1.31e-7; second 1.17e-3, 8.0e-5, 5.1e-6 (ratios
    // 15.7–16.0 and 14.6–15.7), i.e. C_k (h/L)⁴ with C₁ = 8.4e-3, C₂ = 0.34. The tolerance is
    // 1.5 C_k (h/L)⁴: loose enough for rounding, tight enough that a mode of the wrong
    // plane or order, or a mesh converging more slowly than h⁴, fails.
    //
    // Unscaled: κ₁ of the shifted matrix is 7e11 to 8e12 times that of the scaled one
    // (6e16–1.6e18 against 8e4–2e5), so it is flagged and warned about. Its frequencies,
    // though, are the scaled ones to the last digit (difference 0), and so they were for β
    // from 1e-18 to 1e9 max|K_ij|, and at β = 1 with UMFPACK's row scaling switched off:
    // the sparse LU's threshold partial pivoting does not suffer from a diagonal scaling of
    // the multiplier rows and columns, and κ₁ bounds the error of the whole solution,
    // multipliers included, of which the iteration uses only the coordinates. The flag is a
    // bound, not an observed error; the test holds both facts so that a change to either
    // is seen.
    void unscaledCantileverIsFlagged() {
        const double E = 210e9, rho = 7850.0, side = 0.02, L = 1.0;
        const double EI = E * side * side * side * side / 12.0, rhoA = rho * side * side;
        const double roots[2] = {1.875104068711961, 4.694091132974175};
        const double convergence[2] = {8.4e-3, 0.34};  // C_k of the h⁴ law, measured
        double exact[2];
        for (int k = 0; k < 2; ++k)
            exact[k] = roots[k] * roots[k] / (2.0 * M_PI * L * L) * std::sqrt(EI / rhoA);
        double previousError[2] = {0.0, 0.0};
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        for (const int elements : {4, 8, 16}) {
            ModelDocument doc = test::exampleDocument("cantilever-beam.json");
            doc.gravity = Vec3::Zero();
            doc.forces.clear();
            doc.beams[0].elements = elements;
            const Model model = test::buildOrStop(doc);
            State s = initialState(model);
            const StaticsResult st = equilibrium(model, s);
            QVERIFY2(st.ok, st.message.c_str());
            ModesOptions scaled;
            scaled.count = 4;
            ModesOptions naive = scaled;
            naive.scaling = ModeScaling::None;
            const ModesResult rs = computeModes(model, s, st.lambda, scaled);
            const ModesResult rn = computeModes(model, s, st.lambda, naive);
            QVERIFY2(rs.ok, rs.message.c_str());
            QVERIFY2(rn.ok, rn.message.c_str());
            QCOMPARE(int(rs.modes.size()), 4);
            QCOMPARE(int(rn.modes.size()), 4);
            const double h = L / elements;
            double unscaledDifference = 0.0;
            for (int k = 0; k < 2; ++k) {
                double error = 0.0;
                for (int plane = 0; plane < 2; ++plane) {
                    const size_t i = size_t(2 * k + plane);
                    const double e = (rs.modes[i].frequencyHz - exact[k]) / exact[k];
                    QVERIFY2(e > 0.0 && e < 1.5 * convergence[k] * std::pow(h / L, 4),
                             qPrintable(QString("%1 elements, mode %2: %3 Hz against %4 Hz")
                                            .arg(elements).arg(i + 1).arg(rs.modes[i].frequencyHz, 0, 'g', 12)
                                            .arg(exact[k], 0, 'g', 12)));
                    error = std::max(error, e);
                    unscaledDifference = std::max(unscaledDifference,
                                                  std::abs(rn.modes[i].frequencyHz - rs.modes[i].frequencyHz) /
                                                      rs.modes[i].frequencyHz);
                }
                if (previousError[k] > 0.0) {
                    const double order = std::log2(previousError[k] / error);
                    qInfo("  bending %d: observed order %.2f", k + 1, order);
                    QVERIFY2(order > 3.5 && order < 4.5, qPrintable(QString::number(order)));
                }
                previousError[k] = error;
            }
            qInfo("%d elements: %.10f %.10f Hz (rel. %.3g %.3g; Euler-Bernoulli %.10f %.10f Hz); beta %.4g; "
                  "kappa unscaled %.3g (own factors %.3g), scaled %.3g, ratio %.3g; unscaled frequencies off by %.2g",
                  elements, rs.modes[0].frequencyHz, rs.modes[2].frequencyHz,
                  (rs.modes[0].frequencyHz - exact[0]) / exact[0], (rs.modes[2].frequencyHz - exact[1]) / exact[1],
                  exact[0], exact[1], rs.scaling, rs.conditionUnscaled, rn.conditionScaled, rs.conditionScaled,
                  rs.conditionUnscaled / rs.conditionScaled, unscaledDifference);
            // The scaled matrix keeps 10 of 16 digits; the unscaled one is reported and
            // flagged, with the warning that tells the user to scale.
            QVERIFY(!rs.flagged && !rs.illConditioned && rs.warnings.empty());
            QVERIFY(rn.flagged && rn.illConditioned);
            QVERIFY(std::any_of(rn.warnings.begin(), rn.warnings.end(), [](const std::string& w) {
                return w.find("ill-conditioned") != std::string::npos &&
                       w.find("use the automatic scaling") != std::string::npos;
            }));
            // Both estimates of the unscaled κ₁ (own factors, scaled factors) within the
            // estimator's factor of 3; the ratio measured 7e11–8e12.
            QVERIFY(rn.conditionScaled < 3 * rs.conditionUnscaled && rs.conditionUnscaled < 3 * rn.conditionScaled);
            QVERIFY(rs.conditionUnscaled > 1e11 * rs.conditionScaled);
            QVERIFY(rn.conditionScaled * std::numeric_limits<double>::epsilon() > 1.0);
            QVERIFY(rs.conditionScaled * std::numeric_limits<double>::epsilon() < 1e-10);
            // What the unscaled run returns today (see above): the scaled frequencies
            // (measured difference 0), every residual at rounding level.
            QVERIFY2(unscaledDifference < 1e-9, qPrintable(QString::number(unscaledDifference)));
            QVERIFY(rs.denseChecked && rs.denseDifference < 1e-9);

            if (elements != 8) continue;
            // The same through the command line: both condition numbers, the flag and the
            // warning in the JSON of `modes --scaling none`, none of them with `auto`.
            const QString file = dir.filePath("cantilever.json");
            QVERIFY(writeModelDocument(doc, file.toStdString(), nullptr));
            for (const char* scaling : {"none", "auto"}) {
                const test::CliResult c = test::runCli({"modes", file, "--count", "4", "--scaling", scaling, "--json"});
                QVERIFY2(c.finished && c.exitCode == 0, c.err.constData());
                const QJsonObject j = QJsonDocument::fromJson(c.out).object();
                const bool none = QString(scaling) == "none";
                const ModesResult& lib = none ? rn : rs;
                QCOMPARE(j["scaling"].toDouble(), lib.scaling);
                const QJsonObject cond = j["condition"].toObject();
                QVERIFY(std::abs(cond["unscaled"].toDouble() - lib.conditionUnscaled) < 1e-6 * lib.conditionUnscaled);
                QVERIFY(std::abs(cond["scaled"].toDouble() - lib.conditionScaled) < 1e-6 * lib.conditionScaled);
                QCOMPARE(j["ill_conditioned"].toBool(), none);
                QCOMPARE(j["flagged"].toBool(), none);
                const QJsonArray warnings = j["warnings"].toArray();
                QCOMPARE(warnings.size(), none ? 1 : 0);
                if (none) QVERIFY(warnings[0].toString().contains("ill-conditioned"));
                QVERIFY(c.err.contains("ill-conditioned") == none);
                const QJsonArray modes = j["modes"].toArray();
                QCOMPARE(modes.size(), 4);
                for (int i = 0; i < 4; ++i)
                    QVERIFY(std::abs(modes[i].toObject()["frequency_hz"].toDouble() - lib.modes[size_t(i)].frequencyHz) <
                            1e-12 * lib.modes[size_t(i)].frequencyHz);
            }
        }
    }

    // The spurious-mode filter at work, and the whole spectrum without it. With the shift
    // σ = 2 ω²_max above the whole spectrum of the 8-element cantilever, the low modes'
    // shift-inverted values ν = 1/(ω² − σ) crowd within 1e-5 of −1/σ.
    // - Every mode asked for (49, the whole tangent space): the Rayleigh-Ritz problem on the
    //   range of the shift-inverted operator (methods.md, "Eigenanalysis", step 5) separates
    //   them all; each within 6e-15 |σ − ω_d²| of its dense ω_d², none rejected, on every
    //   OpenBLAS kernel tried (SkylakeX, Haswell, Sandybridge, Prescott). Before it, a Lanczos
    //   run over the whole space returned ghosts in place of the second copies of repeated
    //   pairs, and which (0 or 4 of 49 with the automatic shift) depended on the kernel.
    // - 20 asked for (Lanczos in the M inner product): the vectors it returns for the
    //   crowded values mix modes and leave the tangent space; the filter must not report
    //   them: every mode reported satisfies the constraints and is an eigenvalue of the
    //   independent dense problem on the null space of Φ_q. Measured on the same four
    //   kernels: 15 reported (11.6 to 62.9 kHz), 5 rejected, each within 1.5e-13
    //   |σ − ω_d²| of its dense ω_d², the highest (nearest the shift) to 2e-14 in frequency.
    // The infinite eigenvalues of the constraint directions themselves are exactly 0 in the
    // shift-inverted operator and were never among the candidates. With the automatic shift
    // below the spectrum all 49 are returned and none rejected.
    void spuriousModesRejected() {
        const ModelDocument doc = test::unloadedCantilever(8);
        const Model model = test::buildOrStop(doc);
        State s = initialState(model);
        const StaticsResult st = equilibrium(model, s);
        QVERIFY2(st.ok, st.message.c_str());
        ModesOptions below;
        below.count = 49;
        const ModesResult all = computeModes(model, s, st.lambda, below);
        QVERIFY2(all.ok, all.message.c_str());
        QCOMPARE(all.degreesOfFreedom, 49);
        QCOMPARE(int(all.modes.size()), 49);
        QCOMPARE(all.spuriousRejected, 0);
        qInfo("automatic shift %.4g rad^2/s^2 (%.0f w1^2): all 49 modes, dense check %.3g", all.shift,
              std::abs(all.shift) / all.modes[0].squaredFrequency, all.denseDifference);
        // Measured 9.6e-12 relative to ω_d² (the low modes' ω² are 5 000 times below |σ|).
        QVERIFY(!all.flagged && all.denseChecked && all.denseDifference < 1e-10);
        const double w2max = all.modes.back().squaredFrequency;

        for (const int count : {49, 20}) {
            ModesOptions above = below;
            above.count = count;
            above.shift = 2.0 * w2max;
            const ModesResult r = computeModes(model, s, st.lambda, above);
            QVERIFY2(r.ok, r.message.c_str());
            QVERIFY(r.denseChecked);
            // The dense eigenvalues ω_d² (all real: undamped).
            std::vector<double> dense;
            for (const std::complex<double>& sd : r.denseEigenvalues) dense.push_back(-(sd * sd).real());
            QCOMPARE(int(dense.size()), 49);
            double worstShifted = 0.0, worstRelative = 0.0, worstConstraint = 0.0, worstInaccurate = 0.0;
            int inaccurate = 0;
            std::vector<bool> matched(dense.size(), false);
            for (const Mode& m : r.modes) {
                // The nearest dense eigenvalue not yet taken: a pair of the square section is two
                // equal eigenvalues, while a mode counted twice would find its second nearest.
                size_t best = dense.size();
                for (size_t i = 0; i < dense.size(); ++i)
                    if (!matched[i] && (best == dense.size() ||
                                        std::abs(m.squaredFrequency - dense[i]) < std::abs(m.squaredFrequency - dense[best])))
                        best = i;
                QVERIFY(best < dense.size());
                // A pair far from the shift may not have converged: it must then say so (its
                // residual), and only the ones that do not are held to the accuracy below. Which
                // pairs converge there changes with the last digits of the shift (a relative
                // change of 1e-12 turned 21 accurate modes into 27 of which 5 inaccurate).
                const double shifted = std::abs(m.squaredFrequency - dense[best]) / std::abs(*above.shift - dense[best]);
                if (!m.accurate) {
                    ++inaccurate;
                    worstInaccurate = std::max(worstInaccurate, shifted);
                    matched[best] = true;
                    continue;
                }
                worstShifted = std::max(worstShifted, shifted);
                worstRelative = std::max(worstRelative, std::abs(m.squaredFrequency - dense[best]) / dense[best]);
                worstConstraint = std::max(worstConstraint, m.constraintResidual);
                matched[best] = true;
            }
            const double top = (r.modes.back().frequencyHz - all.modes.back().frequencyHz) / all.modes.back().frequencyHz;
            qInfo("shift %.4g rad^2/s^2 (2 w2max): %zu reported (%.6g to %.6g Hz), %d rejected; against the dense "
                  "problem: %.3g of |sigma - w_d^2|, %.3g of w_d^2; highest %.3g; largest constraint residual %.3g; "
                  "the code's dense difference %.3g; %d flagged inaccurate (worst %.3g of |sigma - w_d^2|)",
                  *above.shift, r.modes.size(), r.modes.front().frequencyHz, r.modes.back().frequencyHz,
                  r.spuriousRejected, worstShifted, worstRelative, top, worstConstraint, r.denseDifference, inaccurate,
                  worstInaccurate);
            QVERIFY(inaccurate == 0 || (r.flagged && std::any_of(r.warnings.begin(), r.warnings.end(), [](const std::string& w) {
                                            return w.find("inaccurate") != std::string::npos;
                                        })));
            QCOMPARE(int(r.modes.size()) + r.spuriousRejected, count);
            QVERIFY(worstConstraint <= above.spuriousTolerance);
            QVERIFY2(std::abs(top) < 1e-12, qPrintable(QString::number(top)));
            if (count == 49) {
                // The whole tangent space: every pair, each to rounding of its distance from
                // the shift (~100 ε for these crowded values; measured 5e-15 to 6e-15).
                QCOMPARE(r.spuriousRejected, 0);
                QCOMPARE(inaccurate, 0);
                QVERIFY2(worstShifted < 1e-12, qPrintable(QString::number(worstShifted)));
            } else {
                QVERIFY(int(r.modes.size()) - inaccurate >= 10);
                QVERIFY(r.spuriousRejected >= 1);
                QVERIFY(std::any_of(r.warnings.begin(), r.warnings.end(), [](const std::string& w) {
                    return w.find("constraint mode") != std::string::npos &&
                           w.find("nearer the modes wanted") != std::string::npos;
                }));
                // Shift-invert resolves ω² to a fraction of its distance from the shift:
                // 7.5e-14 to 1.5e-13 measured on the modes whose residual says they converged.
                QVERIFY2(worstShifted < 1e-10, qPrintable(QString::number(worstShifted)));
            }
        }
    }

    // The automatic shift moved near the lowest frequency (methods.md, "Eigenanalysis", step
    // 3): on the 8-element cantilever the reference shift −0.01 max|K_ij| / max M_ii is
    // 5 000 ω₁²; a short Lanczos run with its factors estimates ω₁² from above and the shift
    // becomes −ω̂₁², within a factor 10 of ω₁² (Euler–Bernoulli). The modes are those of the
    // same shift given explicitly (the same matrix, factorised afresh) and those of the
    // reference shift, the condition numbers those of the reference matrix (the scaling's
    // measure, unchanged), and the iteration needs fewer solves, the estimate's included.
    void automaticShiftNearLowestFrequency() {
        const ModelDocument doc = test::unloadedCantilever(8);
        const Model model = test::buildOrStop(doc);
        State s = initialState(model);
        const StaticsResult st = equilibrium(model, s);
        QVERIFY2(st.ok, st.message.c_str());
        const double E = 210e9, rho = 7850.0, side = 0.02, L = 1.0;
        const double EI = E * std::pow(side, 4) / 12.0, rhoA = rho * side * side;
        const double w1 = 1.875104068711961 * 1.875104068711961 / (L * L) * std::sqrt(EI / rhoA);
        ModesOptions automatic;
        automatic.count = 4;
        const ModesResult ra = computeModes(model, s, st.lambda, automatic);
        QVERIFY2(ra.ok, ra.message.c_str());
        ModesOptions explicitShift = automatic;
        explicitShift.shift = ra.shift;
        const ModesResult re = computeModes(model, s, st.lambda, explicitShift);
        ModesOptions reference = automatic;
        reference.shift = ra.referenceShift;
        const ModesResult rr = computeModes(model, s, st.lambda, reference);
        QVERIFY2(re.ok && rr.ok, (re.message + rr.message).c_str());
        QCOMPARE(int(ra.modes.size()), 4);
        QCOMPARE(int(re.modes.size()), 4);
        QCOMPARE(int(rr.modes.size()), 4);
        double explicitDifference = 0.0, referenceDifference = 0.0, worstSpan = 1.0;
        for (size_t i = 0; i < 4; ++i) {
            const double fa = ra.modes[i].frequencyHz;
            explicitDifference = std::max(explicitDifference, std::abs(re.modes[i].frequencyHz - fa) / fa);
            referenceDifference = std::max(referenceDifference, std::abs(rr.modes[i].frequencyHz - fa) / fa);
            // A bending pair is one eigenspace: the shape against the span of the explicit run's
            // M-orthonormal shapes, Σ_j (aᵀM b_j)² (1 for a shape in that span).
            const VecX Ma = applyMass(model, ra.modes[i].shape);
            double inSpan = 0.0;
            for (const Mode& m : re.modes) inSpan += std::pow(Ma.dot(m.shape), 2);
            worstSpan = std::min(worstSpan, inSpan);
        }
        qInfo("reference shift %.4g (%.0f w1^2), estimate %.4g (%.2f w1^2, %d solves), shift %.4g; "
              "%d operator applications against %d at the reference shift; frequencies against the explicit "
              "shift %.2g, against the reference shift %.2g; shapes in the explicit span to %.2g",
              ra.referenceShift, -ra.referenceShift / (w1 * w1), ra.lowestEstimate,
              ra.lowestEstimate / (w1 * w1), ra.shiftEstimateSolves, ra.shift, ra.operations, rr.operations,
              explicitDifference, referenceDifference, 1.0 - worstSpan);
        QVERIFY(ra.shift > ra.referenceShift);
        QCOMPARE(ra.shift, -ra.lowestEstimate);
        // From above (a Ritz value) and within a factor 10: measured 9.0 ω₁².
        QVERIFY(-ra.shift > ra.modes[0].squaredFrequency);
        QVERIFY2(-ra.shift < 10.0 * w1 * w1, qPrintable(QString::number(-ra.shift / (w1 * w1))));
        QVERIFY2(explicitDifference < 1e-9, qPrintable(QString::number(explicitDifference)));
        QVERIFY2(referenceDifference < 1e-9, qPrintable(QString::number(referenceDifference)));
        QVERIFY2(worstSpan > 1.0 - 1e-9, qPrintable(QString::number(1.0 - worstSpan)));
        QVERIFY(ra.denseChecked && ra.denseDifference < 1e-9);
        QCOMPARE(ra.conditionScaled, rr.conditionScaled);
        QCOMPARE(ra.conditionUnscaled, rr.conditionUnscaled);
        QVERIFY(ra.operations < rr.operations);
        // An explicit shift is used as given: no estimate.
        QCOMPARE(re.shiftEstimateSolves, 0);
        QCOMPARE(re.shift, ra.shift);
    }

    // Repeated frequencies: the square section's two bending planes give each frequency
    // twice. With 32 elements the Lanczos iteration found one of each pair (16.7, 104.7, 293,
    // 575 Hz for four modes) until the deflation of Modes.cpp; now both copies, against
    // Euler–Bernoulli with the tolerance of unscaledCantileverIsFlagged and against
    // distinct eigenvalues of the dense projected problem.
    // The two factorisations of the shifted matrix on the clamped solid block of the examples
    // (20 × 2 × 2 hexahedra, 567 coordinates, 27 constraint rows): Cholesky of the shifted
    // stiffness with the constraint rows' Schur complement, and LU of the whole augmented
    // matrix. Same frequencies, and both against the dense tangent-space problem.
    void choleskyAndLuAgreeOnClampedBlock() {
        const LoadedModel lm = loadModel(LOOPLAB_EXAMPLES_DIR "/clamped-block.json");
        QVERIFY(lm.ok());
        ModesOptions o;
        o.count = 8;
        const ModesResult chol = computeModes(*lm.model, lm.initial, VecX::Zero(lm.model->equationCount()), o);
        o.factorization = ShiftedFactorization::LU;
        const ModesResult lu = computeModes(*lm.model, lm.initial, VecX::Zero(lm.model->equationCount()), o);
        QVERIFY2(chol.ok, chol.message.c_str());
        QVERIFY2(lu.ok, lu.message.c_str());
        QCOMPARE(QString::fromStdString(chol.factorization), QString("cholesky"));
        QCOMPARE(QString::fromStdString(lu.factorization), QString("lu"));
        QCOMPARE(chol.modes.size(), lu.modes.size());
        QCOMPARE(int(chol.modes.size()), 8);
        double worst = 0.0;
        for (size_t k = 0; k < chol.modes.size(); ++k)
            worst = std::max(worst, std::abs(chol.modes[k].squaredFrequency / lu.modes[k].squaredFrequency - 1.0));
        qInfo("clamped block, %d coordinates: %.6f ... %.6f Hz; Cholesky against LU %.3g relative in omega^2; dense "
              "check %.3g (Cholesky) and %.3g (LU); condition %.3g and %.3g (Cholesky), %.3g and %.3g (LU)",
              chol.coordinates, chol.modes.front().frequencyHz, chol.modes.back().frequencyHz, worst,
              chol.denseDifference, lu.denseDifference, chol.conditionUnscaled, chol.conditionScaled,
              lu.conditionUnscaled, lu.conditionScaled);
        QVERIFY(chol.denseChecked && lu.denseChecked);
        QVERIFY(worst < 1e-10);
        QVERIFY(chol.denseDifference < 1e-9 && lu.denseDifference < 1e-9);
        QVERIFY(!chol.flagged && !lu.flagged);
        // The same matrix (the reference shift's) measured through either factorisation.
        QVERIFY(std::abs(chol.conditionScaled / lu.conditionScaled - 1.0) < 1e-6);
        QVERIFY(std::abs(chol.conditionUnscaled / lu.conditionUnscaled - 1.0) < 1e-6);
    }

    void repeatedFrequenciesFoundTwice() {
        const double E = 210e9, rho = 7850.0, side = 0.02, L = 1.0;
        const double EI = E * side * side * side * side / 12.0, rhoA = rho * side * side;
        const double roots[2] = {1.875104068711961, 4.694091132974175};
        const double convergence[2] = {8.4e-3, 0.34};
        ModelDocument doc = test::exampleDocument("cantilever-beam.json");
        doc.gravity = Vec3::Zero();
        doc.forces.clear();
        doc.beams[0].elements = 32;
        const Model model = test::buildOrStop(doc);
        State s = initialState(model);
        const StaticsResult st = equilibrium(model, s);
        QVERIFY2(st.ok, st.message.c_str());
        for (const int count : {4, 10}) {
            ModesOptions o;
            o.count = count;
            const ModesResult r = computeModes(model, s, st.lambda, o);
            QVERIFY2(r.ok, r.message.c_str());
            QCOMPARE(int(r.modes.size()), count);
            QVERIFY(!r.flagged && r.denseChecked);
            QString line;
            for (const Mode& m : r.modes) line += QString(" %1").arg(m.frequencyHz, 0, 'f', 6);
            qInfo("32 elements, %d modes:%s Hz; dense difference %.3g; %d operator applications", count,
                  qPrintable(line), r.denseDifference, r.operations);
            for (int k = 0; k < 2; ++k) {
                const double exact = roots[k] * roots[k] / (2.0 * M_PI * L * L) * std::sqrt(EI / rhoA);
                for (int plane = 0; plane < 2; ++plane) {
                    const double e = (r.modes[size_t(2 * k + plane)].frequencyHz - exact) / exact;
                    QVERIFY2(e > 0.0 && e < 1.5 * convergence[k] * std::pow(1.0 / 32, 4),
                             qPrintable(QString("mode %1: %2").arg(2 * k + plane + 1).arg(e)));
                }
            }
            // Each mode on its own dense eigenvalue (pairs are two equal dense eigenvalues).
            std::vector<double> dense;
            for (const std::complex<double>& sd : r.denseEigenvalues) dense.push_back(std::abs(sd) / (2 * M_PI));
            std::vector<bool> taken(dense.size(), false);
            double worst = 0.0;
            for (const Mode& m : r.modes) {
                size_t best = dense.size();
                for (size_t i = 0; i < dense.size(); ++i)
                    if (!taken[i] && (best == dense.size() ||
                                      std::abs(m.frequencyHz - dense[i]) < std::abs(m.frequencyHz - dense[best])))
                        best = i;
                QVERIFY(best < dense.size());
                taken[best] = true;
                worst = std::max(worst, std::abs(m.frequencyHz - dense[best]) / dense[best]);
            }
            // Both solve to a backward error of rounding against the largest stiffness, which
            // may move ω₁² by ε ω²_max: 6.7e-8 here (3.4e-8 in frequency); measured 6e-9. A
            // missed or mixed mode is off by its neighbour's distance, 0.8 or more.
            const double bound = std::numeric_limits<double>::epsilon() * std::pow(dense.back() / dense.front(), 2);
            qInfo("  against the dense problem: %.3g relative in frequency (bound %.3g)", worst, bound);
            QVERIFY2(worst < bound, qPrintable(QString::number(worst)));
        }
    }

    // The beam four-bar (flexible-four-bar.json: crank, coupler and rocker of aluminium
    // cable elements, small rigid hubs at the ground pivots) at its equilibrium under
    // gravity, the driver held: the lowest ten frequencies by the direct method against the
    // dense problem projected on the null space of Φ_q (the issue asks 1e-6 relative;
    // measured 2.8e-11, 4.9e-11, 2.5e-10), with the elements of every link doubled twice
    // (2, 4, 3 → 8, 16, 12; 84 to 246 coordinates). Each frequency falls with the mesh
    // (consistent mass: from above), with observed orders log₂((f_n − f_2n)/(f_2n − f_4n))
    // of 3.56–3.99, the h⁴ of the cubic interpolation; asserted loosely (above 3), and the
    // change from 2n to 4n below 1e-3 relative (measured 2e-6 to 6.4e-4).
    void flexibleFourBarDirectAndConverged() {
        std::vector<std::vector<double>> frequencies;
        for (const int refine : {1, 2, 4}) {
            ModelDocument doc = test::exampleDocument("flexible-four-bar.json");
            QCOMPARE(int(doc.beams.size()), 3);
            for (BeamDoc& b : doc.beams) b.elements *= refine;
            const Model model = test::buildOrStop(doc);
            State s = initialState(model);
            const StaticsResult st = equilibrium(model, s);
            QVERIFY2(st.ok, st.message.c_str());
            // Newton alone, to the tolerance or to rounding (docs/architecture.md, "Results on
            // any CPU"): refined twice it stalled on the SkylakeX kernels at 1.2e-8 of its
            // forces and ran 50 iterations and 200 000 relaxation steps to a failure.
            qInfo("elements x%d: statics %s in %d Newton iterations%s, force residual %.3g N", refine,
                  st.method.c_str(), st.newtonIterations, st.convergedToRounding ? " (to rounding)" : "",
                  st.forceResidual);
            QCOMPARE(QString::fromStdString(st.method), QString("newton"));
            QVERIFY(st.newtonIterations <= 12);
            ModesOptions o;
            o.count = 10;
            const ModesResult r = computeModes(model, s, st.lambda, o);
            QVERIFY2(r.ok, r.message.c_str());
            QCOMPARE(int(r.modes.size()), 10);
            QVERIFY(!r.flagged && r.spuriousRejected == 0 && r.denseChecked);
            QVERIFY(int(r.denseEigenvalues.size()) == r.degreesOfFreedom);
            double worst = 0.0;
            QString line;
            std::vector<double> f;
            for (size_t i = 0; i < r.modes.size(); ++i) {
                // No repeated frequencies here: the i-th of each list are the same mode.
                const double fd = std::abs(r.denseEigenvalues[i]) / (2 * M_PI);
                worst = std::max(worst, std::abs(r.modes[i].frequencyHz - fd) / fd);
                line += QString(" %1").arg(r.modes[i].frequencyHz, 0, 'f', 4);
                f.push_back(r.modes[i].frequencyHz);
            }
            frequencies.push_back(f);
            qInfo("elements x%d (%d coordinates, %d dof):%s Hz; direct against dense %.3g", refine, r.coordinates,
                  r.degreesOfFreedom, qPrintable(line), worst);
            QVERIFY2(worst < 1e-6, qPrintable(QString::number(worst)));
        }
        for (size_t i = 0; i < 10; ++i) {
            const double coarse = frequencies[0][i] - frequencies[1][i], fine = frequencies[1][i] - frequencies[2][i];
            const double order = std::log2(coarse / fine);
            qInfo("mode %zu: %.6f -> %.6f -> %.6f Hz, observed order %.2f", i + 1, frequencies[0][i], frequencies[1][i],
                  frequencies[2][i], order);
            QVERIFY(coarse > 0.0 && fine > 0.0);
            QVERIFY2(order > 3.0, qPrintable(QString::number(order)));
            QVERIFY(fine < 1e-3 * frequencies[2][i]);
        }
    }

    // A frequency three times (TriplePendulumsAndChain), undamped (Lanczos) and damped
    // (state-space Arnoldi), four modes asked for: the chain's lowest (0.4238 Hz) and the
    // pendulums' three (0.585150 Hz). Before the deflation of Modes.cpp the damped run
    // returned two of the three and the chain's second mode (0.9728 Hz). The three shapes
    // must lie in the pendulums' eigenspace and be independent (any basis of it will do):
    // the determinant of their mass-weighted Gram matrix, 1 for M-orthonormal shapes, 0
    // for dependent ones.
    void repeatedFrequencyOnBothPaths_data() {
        QTest::addColumn<double>("damping");
        QTest::newRow("undamped (Lanczos)") << 0.0;
        QTest::newRow("damped (state-space Arnoldi)") << 0.05;
    }
    void repeatedFrequencyOnBothPaths() {
        QFETCH(double, damping);
        const TriplePendulumsAndChain p;
        const Model model = test::buildOrStop(p.document(damping));
        State s = initialState(model);
        const StaticsResult st = equilibrium(model, s);
        QVERIFY(st.ok);
        ModesOptions o;
        o.count = 4;
        const ModesResult r = computeModes(model, s, st.lambda, o);
        QVERIFY2(r.ok, r.message.c_str());
        QCOMPARE(r.damped, damping > 0);
        QCOMPARE(int(r.modes.size()), 4);
        QVERIFY(!r.flagged && r.denseChecked && r.denseDifference < 1e-12);
        const double f = std::sqrt(p.omega2()) / (2 * M_PI), zeta = p.dampingRatio(damping);
        MatX gram(3, 3);
        for (int i = 0; i < 3; ++i) {
            const Mode& m = r.modes[size_t(i + 1)];
            qInfo("mode %d: %.12f Hz, zeta %.9f (closed form %.12f Hz, %.9f), residual %.3g", i + 2, m.frequencyHz,
                  m.dampingRatio, f, zeta, m.residual);
            // The equilibrium is exact (hanging straight); the rest is rounding.
            QVERIFY(std::abs(m.frequencyHz - f) < 1e-12 * f);
            QVERIFY(std::abs(m.dampingRatio - zeta) < 1e-12 + 1e-9 * zeta);
            for (int j = 0; j < 3; ++j) gram(i, j) = m.shape.dot(applyMass(model, r.modes[size_t(j + 1)].shape));
            // In the pendulums' eigenspace: nothing on the chain (the bodies after the first 3).
            const Eigen::Index pendulums = 3 * 6;
            QVERIFY(m.shape.tail(m.shape.size() - pendulums).norm() < 1e-9 * m.shape.norm());
        }
        QVERIFY(r.modes[0].frequencyHz < 0.9 * f);
        qInfo("Gram determinant of the three shapes %.6f; %d operator applications", gram.determinant(), r.operations);
        // Damped, the eigenvectors found were complex combinations of the real modes whose
        // real parts nearly coincide (Gram determinant 0.0035 before Modes.cpp took the
        // M-orthonormal basis of their span).
        QVERIFY(gram.determinant() > 0.5);
    }

    void hangingChain() {
        const int links = 200;
        const double l = 0.1, g = 9.81;
        ModelDocument doc;
        doc.name = "hanging chain";
        doc.gravity = Vec3(0.0, -g, 0.0);
        std::string previous = "ground";
        for (int i = 0; i < links; ++i) {
            BodyDoc b;
            b.name = "l" + std::to_string(i);
            b.mass = 0.1;
            b.inertia = Vec3(1e-4, 1e-4, 1.2e-4).asDiagonal();
            b.position = Vec3(0.0, -l * (i + 0.5), 0.0);
            doc.bodies.push_back(b);
            JointDoc j;
            j.name = "J" + std::to_string(i);
            j.type = JointType::Revolute;
            j.body1 = previous;
            j.body2 = b.name;
            j.point = Vec3(0.0, -l * i, 0.0);
            j.axis = Vec3::UnitZ();
            doc.joints.push_back(j);
            previous = b.name;
        }
        const Model model = test::buildOrStop(doc);
        State s = initialState(model);
        const StaticsResult st = findEquilibrium(model, s);
        QVERIFY2(st.ok, st.message.c_str());
        ModesOptions o;
        o.count = 10;
        o.denseCheckLimit = 2000;
        const ModesResult r = computeModes(model, s, st.lambda, o);
        QVERIFY2(r.ok, r.message.c_str());
        QCOMPARE(int(r.modes.size()), 10);
        qInfo("chain of %d links: dense check %.3g, kappa %.3g -> %.3g, factorisation %.3g s, iteration %.3g s",
              links, r.denseDifference, r.conditionUnscaled, r.conditionScaled, r.factorizationSeconds,
              r.iterationSeconds);
        QVERIFY(r.denseChecked && r.denseDifference < 1e-6);
        const double zeros[] = {2.404825557695773, 5.520078110286311, 8.653727912911013};
        const double length = links * l;
        for (int k = 0; k < 3; ++k) {
            const double fc = zeros[k] / 2.0 * std::sqrt(g / length) / (2 * M_PI);
            const double rel = std::abs(r.modes[size_t(k)].frequencyHz - fc) / fc;
            qInfo("mode %d: %.9f Hz, continuous chain %.9f Hz (rel. %.2g)", k + 1, r.modes[size_t(k)].frequencyHz, fc, rel);
            // The discretisation error of 200 links, measured 1e-6–4.5e-6 here, falls like 1/N²
            // (1.9e-7 for mode 3 at 1 000 links); a frequency off by 5e-5 would be a wrong mode.
            QVERIFY(rel < 5e-5);
        }
    }

    void cli() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString model = dir.filePath("anchored.json");
        QVERIFY(writeModelDocument(anchoredFourBar(2.0), model.toStdString(), nullptr));
        // statics
        test::CliResult r = test::runCli({"statics", model, "--json"});
        QVERIFY2(r.finished && r.exitCode == 0, r.err.constData());
        QJsonObject j = QJsonDocument::fromJson(r.out).object();
        QVERIFY(j["ok"].toBool());
        QCOMPARE(j["outcome"].toString(), QString("converged"));
        QVERIFY(j["force_residual"].toDouble() <= 1e-10 * j["force_scale"].toDouble());
        QVERIFY(j.contains("bodies"));
        // modes
        const QString csv = dir.filePath("modes.csv");
        r = test::runCli({"modes", model, "--count", "2", "--json", "--out", csv});
        QVERIFY2(r.finished && r.exitCode == 0, r.err.constData());
        j = QJsonDocument::fromJson(r.out).object();
        QVERIFY(j["ok"].toBool());
        for (const char* key : {"equilibrium", "scaling", "shift", "condition", "modes"})
            QVERIFY2(j.contains(key), key);
        QVERIFY(j["condition"].toObject()["unscaled"].toDouble() > j["condition"].toObject()["scaled"].toDouble());
        const QJsonArray modes = j["modes"].toArray();
        QCOMPARE(modes.size(), 1);
        QVERIFY(modes[0].toObject()["frequency_hz"].toDouble() > 0.0);
        QCOMPARE(modes[0].toObject()["damping_ratio"].toDouble(), 0.0);
        QFile f(csv);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = f.readAll().split('\n');
        QVERIFY(lines[0].startsWith("mode,frequency_hz,damping_ratio"));
        QVERIFY(lines.size() >= 2 && lines[1].startsWith("1,"));
        // The same frequency through the library.
        const Model built = test::buildOrStop(anchoredFourBar(2.0));
        State s = initialState(built);
        const StaticsResult st = findEquilibrium(built, s);
        ModesOptions mo;
        mo.count = 2;
        const ModesResult mr = computeModes(built, s, st.lambda, mo);
        QVERIFY(std::abs(modes[0].toObject()["frequency_hz"].toDouble() - mr.modes[0].frequencyHz) <
                1e-12 * mr.modes[0].frequencyHz);
        // --scaling none: the condition numbers are the same matrix's
        r = test::runCli({"modes", model, "--count", "1", "--scaling", "none", "--json"});
        QVERIFY2(r.finished && r.exitCode == 0, r.err.constData());
        j = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(j["scaling"].toDouble(), 1.0);
        // along
        const QString along = dir.filePath("along.csv");
        r = test::runCli({"modes", model, "--count", "1", "--along", "turn", "--from", "0", "--to", "0.4",
                          "--steps", "3", "--out", along, "--json"});
        QVERIFY2(r.finished && r.exitCode == 0, r.err.constData());
        QFile fa(along);
        QVERIFY(fa.open(QIODevice::ReadOnly));
        const QList<QByteArray> rows = fa.readAll().trimmed().split('\n');
        QCOMPARE(rows.size(), 4);  // header and 3 steps
        QVERIFY(rows[0].startsWith("turn,"));
        // Bad options: status 2, naming the option.
        struct Bad {
            QStringList args;
            const char* option;
        };
        const QList<Bad> bad = {{{"modes", model, "--count", "0"}, "--count"},
                                {{"modes", model, "--shift", "nan"}, "--shift"},
                                {{"modes", model, "--scaling", "-3"}, "--scaling"},
                                {{"modes", model, "--scaling", "bogus"}, "--scaling"},
                                {{"modes", model, "--along", "turn", "--from", "0", "--to", "1", "--steps", "0"},
                                 "--steps"},
                                {{"modes", model, "--along", "nope", "--from", "0", "--to", "1", "--steps", "2"},
                                 "--along"},
                                {{"modes", model, "--along", "turn", "--to", "1", "--steps", "2"}, "--from"},
                                // An output limit: 100000 steps of 11 curves is 1.1e6 frequencies.
                                {{"modes", model, "--count", "11", "--along", "turn", "--from", "0", "--to", "1",
                                  "--steps", "100000"},
                                 "--steps × --count must be at most 1000000"},
                                {{"modes", model, "--from", "0"}, "--along"},
                                {{"modes", model, "--max-wall-time", "-1"}, "--max-wall-time"},
                                {{"modes", model, "--out", model}, "--out"}};
        for (const Bad& b : bad) {
            r = test::runCli(b.args);
            QVERIFY2(r.finished && r.exitCode == 2, qPrintable(b.args.join(' ') + ": " + QString::number(r.exitCode)));
            QVERIFY2(r.err.contains(b.option), r.err.constData());
        }
        // A mechanism without stiffness: statics fails with status 3 and says why.
        ModelDocument free = test::exampleDocument("four-bar.json");
        free.gravity = Vec3::Zero();
        const QString freeModel = dir.filePath("free.json");
        QVERIFY(writeModelDocument(free, freeModel.toStdString(), nullptr));
        r = test::runCli({"statics", freeModel, "--json"});
        QCOMPARE(r.exitCode, 3);
        j = QJsonDocument::fromJson(r.out).object();
        QVERIFY(!j["ok"].toBool());
        QCOMPARE(j["outcome"].toString(), QString("mechanism"));
        QVERIFY(j["error"].toString().contains("no stiffness"));
    }
};

QTEST_APPLESS_MAIN(ModesTest)
#include "tst_modes.moc"
