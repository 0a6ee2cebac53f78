// The linearisation M, C = −∂Q/∂v, K = −∂(Q − Φ_qᵀλ)/∂q (Linearization.h):
//  - K and C of every joint type, both drivers, a coupler, a cam, every force element,
//    gravity and the gyroscopic term against central differences of generalizedForces()
//    and of the Jacobian at a state that is neither assembled nor in equilibrium, with
//    v ≠ 0 and arbitrary multipliers; q is moved along retract(), as K is defined;
//  - the antisymmetric part of K for conservative loads, which the composition of body-
//    frame rotations makes −½ F̃_θ per body (F = Q − Φ_qᵀλ);
//  - M against denseMass();
//  - small-oscillation frequencies of pendulums at static equilibrium against their
//    closed forms, an independent check of the whole K including the curvature term;
//  - Newton's method with K finding the equilibrium of a four-bar with redundant
//    equations and a spring, and ω² there against the curvature of the potential energy
//    along the mechanism's path.
#include "RandomPoses.h"
#include "TestModels.h"

#include "looplab/kinematics/Assembly.h"
#include "looplab/dynamics/Dynamics.h"
#include "looplab/dynamics/Linearization.h"
#include "looplab/model/ModelBuilder.h"
#include "looplab/bodies/Rotation.h"

#include <Eigen/Eigenvalues>

#include <QtTest>
#include <cmath>
#include <random>

using namespace looplab;

using looplab::test::randomQuat;
using looplab::test::randomVec;
using looplab::test::addRandomJoint;

