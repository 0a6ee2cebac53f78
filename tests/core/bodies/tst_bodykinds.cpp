// The body-kind interface (BodyFormulation.h), checked the same way for every kind: one row
// per kind (a rigid body, a damped beam, a damped solid), each at a configuration away from
// its initial one so that no force, stiffness or rate is zero by symmetry:
//  - q̇(v) is the derivative of the retraction q ⊕ t v at t = 0, and the retraction keeps q
//    on its manifold (normalising afterwards changes nothing);
//  - attached points and directions: J against central differences of the value along the
//    retraction, the rate equal to J v, the bias against the second difference along
//    q ⊕ t v, and the curvature against differences of Jᵀw;
//  - the mass matrix symmetric positive definite, its products and inverse consistent with
//    it, ½ vᵀ M v the kinetic energy, and a translation of the whole body carrying the
//    body's mass;
//  - the potential forces (elastic and gravity) equal to −∂U/∂q, K equal to −∂f/∂q and C
//    to −∂f/∂v of the body's own forces.
// Differences are central; each tolerance is a few orders above the difference's own
// error (h² times the third derivative, plus rounding ε|f|/h) and far below the size of
// the quantity checked.
#include "looplab/bodies/BodyFormulation.h"
#include "looplab/bodies/beam/BeamMesh.h"
#include "looplab/bodies/rigid/GroundBody.h"
#include "looplab/bodies/rigid/RigidBody.h"
#include "looplab/bodies/solid/SolidMesh.h"

#include <QtTest>

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>

#include <memory>
#include <random>

using namespace looplab;

namespace {

std::shared_ptr<const BodyFormulation> makeKind(const QByteArray& name) {
    if (name == "rigid") {
        Mat3 inertia;
        inertia << 0.04, 0.003, -0.002, 0.003, 0.06, 0.001, -0.002, 0.001, 0.05;
        RigidBodyStart start;
        start.position = Vec3(0.3, -0.2, 1.0);
        start.orientation = Quat(Eigen::AngleAxisd(0.7, Vec3(1.0, -2.0, 0.5).normalized()));
        start.velocity = Vec3(0.4, -0.1, 0.2);
        start.angularVelocity = Vec3(1.2, -0.7, 0.5);
        return std::make_shared<const RigidBody>(2.5, inertia, start);
    }
    if (name == "beam") {
        ancf::CableProperties section;
        section.axialStiffness = 2e5;
        section.bendingStiffness = 40.0;
        section.massPerLength = 2.0;
        section.stiffnessDamping = 2e-3;
        return std::make_shared<const BeamMesh>(Vec3(0.1, 0.0, 0.0), Vec3(1.3, 0.3, -0.2), 3, section);
    }
    const hex::Material material{2e6, 0.3, 1000.0, 2e-3};
    return std::make_shared<const SolidMesh>(Vec3(0.0, 0.1, 0.0), Vec3(0.4, 0.2, 0.1), 2, 1, 1, material);
}

// The initial numbers moved by a random step of the retraction (5 % of the body's size,
// 0.05 rad) and random velocities.
void configuration(const BodyFormulation& k, unsigned seed, VecX& q, VecX& v) {
    q.resize(k.positionSize());
    v.resize(k.velocitySize());
    k.initialCoordinates(q.data(), v.data());
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    VecX step(k.velocitySize());
    for (int i = 0; i < step.size(); ++i) step[i] = 0.05 * u(rng);
    k.retract(q.data(), step.data());
    for (int i = 0; i < v.size(); ++i) v[i] = 0.8 * u(rng);
}

VecX retracted(const BodyFormulation& k, const VecX& q, const VecX& dv) {
    VecX out = q;
    k.retract(out.data(), dv.data());
    return out;
}

VecX unitStep(int n, int i, double h) {
    VecX e = VecX::Zero(n);
    e[i] = h;
    return e;
}

MatX denseFrom(const MatrixEntries& entries, int n) {
    MatX M = MatX::Zero(n, n);
    for (const Eigen::Triplet<double>& e : entries) M(e.row(), e.col()) += e.value();
    return M;
}

VecX ownForces(const BodyFormulation& k, const VecX& q, const VecX& v, const Vec3& g) {
    VecX f = VecX::Zero(k.velocitySize());
    k.addForces(q.data(), v.data(), g, f.data());
    return f;
}

double potential(const BodyFormulation& k, const VecX& q, const Vec3& g) {
    const VecX rest = VecX::Zero(k.velocitySize());
    const BodyEnergy e = k.energy(q.data(), rest.data(), g);
    return e.gravity + e.strain;
}

// A jet on the body (slot 1) with the ground in slot 0, at a node of a mesh; it reads q and
// v where they are, so they must outlive it.
struct AttachedJets {
    GroundBody ground;
    BodyMotion motion[2];
    JetSlots pair;
    AttachedJets(const BodyFormulation& k, const VecX& q, const VecX& v, int node) {
        motion[0].formulation = &ground;
        motion[1].formulation = &k;
        motion[1].sliceWidth = k.nodeSize() ? k.nodeSize() : k.velocitySize();
        k.motion(q.data(), v.data(), true, motion[1]);
        pair.body[0] = &motion[0];
        pair.body[1] = &motion[1];
        pair.node[1] = node;
    }
    VectorJet vector(const Vec3& local, bool isPoint, bool full = true) const {
        VectorJet x;
        x.full = full;
        x.twoBodies = &pair;
        motion[1].formulation->attach(pair, 1, local, isPoint, x);
        return x;
    }
};

const Vec3 kGravity(0.3, -9.81, 0.5);

}  // namespace

