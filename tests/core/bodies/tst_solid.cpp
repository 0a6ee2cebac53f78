// Solid meshes of 8-node hexahedra (HexahedronElement.h, SolidMesh.h):
//  - patch test: a homogeneous deformation gives the exact Green strain and St. Venant–
//    Kirchhoff stress at every Gauss point of a distorted element, no force on a mesh's
//    interior nodes, and face forces that add up to the traction P N A;
//  - the analytic tangent stiffness against central differences of the internal force (and
//    the force against the energy) at a large deformation, for an element and for a whole
//    clamped model (linearize());
//  - the consistent mass: total ρV and the exact kinetic energy of a rigid translation;
//  - objectivity: a rigid rotation stores no energy and a rotated deformed state has the
//    rotated forces;
//  - a clamped block under an end load converging to Timoshenko's tip deflection, and its
//    first bending frequency from Modes against the Euler–Bernoulli value;
//  - node sets declared in the file: a clamp by the listed nodes of a face is the face's
//    clamp; a force on a declared set is shared equally;
//  - the loader's diagnostics for bad solids, naming their JSON location.
#include "CliRunner.h"
#include "TestModels.h"

#include "looplab/kinematics/Constraints.h"
#include "looplab/dynamics/Dynamics.h"
#include "looplab/bodies/solid/HexahedronElement.h"
#include "looplab/dynamics/Linearization.h"
#include "looplab/analysis/Modes.h"
#include "looplab/bodies/Rotation.h"
#include "looplab/simulation/Simulation.h"
#include "looplab/bodies/solid/SolidMesh.h"
#include "looplab/analysis/Statics.h"

#include <QJsonDocument>
#include <QJsonObject>

#include <cmath>
#include <random>

using namespace looplab;

namespace {

const hex::Material kAluminium{70e9, 0.3, 2700.0};
constexpr double kLength = 1.0, kSide = 0.1;  // block along x, square section in y and z [m]

double relativeError(const MatX& a, const MatX& b) {
    return (a - b).cwiseAbs().maxCoeff() / std::max(b.cwiseAbs().maxCoeff(), 1e-300);
}

// A distorted (non-parallelepiped) element: the unit cube with its corners moved.
Eigen::Matrix<double, 3, hex::kNodes> distortedElement() {
    Eigen::Matrix<double, 3, hex::kNodes> X;
    const double jiggle[hex::kNodes][3] = {{0.02, -0.05, 0.01}, {0.1, 0.03, -0.04}, {-0.07, 0.12, 0.05}, {0.04, -0.02, 0.0},
                                           {-0.03, 0.06, 0.08}, {0.05, 0.0, -0.06}, {0.11, -0.04, 0.02}, {-0.05, 0.03, 0.1}};
    for (int a = 0; a < hex::kNodes; ++a)
        X.col(a) = 0.5 * (hex::cornerOf(a) + Vec3::Ones()) + Vec3(jiggle[a][0], jiggle[a][1], jiggle[a][2]);
    return X;
}

hex::ElementVector mapped(const Eigen::Matrix<double, 3, hex::kNodes>& X, const Mat3& F, const Vec3& c) {
    hex::ElementVector x;
    for (int a = 0; a < hex::kNodes; ++a) x.segment<3>(3 * a) = F * X.col(a) + c;
    return x;
}

// A large homogeneous deformation: stretch, shear and a rotation of about 70°.
Mat3 largeDeformation() {
    Mat3 U;
    U << 1.25, 0.15, -0.1,  //
        0.0, 0.85, 0.2,     //
        0.05, 0.0, 1.1;
    return quaternionFromRotationVector(Vec3(0.4, -1.0, 0.6)).toRotationMatrix() * U;
}

// The block [0, L] × [0, b] × [0, b] of nx × n × n elements clamped on its face x = 0 (every
// node pinned) and loaded by a resultant P (along −y) spread over the face x = L.
ModelDocument clampedBlock(int nx, int n, double P) {
    ModelDocument doc;
    doc.name = "clamped block";
    SolidDoc s;
    s.name = "block";
    s.size = Vec3(kLength, kSide, kSide);
    s.elements[0] = nx;
    s.elements[1] = s.elements[2] = n;
    s.material = {kAluminium.youngModulus, kAluminium.poissonRatio, kAluminium.density};
    doc.solids.push_back(s);
    JointDoc clamp;
    clamp.name = "clamp";
    clamp.type = JointType::Spherical;
    clamp.body1 = "ground";
    clamp.body2 = "block.xmin";
    doc.joints.push_back(clamp);
    if (P != 0.0) {
        ForceDoc load;
        load.name = "load";
        load.type = ForceType::BodyForce;
        load.body = "block.xmax";
        load.vector = Vec3(0, -P, 0);
        doc.forces.push_back(load);
    }
    return doc;
}

// Displacement of the loaded face's centroid (the consistent-traction weights of its nodes).
Vec3 endDisplacement(const Model& m, const State& s) {
    const Body& body = m.body(*m.findBody("block"));
    const SolidMesh& mesh = *body.solid();
    const std::vector<int> nodes = mesh.faceNodes(1);
    const std::vector<double> w = mesh.faceWeights(1);
    Vec3 u = Vec3::Zero();
    for (size_t k = 0; k < nodes.size(); ++k)
        u += w[k] * (s.q.segment<3>(body.slice.positionOffset + 3 * nodes[k]) - mesh.initialNodePosition(nodes[k]));
    return u;
}

// The header and the first data row of a CSV file.
bool firstRow(const QString& path, QStringList& header, QVector<double>& row) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly | QIODevice::Text)) return false;
    header = QString::fromUtf8(f.readLine()).trimmed().split(',');
    row.clear();
    for (const QString& c : QString::fromUtf8(f.readLine()).trimmed().split(',')) row.push_back(c.toDouble());
    return row.size() == header.size();
}