namespace {

// A full (not diagonal) inertia tensor, so that the gyroscopic term couples all axes.
Mat3 fullInertia(std::mt19937& g) {
    const Mat3 R = randomQuat(g).toRotationMatrix();
    return R * Vec3(0.12, 0.2, 0.25).asDiagonal() * R.transpose();
}

TimeLaw harmonicLaw() {
    TimeLaw law;
    law.kind = TimeLaw::Kind::Harmonic;
    law.amplitude = 0.9;
    law.frequency = 2.3;
    law.phase = 0.4;
    law.offset = 0.1;
    return law;
}

// Two bodies in random poses under gravity; joints and forces are added per case.
ModelDocument twoBodies(std::mt19937& g) {
    ModelDocument doc;
    doc.name = "linearisation case";
    doc.gravity = Vec3(0.3, -9.81, 0.5);
    for (const char* n : {"b1", "b2"}) {
        BodyDoc b;
        b.name = n;
        b.mass = 1.3;
        b.inertia = fullInertia(g);
        b.position = randomVec(g);
        b.orientation = randomQuat(g);
        doc.bodies.push_back(b);
    }
    return doc;
}

// Spring-dampers and rotational spring-dampers take their attachment from the initial
// configuration, so they are given global points of the bodies' initial poses.
Vec3 globalPoint(const ModelDocument& doc, const std::string& body, const Vec3& local) {
    for (const BodyDoc& b : doc.bodies)
        if (b.name == body) return b.position + b.orientation * local;
    return local;  // the ground
}

void addSpringDamper(ModelDocument& doc, std::mt19937& g, const std::string& name,
                     const std::string& body1, const std::string& body2, double damping) {
    ForceDoc f;
    f.name = name;
    f.type = ForceType::SpringDamper;
    f.body1 = body1;
    f.body2 = body2;
    f.point1 = globalPoint(doc, body1, randomVec(g, 0.5));
    f.point2 = globalPoint(doc, body2, randomVec(g, 0.5));
    f.stiffness = 40.0;
    f.damping = damping;
    f.freeLength = 0.6 * (f.point2 - f.point1).norm();
    f.preload = 3.0;
    doc.forces.push_back(f);
}

// What a case puts between and on the two bodies; a cam is its example, turned 50° into
// the rise so that the law's slope and curvature count.
ModelDocument caseModel(const QString& name, std::mt19937& g) {
    if (name == "cam") {
        ModelDocument cam = test::exampleDocument("cam-roller-follower.json");
        cam.couplers[0].cam.startAngle = 50.0;
        return cam;
    }
    ModelDocument doc = twoBodies(g);
    for (JointType t : jointTypes()) {
        if (name != jointTypeName(t)) continue;
        // Between the two bodies, and from the ground (the ground's slot is dropped).
        addRandomJoint(doc, g, t, "joint", "b1", "b2");
        addRandomJoint(doc, g, t, "to ground", "ground", "b2");
    }
    if (name == "rotational driver" || name == "translational driver") {
        const bool rotational = name == "rotational driver";
        addRandomJoint(doc, g, rotational ? JointType::Revolute : JointType::Prismatic, "joint", "b1", "b2");
        addRandomJoint(doc, g, rotational ? JointType::Revolute : JointType::Prismatic, "to ground", "ground", "b1");
        doc.drivers.push_back({"driver", "joint", harmonicLaw()});
        doc.drivers.push_back({"driver to ground", "to ground", harmonicLaw()});
    }
    if (name == "coupler") {
        // A phase of two angles and a slide over both bodies (Φ = sin ψ / κ, a length).
        addRandomJoint(doc, g, JointType::Revolute, "joint", "b1", "b2");
        addRandomJoint(doc, g, JointType::Cylindrical, "to ground", "ground", "b1");
        addRandomJoint(doc, g, JointType::Prismatic, "slide", "ground", "b2");
        CouplerDoc c;
        c.name = "coupler";
        c.type = CouplerType::Linear;
        c.joints = {"joint", "to ground", "slide"};
        c.coefficients = {3.0, -2.0, 1.5};
        doc.couplers.push_back(c);
    }
    if (name == "spring-damper") {
        addSpringDamper(doc, g, "between", "b1", "b2", 2.5);
        addSpringDamper(doc, g, "to ground", "ground", "b2", 1.5);
    }
    if (name == "rotational spring-damper") {
        // Revolute and cylindrical joints, not assembled: the spring acts about z1 with the
        // angle of x2 projected on frame 1's x–y plane.
        addRandomJoint(doc, g, JointType::Revolute, "joint", "b1", "b2");
        addRandomJoint(doc, g, JointType::Cylindrical, "to ground", "ground", "b1");
        for (const char* j : {"joint", "to ground"}) {
            ForceDoc f;
            f.name = std::string("spring on ") + j;
            f.type = ForceType::RotationalSpringDamper;
            f.joint = j;
            f.stiffness = 30.0;
            f.damping = 2.0;
            f.freeAngle = 0.0;  // set below from the actual angle, away from the wrap
            doc.forces.push_back(f);
        }
    }
    if (name == "body force" || name == "body torque") {
        ForceDoc f;
        f.type = name == "body force" ? ForceType::BodyForce : ForceType::BodyTorque;
        f.vector = Vec3(3.0, -2.0, 5.0);
        f.localPoint = Vec3(0.3, -0.2, 0.4);
        for (const char* b : {"b1", "b2"}) {
            f.name = std::string(name.toStdString()) + " on " + b;
            f.body = b;
            f.law = harmonicLaw();
            doc.forces.push_back(f);
        }
    }
    // "gravity and gyroscopic": the two free bodies alone.
    return doc;
}

// F = Q − Φ_qᵀλ, the net generalised force.
VecX netForce(const Model& model, const State& s, const VecX& lambda) {
    ConstraintValues cv;
    evaluateConstraints(model, s, cv, kJacobian);
    return generalizedForces(model, s) - cv.jacobian.transpose() * lambda;
}

// Central differences: column k of −∂F/∂q along the retraction and of −∂Q/∂v.
// With h = 1e-5 and entries of order 10–100 (the model is of size 1 m, 1 kg, stiffness
// 40 N/m), the truncation error h²/6 |F'''| is ~1e-9 and the rounding error
// ε |F| / h ~ 1e-16 · 100 / 1e-5 = 1e-9: agreement to ~1e-10 relative to the largest
// entry is expected, and 1e-7 is required. A missing term is of order one relative.
constexpr double kStep = 1e-5;
constexpr double kTolerance = 1e-7;

MatX finiteDifferenceStiffness(const Model& model, const State& s, const VecX& lambda) {
    const int n = model.velocitySize();
    MatX K(n, n);
    for (int k = 0; k < n; ++k) {
        State sp = s, sm = s;
        const VecX e = kStep * VecX::Unit(n, k);
        retract(model, sp.q, e);
        retract(model, sm.q, -e);
        K.col(k) = -(netForce(model, sp, lambda) - netForce(model, sm, lambda)) / (2.0 * kStep);
    }
    return K;
}

MatX finiteDifferenceDamping(const Model& model, const State& s) {
    const int n = model.velocitySize();
    MatX C(n, n);
    for (int k = 0; k < n; ++k) {
        State sp = s, sm = s;
        sp.v[k] += kStep;
        sm.v[k] -= kStep;
        C.col(k) = -(generalizedForces(model, sp) - generalizedForces(model, sm)) / (2.0 * kStep);
    }
    return C;
}

double relativeError(const MatX& analytic, const MatX& reference) {
    const double scale = std::max(1.0, reference.cwiseAbs().maxCoeff());
    return (analytic - reference).cwiseAbs().maxCoeff() / scale;
}

// A state away from assembly and equilibrium: the initial poses, random v and λ.
State genericState(const Model& model, std::mt19937& g, VecX& lambda) {
    State s = initialState(model);
    s.t = 0.37;
    for (int i = 0; i < s.v.size(); ++i) s.v[i] = randomVec(g, 2.0).x();
    lambda.resize(model.equationCount());
    for (int i = 0; i < lambda.size(); ++i) lambda[i] = randomVec(g, 20.0).x();
    return s;
}

// Multipliers that hold a model at rest: the least-squares λ of Φ_qᵀλ = Q at v = 0.
VecX staticMultipliers(const Model& model, const State& s) {
    ConstraintValues cv;
    evaluateConstraints(model, s, cv, kJacobian);
    const MatX Jt = cv.denseJacobian().transpose();
    return Jt.completeOrthogonalDecomposition().solve(generalizedForces(model, s));
}

// Squared small-oscillation frequencies at an equilibrium: eigenvalues of (TᵀMT)⁻¹ TᵀKT
// with T a basis of the tangent space of the constraints, in ascending order; none if
// TᵀKT is not symmetric.
VecX squaredFrequencies(const Model& model, const State& s, const VecX& lambda) {
    Linearization lin;
    linearize(model, s, lambda, lin);
    ConstraintValues cv;
    evaluateConstraints(model, s, cv, kJacobian);
    const MatX T = cv.denseJacobian().fullPivLu().kernel();
    const MatX Kp = T.transpose() * MatX(lin.stiffness) * T;
    const MatX Mp = T.transpose() * MatX(lin.mass) * T;
    // At an equilibrium of conservative loads the Lie-bracket part of K vanishes with the
    // net force, and K is symmetric on the tangent space. (Not necessarily off it: a
    // rotational spring's torque is about z1, the gradient of its energy only where the
    // joint is assembled.)
    const double asymmetry = (Kp - Kp.transpose()).cwiseAbs().maxCoeff();
    if (asymmetry > 1e-12 * Kp.cwiseAbs().maxCoeff()) {
        qWarning("projected stiffness not symmetric: %g", asymmetry);
        return VecX();
    }
    Eigen::GeneralizedSelfAdjointEigenSolver<MatX> eig(Kp, Mp);
    return eig.eigenvalues();
}

}  // namespace

