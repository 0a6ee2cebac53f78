// Joints on beam nodes in the orders and uses NodeJoints.h describes:
//  - hinges and clamps that name the node as body1 give the same equilibrium as those that
//    name it as body2, with reactions equal and opposite and equal to the weight they carry;
//  - drivers and rotational spring-dampers on node hinges: Φ_q, Φ_t, γ, the constraint
//    curvature and the spring's −∂Q/∂q, −∂Q/∂v against central differences;
//  - a slowly driven cantilever follows its driver, lagging by the quasi-static bending
//    under its own inertia;
//  - a spring at the root of a stiff beam gives the pendulum ω² = k/I_root, and its free
//    angle is where the beam rests, in both orders;
//  - an all-beam four-bar whose coupler is joined by beam-to-beam revolutes moves exactly
//    as with pins, and its mobility counts them as pins.
#include "TestModels.h"

#include "looplab/analysis/Statics.h"
#include "looplab/bodies/beam/AncfCableElement.h"
#include "looplab/dynamics/Dynamics.h"
#include "looplab/dynamics/ForceDerivatives.h"
#include "looplab/dynamics/Reactions.h"
#include "looplab/kinematics/Mobility.h"
#include "looplab/kinematics/NodeJoints.h"
#include "looplab/simulation/Simulation.h"

#include <cmath>
#include <limits>
#include <random>

using namespace looplab;

namespace {

constexpr double kSteelE = 2.1e11, kSteelDensity = 7850.0;

double relativeError(const MatX& a, const MatX& b) {
    return (a - b).cwiseAbs().maxCoeff() / std::max(b.cwiseAbs().maxCoeff(), 1e-300);
}

// A rod of circular section (radius r) from `from` to `to`.
BeamDoc rod(const char* name, const Vec3& from, const Vec3& to, int elements, double E, double density,
            double radius = 0.01) {
    BeamDoc b;
    b.name = name;
    b.from = from;
    b.to = to;
    b.elements = elements;
    b.material = {E, 0.3, density};
    b.section.shape = SectionDoc::Shape::Circle;
    b.section.radius = radius;
    return b;
}

JointDoc joint(const char* name, JointType type, const char* body1, const char* body2, const Vec3& point,
               const Vec3& axis = Vec3(0, 0, 1)) {
    JointDoc j;
    j.name = name;
    j.type = type;
    j.body1 = body1;
    j.body2 = body2;
    j.point = point;
    j.axis = axis;
    return j;
}

DriverDoc driver(const char* name, const char* jointName, const TimeLaw& law) {
    DriverDoc d;
    d.name = name;
    d.joint = jointName;
    d.law = law;
    return d;
}

ForceDoc rotationalSpring(const char* name, const char* jointName, double k, double c, double freeAngle) {
    ForceDoc f;
    f.name = name;
    f.type = ForceType::RotationalSpringDamper;
    f.joint = jointName;
    f.stiffness = k;
    f.damping = c;
    f.freeAngle = freeAngle;
    return f;
}

TimeLaw harmonic(double offset, double amplitude, double frequency, double phase) {
    TimeLaw l;
    l.kind = TimeLaw::Kind::Harmonic;
    l.offset = offset;
    l.amplitude = amplitude;
    l.frequency = frequency;
    l.phase = phase;
    return l;
}

Vec3 nodePosition(const Model& m, const State& s, const char* beam, int node) {
    const BodyIndex b = *m.findBody(beam);
    return s.q.segment<3>(m.positionOffset(b) + ancf::kNodeSize * node);
}

const JointReaction& reactionOf(const std::vector<JointReaction>& r, const std::string& name) {
    for (const JointReaction& x : r)
        if (x.joint == name) return x;
    qFatal("no reaction for joint %s", name.c_str());
    return r.front();
}

}  // namespace