bool hasDiagnosticAt(const Diagnostics& d, const std::string& where) {
    for (const Diagnostic& x : d)
        if (x.location == where) return true;
    return false;
}

}  // namespace

class SolidTest : public QObject {
    Q_OBJECT
private slots:
    // x = F X + c reproduces E = ½(FᵀF − I) at every Gauss point of a distorted element
    // (trilinear shape functions interpolate a linear field exactly), and S follows the
    // formula λ tr(E) I + 2μE: both to rounding (1e-13 of their size).
    void homogeneousDeformationIsExact() {
        const Eigen::Matrix<double, 3, hex::kNodes> X = distortedElement();
        const hex::Geometry g = hex::geometry(X);
        const Mat3 F = largeDeformation();
        const hex::ElementVector x = mapped(X, F, Vec3(0.3, -0.2, 0.5));
        const Mat3 E = 0.5 * (F.transpose() * F - Mat3::Identity());
        const double lambda = kAluminium.youngModulus * 0.3 / (1.3 * 0.4), mu = kAluminium.youngModulus / 2.6;
        const Mat3 S = lambda * E.trace() * Mat3::Identity() + 2.0 * mu * E;
        double errE = 0.0, errS = 0.0;
        for (int p = 0; p < hex::kGaussPoints; ++p) {
            const Mat3 Ep = hex::greenStrain(g, p, x);
            errE = std::max(errE, relativeError(Ep, E));
            errS = std::max(errS, relativeError(hex::secondPiolaKirchhoff(kAluminium, Ep), S));
        }
        qInfo("patch (distorted element): |E - E_exact| %.1e, |S - S_exact| %.1e (relative)", errE, errS);
        QVERIFY(errE < 1e-13);
        QVERIFY(errS < 1e-13);
    }

    // The same deformation on a 3 × 3 × 3 box: the interior nodes carry no force (the
    // internal forces of a homogeneous stress balance), and the forces on the face x = a
    // add up to −P N A with P = F S (the resultant of the first Piola–Kirchhoff traction).
    // Forces are compared with P A (1e-12 of it: rounding of sums of 8 terms per element).
    void homogeneousDeformationBalancesOnAMesh() {
        const Vec3 size(0.3, 0.2, 0.25);
        SolidMesh mesh(Vec3(0.1, -0.1, 0.2), size, 3, 3, 3, kAluminium);
        const Mat3 F = largeDeformation();
        VecX q(mesh.coordinateCount());
        for (int k = 0; k < mesh.nodeCount(); ++k) q.segment<3>(3 * k) = F * mesh.initialNodePosition(k);
        VecX f = VecX::Zero(mesh.coordinateCount());
        mesh.addElasticForce(q.data(), f.data());
        const Mat3 E = 0.5 * (F.transpose() * F - Mat3::Identity());
        const Mat3 P = F * hex::secondPiolaKirchhoff(kAluminium, E);
        const double scale = P.cwiseAbs().maxCoeff() * size.y() * size.z();
        double interior = 0.0;
        for (int k = 1; k < 3; ++k)
            for (int j = 1; j < 3; ++j)
                for (int i = 1; i < 3; ++i) interior = std::max(interior, f.segment<3>(3 * mesh.gridNode(i, j, k)).cwiseAbs().maxCoeff());
        Vec3 face = Vec3::Zero();
        for (int n : mesh.faceNodes(1)) face += f.segment<3>(3 * n);
        const Vec3 expected = -P * Vec3::UnitX() * (size.y() * size.z());
        qInfo("patch (3x3x3 box): interior force %.1e, face resultant error %.1e of P A", interior / scale,
              (face - expected).cwiseAbs().maxCoeff() / scale);
        QVERIFY(interior / scale < 1e-12);
        QVERIFY((face - expected).cwiseAbs().maxCoeff() / scale < 1e-12);
    }

    // K and Q against central differences of Q and U at a large deformation of the distorted
    // element (the homogeneous one above plus random nodal moves of 5 % of its size). Step
    // 1e-6 m on an element of size 1 m: truncation O(h²) ≈ 1e-12 and rounding ε|Q|/h ≈ 1e-10
    // of the entries; 1e-7 leaves a margin of a thousand and catches any wrong term.
    void elementStiffnessMatchesFiniteDifferences() {
        const Eigen::Matrix<double, 3, hex::kNodes> X = distortedElement();
        const hex::Geometry g = hex::geometry(X);
        hex::ElementVector x = mapped(X, largeDeformation(), Vec3::Zero());
        std::mt19937 rng(3);
        std::uniform_real_distribution<double> u(-0.05, 0.05);
        for (int i = 0; i < hex::kElementSize; ++i) x[i] += u(rng);
        const hex::ElementMatrix K = hex::tangentStiffness(kAluminium, g, x);
        const hex::ElementVector Q = hex::elasticForce(kAluminium, g, x);
        hex::ElementMatrix Kfd;
        hex::ElementVector Qfd;
        const double h = 1e-6;
        for (int k = 0; k < hex::kElementSize; ++k) {
            hex::ElementVector xp = x, xm = x;
            xp[k] += h;
            xm[k] -= h;
            Kfd.col(k) = -(hex::elasticForce(kAluminium, g, xp) - hex::elasticForce(kAluminium, g, xm)) / (2 * h);
            Qfd[k] = -(hex::strainEnergy(kAluminium, g, xp) - hex::strainEnergy(kAluminium, g, xm)) / (2 * h);
        }
        const double errK = relativeError(K, Kfd), errQ = relativeError(Q, Qfd);
        qInfo("element: |K - K_fd| %.2e, |Q - Q_fd| %.2e of the largest entry; asymmetry %.2e", errK, errQ,
              relativeError(K, K.transpose()));
        QVERIFY2(errK < 1e-7, qPrintable(QString::number(errK)));
        QVERIFY2(errQ < 1e-7, qPrintable(QString::number(errQ)));
        QVERIFY(relativeError(K, K.transpose()) < 1e-14);
    }