class TestBodyKinds : public QObject {
    Q_OBJECT

    void kinds() {
        QTest::addColumn<QByteArray>("kind");
        for (const char* k : {"rigid", "beam", "solid"}) QTest::newRow(k) << QByteArray(k);
    }

private slots:
    void positionRateIsTheDerivativeOfTheRetraction_data() { kinds(); }
    void positionRateIsTheDerivativeOfTheRetraction() {
        QFETCH(QByteArray, kind);
        const auto k = makeKind(kind);
        VecX q, v;
        configuration(*k, 1, q, v);
        VecX qdot(q.size());
        k->positionDerivative(q.data(), v.data(), qdot.data());
        const double h = 1e-6;
        const VecX fd = (retracted(*k, q, h * v) - retracted(*k, q, -h * v)) / (2.0 * h);
        QVERIFY2((fd - qdot).norm() <= 1e-8 * qdot.norm(), qPrintable(QString::number((fd - qdot).norm())));
        // A large step stays on the manifold.
        VecX moved = retracted(*k, q, 3.0 * v);
        const VecX before = moved;
        k->normalize(moved.data());
        QVERIFY((moved - before).norm() <= 1e-14 * before.norm());
    }

    void attachedVectorsMatchTheirDifferences_data() { kinds(); }
    void attachedVectorsMatchTheirDifferences() {
        QFETCH(QByteArray, kind);
        const auto k = makeKind(kind);
        VecX q, v;
        configuration(*k, 2, q, v);
        const int node = k->nodeSize() ? 2 : 0;
        const int first = k->nodeSize() * node;  // the jet's columns in the body's slice
        std::vector<std::pair<Vec3, bool>> vectors{{Vec3(0.1, -0.05, 0.2), true}};
        if (k->attachedFrame() != AttachedFrame::PointOnly) vectors.push_back({Vec3(0.6, 0.8, 0.0), false});
        const Vec3 w(0.4, -1.1, 0.7);
        for (const auto& [local, isPoint] : vectors) {
            const AttachedJets at(*k, q, v, node);
            const VectorJet x = at.vector(local, isPoint);
            const int width = at.pair.columns();
            const double h = 1e-6, scale = x.J.norm();
            JetSquare H = JetSquare::Zero(width, width);
            k->addCurvature(at.motion[1], x.lever[1], w, 1.0, at.pair.offset(1), H);
            Eigen::VectorXd rate = Eigen::VectorXd::Zero(3);
            for (int c = 0; c < width; ++c) {
                const VecX e = unitStep(k->velocitySize(), first + c, h);
                const VecX qp = retracted(*k, q, e), qm = retracted(*k, q, -e);  // the jets point into them
                const AttachedJets plus(*k, qp, v, node), minus(*k, qm, v, node);
                const VectorJet xp = plus.vector(local, isPoint), xm = minus.vector(local, isPoint);
                const Vec3 column = (xp.value - xm.value) / (2.0 * h);
                QVERIFY2((column - x.J.col(c)).norm() <= 1e-8 * scale, qPrintable(QString("J column %1").arg(c)));
                const VecX curvature = (xp.J.transpose() * w - xm.J.transpose() * w) / (2.0 * h);
                QVERIFY2((curvature - H.col(c)).norm() <= 1e-7 * (scale * w.norm() + H.norm()),
                         qPrintable(QString("curvature column %1").arg(c)));
                rate += x.J.col(c) * v[first + c];
            }
            QVERIFY((x.rate - rate).norm() <= 1e-13 * (rate.norm() + 1.0));
            // Along q ⊕ t v with v fixed, ẍ is the bias.
            const double t = 1e-4;
            const VecX qa = retracted(*k, q, t * v), qb = retracted(*k, q, -t * v);
            const AttachedJets ahead(*k, qa, v, node), behind(*k, qb, v, node);
            const Vec3 second = (ahead.vector(local, isPoint).value - 2.0 * x.value + behind.vector(local, isPoint).value) / (t * t);
            QVERIFY2((second - x.bias).norm() <= 1e-5 * (x.rate.norm() * v.norm() + 1.0),
                     qPrintable(QString("bias %1 vs %2").arg(second.norm()).arg(x.bias.norm())));
            // A position-only jet has the same value.
            QCOMPARE(at.vector(local, isPoint, false).value, x.value);
        }
    }