class BeamJointsTest : public QObject {
    Q_OBJECT
private slots:
    // A rigid arm (0.3 m) turning about z at the origin carries a steel rod (0.5 m) hinged or
    // clamped at its end, and a second rod hangs from the ground by the same kind of joint;
    // gravity pulls along them and has a part along z that the joints hold out of their
    // plane. Static equilibrium with each joint naming its node as body2, then as body1: the same
    // configuration (Newton to 1e-10 N: 1e-9 m of the nodes), reactions equal and opposite
    // (the force that body 1 exerts on body 2, Reactions.h), and the force through each
    // node joint equal to the weight of the rod it carries (the rod's only other load is
    // its own weight): −m g on the node, +m g on the arm or the ground.
    void nodeAsBody1GivesTheSameEquilibriumAndOppositeReactions() {
        // Along the rods in their plane (a large swing is beyond Newton's method on these
        // stiff rods), across it along z.
        const Vec3 g(9.81, 0.0, 1.5);
        for (const JointType type : {JointType::Revolute, JointType::Fixed}) {
            State states[2];
            std::vector<JointReaction> reactions[2];
            Model models[2];
            for (int order = 0; order < 2; ++order) {
                ModelDocument doc;
                doc.name = "arm and rods";
                doc.gravity = g;
                BodyDoc arm;
                arm.name = "arm";
                arm.mass = 1.2;
                arm.inertia = Vec3(0.001, 0.01, 0.01).asDiagonal();
                arm.position = Vec3(0.15, 0, 0);
                doc.bodies.push_back(arm);
                doc.beams.push_back(rod("rod", Vec3(0.3, 0, 0), Vec3(0.8, 0, 0), 3, kSteelE, kSteelDensity));
                doc.beams.push_back(rod("hanger", Vec3(0, 1, 0), Vec3(0.5, 1, 0), 3, kSteelE, kSteelDensity));
                doc.joints.push_back(joint("pivot", JointType::Revolute, "ground", "arm", Vec3(0, 0, 0)));
                doc.joints.push_back(order == 0 ? joint("elbow", type, "arm", "rod.root", Vec3(0.3, 0, 0))
                                                : joint("elbow", type, "rod.root", "arm", Vec3(0.3, 0, 0)));
                doc.joints.push_back(order == 0 ? joint("top", type, "ground", "hanger.root", Vec3(0, 1, 0))
                                                : joint("top", type, "hanger.root", "ground", Vec3(0, 1, 0)));
                const LoadedModel lm = prepareModel(doc);
                QVERIFY2(lm.ok(), formatDiagnostics(lm.diagnostics).c_str());
                models[order] = *lm.model;
                State s = lm.initial;
                StaticsOptions options;
                options.checkStability = false;
                const StaticsResult r = findEquilibrium(models[order], s, options);
                QVERIFY2(r.ok, qPrintable(QString("order %1: %2").arg(order).arg(r.message.c_str())));
                ConstraintValues c;
                evaluateConstraints(models[order], s, c, kJacobian);
                std::vector<DriverEffort> efforts;
                computeReactions(models[order], s, c.jacobian, r.lambda, {}, reactions[order], efforts);
                states[order] = s;
            }
            const double dq = (states[1].q - states[0].q).cwiseAbs().maxCoeff();
            const double rodMass = kSteelDensity * M_PI * 1e-4 * 0.5;
            const Vec3 weight = rodMass * g;
            double worst = 0.0;
            for (const char* name : {"elbow", "top"}) {
                const JointReaction &a = reactionOf(reactions[0], name), &b = reactionOf(reactions[1], name);
                const double dF = (a.forceGlobal + b.forceGlobal).norm(), dT = (a.torqueGlobal + b.torqueGlobal).norm();
                const double dW = (a.forceGlobal + weight).norm();
                qInfo("%s %s: force on the node (%.6f, %.6f, %.6f) N, -m g (%.6f, %.6f, %.6f) N; |F1 + F2| %.2e N, "
                      "|T1 + T2| %.2e N m (|T| %.4f N m)",
                      type == JointType::Revolute ? "hinge" : "clamp", name, a.forceGlobal.x(), a.forceGlobal.y(),
                      a.forceGlobal.z(), -weight.x(), -weight.y(), -weight.z(), dF, dT, a.torqueGlobal.norm());
                QVERIFY2(dF < 1e-8 * weight.norm(), name);
                QVERIFY2(dT < 1e-8 * std::max(1.0, a.torqueGlobal.norm()), name);
                QVERIFY2(dW < 1e-8 * weight.norm(), name);
                worst = std::max(worst, dF);
            }
            qInfo("%s: node coordinates of the two orders differ by %.2e", type == JointType::Revolute ? "hinge" : "clamp",
                  dq);
            QVERIFY(dq < 1e-9);
        }
    }

