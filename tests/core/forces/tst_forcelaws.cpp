// The force-law interface (ForceLaw.h), checked the same way for every law: one row per
// force type the file format knows (forceLawTypes()), so that a new law without a case
// here fails. Each case puts the law between two free rigid bodies in random poses (not
// assembled: a law's force is defined off the constraints too) and, where it acts through
// a joint, on revolute, cylindrical and prismatic joints between two bodies and to the
// ground (a rotational spring's joints hold their axes parallel, where its torque is the
// gradient of its energy). At a random state with v ≠ 0 and t ≠ 0, for each element of
// the law:
//  - −∂Q/∂q along the retraction and −∂Q/∂v against central differences of its own Q;
//  - the power: Qᵀv = inputPower − dissipatedPower − dV/dt, dV/dt a central difference of
//    the law's potential energy along q ⊕ εv;
//  - with its source set to zero (no stiffness, preload, load, voltage or table torque) and
//    the bodies at rest, Q = 0 exactly.
// With h = 1e-5 on a model of size 1 m, 1 kg, forces of order 10–100: the truncation error
// h²/6 |Q'''| ~ 1e-9 and the rounding ε|Q|/h ~ 1e-9, so 1e-7 relative to the largest
// entry is a margin of 100 and a missing term (of order one relative) fails.
#include "RandomPoses.h"
#include "TestModels.h"

#include "looplab/dynamics/ForceDerivatives.h"
#include "looplab/model/ForceLaw.h"
#include "looplab/model/ModelBuilder.h"

#include <QtTest>

#include <optional>
#include <random>

using namespace looplab;

using looplab::test::randomQuat;
using looplab::test::randomVec;
using looplab::test::addRandomJoint;