    // The whole model's Φ_q and K = −∂(Q − Φ_qᵀλ)/∂q from evaluateConstraints() and
    // linearize(), against central differences at a large random deformation (coordinates
    // moved by up to 0.02) with arbitrary λ. The model has every kind of joint a solid node
    // takes: the pins of a clamped face, a rigid body pinned to a corner node (a fixed
    // joint, which on a solid node holds its position), and a beam whose root is pinned to
    // the end face's centre node, plus a force on a single node. Step and tolerance as
    // above.
    void modelDerivativesMatchFiniteDifferences() {
        ModelDocument doc = clampedBlock(4, 2, 500.0);
        BodyDoc weight;
        weight.name = "weight";
        weight.mass = 2.0;
        weight.inertia = 0.01 * Mat3::Identity();
        weight.position = Vec3(1.05, 0.15, 0.1);
        doc.bodies.push_back(weight);
        JointDoc toCorner;
        toCorner.name = "hook";
        toCorner.type = JointType::Fixed;
        toCorner.body1 = "weight";
        toCorner.body2 = "block.node4_2_2";
        toCorner.point = Vec3(1.0, 0.1, 0.1);
        doc.joints.push_back(toCorner);
        BeamDoc rod;
        rod.name = "rod";
        rod.from = Vec3(1.0, 0.05, 0.05);
        rod.to = Vec3(1.4, 0.05, 0.05);
        rod.elements = 2;
        rod.material = {7e10, 0.3, 2700.0};
        rod.section.width = rod.section.height = 0.01;
        doc.beams.push_back(rod);
        JointDoc pin;
        pin.name = "pin";
        pin.type = JointType::Spherical;
        pin.body1 = "block.node4_1_1";
        pin.body2 = "rod.root";
        pin.point = rod.from;
        doc.joints.push_back(pin);
        ForceDoc push;
        push.name = "push";
        push.type = ForceType::BodyForce;
        push.body = "block.node2_0_2";
        push.vector = Vec3(10, 20, -30);
        doc.forces.push_back(push);
        doc.gravity = Vec3(0, -9.81, 0);
        const LoadedModel lm = prepareModel(doc);
        QVERIFY2(lm.ok(), formatDiagnostics(lm.diagnostics).c_str());
        const Model& m = *lm.model;
        QCOMPARE(m.equationCount(), 9 * 3 + 3 + 3);  // 9 clamped nodes, the hook, the pin
        std::mt19937 rng(11);
        std::uniform_real_distribution<double> u(-1.0, 1.0);
        State s = lm.initial;
        VecX dq(m.velocitySize());
        for (int i = 0; i < dq.size(); ++i) dq[i] = 0.02 * u(rng);
        retract(m, s.q, dq);
        VecX lambda(m.equationCount());
        for (int i = 0; i < lambda.size(); ++i) lambda[i] = 100.0 * u(rng);
        auto net = [&](const State& x) {
            ConstraintValues c;
            evaluateConstraints(m, x, c, kJacobian);
            return VecX(generalizedForces(m, x) - c.jacobian.transpose() * lambda);
        };
        auto phi = [&](const State& x) {
            ConstraintValues c;
            evaluateConstraints(m, x, c, kPhi);
            return VecX(c.phi);
        };
        Linearization lin;
        linearize(m, s, lambda, lin);
        ConstraintValues c;
        evaluateConstraints(m, s, c, kJacobian);
        MatX Kfd(m.velocitySize(), m.velocitySize()), Jfd(m.equationCount(), m.velocitySize());
        const double h = 1e-6;
        for (int k = 0; k < m.velocitySize(); ++k) {
            State sp = s, sm = s;
            VecX d = VecX::Zero(m.velocitySize());
            d[k] = h;
            retract(m, sp.q, d);
            retract(m, sm.q, -d);
            Kfd.col(k) = -(net(sp) - net(sm)) / (2 * h);
            Jfd.col(k) = (phi(sp) - phi(sm)) / (2 * h);
        }
        const double errK = relativeError(MatX(lin.stiffness), Kfd), errJ = relativeError(c.denseJacobian(), Jfd);
        qInfo("model (%d coordinates, %d equations): |K - K_fd| %.2e, |J - J_fd| %.2e of the largest entry", m.velocitySize(),
              m.equationCount(), errK, errJ);
        QVERIFY2(errK < 1e-7, qPrintable(QString::number(errK)));
        QVERIFY2(errJ < 1e-7, qPrintable(QString::number(errJ)));
    }

    // Σ M = ρV per direction (the shape functions sum to one), and ½ vᵀMv of a rigid
    // translation is ½ ρV |v|², both to rounding; a rigid translation stores no energy.
    void massIsConsistent() {
        const Vec3 size(0.4, 0.15, 0.3);
        SolidMesh mesh(Vec3(1, 2, 3), size, 5, 2, 3, kAluminium);
        const double m = kAluminium.density * size.prod();
        const auto& M = mesh.mass();
        const double total = MatX(M).sum() / 3.0;
        VecX v(mesh.coordinateCount());
        const Vec3 velocity(1.5, -0.7, 2.0);
        for (int k = 0; k < mesh.nodeCount(); ++k) v.segment<3>(3 * k) = velocity;
        const double T = mesh.kineticEnergy(v.data());
        qInfo("mass %.15g kg (rho V %.15g), rigid-translation kinetic energy error %.1e", total, m,
              std::abs(T - 0.5 * m * velocity.squaredNorm()) / (0.5 * m * velocity.squaredNorm()));
        QVERIFY(std::abs(total - m) < 1e-13 * m);
        QVERIFY(std::abs(mesh.totalMass() - m) < 1e-13 * m);
        QVERIFY(std::abs(T - 0.5 * m * velocity.squaredNorm()) < 1e-13 * 0.5 * m * velocity.squaredNorm());
        // M M⁻¹ x = x.
        VecX x = v, y(v.size());
        mesh.applyInverseMass(x.data());
        mesh.applyMass(x.data(), y.data());
        QVERIFY((y - v).cwiseAbs().maxCoeff() < 1e-12 * v.cwiseAbs().maxCoeff());
    }