    void massIsSymmetricPositiveDefiniteAndConsistent_data() { kinds(); }
    void massIsSymmetricPositiveDefiniteAndConsistent() {
        QFETCH(QByteArray, kind);
        const auto k = makeKind(kind);
        VecX q, v;
        configuration(*k, 3, q, v);
        const int n = k->velocitySize();
        MatrixEntries entries;
        k->addMass(0, entries);
        const MatX M = denseFrom(entries, n);
        QVERIFY((M - M.transpose()).norm() <= 1e-14 * M.norm());
        QVERIFY(Eigen::SelfAdjointEigenSolver<MatX>(M).eigenvalues().minCoeff() > 0.0);
        VecX y(n);
        k->applyMass(v.data(), y.data());
        QVERIFY((y - M * v).norm() <= 1e-13 * (M * v).norm());
        VecX x = y;
        k->applyInverseMass(x.data());
        QVERIFY((x - v).norm() <= 1e-10 * v.norm());
        QVERIFY(std::abs(k->energy(q.data(), v.data(), kGravity).kinetic - 0.5 * v.dot(M * v)) <=
                1e-13 * v.dot(M * v));
        // A translation u of the whole body carries its mass: ½ uᵀ M u = ½ m |u|².
        const Vec3 u(0.3, -0.4, 1.2);
        VecX translation = VecX::Zero(n);
        k->rigidMotion(q.data(), u, Vec3::Zero(), Vec3::Zero(), translation.data());
        QVERIFY2(std::abs(translation.dot(M * translation) - k->totalMass() * u.squaredNorm()) <=
                     1e-12 * k->totalMass() * u.squaredNorm(),
                 qPrintable(QString::number(translation.dot(M * translation) / u.squaredNorm())));
    }