class LinearizationTest : public QObject {
    Q_OBJECT
private slots:
    void matchesFiniteDifferences_data() {
        QTest::addColumn<QString>("which");
        for (JointType t : jointTypes()) QTest::newRow(jointTypeName(t)) << QString(jointTypeName(t));
        for (const char* c : {"rotational driver", "translational driver", "coupler", "cam", "spring-damper",
                              "rotational spring-damper", "body force", "body torque",
                              "gravity and gyroscopic"})
            QTest::newRow(c) << QString(c);
    }

    void matchesFiniteDifferences() {
        QFETCH(QString, which);
        double worstK = 0.0, worstC = 0.0, withoutCurvature = 0.0;
        for (unsigned seed = 1; seed <= 3; ++seed) {
            std::mt19937 g(seed);
            ModelDocument doc = caseModel(which, g);
            BuildResult built = buildModel(doc);
            QVERIFY2(built.ok(), formatDiagnostics(built.diagnostics).c_str());
            if (which == "rotational spring-damper") {
                // Free angles 1 rad from the initial angles: far from the wrap at ±π.
                for (size_t i = 0; i < doc.forces.size(); ++i)
                    doc.forces[i].freeAngle = jointAngle(*built.model, initialState(*built.model),
                                                         built.model->forces[i].joint) - 1.0;
                built = buildModel(doc);
                QVERIFY(built.ok());
            }
            const Model& model = *built.model;
            VecX lambda;
            const State s = genericState(model, g, lambda);

            Linearization lin;
            linearize(model, s, lambda, lin);
            const MatX K(lin.stiffness), C(lin.damping);
            const MatX Kfd = finiteDifferenceStiffness(model, s, lambda);
            const MatX Cfd = finiteDifferenceDamping(model, s);
            worstK = std::max(worstK, relativeError(K, Kfd));
            worstC = std::max(worstC, relativeError(C, Cfd));
            QCOMPARE(MatX(lin.mass), denseMass(model));
            // Without the curvature term the analytic K would be far off wherever there
            // are constraints: the test sees a missing term.
            const MatX curvature(constraintCurvature(model, s, lambda));
            withoutCurvature = std::max(withoutCurvature, relativeError(K - curvature, Kfd));
            QVERIFY(Kfd.cwiseAbs().maxCoeff() > 1.0 || model.equationCount() == 0);
        }
        qInfo("%s: K %.2e, C %.2e relative to the largest entry; K without the curvature term %.2e",
              qPrintable(which), worstK, worstC, withoutCurvature);
        QVERIFY2(worstK < kTolerance, qPrintable(QString("K error %1").arg(worstK)));
        QVERIFY2(worstC < kTolerance, qPrintable(QString("C error %1").arg(worstC)));
        const bool constrained = which != "spring-damper" && which != "body force" &&
                                 which != "body torque" && which != "gravity and gyroscopic";
        if (constrained) QVERIFY2(withoutCurvature > 1e3 * kTolerance, qPrintable(QString::number(withoutCurvature)));
    }