namespace {

constexpr double kStep = 1e-5;
constexpr double kTolerance = 1e-7;

ModelDocument twoBodies(std::mt19937& g) {
    ModelDocument doc;
    doc.name = "force law case";
    for (const char* n : {"b1", "b2"}) {
        BodyDoc b;
        b.name = n;
        b.mass = 1.3;
        const Mat3 R = randomQuat(g).toRotationMatrix();
        b.inertia = R * Vec3(0.12, 0.2, 0.25).asDiagonal() * R.transpose();
        b.position = randomVec(g);
        b.orientation = randomQuat(g);
        doc.bodies.push_back(b);
    }
    return doc;
}

Quat bodyOrientationOf(const ModelDocument& doc, const std::string& body) {
    for (const BodyDoc& b : doc.bodies)
        if (b.name == body) return b.orientation;
    return Quat::Identity();  // the ground
}

// The last joint's second marker turned so that its z axis is the first marker's, its x
// axis 0.7 rad about it from the first's.
void alignAxes(ModelDocument& doc, const std::string& body1, const std::string& body2) {
    const MarkerDoc& m1 = doc.markers[doc.markers.size() - 2];
    MarkerDoc& m2 = doc.markers.back();
    m2.orientation = bodyOrientationOf(doc, body2).conjugate() * bodyOrientationOf(doc, body1) * m1.orientation *
                     Quat(Eigen::AngleAxisd(0.7, Vec3::UnitZ()));
}

Vec3 globalPoint(const ModelDocument& doc, const std::string& body, const Vec3& local) {
    for (const BodyDoc& b : doc.bodies)
        if (b.name == body) return b.position + b.orientation * local;
    return local;
}

TimeLaw harmonic(double amplitude, double offset) {
    TimeLaw law;
    law.kind = TimeLaw::Kind::Harmonic;
    law.amplitude = amplitude;
    law.frequency = 2.3;
    law.phase = 0.4;
    law.offset = offset;
    return law;
}

// Joints a joint law acts on: rotations about a revolute between the bodies and a
// cylindrical to the ground, slides along a prismatic between the bodies and to the ground.
const char* const kJointCases[][2] = {{"revolute", "between"}, {"cylindrical", "to ground"},
                                      {"prismatic", "between"}, {"prismatic", "to ground"}};

void addJointLaws(ModelDocument& doc, std::mt19937& g, ForceType type, const MotorDoc& motor) {
    for (const auto& c : kJointCases) {
        JointType jt;
        jointTypeFromName(c[0], jt);
        const std::string name = std::string(c[0]) + " " + c[1];
        const bool between = std::string(c[1]) == "between";
        addRandomJoint(doc, g, jt, name, between ? "b1" : "ground", "b2");
        ForceDoc f;
        f.name = "motor on " + name;
        f.type = type;
        f.joint = name;
        f.motor = motor;
        doc.forces.push_back(f);
    }
}

// The case of a law, or none: a law without a case fails the suite.
std::optional<ModelDocument> caseModel(ForceType type, std::mt19937& g) {
    ModelDocument doc = twoBodies(g);
    switch (type) {
    case ForceType::SpringDamper:
        for (const char* b1 : {"b1", "ground"}) {
            ForceDoc f;
            f.name = std::string("spring from ") + b1;
            f.type = type;
            f.body1 = b1;
            f.body2 = "b2";
            f.point1 = globalPoint(doc, b1, randomVec(g, 0.5));
            f.point2 = globalPoint(doc, "b2", randomVec(g, 0.5));
            f.stiffness = 40.0;
            f.damping = 2.5;
            f.freeLength = 0.6 * (f.point2 - f.point1).norm();
            f.preload = 3.0;
            doc.forces.push_back(f);
        }
        return doc;
    case ForceType::RotationalSpringDamper:
        // The joints' axes z1 and z2 made parallel: the torque about z1 does the work
        // τ θ̇ only where the joint holds its axis (off it θ̇ ≠ z1·(ω2 − ω1)).
        addRandomJoint(doc, g, JointType::Revolute, "joint", "b1", "b2");
        alignAxes(doc, "b1", "b2");
        addRandomJoint(doc, g, JointType::Cylindrical, "to ground", "ground", "b1");
        alignAxes(doc, "ground", "b1");
        for (const char* j : {"joint", "to ground"}) {
            ForceDoc f;
            f.name = std::string("spring on ") + j;
            f.type = type;
            f.joint = j;
            f.stiffness = 30.0;
            f.damping = 2.0;
            doc.forces.push_back(f);
        }
        return doc;
    case ForceType::BodyForce:
    case ForceType::BodyTorque:
        for (const char* b : {"b1", "b2"}) {
            ForceDoc f;
            f.name = std::string(forceTypeName(type)) + " on " + b;
            f.type = type;
            f.body = b;
            f.vector = Vec3(3.0, -2.0, 5.0);
            f.localPoint = Vec3(0.3, -0.2, 0.4);
            f.law = harmonic(0.9, 0.1);
            doc.forces.push_back(f);
        }
        return doc;
    case ForceType::DcMotor: {
        MotorDoc m;
        m.voltage = harmonic(3.0, 12.0);
        m.torqueConstant = 0.05;
        m.resistance = 1.5;
        m.gearRatio = 6.0;
        m.efficiency = 0.85;
        addJointLaws(doc, g, type, m);
        return doc;
    }
    case ForceType::TableMotor: {
        // Knots away from the motor speeds of the random state (a few rad/s times n = 3),
        // where the curve's slope jumps.
        MotorDoc m;
        m.table = {{-100.0, 4.0}, {-37.0, 3.5}, {41.0, 2.0}, {200.0, -1.0}};
        m.gearRatio = 3.0;
        m.efficiency = 0.9;
        addJointLaws(doc, g, type, m);
        return doc;
    }
    }
    return std::nullopt;
}

// The law's source set to zero: what must leave no force on bodies at rest.
void zeroSource(ForceDoc& f) {
    f.stiffness = 0.0;
    f.preload = 0.0;
    f.vector = Vec3::Zero();
    f.motor.voltage = TimeLaw{};  // constant 0 V
    for (auto& p : f.motor.table) p.second = 0.0;
}

VecX lawForce(const Model& m, const ForceElement& e, const State& s) {
    VecX f = VecX::Zero(m.velocitySize());
    e.forceLaw->addForces(m, s, f);
    return f;
}

void lawDerivatives(const Model& m, const ForceElement& e, const State& s, MatX& K, MatX& C) {
    std::vector<Eigen::Triplet<double>> k, c;
    e.forceLaw->addDerivatives(m, s, k, c);
    K = MatX::Zero(m.velocitySize(), m.velocitySize());
    C = K;
    for (const auto& t : k) K(t.row(), t.col()) += t.value();
    for (const auto& t : c) C(t.row(), t.col()) += t.value();
}

double relativeError(const MatX& analytic, const MatX& reference) {
    return (analytic - reference).cwiseAbs().maxCoeff() / std::max(1.0, reference.cwiseAbs().maxCoeff());
}

State genericState(const Model& model, std::mt19937& g) {
    State s = initialState(model);
    s.t = 0.37;
    for (int i = 0; i < s.v.size(); ++i) s.v[i] = randomVec(g, 2.0).x();
    return s;
}

}  // namespace