    // Drivers and rotational spring-dampers on node hinges, the node named as body2 and as
    // body1, to a free turned rigid hub and to the ground, at a perturbed unassembled state
    // (slopes off their planes) with arbitrary velocities, multipliers and time. Central
    // differences along the retraction, steps and bounds as in tst_beam's node revolute
    // test (1e-6: truncation and rounding ≈ 1e-10 of the entries; γ by the second
    // difference along (q ⊕ t v, t) at 1e-4, ≈ 1e-8). The springs' −∂Q/∂q and −∂Q/∂v are
    // those of the model with springs less the same model without them, against the
    // differences of their generalised forces (step 1e-6 in q; 1 in v, in which they are
    // linear).
    void driverAndSpringDerivativesMatchFiniteDifferences() {
        ModelDocument doc;
        doc.name = "driven hinged beams";
        BodyDoc hub;
        hub.name = "hub";
        hub.mass = 2.0;
        hub.inertia = Vec3(0.01, 0.02, 0.03).asDiagonal();
        hub.orientation = Quat(0.9, 0.2, -0.3, 0.1);
        doc.bodies.push_back(hub);
        BodyDoc cap = hub;
        cap.name = "cap";
        cap.position = Vec3(1, 0, 0);
        cap.orientation = Quat(0.7, -0.1, 0.4, 0.3);
        doc.bodies.push_back(cap);
        // Soft rods: the rounding of their elastic forces (ε |Q|/h) stays far below the
        // springs' derivatives.
        doc.beams.push_back(rod("arm", Vec3(0, 0, 0), Vec3(1, 0, 0), 3, 2e9, kSteelDensity));
        doc.beams.push_back(rod("link", Vec3(0, 1, 0), Vec3(0.6, 1.8, 0), 2, 2e9, kSteelDensity));
        doc.joints.push_back(joint("h1", JointType::Revolute, "arm.root", "hub", Vec3(0, 0, 0), Vec3(0, 0.6, 0.8)));
        doc.joints.push_back(joint("h2", JointType::Revolute, "ground", "link.root", Vec3(0, 1, 0), Vec3(0.48, -0.36, 0.8)));
        doc.joints.push_back(joint("h3", JointType::Revolute, "link.tip", "ground", Vec3(0.6, 1.8, 0), Vec3(0, 0, 1)));
        doc.joints.push_back(joint("h4", JointType::Revolute, "hub", "arm.node1", Vec3(1.0 / 3.0, 0, 0), Vec3(0, 0, 1)));
        doc.joints.push_back(joint("clamp", JointType::Fixed, "arm.tip", "cap", Vec3(1, 0, 0)));
        doc.drivers.push_back(driver("d1", "h1", harmonic(0.1, 0.4, 3.0, 0.2)));
        doc.drivers.push_back(driver("d2", "h2", harmonic(-0.2, 0.3, 2.0, 1.0)));
        doc.drivers.push_back(driver("d3", "h3", harmonic(0.3, -0.5, 5.0, -0.4)));
        ModelDocument springless = doc;
        doc.forces.push_back(rotationalSpring("s1", "h1", 40.0, 2.0, 0.3));
        doc.forces.push_back(rotationalSpring("s2", "h2", 25.0, 1.5, -0.7));
        doc.forces.push_back(rotationalSpring("s3", "h3", 60.0, 3.0, 2.9));
        doc.forces.push_back(rotationalSpring("s4", "h4", 15.0, 0.5, -0.2));
        const BuildResult built = buildModel(doc), plain = buildModel(springless);
        QVERIFY2(built.ok(), formatDiagnostics(built.diagnostics).c_str());
        QVERIFY2(plain.ok(), formatDiagnostics(plain.diagnostics).c_str());
        const Model& m = *built.model;
        const Model& m0 = *plain.model;
        QCOMPARE(m.equationCount(), 4 * 4 + 5 + 3);
        QCOMPARE(QString::fromStdString(m.equations[3].component), QString("slope z2.x1"));
        std::mt19937 rng(7);
        std::uniform_real_distribution<double> u(-1.0, 1.0);
        State s = initialState(m);
        s.t = 0.37;
        VecX dq(m.velocitySize());
        for (int i = 0; i < dq.size(); ++i) dq[i] = 0.05 * u(rng);
        retract(m, s.q, dq);
        for (int i = 0; i < s.v.size(); ++i) s.v[i] = u(rng);
        VecX lambda(m.equationCount());
        for (int i = 0; i < lambda.size(); ++i) lambda[i] = 100.0 * u(rng);
        ConstraintValues c;
        evaluateConstraints(m, s, c);
        QVERIFY(c.phi.cwiseAbs().maxCoeff() > 1e-3);
        auto phiAt = [&](const VecX& step, double dt) {
            State x = s;
            x.t += dt;
            retract(m, x.q, step);
            ConstraintValues cx;
            evaluateConstraints(m, x, cx, kPhi);
            return VecX(cx.phi);
        };
        auto loadAt = [&](const VecX& step) {
            State x = s;
            retract(m, x.q, step);
            ConstraintValues cx;
            evaluateConstraints(m, x, cx, kJacobian);
            return VecX(cx.jacobian.transpose() * lambda);
        };
        auto springForce = [&](const VecX& step, const VecX& dv) {
            State x = s;
            retract(m, x.q, step);
            x.v += dv;
            return VecX(generalizedForces(m, x) - generalizedForces(m0, x));
        };
        const int n = m.velocitySize();
        const double h = 1e-6;
        const VecX zero = VecX::Zero(n);
        MatX J(m.equationCount(), n), H(n, n), K(n, n), C(n, n);
        for (int k = 0; k < n; ++k) {
            const VecX e = h * VecX::Unit(n, k);
            J.col(k) = (phiAt(e, 0) - phiAt(-e, 0)) / (2 * h);
            H.col(k) = (loadAt(e) - loadAt(-e)) / (2 * h);
            K.col(k) = -(springForce(e, zero) - springForce(-e, zero)) / (2 * h);
            C.col(k) = -(springForce(zero, VecX::Unit(n, k)) - springForce(zero, -VecX::Unit(n, k))) / 2.0;
        }
        const VecX phiTFd = (phiAt(zero, h) - phiAt(zero, -h)) / (2 * h);
        const double ht = 1e-4;
        const VecX gammaFd = -(phiAt(ht * s.v, ht) - 2.0 * c.phi + phiAt(-ht * s.v, -ht)) / (ht * ht);
        const MatX curvature(constraintCurvature(m, s, lambda));
        ForceDerivatives with, without;
        forceDerivatives(m, s, with);
        forceDerivatives(m0, s, without);
        const MatX Ks = MatX(with.stiffness) - MatX(without.stiffness), Cs = MatX(with.damping) - MatX(without.damping);
        const double errJ = relativeError(c.denseJacobian(), J), errT = relativeError(c.phiT, phiTFd),
                     errG = relativeError(c.gamma, gammaFd), errH = relativeError(curvature, H),
                     errK = relativeError(Ks, K), errC = relativeError(Cs, C);
        qInfo("node hinge drivers: |Phi_q - fd| %.2e, |Phi_t - fd| %.2e, |gamma - fd| %.2e, |curvature - fd| %.2e; "
              "springs: |K - fd| %.2e, |C - fd| %.2e of the largest entry",
              errJ, errT, errG, errH, errK, errC);
        QVERIFY2(errJ < 1e-7, qPrintable(QString::number(errJ)));
        QVERIFY2(errT < 1e-7, qPrintable(QString::number(errT)));
        QVERIFY2(errG < 1e-6, qPrintable(QString::number(errG)));
        QVERIFY2(errH < 1e-7, qPrintable(QString::number(errH)));
        QVERIFY2(errK < 1e-7, qPrintable(QString::number(errK)));
        QVERIFY2(errC < 1e-7, qPrintable(QString::number(errC)));
        // The differences do see the drivers and springs.
        QVERIFY(c.phiT.cwiseAbs().maxCoeff() > 0.1 && K.cwiseAbs().maxCoeff() > 1.0 && C.cwiseAbs().maxCoeff() > 0.1);
        // The angle rate is the exact derivative of the angle (central difference along v,
        // step 1e-6: 1e-10 relative), off the constraint manifold too.
        for (const char* name : {"h1", "h2", "h3", "h4"}) {
            const JointIndex j = *m.findJoint(name);
            State ahead = s, behind = s;
            retract(m, ahead.q, 1e-6 * s.v);
            retract(m, behind.q, -1e-6 * s.v);
            const double rate = jointAngleRate(m, s, j);
            const double rateFd = (jointAngle(m, ahead, j) - jointAngle(m, behind, j)) / 2e-6;
            QVERIFY2(std::abs(rate - rateFd) < 1e-8 * std::max(1.0, std::abs(rate)),
                     qPrintable(QString("%1: %2 %3").arg(name).arg(rate).arg(rateFd)));
        }
    }