    // For loads that derive from a potential at fixed λ and t (gravity, undamped springs,
    // forces of fixed global direction, λ·Φ of every joint and driver), the derivative
    // along body-frame rotations has the antisymmetric part −½ F̃_θ on each body's rotation
    // block (F_θ the body-frame moment of F = Q − Φ_qᵀλ) and none elsewhere.
    void antisymmetricPartIsTheLieBracket() {
        std::mt19937 g(7);
        ModelDocument doc = twoBodies(g);
        int k = 0;
        for (JointType t : jointTypes()) {
            addRandomJoint(doc, g, t, "j" + std::to_string(k++), "b1", "b2");
            addRandomJoint(doc, g, t, "j" + std::to_string(k++), "ground", "b1");
        }
        doc.joints.push_back(doc.joints.front());  // a revolute to drive, apart from the others
        doc.joints.back().name = "driven revolute";
        doc.joints.push_back(doc.joints[2]);
        doc.joints.back().name = "driven prismatic";
        doc.drivers.push_back({"rotation", "driven revolute", harmonicLaw()});
        doc.drivers.push_back({"translation", "driven prismatic", harmonicLaw()});
        addSpringDamper(doc, g, "spring", "b1", "b2", 0.0);
        ForceDoc f;
        f.name = "force";
        f.type = ForceType::BodyForce;
        f.body = "b2";
        f.vector = Vec3(1.0, 2.0, -3.0);
        f.localPoint = Vec3(0.2, 0.1, -0.3);
        doc.forces.push_back(f);
        const BuildResult built = buildModel(doc);
        QVERIFY2(built.ok(), formatDiagnostics(built.diagnostics).c_str());
        const Model& model = *built.model;
        QCOMPARE(model.joints[2].type, JointType::Prismatic);
        VecX lambda;
        State s = genericState(model, g, lambda);
        s.v.setZero();  // the gyroscopic term is no load of this kind; it does not enter K anyway
        Linearization lin;
        linearize(model, s, lambda, lin);
        const MatX K(lin.stiffness);
        const VecX F = netForce(model, s, lambda);
        MatX expected = MatX::Zero(K.rows(), K.cols());
        for (int b = 1; b < model.bodyCount(); ++b) {
            const int o = model.velocityOffset(BodyIndex(b)) + 3;
            expected.block<3, 3>(o, o) = -0.5 * skew(F.segment<3>(o));
        }
        const MatX antisymmetric = 0.5 * (K - K.transpose());
        const double err = (antisymmetric - expected).cwiseAbs().maxCoeff() / K.cwiseAbs().maxCoeff();
        qInfo("antisymmetric part of K against -1/2 skew(F_theta): %.2e relative (|F_theta| up to %.3g)", err,
              F.cwiseAbs().maxCoeff());
        QVERIFY(expected.cwiseAbs().maxCoeff() > 1.0);  // the bracket term is really there
        QVERIFY2(err < 1e-12, qPrintable(QString::number(err)));
    }