    // Objectivity: a rigid rotation and translation of the undeformed box leaves E = 0, no
    // energy and no force (to rounding of E ~ ε: forces below 1e-9 of E·A); a rotated deformed
    // state has the same energy and the rotated forces.
    void rigidRotationStoresNothing() {
        SolidMesh mesh(Vec3::Zero(), Vec3(0.5, 0.2, 0.1), 4, 2, 2, kAluminium);
        const Mat3 R = quaternionFromRotationVector(Vec3(1.2, -0.4, 2.1)).toRotationMatrix();
        const Vec3 c(3.0, -1.0, 0.5);
        VecX q(mesh.coordinateCount()), deformed(mesh.coordinateCount()), turned(mesh.coordinateCount());
        std::mt19937 rng(5);
        std::uniform_real_distribution<double> u(-0.01, 0.01);
        for (int k = 0; k < mesh.nodeCount(); ++k) {
            const Vec3 X = mesh.initialNodePosition(k);
            q.segment<3>(3 * k) = R * X + c;
            deformed.segment<3>(3 * k) = X + Vec3(u(rng), u(rng), u(rng));
            turned.segment<3>(3 * k) = R * deformed.segment<3>(3 * k) + c;
        }
        VecX f = VecX::Zero(q.size());
        mesh.addElasticForce(q.data(), f.data());
        const double forceScale = kAluminium.youngModulus * 0.2 * 0.1;
        qInfo("rigid motion: force %.1e of E A, energy %.1e J", f.cwiseAbs().maxCoeff() / forceScale, mesh.strainEnergy(q.data()));
        QVERIFY(f.cwiseAbs().maxCoeff() < 1e-9 * forceScale);
        QVERIFY(mesh.strainEnergy(q.data()) < 1e-9 * forceScale * 0.5);
        VecX f1 = VecX::Zero(q.size()), f2 = VecX::Zero(q.size());
        mesh.addElasticForce(deformed.data(), f1.data());
        mesh.addElasticForce(turned.data(), f2.data());
        for (int k = 0; k < mesh.nodeCount(); ++k) f1.segment<3>(3 * k) = R * Vec3(f1.segment<3>(3 * k));
        const double U1 = mesh.strainEnergy(deformed.data()), U2 = mesh.strainEnergy(turned.data());
        QVERIFY(std::abs(U1 - U2) < 1e-12 * U1);
        QVERIFY(relativeError(f2, f1) < 1e-10);
    }

    // A damped mesh's force evaluation (the viscous stress element by element) against the
    // assembled damping matrix that the linearisation and the implicit steppers use: f = −C v
    // at a deformed state, on a mesh whose elements share nodes.
    void meshDampingForceIsTheAssembledMatrixTimesTheRates() {
        hex::Material damped = kAluminium;
        damped.stiffnessDamping = 3e-5;
        SolidMesh mesh(Vec3(0.1, -0.2, 0.0), Vec3(0.5, 0.2, 0.1), 4, 2, 2, damped);
        std::mt19937 rng(17);
        std::uniform_real_distribution<double> u(-1.0, 1.0);
        VecX q = mesh.initialNodalCoordinates(), v(mesh.coordinateCount());
        for (int i = 0; i < q.size(); ++i) {
            q[i] += 0.005 * u(rng);
            v[i] = u(rng);
        }
        VecX f = VecX::Zero(q.size());
        mesh.addDampingForce(q.data(), v.data(), f.data());
        std::vector<Eigen::Triplet<double>> entries;
        mesh.addDamping(q.data(), 0, entries);
        Eigen::SparseMatrix<double> C(q.size(), q.size());
        C.setFromTriplets(entries.begin(), entries.end());
        const VecX expected = -(C * v);
        qInfo("mesh damping force against -C v: %.2e of the largest", relativeError(f, expected));
        QVERIFY(expected.cwiseAbs().maxCoeff() > 0.0);
        QVERIFY(relativeError(f, expected) < 1e-12);
        VecX undamped = VecX::Zero(q.size());
        SolidMesh(Vec3(0.1, -0.2, 0.0), Vec3(0.5, 0.2, 0.1), 4, 2, 2, kAluminium).addDampingForce(q.data(), v.data(), undamped.data());
        QCOMPARE(undamped.cwiseAbs().maxCoeff(), 0.0);
    }