    // A soft rod (1 m, E = 2 GPa, ρ = 1000 kg/m³, 2 cm across, 2 elements; first bending
    // frequency ω₁ = 1.8751² √(EI/ρA L⁴) = 24.9 rad/s) hinged to the ground at its root,
    // turned by its driver through 1 rad in T = 2 s along a 7th-degree step (rest to rest;
    // angular acceleration and jerk continuous). Quasi-statically the rod is a cantilever
    // loaded by its inertia ρA α s, whose tip lags by 11 ρA α L⁴/(120 EI) (≤ 3.4 mm here,
    // the cubic elements are exact at the nodes for it): the tip's angle follows θ(t) less
    // that lag, to the next term of the quasi-static expansion (the lag of θ''''/ω₁²)
    // and the free vibration that the jump of θ'''' = 840/T⁴ at the start excites,
    // each of the size 1.6e-4 rad, with a share of the higher modes: the bound is three
    // times that (the centrifugal stretch, ρω²L²/2E ≈ 1e-6, is far below). Both with the node as body2
    // (tip at +θ) and as body1 (the joint's angle is the ground's relative to the node:
    // the tip turns by −θ). At the end the rod is straight again in its new direction.
    void slowlyDrivenCantileverFollowsItsDriver() {
        const double L = 1.0, E = 2e9, density = 1000.0, theta1 = 1.0, T = 2.0;
        // The first 0.15 s under the sanitizers (the same code; 0.5 s took a minute there).
        const double tEnd = test::kUnderSanitizers ? 0.15 : T;
        const double rhoA = density * M_PI * 1e-4, EI = E * M_PI * 1e-8 / 4.0;
        TimeLaw law;
        law.kind = TimeLaw::Kind::Polynomial;
        law.coefficients = {0, 0, 0, 0, 35 * theta1 / std::pow(T, 4), -84 * theta1 / std::pow(T, 5),
                            70 * theta1 / std::pow(T, 6), -20 * theta1 / std::pow(T, 7)};
        const double lagScale = 11.0 * rhoA * std::pow(L, 4) / (120.0 * EI);  // per rad/s²
        const double largestLag = lagScale * theta1 * 7.5131884 / (T * T) / L;
        const double w1Squared = std::pow(1.8751040687119611, 4) * EI / (rhoA * std::pow(L, 4));
        const double bound = 3.0 * lagScale * 840.0 * theta1 / std::pow(T, 4) / w1Squared / L;
        for (const bool nodeFirst : {false, true}) {
            ModelDocument doc;
            doc.name = "driven cantilever";
            doc.gravity.setZero();
            doc.beams.push_back(rod("rod", Vec3(0, 0, 0), Vec3(L, 0, 0), 2, E, density));
            doc.joints.push_back(nodeFirst ? joint("root", JointType::Revolute, "rod.root", "ground", Vec3(0, 0, 0))
                                           : joint("root", JointType::Revolute, "ground", "rod.root", Vec3(0, 0, 0)));
            doc.drivers.push_back(driver("motor", "root", law));
            const LoadedModel lm = prepareModel(doc);
            QVERIFY2(lm.ok(), formatDiagnostics(lm.diagnostics).c_str());
            const Model& m = *lm.model;
            SimulationSettings st;
            st.tEnd = tEnd;
            st.outputStep = 0.01;
            Simulator sim(lm.model, st);
            const double sign = nodeFirst ? -1.0 : 1.0;
            double worst = 0.0, worstJoint = 0.0;
            State last;
            const SimulationResult r = sim.run(lm.initial, [&](const SimulationFrame& f) {
                const Vec3 tip = nodePosition(m, f.state, "rod", 2);
                const TimeLawValue th = law.evaluate(f.state.t);
                const double expected = sign * (th.value - lagScale * th.acceleration / L);
                worst = std::max(worst, std::abs(std::atan2(tip.y(), tip.x()) - expected));
                worstJoint = std::max(worstJoint, std::abs(jointAngle(m, f.state, *m.findJoint("root")) - th.value));
                last = f.state;
            });
            QVERIFY2(r.ok, r.message.c_str());
            qInfo("node as body%d, %.1f s (%ld steps): tip angle vs theta(t) less the quasi-static lag: worst %.2e rad "
                  "(largest lag %.2e rad, bound %.2e rad); joint angle vs law %.1e rad",
                  nodeFirst ? 1 : 2, tEnd, long(r.statistics.steps), worst, largestLag, bound, worstJoint);
            QVERIFY(worst < bound);
            QVERIFY(worstJoint < 1e-9);
            if (tEnd == T) {
                // Straight: the middle node on the chord from root to tip, to the same bound.
                const Vec3 tip = nodePosition(m, last, "rod", 2), mid = nodePosition(m, last, "rod", 1);
                const double offChord = (mid - 0.5 * tip).norm() / L;
                qInfo("at rest: tip at %.6f rad, middle node %.2e of L off the chord", std::atan2(tip.y(), tip.x()),
                      offChord);
                QVERIFY(std::abs(std::atan2(tip.y(), tip.x()) - sign * theta1) < bound);
                QVERIFY(offChord < bound);
            }
        }
    }