    // A physical pendulum on a revolute joint about z, held off the vertical at θ* by a
    // rotational spring (stiffness k, free angle chosen so that k θ_f = m g l sin θ*):
    // ω² = (k + m g l cos θ*) / (I_zz + m l²). The gravity force is constant in these
    // coordinates: the m g l cos θ* part comes entirely from the curvature term.
    void revolutePendulumFrequency() {
        const double m = 2.0, l = 0.7, grav = 9.81, k = 15.0, theta = 0.6;
        const Vec3 inertia(0.05, 0.08, 0.11);
        ModelDocument doc;
        doc.gravity = Vec3(0.0, -grav, 0.0);
        BodyDoc b;
        b.name = "bob";
        b.mass = m;
        b.inertia = inertia.asDiagonal();
        b.position = Vec3(l * std::sin(theta), -l * std::cos(theta), 0.0);
        b.orientation = Quat(Eigen::AngleAxisd(theta, Vec3::UnitZ()));
        doc.bodies.push_back(b);
        JointDoc j;
        j.name = "pivot";
        j.type = JointType::Revolute;
        j.body1 = "ground";
        j.body2 = "bob";
        j.point = Vec3::Zero();
        j.axis = Vec3::UnitZ();
        doc.joints.push_back(j);
        ForceDoc f;
        f.name = "spring";
        f.type = ForceType::RotationalSpringDamper;
        f.joint = "pivot";
        f.stiffness = k;
        // The joint angle is 0 at the initial configuration; the spring's torque k θ_f
        // balances gravity's m g l sin θ* there.
        f.freeAngle = m * grav * l * std::sin(theta) / k;
        doc.forces.push_back(f);
        const BuildResult built = buildModel(doc);
        QVERIFY2(built.ok(), formatDiagnostics(built.diagnostics).c_str());
        checkEquilibriumFrequencies(*built.model, {(k + m * grav * l * std::cos(theta)) / (inertia.z() + m * l * l)});
    }

    // A body hanging from a spherical joint, centre of mass l below the pivot: swinging
    // about x and z with ω² = m g l / (I + m l²), turning about the vertical with ω = 0.
    void sphericalPendulumFrequencies() {
        const double m = 1.5, l = 0.4, grav = 9.81;
        const Vec3 inertia(0.02, 0.03, 0.045);
        ModelDocument doc;
        doc.gravity = Vec3(0.0, -grav, 0.0);
        BodyDoc b;
        b.name = "bob";
        b.mass = m;
        b.inertia = inertia.asDiagonal();
        b.position = Vec3(0.0, -l, 0.0);
        doc.bodies.push_back(b);
        JointDoc j;
        j.name = "pivot";
        j.type = JointType::Spherical;
        j.body1 = "ground";
        j.body2 = "bob";
        doc.joints.push_back(j);
        const BuildResult built = buildModel(doc);
        QVERIFY2(built.ok(), formatDiagnostics(built.diagnostics).c_str());
        checkEquilibriumFrequencies(*built.model, {0.0, m * grav * l / (inertia.z() + m * l * l),
                                                   m * grav * l / (inertia.x() + m * l * l)});
    }