    // Kelvin–Voigt damping (HexahedronElement.h): −C ẋ against the viscous stress written
    // out, S_d = β(λ tr Ė I + 2μĖ) with Ė = sym(FᵀḞ), F = Σ x_a ∇₀N_aᵀ, at a large
    // deformation with an arbitrary rate; and a rigid motion of the deformed element
    // (Ḟ = ΩF, so Ė = 0) feels no damping.
    void kelvinVoigtDampingMatchesItsViscousStress() {
        hex::Material damped = kAluminium;
        damped.stiffnessDamping = 2e-5;
        const Eigen::Matrix<double, 3, hex::kNodes> X = distortedElement();
        const hex::Geometry g = hex::geometry(X);
        const hex::ElementVector x = mapped(X, largeDeformation(), Vec3::Zero());
        std::mt19937 rng(11);
        std::uniform_real_distribution<double> u(-1.0, 1.0);
        hex::ElementVector rate;
        for (int i = 0; i < hex::kElementSize; ++i) rate[i] = u(rng);
        const hex::ElementMatrix C = hex::dampingMatrix(damped, g, x);
        hex::ElementVector expected = hex::ElementVector::Zero();
        const Eigen::Map<const Eigen::Matrix<double, 3, hex::kNodes>> positions(x.data()), rates(rate.data());
        for (int p = 0; p < hex::kGaussPoints; ++p) {
            const hex::Gradients& G = g.gradients[size_t(p)];
            const Mat3 F = positions * G.transpose(), Fdot = rates * G.transpose();
            const Mat3 Edot = 0.5 * (F.transpose() * Fdot + Fdot.transpose() * F);
            const Mat3 S = damped.stiffnessDamping * (damped.lambda() * Edot.trace() * Mat3::Identity() + 2.0 * damped.mu() * Edot);
            const Eigen::Matrix<double, 3, hex::kNodes> f = g.volume[size_t(p)] * F * S * G;
            for (int a = 0; a < hex::kNodes; ++a) expected.segment<3>(3 * a) -= f.col(a);
        }
        const hex::ElementVector force = -C * rate;
        // What a force evaluation uses, from the viscous stress without C.
        const hex::ElementVector direct = hex::dampingForce(damped, g, x, rate);
        const Vec3 omega(0.5, -1.0, 2.0), V(0.3, 0.2, -0.1);
        hex::ElementVector rigid;
        for (int a = 0; a < hex::kNodes; ++a) rigid.segment<3>(3 * a) = V + omega.cross(Vec3(x.segment<3>(3 * a)));
        const double rigidForce = (C * rigid).cwiseAbs().maxCoeff(), scale = (C.cwiseAbs() * rigid.cwiseAbs()).maxCoeff();
        qInfo("damping force against the viscous stress: %.2e of the largest; rigid motion: %.2e of its scale; asymmetry %.2e; "
              "the stress form against -C v: %.2e",
              relativeError(force, expected), rigidForce / scale, relativeError(C, C.transpose()),
              relativeError(direct, force));
        QVERIFY(relativeError(force, expected) < 1e-12);
        QVERIFY(relativeError(direct, force) < 1e-12);
        QVERIFY(hex::dampingForce(damped, g, x, rigid).cwiseAbs().maxCoeff() < 1e-12 * scale);
        QCOMPARE(hex::dampingForce(kAluminium, g, x, rate), hex::ElementVector(hex::ElementVector::Zero()));
        QVERIFY(rigidForce < 1e-12 * scale);
        QVERIFY(relativeError(C, C.transpose()) < 1e-14);
        QCOMPARE(hex::dampingMatrix(kAluminium, g, x), hex::ElementMatrix(hex::ElementMatrix::Zero()));
    }

    // The block L = 1 m, 0.1 × 0.1 m, clamped at x = 0, end load P = 1 kN (δ/L ≈ 6e-4: the
    // response is linear to 1e-6) on meshes of cubic elements with 1, 2 and 4 elements
    // through the thickness, by core Statics. Timoshenko's δ = PL³/3EI + PL/(κGA) (κ = 5/6)
    // is the reference. A fully integrated trilinear brick is too stiff in bending: the
    // parasitic shear of each element adds to the bending energy a part proportional to
    // (element size / thickness)² = s², so the mesh's stiffness P/δ is k(s) = k∞ (1 + c s²)
    // up to higher orders. The test checks that model: the observed order of the stiffness
    // from the three meshes (s = 1, 1/2, 1/4) lies in [1.7, 2.3], and the Richardson
    // extrapolation of the stiffness from the two finest meshes, k∞ ≈ (4 k(¼) − k(½)) / 3,
    // gives a deflection within 2 % of Timoshenko's: the 3-D solution of a block of L/h = 10
    // differs from beam theory by the clamp's restraint of the Poisson contraction and end
    // effects of order (h/L)² ≈ 1 %.
    void cantileverConvergesToTimoshenko() {
        const double P = 1000.0;
        const double I = kSide * kSide * kSide * kSide / 12.0, A = kSide * kSide;
        const double G = kAluminium.youngModulus / (2.0 * (1.0 + kAluminium.poissonRatio));
        const double bending = P * std::pow(kLength, 3) / (3.0 * kAluminium.youngModulus * I);
        const double timoshenko = bending + P * kLength / (5.0 / 6.0 * G * A);
        std::vector<double> stiffness;
        for (int n : {1, 2, 4}) {
            const LoadedModel lm = prepareModel(clampedBlock(10 * n, n, P));
            QVERIFY(lm.ok());
            State s = lm.initial;
            StaticsOptions options;
            options.checkStability = false;
            const StaticsResult r = findEquilibrium(*lm.model, s, options);
            QVERIFY2(r.ok, r.message.c_str());
            const double delta = -endDisplacement(*lm.model, s).y();
            stiffness.push_back(P / delta);
            qInfo("%2d x %d x %d elements (%5d coordinates): tip deflection %.6e m, %+.2f %% of Timoshenko %.6e "
                  "(Euler-Bernoulli %.6e); %s, %d Newton iterations",
                  10 * n, n, n, lm.model->velocitySize(), delta, 100.0 * (delta / timoshenko - 1.0), timoshenko, bending,
                  r.method.c_str(), r.newtonIterations);
            QVERIFY(delta < timoshenko);  // too stiff
        }
        const double order = std::log2((stiffness[0] - stiffness[1]) / (stiffness[1] - stiffness[2]));
        const double extrapolated = P / ((4.0 * stiffness[2] - stiffness[1]) / 3.0);
        qInfo("observed order of the stiffness %.2f; Richardson extrapolation %.6e m, %+.2f %% of Timoshenko", order,
              extrapolated, 100.0 * (extrapolated / timoshenko - 1.0));
        QVERIFY2(order > 1.7 && order < 2.3, qPrintable(QString::number(order)));
        QVERIFY(std::abs(extrapolated / timoshenko - 1.0) < 0.02);
    }