    // A steel rod (1 m, 2 cm across) turning in the plane about a ground hinge at its root,
    // held by a rotational spring k = 1 N·m/rad, no gravity: a rigid rod swings with
    // ω_s² = k/I_root, I_root = ρA L³/3. The rod's rigid rotation is an admissible shape
    // whose Rayleigh quotient is exactly that (the cubic elements hold it and the
    // consistent mass gives I_root exactly): the lowest ω² lies below it. The rod's bending
    // is a second spring in series with k; Dunkerley's formula 1/ω² ≤ 1/ω_s² + 1/ω_c²,
    // with ω_c² = 1.8751⁴ EI/ρA L⁴ the rod's clamped first bending mode (the mesh's own is
    // higher still, which only tightens it), bounds it below: a correction of −1.5e-4
    // (flexibility changes ω² by less than 0.1 %). In both orders. With a free angle θ₀
    // the spring's generalised force at θ = 0 does the work k θ₀ per radian of the joint's
    // angle: Q·v = k θ₀ for the rod's rigid rotation at θ̇ = 1 (about +z when the node is
    // body2, −z when it is body1), which jointAngleRate() reports as 1.
    void springAtTheRootGivesThePendulumFrequency() {
        const double L = 1.0, k = 1.0;
        const double rhoA = kSteelDensity * M_PI * 1e-4, EI = kSteelE * M_PI * 1e-8 / 4.0;
        const double expected = k / (rhoA * L * L * L / 3.0);
        const double clamped = std::pow(1.8751040687119611, 4) * EI / (rhoA * std::pow(L, 4));
        const double dunkerley = 1.0 / (1.0 / expected + 1.0 / clamped);
        for (const bool nodeFirst : {false, true}) {
            for (const double freeAngle : {0.0, 0.3}) {
                ModelDocument doc;
                doc.name = "spring pendulum";
                doc.gravity.setZero();
                doc.beams.push_back(rod("rod", Vec3(0, 0, 0), Vec3(L, 0, 0), 4, kSteelE, kSteelDensity));
                doc.joints.push_back(nodeFirst ? joint("root", JointType::Revolute, "rod.root", "ground", Vec3(0, 0, 0))
                                               : joint("root", JointType::Revolute, "ground", "rod.root", Vec3(0, 0, 0)));
                doc.forces.push_back(rotationalSpring("spring", "root", k, 0.0, freeAngle));
                const Model m = test::buildOrStop(doc);
                State s = initialState(m);
                if (freeAngle != 0.0) {
                    // The rod's rigid rotation at θ̇ = 1: node k at s_k moves by ±s_k e_y, its
                    // slope by ±e_y.
                    State turning = initialState(m);
                    const BodyIndex b = *m.findBody("rod");
                    const double sign = nodeFirst ? -1.0 : 1.0;
                    for (int node = 0; node <= 4; ++node) {
                        const int o = m.velocityOffset(b) + ancf::kNodeSize * node;
                        turning.v.segment<3>(o) = sign * (node * L / 4) * Vec3::UnitY();
                        turning.v.segment<3>(o + 3) = sign * Vec3::UnitY();
                    }
                    const double rate = jointAngleRate(m, turning, *m.findJoint("root"));
                    // The spring's generalised force at rest (no gravity, no strain: nothing else).
                    const double work = generalizedForces(m, initialState(m)).dot(turning.v);
                    qInfo("node as body%d, free angle %.1f: joint angle rate %.15f; Q.v %.15f N m, k theta0 %.15f N m",
                          nodeFirst ? 1 : 2, freeAngle, rate, work, k * freeAngle);
                    QVERIFY(std::abs(rate - 1.0) < 1e-14);
                    QVERIFY(std::abs(work - k * freeAngle) < 1e-14);
                    continue;
                }
                StaticsOptions options;
                options.zeroStiffnessTolerance = 1e-13;
                const StaticsResult r = findEquilibrium(m, s, options);
                QVERIFY2(r.ok, r.message.c_str());
                const double w1 = r.squaredFrequencies[0];
                qInfo("node as body%d: omega^2 %.10f, k/I_root %.10f (relative %.2e; Dunkerley's bound %.2e)",
                      nodeFirst ? 1 : 2, w1, expected, w1 / expected - 1.0, dunkerley / expected - 1.0);
                QVERIFY(w1 <= expected * (1.0 + 1e-9));
                QVERIFY(w1 >= dunkerley);
            }
        }
    }