    // A hanging pendulum (revolute about z) held at the point a below the pivot by two
    // horizontal springs to ground points at ±X, both stretched to tension T₀: to second
    // order the spring lengths are X ∓ a θ exactly, so ω² = (m g l + 2 k a²)/(I_zz + m l²)
    // whatever T₀; the tension's geometric stiffness must cancel the lever term.
    void springPendulumFrequency() {
        const double m = 1.2, l = 0.8, a = 0.5, X = 0.9, k = 60.0, grav = 9.81;
        const Vec3 inertia(0.04, 0.06, 0.07);
        ModelDocument doc;
        doc.gravity = Vec3(0.0, -grav, 0.0);
        BodyDoc b;
        b.name = "bob";
        b.mass = m;
        b.inertia = inertia.asDiagonal();
        b.position = Vec3(0.0, -l, 0.0);
        doc.bodies.push_back(b);
        JointDoc j;
        j.name = "pivot";
        j.type = JointType::Revolute;
        j.body1 = "ground";
        j.body2 = "bob";
        j.axis = Vec3::UnitZ();
        doc.joints.push_back(j);
        for (double side : {1.0, -1.0}) {
            ForceDoc f;
            f.name = side > 0 ? "right" : "left";
            f.type = ForceType::SpringDamper;
            f.body1 = "ground";
            f.point1 = Vec3(side * X, -a, 0.0);
            f.body2 = "bob";
            f.point2 = Vec3(0.0, -a, 0.0);
            f.stiffness = k;
            f.freeLength = 0.6 * X;  // tension 0.4 k X
            f.preload = 2.0;
            doc.forces.push_back(f);
        }
        const BuildResult built = buildModel(doc);
        QVERIFY2(built.ok(), formatDiagnostics(built.diagnostics).c_str());
        checkEquilibriumFrequencies(*built.model, {(m * grav * l + 2 * k * a * a) / (inertia.z() + m * l * l)});
    }