    void potentialForcesAreMinusTheEnergyGradient_data() { kinds(); }
    void potentialForcesAreMinusTheEnergyGradient() {
        QFETCH(QByteArray, kind);
        const auto k = makeKind(kind);
        VecX q, v;
        configuration(*k, 4, q, v);
        const int n = k->velocitySize();
        VecX f = VecX::Zero(n);
        k->addElasticForce(q.data(), f.data());
        k->addGravityForce(kGravity, f.data());
        const double h = 1e-6;
        VecX fd(n);
        for (int i = 0; i < n; ++i)
            fd[i] = -(potential(*k, retracted(*k, q, unitStep(n, i, h)), kGravity) -
                      potential(*k, retracted(*k, q, unitStep(n, i, -h)), kGravity)) / (2.0 * h);
        QVERIFY2((fd - f).norm() <= 1e-6 * f.norm(), qPrintable(QString("%1 of %2").arg((fd - f).norm()).arg(f.norm())));
    }

    void stiffnessAndDampingAreMinusTheForceDerivatives_data() { kinds(); }
    void stiffnessAndDampingAreMinusTheForceDerivatives() {
        QFETCH(QByteArray, kind);
        const auto k = makeKind(kind);
        VecX q, v;
        configuration(*k, 5, q, v);
        const int n = k->velocitySize();
        // K at rest: a mesh's K leaves out ∂(C(q) v)/∂q, which vanishes there (BodyFormulation.h).
        const VecX rest = k->nodeSize() ? VecX(VecX::Zero(n)) : v;
        MatrixEntries Ke, Ce, unused;
        k->addForceDerivatives(q.data(), rest.data(), 0, Ke, unused);
        k->addForceDerivatives(q.data(), v.data(), 0, unused, Ce);
        const MatX K = denseFrom(Ke, n), C = denseFrom(Ce, n);
        const double h = 1e-6;
        MatX Kfd(n, n), Cfd(n, n);
        for (int i = 0; i < n; ++i) {
            const VecX e = unitStep(n, i, h);
            Kfd.col(i) = -(ownForces(*k, retracted(*k, q, e), rest, kGravity) -
                           ownForces(*k, retracted(*k, q, -e), rest, kGravity)) / (2.0 * h);
            Cfd.col(i) = -(ownForces(*k, q, v + e, kGravity) - ownForces(*k, q, v - e, kGravity)) / (2.0 * h);
        }
        const double forces = ownForces(*k, q, v, kGravity).norm();
        QVERIFY2((Kfd - K).norm() <= 1e-6 * K.norm() + 1e-9 * forces,
                 qPrintable(QString("K: %1 of %2").arg((Kfd - K).norm()).arg(K.norm())));
        QVERIFY2((Cfd - C).norm() <= 1e-6 * C.norm(), qPrintable(QString("C: %1 of %2").arg((Cfd - C).norm()).arg(C.norm())));
        // Every kind here has a velocity-dependent force (gyroscopic or damping), and a mesh
        // a stiffness: neither check compares zero with zero.
        QVERIFY(C.norm() > 0.0);
        if (k->nodeSize()) QVERIFY(K.norm() > 0.0);
    }

    // The integrators hold a coordinate in a motion group to the group's largest |q − q₀|
    // (ErrorScales.h), which needs q̇ = v on it, and a mesh's node positions to their own
    // motion: a node's coordinates with equal velocity scales share a group.
    void motionGroupsMeasureDisplacements_data() { kinds(); }
    void motionGroupsMeasureDisplacements() {
        QFETCH(QByteArray, kind);
        const auto k = makeKind(kind);
        VecX q, v;
        configuration(*k, 6, q, v);
        const int n = k->velocitySize();
        VecX qdot(k->positionSize()), scales(n);
        k->positionDerivative(q.data(), v.data(), qdot.data());
        k->velocityScales(1.0, scales.data());
        bool grouped = false;
        for (int i = 0; i < n; ++i) {
            const int g = k->motionGroup(i);
            if (g < 0) continue;
            grouped = true;
            QCOMPARE(k->positionSize(), n);
            QCOMPARE(qdot[i], v[i]);
            for (int j = 0; j < n; ++j)
                if (k->motionGroup(j) == g) QCOMPARE(scales[j], scales[i]);
        }
        QCOMPARE(grouped, k->nodeSize() > 0);
    }
};

QTEST_APPLESS_MAIN(TestBodyKinds)
#include "tst_bodykinds.moc"