    // A node set declared in the file holds like the face it lists: the block of 10 × 2 × 2
    // elements clamped by the declared set of the nine nodes of x = 0 (in the face's own
    // order) has the same joints, named alike, and the very same equilibrium, to the last
    // bit; listed backwards, the equations come in another order, which may change the
    // rounding of Newton's iterates but not the equilibrium beyond the force tolerance
    // (1e-10 of the load, so 1e-10 of the deflection).
    void declaredNodeSetClampsLikeItsFace() {
        const double P = 1000.0;
        const ModelDocument face = clampedBlock(10, 2, P);
        std::vector<std::string> nodes;
        for (int k = 0; k <= 2; ++k)
            for (int j = 0; j <= 2; ++j) nodes.push_back("block.node0_" + std::to_string(j) + "_" + std::to_string(k));
        auto declared = [&](const std::vector<std::string>& list) {
            ModelDocument doc = face;
            doc.nodeSets.push_back({"root face", list});
            doc.joints[0].body2 = "root face";
            return doc;
        };
        auto equilibrium = [](const ModelDocument& doc, std::vector<std::string>* joints) {
            const LoadedModel lm = prepareModel(doc);
            if (!lm.ok()) qWarning("%s", formatDiagnostics(lm.diagnostics).c_str());
            if (!lm.ok()) return VecX();
            for (const Joint& j : lm.model->joints) joints->push_back(j.name);
            State s = lm.initial;
            StaticsOptions options;
            options.checkStability = false;
            const StaticsResult r = findEquilibrium(*lm.model, s, options);
            return r.ok ? s.q : VecX();
        };
        std::vector<std::string> faceJoints, sameJoints, reversedJoints;
        const VecX byFace = equilibrium(face, &faceJoints);
        const VecX bySet = equilibrium(declared(nodes), &sameJoints);
        const VecX byReversed = equilibrium(declared(std::vector<std::string>(nodes.rbegin(), nodes.rend())), &reversedJoints);
        QVERIFY(byFace.size() > 0 && bySet.size() == byFace.size() && byReversed.size() == byFace.size());
        QCOMPARE(int(faceJoints.size()), 9);
        QVERIFY(sameJoints == faceJoints);
        QCOMPARE(reversedJoints.front(), std::string("clamp:block.node0_2_2"));
        const double deflection = (byFace - prepareModel(face).initial.q).cwiseAbs().maxCoeff();
        const double same = (bySet - byFace).cwiseAbs().maxCoeff(), reversed = (byReversed - byFace).cwiseAbs().maxCoeff();
        qInfo("largest displacement %.6e m; declared set: difference %.3g m, listed backwards %.3g m", deflection, same,
              reversed);
        QCOMPARE(same, 0.0);
        QVERIFY(reversed < 1e-9 * deflection);
        QVERIFY(deflection > 1e-4);
    }

    // A body force on a declared set is shared equally among its nodes (a face set weighs
    // its nodes as a uniform traction does); a set may hold nodes of several meshes.
    void declaredNodeSetSharesAForceEqually() {
        ModelDocument doc = clampedBlock(4, 1, 0.0);
        BeamDoc beam;
        beam.name = "rod";
        beam.from = Vec3(0, 1, 0);
        beam.to = Vec3(1, 1, 0);
        beam.elements = 2;
        beam.section.shape = SectionDoc::Shape::Circle;
        beam.section.radius = 0.01;
        beam.material = {2.1e11, 0.3, 7850.0};
        doc.beams.push_back(beam);
        JointDoc pin;
        pin.name = "pin";
        pin.type = JointType::Spherical;
        pin.body1 = "ground";
        pin.body2 = "rod.root";
        pin.point = beam.from;
        doc.joints.push_back(pin);
        doc.nodeSets.push_back({"ends", {"block.node4_1_1", "rod.tip", "block.node4_0_0", "rod.node1"}});
        ForceDoc load;
        load.name = "load";
        load.type = ForceType::BodyForce;
        load.body = "ends";
        load.vector = Vec3(4.0, -8.0, 2.0);
        doc.forces.push_back(load);
        const LoadedModel lm = prepareModel(doc);
        QVERIFY2(lm.ok(), formatDiagnostics(lm.diagnostics).c_str());
        const Model& m = *lm.model;
        QCOMPARE(int(m.forces.size()), 4);
        const BodyIndex block = *m.findBody("block"), rod = *m.findBody("rod");
        const std::pair<BodyIndex, int> expected[4] = {
            {block, m.body(block).solid()->gridNode(4, 1, 1)}, {rod, 2}, {block, m.body(block).solid()->gridNode(4, 0, 0)}, {rod, 1}};
        for (int k = 0; k < 4; ++k) {
            const ForceElement& f = m.forces[size_t(k)];
            QCOMPARE(f.name, "load:" + doc.nodeSets[0].nodes[size_t(k)]);
            QVERIFY(f.body == expected[k].first);
            QCOMPARE(f.node, expected[k].second);
            QVERIFY(f.vector == Vec3(1.0, -2.0, 0.5));
        }
    }