    // The four-bar of the examples (3 redundant equations) with a spring from the ground
    // to the coupler, under gravity. Newton's method on the tangent space with the analytic
    // K, δz = (TᵀKT)⁻¹ TᵀF, re-assembling after each step, must converge quadratically to
    // the equilibrium; there (TᵀMT)⁻¹ TᵀKT must equal V_ss / (tᵀMt), with V the potential
    // energy along the mechanism's path q(s) through the equilibrium with q'(0) = t, from
    // central differences of mechanicalEnergy() alone.
    void fourBarEquilibriumByNewton() {
        ModelDocument doc = test::exampleDocument("four-bar.json");
        ForceDoc spring;
        spring.name = "spring";
        spring.type = ForceType::SpringDamper;
        spring.body1 = "ground";
        spring.point1 = Vec3(0.1, 0.4, 0.0);
        spring.body2 = "coupler";
        spring.point2 = doc.bodies[1].position;
        spring.stiffness = 20.0;
        spring.freeLength = 0.1;
        doc.forces.push_back(spring);
        const LoadedModel lm = prepareModel(doc);
        QVERIFY2(lm.ok(), formatDiagnostics(lm.diagnostics).c_str());
        const Model& model = *lm.model;
        AssemblyOptions tight;
        tight.tolerance = 1e-15;
        auto onManifold = [&](State& x) {
            assemble(model, x, tight);
            ConstraintValues cv;
            evaluateConstraints(model, x, cv, kPhi);
            return cv.phi.cwiseAbs().maxCoeff();
        };
        auto tangentBasis = [&](const State& x) {
            ConstraintValues cv;
            evaluateConstraints(model, x, cv, kJacobian);
            const MatX kernel = cv.denseJacobian().fullPivLu().kernel();
            return MatX(kernel.householderQr().householderQ() * MatX::Identity(kernel.rows(), kernel.cols()));
        };
        State s = lm.initial;
        s.v.setZero();
        std::vector<double> residuals;
        for (int it = 0; it < 12; ++it) {
            const VecX lambda = staticMultipliers(model, s);
            const MatX T = tangentBasis(s);
            const VecX r = T.transpose() * netForce(model, s, lambda);
            residuals.push_back(r.norm());
            if (r.norm() < 1e-12) break;
            Linearization lin;
            linearize(model, s, lambda, lin);
            const MatX Kp = T.transpose() * MatX(lin.stiffness) * T;
            retract(model, s.q, T * Kp.partialPivLu().solve(r));
            QVERIFY(onManifold(s) < 1e-14);
        }
        QString history;
        for (double r : residuals) history += QString::number(r, 'g', 3) + " ";
        qInfo("Newton with the analytic K, |T^T F| per iteration: %s", qPrintable(history));
        QVERIFY2(residuals.back() < 1e-12, qPrintable(history));
        QVERIFY2(residuals.size() <= 8, qPrintable(history));
        // Quadratic: once small, each residual is of the order of the previous one squared.
        for (size_t i = 1; i < residuals.size(); ++i)
            if (residuals[i - 1] < 1e-1)
                QVERIFY2(residuals[i] < 10 * residuals[i - 1] * residuals[i - 1] + 1e-12, qPrintable(history));

        const VecX lambda = staticMultipliers(model, s);
        const VecX w2 = squaredFrequencies(model, s, lambda);
        QCOMPARE(w2.size(), Eigen::Index(1));
        const VecX t = tangentBasis(s).col(0);
        // h = 5e-4: truncation h²/12 of the fourth derivative, measured ~1e-7 relative at
        // h = 1e-3, so ~3e-8 here; assembly to ~1e-16 m makes the energy good to ~1e-15 J,
        // over h² about 1e-8 of V_ss.
        const double h = 5e-4;
        auto potential = [&](double step) {
            State x = s;
            retract(model, x.q, step * t);
            const double phi = onManifold(x);
            if (phi > 1e-14) qWarning("path point not assembled: %g", phi);
            const Energy E = mechanicalEnergy(model, x);
            return E.gravity + E.springs;
        };
        const double curvature = (potential(h) - 2.0 * potential(0.0) + potential(-h)) / (h * h);
        const double expected = curvature / t.dot(applyMass(model, t));
        qInfo("four-bar at equilibrium: omega^2 %.12g from K, %.12g from the energy", w2[0], expected);
        QVERIFY2(std::abs(w2[0] - expected) < 1e-6 * std::abs(expected),
                 qPrintable(QString("%1 against %2").arg(w2[0]).arg(expected)));
        // The equilibrium next to the example's pose is unstable (ω² < 0); the comparison
        // holds for either sign, and must not be between two near-zero numbers.
        QVERIFY(std::abs(expected) > 1.0);
    }

private:
    // At the model's initial state (an equilibrium at rest): the static multipliers leave no
    // net force, TᵀKT is symmetric, and the projected frequencies are the expected ones.
    void checkEquilibriumFrequencies(const Model& model, const std::vector<double>& expected) {
        State s = initialState(model);
        ConstraintValues cv;
        evaluateConstraints(model, s, cv, kPhi);
        QVERIFY(cv.phi.cwiseAbs().maxCoeff() < 1e-14);
        const VecX lambda = staticMultipliers(model, s);
        const double residual = netForce(model, s, lambda).cwiseAbs().maxCoeff();
        QVERIFY2(residual < 1e-12, qPrintable(QString("not in equilibrium: %1").arg(residual)));
        const VecX w2 = squaredFrequencies(model, s, lambda);
        QCOMPARE(w2.size(), Eigen::Index(expected.size()));
        double worst = 0.0;
        for (int i = 0; i < w2.size(); ++i) {
            worst = std::max(worst, std::abs(w2[i] - expected[static_cast<size_t>(i)]) /
                                        std::max(1.0, expected[static_cast<size_t>(i)]));
            qInfo("omega^2 = %.15g, expected %.15g", w2[i], expected[static_cast<size_t>(i)]);
        }
        QVERIFY2(worst < 1e-12, qPrintable(QString("frequency error %1").arg(worst)));
    }
};

QTEST_APPLESS_MAIN(LinearizationTest)
#include "tst_linearization.moc"