    // An all-beam crank-rocker (crank 0.1 m, coupler 0.4 m, rocker 0.3 m, ground 0.4 m;
    // soft rods 1 cm across): crank and rocker hinged to the ground at their roots (the
    // rocker's naming its node as body1), the coupler joined to their tips by revolutes
    // between beam nodes, then by pins. A revolute between two nodes is a pin (NodeJoints.h),
    // so the equations, and the motions, are the same to the last bit, and the mobility
    // counts three equations for each: 6 × 12 node coordinates − (2 × 4 + 2 × 3 + 1) = 57.
    void beamToBeamRevolutesArePins() {
        const Vec3 A(0, 0, 0), B(0.05, 0.08660254037844387, 0), C(0.3884615384615386, 0.29977802438692114, 0),
            D(0.4, 0, 0);
        SimulationResult results[2];
        std::vector<State> frames[2];
        MobilityReport mobility[2];
        for (int variant = 0; variant < 2; ++variant) {
            const JointType coupling = variant == 0 ? JointType::Revolute : JointType::Spherical;
            ModelDocument doc;
            doc.name = "all-beam four-bar";
            doc.gravity = Vec3(0, -9.81, 0);
            doc.beams.push_back(rod("crank", A, B, 2, 2e9, 1000.0, 0.005));
            doc.beams.push_back(rod("coupler", B, C, 4, 2e9, 1000.0, 0.005));
            doc.beams.push_back(rod("rocker", D, C, 3, 2e9, 1000.0, 0.005));
            doc.joints.push_back(joint("A", JointType::Revolute, "ground", "crank.root", A));
            doc.joints.push_back(joint("D", JointType::Revolute, "rocker.root", "ground", D));
            doc.joints.push_back(joint("B", coupling, "crank.tip", "coupler.root", B));
            doc.joints.push_back(joint("C", coupling, "coupler.tip", "rocker.tip", C));
            TimeLaw turn;
            turn.kind = TimeLaw::Kind::ConstantVelocity;
            turn.rate = 2.0 * M_PI;
            doc.drivers.push_back(driver("motor", "A", turn));
            const LoadedModel lm = prepareModel(doc);
            QVERIFY2(lm.ok(), formatDiagnostics(lm.diagnostics).c_str());
            const Model& m = *lm.model;
            QCOMPARE(m.equationCount(), 15);
            QCOMPARE(int(beamNodeJointNotes(m).size()), variant == 0 ? 2 : 0);
            mobility[variant] = analyzeMobility(m, lm.initial);
            SimulationSettings st;
            // 0.5 ms under the sanitizers (2 ms took 40 s there).
            st.tEnd = test::kUnderSanitizers ? 0.0005 : 0.02;
            st.outputStep = st.tEnd / 5;
            Simulator sim(lm.model, st);
            results[variant] = sim.run(lm.initial, [&](const SimulationFrame& f) { frames[variant].push_back(f.state); });
            QVERIFY2(results[variant].ok, results[variant].message.c_str());
        }
        qInfo("revolutes between nodes: %d coordinates, rank %d, dof %d, %zu redundant; pins: dof %d; %ld and %ld steps",
              mobility[0].coordinates, mobility[0].rank, mobility[0].dof, mobility[0].redundant.size(), mobility[1].dof,
              long(results[0].statistics.steps), long(results[1].statistics.steps));
        QCOMPARE(mobility[0].coordinates, 72);
        QCOMPARE(mobility[0].rank, 15);
        QCOMPARE(mobility[0].dof, 57);
        QVERIFY(mobility[0].redundant.empty());
        QCOMPARE(mobility[1].dof, 57);
        QCOMPARE(frames[0].size(), frames[1].size());
        double difference = 0.0;
        for (size_t i = 0; i < frames[0].size(); ++i)
            difference = std::max(difference, (frames[0][i].q - frames[1][i].q).cwiseAbs().maxCoeff());
        qInfo("largest difference of the coordinates over %zu frames: %.1e", frames[0].size(), difference);
        QCOMPARE(difference, 0.0);
        // The crank did turn.
        QVERIFY(frames[0].back().t > 0.0 && std::abs(frames[0].back().q.segment<3>(3).y()) > 0.0);
    }
};

QTEST_GUILESS_MAIN(BeamJointsTest)
#include "tst_beamjoints.moc"