    // First bending frequency of the clamped block (20 × 2 × 2 cubic elements) from core
    // Modes against Euler–Bernoulli's 1.875²/(2π L²) √(EI/ρA). The discretisation makes the
    // mesh too stiff by the same factor as in the static test, so its frequency is
    // predicted as f_EB √(δ_EB / δ_mesh) from the mesh's own static deflection (P = 1 kN):
    // that prediction neglects rotary inertia (a relative change of order I/(AL²) ≈ 1e-3)
    // and the difference between the static deflection line and the mode shape (a few
    // tenths of a percent in the Rayleigh quotient); it must hold to 1 %. The y and z bending
    // modes are equal (square section): the two lowest frequencies agree to 1e-6.
    void firstBendingFrequencyOfClampedBlock() {
        const LoadedModel lm = prepareModel(clampedBlock(20, 2, 0.0));
        QVERIFY(lm.ok());
        ModesOptions options;
        options.count = 2;
        const ModesResult r = computeModes(*lm.model, lm.initial, VecX::Zero(lm.model->equationCount()), options);
        QVERIFY2(r.ok, r.message.c_str());
        QCOMPARE(int(r.modes.size()), 2);
        const double I = kSide * kSide * kSide * kSide / 12.0, A = kSide * kSide;
        const double EI = kAluminium.youngModulus * I;
        const double fEB = 1.8751040687119611 * 1.8751040687119611 / (2.0 * M_PI * kLength * kLength) *
                           std::sqrt(EI / (kAluminium.density * A));
        const LoadedModel loaded = prepareModel(clampedBlock(20, 2, 1000.0));
        State s = loaded.initial;
        StaticsOptions so;
        so.checkStability = false;
        QVERIFY(findEquilibrium(*loaded.model, s, so).ok);
        const double deltaEB = 1000.0 * std::pow(kLength, 3) / (3.0 * EI);
        const double predicted = fEB * std::sqrt(deltaEB / -endDisplacement(*loaded.model, s).y());
        const double f1 = r.modes[0].frequencyHz, f2 = r.modes[1].frequencyHz;
        qInfo("first bending frequency %.4f Hz and %.4f Hz (%d coordinates): Euler-Bernoulli %.4f Hz (%+.2f %%), "
              "predicted from the mesh's static stiffness %.4f Hz (%+.2f %%); factorisation %.3f s, iteration %.3f s",
              f1, f2, r.coordinates, fEB, 100.0 * (f1 / fEB - 1.0), predicted, 100.0 * (f1 / predicted - 1.0),
              r.factorizationSeconds, r.iterationSeconds);
        QVERIFY(std::abs(f2 / f1 - 1.0) < 1e-6);
        QVERIFY(std::abs(f1 / predicted - 1.0) < 0.01);
    }

    // A free, very soft cube (2 × 2 × 2 elements, E = 10 kPa: slow waves keep the steps
    // few) thrown spinning (ω = (0.5, 1, 2) rad/s: a 1.1 rad turn in 0.5 s, so the forces'
    // objectivity is exercised) and breathing, by the projection method (no constraints:
    // plain dynamics) with Dormand–Prince at rtol 1e-8 for 0.5 s: energy, linear momentum Σ_a (Mv)_a and angular momentum Σ_a x_a × (Mv)_a
    // (exact for the consistent mass: ∫ρ x × v dV = Σ_ab M_ab x_a × v_b) are invariants of
    // the continuous motion. Their drift is bounded by the local errors the integrator
    // accepts, rtol per step at most: the bound is steps × rtol of each invariant.
    void freeSolidConservesEnergyAndMomenta() {
        ModelDocument doc;
        doc.name = "free cube";
        SolidDoc c;
        c.name = "cube";
        c.origin = Vec3(-0.05, -0.05, -0.05);
        c.size = Vec3(0.1, 0.1, 0.1);
        c.elements[0] = c.elements[1] = c.elements[2] = 2;
        c.material = {1e4, 0.3, 1000.0};
        doc.solids.push_back(c);
        LoadedModel lm = prepareModel(doc);
        QVERIFY(lm.ok());
        const Model& m = *lm.model;
        const Body& body = m.body(*m.findBody("cube"));
        State s = lm.initial;
        const Vec3 V(0.3, -0.2, 0.1), omega(0.5, 1.0, 2.0);
        const int o = body.slice.velocityOffset;
        for (int k = 0; k < body.solid()->nodeCount(); ++k) {
            const Vec3 x = s.q.segment<3>(o + 3 * k);
            s.v.segment<3>(o + 3 * k) = V + omega.cross(x) + Vec3(2.0 * x.x(), -1.0 * x.y(), 0.5 * x.z());
        }
        auto momenta = [&](const State& x, Vec3& P, Vec3& H) {
            VecX Mv(body.slice.velocitySize);
            body.solid()->applyMass(x.v.data() + o, Mv.data());
            P.setZero();
            H.setZero();
            for (int k = 0; k < body.solid()->nodeCount(); ++k) {
                P += Mv.segment<3>(3 * k);
                H += Vec3(x.q.segment<3>(body.slice.positionOffset + 3 * k)).cross(Vec3(Mv.segment<3>(3 * k)));
            }
        };
        SimulationSettings st;
        st.method = "projection";
        st.integrator = "dopri5";
        // 0.2 s under the sanitizers (still a 0.45 rad turn; 0.5 s take 23 s there).
        st.tEnd = test::kUnderSanitizers ? 0.2 : 0.5;
        st.outputStep = 0.05;
        st.ode.rtol = 1e-8;
        st.ode.atol = 1e-10;
        Simulator sim(lm.model, st);
        double E0 = 0.0, maxE = 0.0, maxP = 0.0, maxH = 0.0, maxStrain = 0.0;
        Vec3 P0, H0;
        bool first = true;
        const SimulationResult r = sim.run(s, [&](const SimulationFrame& f) {
            Vec3 P, H;
            momenta(f.state, P, H);
            const double E = f.energy.total();
            if (first) E0 = E, P0 = P, H0 = H, first = false;
            maxE = std::max(maxE, std::abs(E - E0));
            maxP = std::max(maxP, (P - P0).norm());
            maxH = std::max(maxH, (H - H0).norm());
            maxStrain = std::max(maxStrain, f.energy.springs);
        });
        QVERIFY2(r.ok, r.message.c_str());
        const double bound = double(r.statistics.steps) * st.ode.rtol;
        qInfo("free cube, 0.5 s, %ld steps: |dE|/E %.2e (E = %.4g J, largest strain energy %.3g J), |dP|/|P| %.2e, "
              "|dH|/|H| %.2e; bound %.1e",
              long(r.statistics.steps), maxE / E0, E0, maxStrain, maxP / P0.norm(), maxH / H0.norm(), bound);
        QVERIFY(maxStrain > 1e-3 * E0);  // it does deform
        QVERIFY(maxE < bound * E0);
        QVERIFY(maxP < bound * P0.norm());
        QVERIFY(maxH < bound * H0.norm());
    }