class ForceLawsTest : public QObject {
    Q_OBJECT
private slots:
    void conformance_data() {
        QTest::addColumn<int>("type");
        for (ForceType t : forceLawTypes()) QTest::newRow(forceTypeName(t)) << static_cast<int>(t);
    }

    void conformance() {
        QFETCH(int, type);
        const ForceType forceType = static_cast<ForceType>(type);
        double worstK = 0.0, worstC = 0.0, worstPower = 0.0;
        int elements = 0;
        for (unsigned seed = 1; seed <= 3; ++seed) {
            std::mt19937 g(seed);
            const std::optional<ModelDocument> doc = caseModel(forceType, g);
            if (!doc) QFAIL(qPrintable(QString("no conformance case for the force law '%1'").arg(forceTypeName(forceType))));
            const BuildResult built = buildModel(*doc);
            QVERIFY2(built.ok(), formatDiagnostics(built.diagnostics).c_str());
            const Model& m = *built.model;
            const State s = genericState(m, g);
            const int n = m.velocitySize();
            for (const ForceElement& e : m.forces) {
                QCOMPARE(static_cast<int>(e.forceLaw->type()), type);
                ++elements;
                MatX K, C;
                lawDerivatives(m, e, s, K, C);
                MatX Kd(n, n), Cd(n, n);
                for (int k = 0; k < n; ++k) {
                    State sp = s, sm = s;
                    const VecX step = kStep * VecX::Unit(n, k);
                    retract(m, sp.q, step);
                    retract(m, sm.q, -step);
                    Kd.col(k) = -(lawForce(m, e, sp) - lawForce(m, e, sm)) / (2.0 * kStep);
                    sp = s;
                    sm = s;
                    sp.v[k] += kStep;
                    sm.v[k] -= kStep;
                    Cd.col(k) = -(lawForce(m, e, sp) - lawForce(m, e, sm)) / (2.0 * kStep);
                }
                worstK = std::max(worstK, relativeError(K, Kd));
                worstC = std::max(worstC, relativeError(C, Cd));
                // Qᵀv = P_in − P_lost − dV/dt.
                State sp = s, sm = s;
                retract(m, sp.q, kStep * s.v);
                retract(m, sm.q, -kStep * s.v);
                const double dVdt =
                    (e.forceLaw->potentialEnergy(m, sp) - e.forceLaw->potentialEnergy(m, sm)) / (2.0 * kStep);
                const double power = lawForce(m, e, s).dot(s.v);
                const double balance = e.forceLaw->inputPower(m, s) - e.forceLaw->dissipatedPower(m, s) - dVdt;
                worstPower = std::max(worstPower, std::abs(power - balance) / std::max(1.0, std::abs(power)));
                QVERIFY(e.forceLaw->putsInWork() || e.forceLaw->inputPower(m, s) == 0.0);
                QVERIFY(e.forceLaw->dissipates() || e.forceLaw->dissipatedPower(m, s) == 0.0);
            }
            // Zero source, bodies at rest: no force.
            ModelDocument quiet = *doc;
            for (ForceDoc& f : quiet.forces) zeroSource(f);
            const BuildResult quietBuilt = buildModel(quiet);
            QVERIFY2(quietBuilt.ok(), formatDiagnostics(quietBuilt.diagnostics).c_str());
            State rest = s;
            rest.v.setZero();
            for (const ForceElement& e : quietBuilt.model->forces)
                QCOMPARE(lawForce(*quietBuilt.model, e, rest).cwiseAbs().maxCoeff(), 0.0);
        }
        qInfo("%s: %d elements, K %.2e, C %.2e, power %.2e (relative)", forceTypeName(forceType), elements, worstK,
              worstC, worstPower);
        QVERIFY(elements >= 6);
        QVERIFY2(worstK < kTolerance, qPrintable(QString("−∂Q/∂q off by %1").arg(worstK)));
        QVERIFY2(worstC < kTolerance, qPrintable(QString("−∂Q/∂v off by %1").arg(worstC)));
        // dV/dt by a central difference: the same truncation and rounding as above.
        QVERIFY2(worstPower < kTolerance, qPrintable(QString("power off by %1").arg(worstPower)));
    }
};

QTEST_GUILESS_MAIN(ForceLawsTest)
#include "tst_forcelaws.moc"