    // `simulate` writes a flexible body's centre of mass and named points as CSV columns: at
    // t = 0 the undeformed values, known exactly (block 1 m along x, centred on the x axis;
    // the cantilever beam from (0, 0, 0) to (1, 0, 0)), to rounding.
    void simulateWritesNodalColumns() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        struct Case {
            const char* file;
            QStringList columns;
            QVector<double> values;
        };
        const Case cases[] = {
            {"clamped-block.json",
             {"block.x", "block.y", "block.z", "block.xmin.x", "block.xmax.x", "block.xmax.y", "block.xmax.z", "block.ymin.y",
              "block.zmax.z", "block.zmax.x"},
             {0.5, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, -0.05, 0.05, 0.5}},
            {"cantilever-beam.json",
             {"beam.x", "beam.y", "beam.root.x", "beam.root.y", "beam.tip.x", "beam.tip.y", "beam.tip.z"},
             {0.5, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0}}};
        for (const Case& c : cases) {
            const QString csv = dir.filePath(QString(c.file) + ".csv");
            const test::CliResult r = test::runCli({"simulate", QString::fromStdString(test::examplePath(c.file)), "--t-end",
                                                    "1e-5", "--output-step", "1e-5", "--out", csv});
            QVERIFY(r.finished);
            QVERIFY2(r.exitCode == 0, r.err.constData());
            QStringList header;
            QVector<double> row;
            QVERIFY(firstRow(csv, header, row));
            QVERIFY(!header.contains(QString(c.columns[0]).replace(".x", ".qw")));  // no quaternion for a mesh
            for (int k = 0; k < c.columns.size(); ++k) {
                const int col = int(header.indexOf(c.columns[k]));
                QVERIFY2(col >= 0, qPrintable(c.columns[k]));
                QVERIFY2(std::abs(row[col] - c.values[k]) < 1e-12, qPrintable(c.columns[k] + " = " + QString::number(row[col])));
            }
        }
    }

    // `check` reports each mesh's node and element counts: (20+1)(2+1)(2+1) = 189 nodes and
    // 80 elements for the clamped block, 540 degrees of freedom (567 − 27 pinned).
    void checkReportsMeshes() {
        const test::CliResult r =
            test::runCli({"check", "--json", QString::fromStdString(test::examplePath("clamped-block.json"))});
        QVERIFY(r.finished);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        const QJsonObject block = o["meshes"].toObject()["block"].toObject();
        QCOMPARE(block["kind"].toString(), QString("solid"));
        QCOMPARE(block["nodes"].toInt(), 189);
        QCOMPARE(block["elements"].toInt(), 80);
        QCOMPARE(o["dof"].toInt(), 540);
    }

    // Bad meshes and materials are reported at their JSON location: by the reader (the
    // shape of the JSON) and by the builder (the numbers).
    void loaderNamesBadSolids() {
        const DocumentResult bad = parseModelDocument(R"({"format": "looplab-model", "version": 1, "name": "bad",
            "solids": [{"name": "a", "origin": [0, 0, 0], "size": [1, 1, 1], "elements": [1, 0, 1],
                        "material": {"young_modulus": 1e9, "density": 1000}}]})", "bad.json");
        qInfo("%s", formatDiagnostics(bad.diagnostics).c_str());
        QVERIFY(hasDiagnosticAt(bad.diagnostics, "/solids/0/elements"));
        const DocumentResult d = parseModelDocument(R"({"format": "looplab-model", "version": 1, "name": "bad",
            "solids": [
              {"name": "a", "origin": [0, 0, 0], "size": [1, 0, 1], "elements": [1, 1, 1],
               "material": {"young_modulus": 1e9, "density": 1000}},
              {"name": "c", "corner1": [0, 0, 0], "corner2": [1, 1, 1], "elements": [1, 1, 1],
               "material": {"young_modulus": -1, "poisson_ratio": 0.5, "density": 1000, "stiffness_damping": -2e-5}},
              {"name": "e", "corner1": [0, 0, 0], "corner2": [1, 1, 1], "elements": [1, 1, 1],
               "material": {"young_modulus": 1e9, "density": 1000}},
              {"name": "f", "origin": [0, 0, 0], "size": [1e-120, 1e-120, 1e-120], "elements": [1, 1, 1],
               "material": {"young_modulus": 1e9, "density": 1000}}],
            "joints": [{"name": "j", "type": "revolute", "body1": "ground", "body2": "e.xmin",
                        "point": [0, 0, 0], "axis": [0, 0, 1]},
                       {"name": "k", "type": "spherical", "body1": "ground", "body2": "e",
                        "point": [0, 0, 0]}]})", "bad.json");
        QVERIFY2(d.document, formatDiagnostics(d.diagnostics).c_str());
        const BuildResult b = buildModel(*d.document, "bad.json");
        qInfo("%s", formatDiagnostics(b.diagnostics).c_str());
        QVERIFY(hasDiagnosticAt(b.diagnostics, "/solids/0/size"));
        QVERIFY(hasDiagnosticAt(b.diagnostics, "/solids/1/material/young_modulus"));
        QVERIFY(hasDiagnosticAt(b.diagnostics, "/solids/1/material/poisson_ratio"));
        QVERIFY(hasDiagnosticAt(b.diagnostics, "/solids/1/material/stiffness_damping"));
        QVERIFY(hasDiagnosticAt(b.diagnostics, "/solids/3/size"));
        QVERIFY(hasDiagnosticAt(b.diagnostics, "/joints/0/type"));
        QVERIFY(hasDiagnosticAt(b.diagnostics, "/joints/1/body2"));
    }
};

QTEST_GUILESS_MAIN(SolidTest)
#include "tst_solid.moc"
