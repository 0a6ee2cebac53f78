// Flexible beams (ANCF cable elements, AncfCableElement.h, BeamMesh.h):
//  - the element's tangent stiffness against central differences of its elastic force, and
//    the force against central differences of the strain energy, at a large deformation;
//  - the whole model's K (linearize(): beam stiffness plus the curvature of clamps and pins)
//    against central differences of Q − Φ_qᵀλ along the retraction;
//  - static equilibria found by Newton's method with that K on the constrained equations
//    Q − Φ_qᵀλ = 0, Φ = 0: the clamped cantilever's tip deflection PL³/3EI, and a tip
//    moment 2πEI/L rolling it into a full circle;
//  - a free beam in space conserving energy, linear and angular momentum over 1 s;
//  - the shipped flexible examples keeping ‖Φ‖∞ < 1e-10 with the projection method;
//  - revolute joints on beam nodes: their Φ_q, γ and curvature against finite differences,
//    a hinged rod's pendulum frequency, and a swinging rod kept in its plane;
//  - the loader's diagnostics for bad beams, naming their JSON location.
#include "TestModels.h"

#include "looplab/bodies/beam/AncfCableElement.h"
#include "looplab/kinematics/Constraints.h"
#include "looplab/dynamics/Dynamics.h"
#include "looplab/dynamics/Linearization.h"
#include "looplab/kinematics/Mobility.h"
#include "looplab/dynamics/Reactions.h"
#include "looplab/bodies/Rotation.h"
#include "looplab/simulation/Simulation.h"
#include "looplab/analysis/Statics.h"

#include <Eigen/Eigenvalues>

#include <cmath>
#include <functional>
#include <limits>
#include <random>

using namespace looplab;

namespace {

constexpr double kSteelE = 2.1e11, kSteelDensity = 7850.0;
constexpr double kSide = 0.02;  // square section [m]
const double kEI = kSteelE * kSide * kSide * kSide * kSide / 12.0;

ancf::CableProperties steelElement(double length) {
    ancf::CableProperties p;
    p.length = length;
    p.axialStiffness = kSteelE * kSide * kSide;
    p.bendingStiffness = kEI;
    p.massPerLength = kSteelDensity * kSide * kSide;
    p.preload = 350.0;
    return p;
}

// A strongly bent, twisted and stretched element (neither straight nor planar).
ancf::ElementVector deformedElement(double L) {
    ancf::ElementVector e;
    e << 0.01, -0.02, 0.03, 0.8, 0.5, 0.2,  //
        0.6 * L, 0.35 * L, 0.1 * L, 0.3, 0.9, -0.4;
    return e;
}

double relativeError(const MatX& a, const MatX& b) {
    return (a - b).cwiseAbs().maxCoeff() / std::max(b.cwiseAbs().maxCoeff(), 1e-300);
}

// The static equilibrium Q(q) + Q_extra(q) − Φ_qᵀλ = 0, Φ(q) = 0 by Newton's method on
// (δq, λ) with the analytic K = −∂(Q − Φ_qᵀλ)/∂q of linearize(); `extra` adds a load the
// model has no element for and its own −∂/∂q. Returns the number of iterations, or −1.
using ExtraLoad = std::function<void(const State&, VecX& Q, MatX& K)>;
int solveStatics(const Model& m, State& s, VecX& lambda, const ExtraLoad& extra, double tolerance) {
    const int n = m.velocitySize(), k = m.equationCount();
    s.v.setZero();
    for (int it = 0; it < 40; ++it) {
        VecX Q = generalizedForces(m, s);
        Linearization lin;
        linearize(m, s, lambda, lin);
        MatX K = MatX(lin.stiffness);
        if (extra) extra(s, Q, K);
        ConstraintValues c;
        evaluateConstraints(m, s, c, kPhi | kJacobian);
        const MatX J = c.denseJacobian();
        VecX r(n + k);
        r << Q - J.transpose() * lambda, c.phi;
        if (r.head(n).cwiseAbs().maxCoeff() < tolerance && c.phi.cwiseAbs().maxCoeff() < 1e-13) return it;
        MatX A = MatX::Zero(n + k, n + k);
        A.topLeftCorner(n, n) = -K;
        A.topRightCorner(n, k) = -J.transpose();
        A.bottomLeftCorner(k, n) = J;
        const VecX step = A.fullPivLu().solve(-r);
        retract(m, s.q, step.head(n));
        lambda += step.tail(k);
    }
    return -1;
}

// The cantilever of the shipped example without gravity, with the given number of
// elements and a tip force P (downward, y) [N].
LoadedModel cantilever(int elements, double P) {
    ModelDocument doc = test::exampleDocument("cantilever-beam.json");
    doc.gravity.setZero();
    doc.beams.at(0).elements = elements;
    doc.forces.at(0).vector = Vec3(0, -P, 0);
    return prepareModel(doc);
}

Vec3 nodePosition(const Model& m, const State& s, const char* beam, int node) {
    const BodyIndex b = *m.findBody(beam);
    return s.q.segment<3>(m.positionOffset(b) + ancf::kNodeSize * node);
}

// Linear momentum ∫ρA ṙ dx (the gravity force of a unit field is ρA∫Sᵀ e_i dx) and
// angular momentum ∫ρA r × ṙ dx about the origin, by 5-point Gauss per element (the
// integrand is a polynomial of degree 6: exact).
void momenta(const Model& m, const State& s, Vec3& P, Vec3& H) {
    P.setZero();
    H.setZero();
    const double xi[5] = {0.04691007703066800, 0.23076534494715845, 0.5, 0.76923465505284155, 0.95308992296933200};
    const double w[5] = {0.11846344252809454, 0.23931433524968324, 0.28444444444444444, 0.23931433524968324,
                         0.11846344252809454};
    for (const Body& body : m.bodies) {
        const BeamMesh* beam = body.beam();
        if (!beam) continue;
        const int o = body.slice.velocityOffset;
        for (int i = 0; i < 3; ++i) {
            VecX unit = VecX::Zero(body.slice.velocitySize);
            beam->addGravityForce(Vec3::Unit(i), unit.data());
            P[i] += unit.dot(s.v.segment(o, body.slice.velocitySize));
        }
        for (int e = 0; e < beam->elementCount(); ++e) {
            const ancf::CableProperties& p = beam->element(e);
            for (int g = 0; g < 5; ++g) {
                const ancf::HermiteWeights hw = ancf::hermiteWeights(xi[g], p.length);
                Vec3 r = Vec3::Zero(), rd = Vec3::Zero();
                for (int a = 0; a < 4; ++a) {
                    r += hw.s[a] * s.q.segment<3>(body.slice.positionOffset + ancf::kNodeSize * e + 3 * a);
                    rd += hw.s[a] * s.v.segment<3>(o + ancf::kNodeSize * e + 3 * a);
                }
                H += w[g] * p.length * p.massPerLength * r.cross(rd);
            }
        }
    }
}

// A steel-like rod of circular section (radius 1 cm) from `from` to `to`.
BeamDoc rod(const char* name, const Vec3& from, const Vec3& to, int elements, double E, double density) {
    BeamDoc b;
    b.name = name;
    b.from = from;
    b.to = to;
    b.elements = elements;
    b.material = {E, 0.3, density};
    b.section.shape = SectionDoc::Shape::Circle;
    b.section.radius = 0.01;
    return b;
}

JointDoc hinge(const char* name, const char* body1, const char* node, const Vec3& point, const Vec3& axis,
               JointType type = JointType::Revolute) {
    JointDoc j;
    j.name = name;
    j.type = type;
    j.body1 = body1;
    j.body2 = node;
    j.point = point;
    j.axis = axis;
    return j;
}

bool hasDiagnosticAt(const Diagnostics& d, const std::string& where) {
    for (const Diagnostic& x : d)
        if (x.location == where) return true;
    return false;
}

}  // namespace

class BeamTest : public QObject {
    Q_OBJECT
private slots:
    // K = ∂²U/∂e² and Q = −∂U/∂e, written analytically, against central differences at a
    // large, non-planar deformation with a preload. Step 1e-6 of the element's length:
    // truncation O(h²) ≈ 1e-12 and rounding ε|Q|/h ≈ 1e-10 of the entries; 1e-7 leaves a
    // margin of a thousand and catches any wrong term (those are of order one).
    void elementStiffnessMatchesFiniteDifferences() {
        const double L = 0.125;
        const ancf::CableProperties p = steelElement(L);
        const ancf::ElementVector e = deformedElement(L);
        const ancf::ElementMatrix K = ancf::tangentStiffness(p, e);
        const ancf::ElementVector Q = ancf::elasticForce(p, e);
        ancf::ElementMatrix Kfd;
        ancf::ElementVector Qfd;
        const double h = 1e-6;
        for (int k = 0; k < ancf::kElementSize; ++k) {
            ancf::ElementVector ep = e, em = e;
            ep[k] += h;
            em[k] -= h;
            Kfd.col(k) = -(ancf::elasticForce(p, ep) - ancf::elasticForce(p, em)) / (2 * h);
            Qfd[k] = -(ancf::strainEnergy(p, ep) - ancf::strainEnergy(p, em)) / (2 * h);
        }
        const double errK = relativeError(K, Kfd), errQ = relativeError(Q, Qfd);
        qInfo("element: |K - K_fd| %.2e, |Q - Q_fd| %.2e of the largest entry; asymmetry %.2e", errK, errQ,
              relativeError(K, K.transpose()));
        QVERIFY2(errK < 1e-7, qPrintable(QString::number(errK)));
        QVERIFY2(errQ < 1e-7, qPrintable(QString::number(errQ)));
        // Rigid motions store no energy: the straight element moved and turned.
        ancf::ElementVector straight;
        const Mat3 R = quaternionFromRotationVector(Vec3(0.3, -1.1, 0.7)).toRotationMatrix();
        const Vec3 t = R * Vec3::UnitX(), r0(0.4, -0.2, 1.0);
        straight << r0, t, r0 + L * t, t;
        QCOMPARE(ancf::strainEnergy({L, p.axialStiffness, p.bendingStiffness, p.massPerLength, 0.0}, straight) + 1.0, 1.0);
    }

    // The model's K = −∂(Q − Φ_qᵀλ)/∂q with beams, clamps and pins, against central
    // differences along the retraction, at perturbed, unassembled states with arbitrary λ;
    // the four-bar's beams are clamped to turning rigid hubs. Same step and tolerance reasoning as above (entries relative to the largest).
    void modelStiffnessMatchesFiniteDifferences() {
        for (const char* file : {"cantilever-beam.json", "flexible-slider-crank.json", "flexible-four-bar.json"}) {
            const LoadedModel lm = test::loadExample(file);
            QVERIFY(lm.ok());
            const Model& m = *lm.model;
            std::mt19937 rng(7);
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
            Linearization lin;
            linearize(m, s, lambda, lin);
            const MatX K(lin.stiffness);
            MatX Kfd(m.velocitySize(), m.velocitySize());
            const double h = 1e-6;
            for (int k = 0; k < m.velocitySize(); ++k) {
                State sp = s, sm = s;
                retract(m, sp.q, h * VecX::Unit(m.velocitySize(), k));
                retract(m, sm.q, -h * VecX::Unit(m.velocitySize(), k));
                Kfd.col(k) = -(net(sp) - net(sm)) / (2 * h);
            }
            const double err = relativeError(K, Kfd);
            qInfo("%s: |K - K_fd| %.2e of the largest entry (%.3g)", file, err, Kfd.cwiseAbs().maxCoeff());
            QVERIFY2(err < 1e-7, file);
            // M is the beams' consistent mass matrix and the rigid bodies' blocks.
            QCOMPARE(MatX(lin.mass), denseMass(m));
        }
    }

    // A tip load P on the clamped 1 m steel cantilever of 8 elements: tip deflection
    // PL³/3EI. Cubic Hermite elements contain the exact (cubic) deflection line of linear
    // theory, so the only differences are the geometric non-linearity, of order
    // (δ/L)² ≈ 1e-8 at P = 1 N, and the axial compliance: far inside the 0.5 % asked.
    void cantileverTipDeflection() {
        const double P = 1.0, L = 1.0;
        LoadedModel lm = cantilever(8, P);
        QVERIFY(lm.ok());
        const MobilityReport mob = analyzeMobility(*lm.model, lm.initial);
        QCOMPARE(mob.dof, 49);  // 9 nodes × 6 − 5 clamp equations
        QCOMPARE(int(mob.redundant.size()), 0);
        State s = lm.initial;
        VecX lambda = VecX::Zero(lm.model->equationCount());
        // Residual forces of 1e-6 P: the elastic forces carry rounding of order EA·ε ≈ 1e-8 N,
        // and a residual r moves the tip by r/(3EI/L³) ≈ 1e-10 m, 1e-6 of the deflection.
        const int iterations = solveStatics(*lm.model, s, lambda, {}, 1e-6 * P);
        QVERIFY(iterations >= 0);
        const double deflection = -(nodePosition(*lm.model, s, "beam", 8) - Vec3(L, 0, 0)).y();
        const double exact = P * L * L * L / (3.0 * kEI);
        qInfo("tip deflection %.9e m, PL^3/3EI %.9e m, relative error %.2e, %d Newton iterations", deflection,
              exact, deflection / exact - 1.0, iterations);
        QVERIFY(std::abs(deflection / exact - 1.0) < 5e-3);
        // The clamp's force on the root node, −λ on its point rows (Φ = r_0 − p), balances
        // the load (the elastic forces are internal): λ = (0, −P, 0) to the sum of the
        // residuals left on the 9 nodes' positions, below 9e-6 P.
        QVERIFY2((lambda.head<3>() - Vec3(0, -P, 0)).norm() < 1e-5 * P,
                 qPrintable(QString("%1 %2 %3").arg(lambda[0]).arg(lambda[1]).arg(lambda[2])));
        // The reaction the ground exerts on the root node: force P up, and the torque
        // r_x × g_slope, which a virtual rigid rotation of the whole beam (no strain, so no
        // elastic work) shows to balance the load's moment exactly: (r_tip − r_0) × (0, P, 0).
        ConstraintValues c;
        evaluateConstraints(*lm.model, s, c, kJacobian);
        std::vector<JointReaction> reactions;
        std::vector<DriverEffort> efforts;
        computeReactions(*lm.model, s, c.jacobian, lambda, std::vector<bool>(size_t(lambda.size()), false), reactions,
                         efforts);
        QCOMPARE(int(reactions.size()), 1);
        const Vec3 moment = (nodePosition(*lm.model, s, "beam", 8) - nodePosition(*lm.model, s, "beam", 0)).cross(Vec3(0, P, 0));
        qInfo("clamp reaction: force (%.3e, %.9f, %.3e) N, torque z %.9f N m (balance %.9f N m)", reactions[0].forceGlobal.x(),
              reactions[0].forceGlobal.y(), reactions[0].forceGlobal.z(), reactions[0].torqueGlobal.z(), moment.z());
        // The residual forces left by Newton (below 1e-6 P at each of 9 nodes, on levers up
        // to L) bound the difference.
        QVERIFY((reactions[0].forceGlobal - Vec3(0, P, 0)).norm() < 1e-5 * P);
        QVERIFY((reactions[0].torqueGlobal - moment).norm() < 1e-5 * P * L);
    }

    // A tip moment M = 2πEI/L about z rolls the cantilever into a full circle of
    // circumference L; the tip comes back to the root. Exact curvature and no shear: the
    // only error is the interpolation of a circle by 32 cubic arcs of 11.25° (and the axial
    // strain of order M/(EA·L/2π)·... ≈ 0: pure bending). The moment is a slope load,
    // Q = M (z × r_x)/|r_x|² on the tip's slope (the work of M on the tip's rotation
    // δθ = z·(r_x × δr_x)/|r_x|²), applied in 20 steps.
    void tipMomentRollsCantileverIntoCircle() {
        const double L = 1.0;
        LoadedModel lm = cantilever(32, 0.0);
        QVERIFY(lm.ok());
        const Model& m = *lm.model;
        const int tipSlope = m.velocityOffset(*m.findBody("beam")) + ancf::kNodeSize * 32 + 3;
        const double Mfull = 2.0 * M_PI * kEI / L;
        double M = 0.0;
        const ExtraLoad moment = [&](const State& s, VecX& Q, MatX& K) {
            const Vec3 a = s.q.segment<3>(tipSlope), z = Vec3::UnitZ();
            const double g = a.squaredNorm();
            Q.segment<3>(tipSlope) += M * z.cross(a) / g;
            K.block<3, 3>(tipSlope, tipSlope) -= M * (skew(z) / g - 2.0 * z.cross(a) * a.transpose() / (g * g));
        };
        State s = lm.initial;
        VecX lambda = VecX::Zero(m.equationCount());
        const int steps = 20;
        int total = 0;
        for (int k = 1; k <= steps; ++k) {
            M = Mfull * k / steps;
            const int it = solveStatics(m, s, lambda, moment, 1e-8 * Mfull);
            QVERIFY2(it >= 0, qPrintable(QString("load step %1").arg(k)));
            total += it;
        }
        const Vec3 tip = nodePosition(m, s, "beam", 32), mid = nodePosition(m, s, "beam", 16);
        const double gap = (tip - nodePosition(m, s, "beam", 0)).norm();
        qInfo("tip moment 2*pi*EI/L: |tip - root| = %.3e L, half-way node at (%.6f, %.6f) (circle: (0, %.6f)), "
              "%d Newton iterations in %d steps",
              gap / L, mid.x(), mid.y(), L / M_PI, total, steps);
        QVERIFY(gap < 1e-3 * L);
        // Half-way round the circle of diameter L/π.
        QVERIFY((mid - Vec3(0, L / M_PI, 0)).norm() < 1e-3 * L);
    }

    // A free beam in space, spinning, translating and vibrating, integrated with the
    // projection method (no constraints: the plain equations of motion) for 1 s at
    // rtol 1e-10: energy, linear and angular momentum stay constant to the integrator's
    // tolerance, the bound below (Dormand–Prince conserves none of them exactly; measured
    // 1e-13 of each, the linear momentum being a linear invariant that Runge–Kutta methods
    // keep to rounding).
    void freeBeamConservesEnergyAndMomenta() {
        if (test::kUnderSanitizers) QSKIP("a 1 s conservation study: release build only");
        ModelDocument doc;
        doc.name = "free beam";
        BeamDoc b;
        b.name = "beam";
        b.from = Vec3(-0.5, 0, 0);
        b.to = Vec3(0.5, 0, 0);
        b.elements = 4;
        b.material = {2e7, 0.45, 1000.0};  // a rubber: slow axial waves keep the steps few
        b.section.shape = SectionDoc::Shape::Circle;
        b.section.radius = 0.01;
        doc.beams.push_back(b);
        LoadedModel lm = prepareModel(doc);
        QVERIFY(lm.ok());
        const Model& m = *lm.model;
        State s = lm.initial;
        // Rigid velocity V + ω × r plus a bending vibration w sin(πx/L) out of the plane.
        const Vec3 V(0.3, -0.2, 0.1), omega(0.5, 1.0, 2.0);
        const int o = m.velocityOffset(*m.findBody("beam"));
        for (int k = 0; k < 5; ++k) {
            const Vec3 r = s.q.segment<3>(o + 6 * k), rx = s.q.segment<3>(o + 6 * k + 3);
            const double x = r.x() + 0.5;
            s.v.segment<3>(o + 6 * k) = V + omega.cross(r) + 0.2 * std::sin(M_PI * x) * Vec3::UnitZ();
            s.v.segment<3>(o + 6 * k + 3) = omega.cross(rx) + 0.2 * M_PI * std::cos(M_PI * x) * Vec3::UnitZ();
        }
        SimulationSettings st;
        st.method = "projection";
        st.integrator = "dopri5";
        st.tEnd = 1.0;
        st.outputStep = 0.05;
        st.ode.rtol = 1e-10;
        st.ode.atol = 1e-12;
        Simulator sim(lm.model, st);
        double E0 = 0.0, maxE = 0.0, maxP = 0.0, maxH = 0.0;
        Vec3 P0, H0;
        bool first = true;
        const SimulationResult r = sim.run(s, [&](const SimulationFrame& f) {
            Vec3 P, H;
            momenta(m, f.state, P, H);
            const double E = f.energy.total();
            if (first) E0 = E, P0 = P, H0 = H, first = false;
            maxE = std::max(maxE, std::abs(E - E0));
            maxP = std::max(maxP, (P - P0).norm());
            maxH = std::max(maxH, (H - H0).norm());
        });
        QVERIFY2(r.ok, r.message.c_str());
        qInfo("free beam, 1 s, %ld steps: |dE|/E %.2e (E = %.4g J), |dP|/|P| %.2e, |dH|/|H| %.2e", r.statistics.steps,
              maxE / E0, E0, maxP / P0.norm(), maxH / H0.norm());
        QVERIFY(maxE < 1e-10 * E0);
        QVERIFY(maxP < 1e-10 * P0.norm());
        QVERIFY(maxH < 1e-10 * H0.norm());
    }

    // Structural damping (AncfCableElement.h): the force is −C ė; C is symmetric and
    // positive semi-definite even in a strongly bent and twisted element (where the bending
    // energy's Hessian is not), equals β K for a straight unstressed element (so that a
    // mode is damped by ζ = βω/2), and an element that is only stretched (straight, with a
    // preload) feels no damping from a rigid motion, translation and rotation, while a
    // stretching rate is damped by β EA ε̇ exactly.
    void dampingDissipatesAndIsKelvinVoigtInStretch() {
        ancf::CableProperties p = steelElement(0.25);
        p.stiffnessDamping = 3e-5;
        const double L = p.length, stretch = 1.01;
        const Vec3 t = Vec3(1, 2, 2) / 3.0;
        ancf::ElementVector e;
        e << 0, 0, 0, stretch * t, stretch * L * t, stretch * t;
        const ancf::ElementMatrix C = ancf::dampingMatrix(p, e);
        QVERIFY(relativeError(C, C.transpose()) < 1e-14);
        const ancf::ElementVector bent = deformedElement(L), rate = deformedElement(1.0).reverse();
        const ancf::ElementMatrix Cbent = ancf::dampingMatrix(p, bent);
        QVERIFY(relativeError(ancf::dampingForce(p, bent, rate), -Cbent * rate) < 1e-13);
        QVERIFY(relativeError(Cbent, Cbent.transpose()) < 1e-14);
        const Eigen::SelfAdjointEigenSolver<ancf::ElementMatrix> bentModes(0.5 * (Cbent + Cbent.transpose()));
        const Eigen::SelfAdjointEigenSolver<ancf::ElementMatrix> hessianModes(ancf::tangentStiffness(p, bent));
        qInfo("bent element: smallest eigenvalue of C %.2e of the largest (of the bending Hessian: %.2e)",
              bentModes.eigenvalues()[0] / bentModes.eigenvalues().maxCoeff(),
              hessianModes.eigenvalues()[0] / hessianModes.eigenvalues().maxCoeff());
        QVERIFY(bentModes.eigenvalues()[0] >= -1e-13 * bentModes.eigenvalues().maxCoeff());
        ancf::CableProperties unstressed = p;
        unstressed.preload = 0.0;
        ancf::ElementVector straight;
        straight << 0, 0, 0, t, L * t, t;
        QVERIFY(relativeError(ancf::dampingMatrix(unstressed, straight),
                              unstressed.stiffnessDamping * ancf::tangentStiffness(unstressed, straight)) < 1e-12);
        const Vec3 V(0.3, -0.2, 0.1), omega(0.5, 1.0, 2.0);
        ancf::ElementVector rigid;
        rigid << V, omega.cross(e.segment<3>(3)), V + omega.cross(e.segment<3>(6)), omega.cross(e.segment<3>(9));
        const double scale = p.stiffnessDamping * p.axialStiffness * omega.norm();
        const double rigidForce = ancf::dampingForce(p, e, rigid).cwiseAbs().maxCoeff();
        // Stretching at ε̇ = 1/s along the element: the end forces ∓β EA ε̇ (1 + ε) t.
        ancf::ElementVector stretching;
        stretching << 0, 0, 0, t, L * t, t;
        const ancf::ElementVector f = ancf::dampingForce(p, e, stretching);
        const double strainRate = stretch;  // ε = ½(|r_x|² − 1): ε̇ = r_x·ṙ_x
        const Vec3 expected = p.stiffnessDamping * p.axialStiffness * strainRate * stretch * t;
        qInfo("rigid motion: largest damping force %.2e N (beta EA omega %.3g N); stretching: %.9g N, "
              "beta EA eps-dot (1 + eps) %.9g N",
              rigidForce, scale, f.segment<3>(6).norm(), expected.norm());
        QVERIFY(rigidForce < 1e-12 * scale);
        QVERIFY((f.segment<3>(6) + expected).norm() < 1e-10 * expected.norm());
        QVERIFY((f.segment<3>(0) - expected).norm() < 1e-10 * expected.norm());
        p.stiffnessDamping = 0.0;
        QCOMPARE(ancf::dampingForce(p, bent, rate), ancf::ElementVector(ancf::ElementVector::Zero()));
    }

    // The cantilever released from its static deflection under a tip load swings in its
    // first bending mode (97 % of the tip's deflection; the higher modes, at 6.3 and more
    // times the frequency, are damped 6.3 and more times faster). With stiffness damping β
    // the mode's damping ratio is ζ = βω₁/2, ω₁ = 1.8751² √(EI/ρAL⁴) (8 cubic elements
    // give ω₁ to 1e-6): the peaks of the tip's deflection fall as exp(−ζω₁t) and come
    // every 2π/(ω₁√(1 − ζ²)). β is chosen for ζ = 2 %; measured over five periods after
    // the first, from the peaks found by a parabola through the three samples around each.
    void dampedCantileverDecaysAtItsModalRate() {
        const double L = 1.0, P = 10.0, zeta = 0.02;
        const double rhoA = kSteelDensity * kSide * kSide;
        const double omega1 = std::pow(1.8751040687119611, 2) * std::sqrt(kEI / (rhoA * std::pow(L, 4)));
        LoadedModel loaded = cantilever(8, P);
        QVERIFY(loaded.ok());
        State s = loaded.initial;
        VecX lambda = VecX::Zero(loaded.model->equationCount());
        QVERIFY(solveStatics(*loaded.model, s, lambda, {}, 1e-6 * P) >= 0);
        ModelDocument doc = test::exampleDocument("cantilever-beam.json");
        doc.gravity.setZero();
        doc.forces.clear();
        doc.beams.at(0).material.stiffnessDamping = 2.0 * zeta / omega1;
        // Saved and read back to the bit; an undamped material is written without the key.
        const std::string text = serializeModelDocument(doc);
        const DocumentResult reread = parseModelDocument(text, "damped.json");
        QVERIFY(reread.document);
        QCOMPARE(reread.document->beams.at(0).material.stiffnessDamping, doc.beams[0].material.stiffnessDamping);
        QVERIFY(serializeModelDocument(test::exampleDocument("cantilever-beam.json")).find("stiffness_damping") ==
                std::string::npos);
        const LoadedModel free = prepareModel(doc);
        QVERIFY(free.ok());
        const double period = 2.0 * M_PI / (omega1 * std::sqrt(1.0 - zeta * zeta));
        SimulationSettings st;
        st.method = "tlismni";
        st.integrator = "hht";
        st.tEnd = 6.5 * period;
        st.outputStep = period / 200.0;
        st.ode.rtol = 1e-8;
        st.ode.atol = 1e-10;
        Simulator sim(free.model, st);
        std::vector<double> times, tip;
        const int tipRow = free.model->velocityOffset(*free.model->findBody("beam")) + ancf::kNodeSize * 8 + 1;
        const SimulationResult r = sim.run(s, [&](const SimulationFrame& f) {
            times.push_back(f.state.t);
            tip.push_back(f.state.q[tipRow]);
        });
        QVERIFY2(r.ok, r.message.c_str());
        // The downward peaks (the release point is the first): time and depth by a parabola.
        std::vector<double> peakTime, peakDepth;
        for (size_t k = 1; k + 1 < tip.size(); ++k) {
            if (!(tip[k] < tip[k - 1] && tip[k] <= tip[k + 1])) continue;
            const double a = 0.5 * (tip[k - 1] + tip[k + 1]) - tip[k], b = 0.5 * (tip[k + 1] - tip[k - 1]);
            const double x = -b / (2.0 * a);
            peakTime.push_back(times[k] + x * st.outputStep);
            peakDepth.push_back(-(tip[k] + b * x + a * x * x));
        }
        QVERIFY(peakTime.size() >= 6);
        const double span = peakTime[5] - peakTime[0];
        const double measuredZeta = std::log(peakDepth[0] / peakDepth[5]) / (omega1 * span);
        qInfo("beta %.4g s, %ld steps: damping ratio %.6f (beta omega1 / 2 = %.6f, %+.2e), period %.6f s (%.6f s, %+.2e)",
              doc.beams[0].material.stiffnessDamping, r.statistics.steps, measuredZeta, zeta, measuredZeta / zeta - 1.0,
              span / 5.0, period, span / 5.0 / period - 1.0);
        QVERIFY(std::abs(measuredZeta / zeta - 1.0) < 5e-3);
        QVERIFY(std::abs(span / 5.0 / period - 1.0) < 1e-3);
    }

    // The shipped flexible examples with the projection method: every reported frame
    // within 1e-10 of Φ = 0 (the method iterates to 8ε·L). 2 ms each: the beams' axial
    // modes (up to ~5e6 rad/s with the consistent mass) hold Dormand–Prince to steps of
    // about 1e-6 s, so 2 ms are already a few thousand steps with a projection in each.
    void flexibleExamplesKeepTheirConstraints() {
        for (const char* file : {"cantilever-beam.json", "flexible-slider-crank.json", "flexible-four-bar.json"}) {
            // A tenth of it under the sanitizers (the same code, 10–15 times slower).
            const double tEnd = test::kUnderSanitizers ? 0.0002 : 0.002;
            const LoadedModel lm = test::loadExample(file);
            QVERIFY(lm.ok());
            SimulationSettings st;
            st.tEnd = tEnd;
            st.outputStep = tEnd / 10;
            Simulator sim(lm.model, st);
            double worst = 0.0;
            const SimulationResult r = sim.run(lm.initial, [&](const SimulationFrame& f) {
                worst = std::max(worst, f.violation.position);
            });
            QVERIFY2(r.ok, r.message.c_str());
            qInfo("%s: %.3f s, %ld steps, max |Phi| %.2e", file, tEnd, r.statistics.steps, worst);
            QVERIFY(worst < 1e-10);
        }
    }

    // Revolute joints on beam nodes (point x, y, z and slope z1.x2 = z1·r_x,k): a beam
    // hinged to a free, turned rigid hub about a skew axis, and a second beam hinged to the
    // ground about another, at a perturbed, unassembled state with arbitrary velocities and
    // multipliers. Against central differences along the retraction (step h, as above):
    //  - Φ_q, from Φ (step 1e-6: truncation and rounding ≈ 1e-10 of the entries);
    //  - γ = −(Φ_q v)_q v, from the second difference of Φ along q ⊕ t v (a rigid body with
    //    constant body-frame velocity moves exactly so, a beam additively): −Φ(t)'' at
    //    step 1e-4, truncation h² Φ'''' ≈ 1e-8 and rounding ε/h² ≈ 1e-8 of velocities of
    //    order one, so 1e-6 of the largest |γ|;
    //  - the curvature ∂(Φ_qᵀλ)/∂q (constraintCurvature) from Φ_qᵀλ (step 1e-6).
    void nodeRevoluteDerivativesMatchFiniteDifferences() {
        ModelDocument doc;
        doc.name = "hinged beams";
        BodyDoc hub;
        hub.name = "hub";
        hub.mass = 2.0;
        hub.inertia = Vec3(0.01, 0.02, 0.03).asDiagonal();
        hub.orientation = Quat(0.9, 0.2, -0.3, 0.1);
        doc.bodies.push_back(hub);
        doc.beams.push_back(rod("arm", Vec3(0, 0, 0), Vec3(1, 0, 0), 4, kSteelE, kSteelDensity));
        doc.beams.push_back(rod("link", Vec3(0, 1, 0), Vec3(0.6, 1.8, 0), 2, kSteelE, kSteelDensity));
        doc.joints.push_back(hinge("hinge", "hub", "arm.root", Vec3(0, 0, 0), Vec3(0, 0.6, 0.8)));
        doc.joints.push_back(hinge("pivot", "ground", "link.root", Vec3(0, 1, 0), Vec3(0.48, -0.36, 0.8)));
        const LoadedModel lm = prepareModel(doc);
        QVERIFY2(lm.ok(), formatDiagnostics(lm.diagnostics).c_str());
        const Model& m = *lm.model;
        QCOMPARE(m.equationCount(), 8);
        QCOMPARE(QString::fromStdString(m.equations[3].component), QString("slope z1.x2"));
        QVERIFY(m.equations[3].angular);
        std::mt19937 rng(11);
        std::uniform_real_distribution<double> u(-1.0, 1.0);
        State s = lm.initial;
        VecX dq(m.velocitySize());
        for (int i = 0; i < dq.size(); ++i) dq[i] = 0.05 * u(rng);
        retract(m, s.q, dq);
        for (int i = 0; i < s.v.size(); ++i) s.v[i] = u(rng);
        VecX lambda(m.equationCount());
        for (int i = 0; i < lambda.size(); ++i) lambda[i] = 100.0 * u(rng);
        ConstraintValues c;
        evaluateConstraints(m, s, c);
        QVERIFY(c.phi.cwiseAbs().maxCoeff() > 1e-3);  // off the constraint manifold
        auto phiAt = [&](const VecX& step) {
            State x = s;
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
        const int n = m.velocitySize();
        const double h = 1e-6;
        MatX J(m.equationCount(), n), H(n, n);
        for (int k = 0; k < n; ++k) {
            const VecX e = h * VecX::Unit(n, k);
            J.col(k) = (phiAt(e) - phiAt(-e)) / (2 * h);
            H.col(k) = (loadAt(e) - loadAt(-e)) / (2 * h);
        }
        const double ht = 1e-4;
        const VecX gammaFd = -(phiAt(ht * s.v) - 2.0 * c.phi + phiAt(-ht * s.v)) / (ht * ht);
        const MatX curvature(constraintCurvature(m, s, lambda));
        const double errJ = relativeError(c.denseJacobian(), J), errG = relativeError(c.gamma, gammaFd),
                     errH = relativeError(curvature, H);
        qInfo("node revolutes: |Phi_q - fd| %.2e, |gamma - fd| %.2e, |curvature - fd| %.2e of the largest entry", errJ, errG,
              errH);
        QVERIFY2(errJ < 1e-7, qPrintable(QString::number(errJ)));
        QVERIFY2(errG < 1e-6, qPrintable(QString::number(errG)));
        QVERIFY2(errH < 1e-7, qPrintable(QString::number(errH)));
        QVERIFY(c.gamma.cwiseAbs().maxCoeff() > 0.1);  // the velocities do reach γ
        // The joint angle and its rate: θ = atan2(x2·y1, x2·x1) with x2 the slope, and θ̇ the
        // derivative of that along a motion that keeps the joints (at the assembled state,
        // velocities with Φ_q v = 0; central difference, step 1e-6: error 1e-12 and 1e-10).
        const JointIndex pivot = *m.findJoint("pivot");
        State on = lm.initial;
        ConstraintValues c0;
        evaluateConstraints(m, on, c0, kJacobian);
        const MatX J0 = c0.denseJacobian();
        on.v = s.v - J0.transpose() * (J0 * J0.transpose()).ldlt().solve(J0 * s.v);
        State ahead = on, behind = on;
        retract(m, ahead.q, 1e-6 * on.v);
        retract(m, behind.q, -1e-6 * on.v);
        const double rate = jointAngleRate(m, on, pivot);
        const double rateFd = (jointAngle(m, ahead, pivot) - jointAngle(m, behind, pivot)) / 2e-6;
        qInfo("pivot angle rate %.12f rad/s, central difference %.12f rad/s", rate, rateFd);
        QVERIFY(std::abs(rate) > 0.1);
        QVERIFY2(std::abs(rate - rateFd) < 1e-8 * std::abs(rateFd), qPrintable(QString("%1 %2").arg(rate).arg(rateFd)));
        QVERIFY(std::abs(jointAngle(m, lm.initial, pivot)) < 1e-15);
    }

    // A uniform rod hinged at its top end, hanging, swings with ω² = (m g L/2)/(m L²/3) =
    // 3g/2L when rigid. The hinged beam's equilibrium under gravity and its lowest ω² on the
    // tangent space (Statics.h): the rod's own rigid rotation is an admissible shape whose
    // Rayleigh quotient is exactly 3g/2L (the cubic elements hold a rigid rotation and the
    // linear tension ρAg(L − s) that the stiffness of the swing comes from), so the lowest
    // ω² lies below it (to 100 ε max ω², the dense eigensolver's rounding) by the rod's
    // bending under the swing's inertia loads: a shape error of order ε = ρA ω² L⁴/EI =
    // 0.022 (steel, 1 m, 2 cm across), which the stationary Rayleigh quotient turns into
    // one of order ε² = 4.8e-4 in ω². The hinge leaves no swing out of its plane: there the
    // rod is a cantilever (the root's slope held in the plane), so the next ω² is its first
    // bending mode, 1.8751⁴ EI/ρAL⁴, raised by the hanging rod's tension by a fraction of
    // ρAgL³/EI = 0.015; a pin leaves a second pendulum mode of the same ω² instead. The
    // swing's ω² is 1e-9 of the rod's axial ones: counted as stiffness, not as a
    // mechanism's zero, only below that.
    void hingedBeamSwingsAsAPendulum() {
        const double L = 1.0, g = 9.81, E = kSteelE;
        for (const JointType type : {JointType::Revolute, JointType::Spherical}) {
            ModelDocument doc;
            doc.name = "hinged rod";
            doc.gravity = Vec3(0, -g, 0);
            doc.beams.push_back(rod("rod", Vec3(0, 0, 0), Vec3(0, -L, 0), 4, E, kSteelDensity));
            doc.joints.push_back(hinge("top", "ground", "rod.root", Vec3(0, 0, 0), Vec3(0, 0, 1), type));
            const Model m = test::buildOrStop(doc);
            State s = initialState(m);
            StaticsOptions options;
            options.zeroStiffnessTolerance = 1e-13;
            const StaticsResult r = findEquilibrium(m, s, options);
            QVERIFY2(r.ok, r.message.c_str());
            QVERIFY(r.squaredFrequencies.size() >= 3);
            const double rigid = 3.0 * g / (2.0 * L), w1 = r.squaredFrequencies[0], w2 = r.squaredFrequencies[1];
            const double rhoA = kSteelDensity * M_PI * 1e-4, EI = E * M_PI * 1e-8 / 4.0;
            const double epsilon = rhoA * rigid * std::pow(L, 4) / EI;
            qInfo("%s: omega^2 %.10f, %.10f rad^2/s^2 (largest %.3g); rigid rod 3g/2L %.10f (relative %.2e, bound %.2e)",
                  type == JointType::Revolute ? "revolute" : "spherical", w1, w2, r.squaredFrequencies.maxCoeff(), rigid,
                  w1 / rigid - 1.0, epsilon * epsilon);
            QVERIFY(w1 <= rigid + 100.0 * std::numeric_limits<double>::epsilon() * r.squaredFrequencies.maxCoeff());
            QVERIFY(w1 >= rigid * (1.0 - epsilon * epsilon));
            const double cantilever = std::pow(1.8751040687119611, 4) * EI / (rhoA * std::pow(L, 4));
            if (type == JointType::Revolute) {
                qInfo("out of the plane: omega^2 %.4f rad^2/s^2, cantilever 1.8751^4 EI/rhoA L^4 %.4f (+%.2e)", w2,
                      cantilever, w2 / cantilever - 1.0);
                QVERIFY(w2 >= cantilever && w2 <= cantilever * (1.0 + rhoA * g * std::pow(L, 3) / EI));
            } else
                QVERIFY(std::abs(w2 / w1 - 1.0) < 1e-6);
        }
    }

    // A soft rod (E = 2 GPa: slow axial waves keep the steps few) hinged at one end about
    // z, released horizontal, swings down under gravity with a part g_z = 2 m/s² along the
    // axis. The hinge holds the root where it is and its slope in the plane normal to the
    // axis (every frame: |z·r_x,0| below 1e-10, the projection's tolerance), so the rod
    // cannot swing out of that plane; it only bends out of it as the cantilever it is in
    // that direction, under the load f = ρA g_z applied at once from rest. Energy bounds
    // that motion: ½wᵀKw ≤ fᵀw, so wᵀKw ≤ 4 fᵀK⁻¹f, and the tip's w_L² ≤ (L³/3EI) wᵀKw;
    // with fᵀK⁻¹f = ∫M²/EI = f²L⁵/20EI, |w_L| ≤ (2/√60) fL⁴/EI, 2.07 times the static
    // fL⁴/8EI (the cubic elements are exact at the nodes for the tip's flexibility and
    // stiffer in the energy, so the mesh's bound is lower still). The swing's tension only
    // stiffens. A pin lets the whole rod fall out of the plane, its tip by about
    // (3/2) ½ g_z t² at first: more than five times the bound in 0.3 s.
    void hingedBeamStaysInItsPlane() {
        const double L = 1.0, E = 2e9, density = 1000.0, gz = 2.0, tEnd = test::kUnderSanitizers ? 0.05 : 0.3;
        const double rhoA = density * M_PI * 1e-4, EI = E * M_PI * 1e-8 / 4.0;
        const double bound = 2.0 / std::sqrt(60.0) * rhoA * gz * std::pow(L, 4) / EI;
        for (const JointType type : {JointType::Revolute, JointType::Spherical}) {
            ModelDocument doc;
            doc.name = "swinging rod";
            doc.gravity = Vec3(0, -9.81, -gz);
            doc.beams.push_back(rod("rod", Vec3(0, 0, 0), Vec3(L, 0, 0), 4, E, density));
            doc.joints.push_back(hinge("top", "ground", "rod.root", Vec3(0, 0, 0), Vec3(0, 0, 1), type));
            const LoadedModel lm = prepareModel(doc);
            QVERIFY2(lm.ok(), formatDiagnostics(lm.diagnostics).c_str());
            const Model& m = *lm.model;
            const int o = m.positionOffset(*m.findBody("rod"));
            SimulationSettings st;
            st.tEnd = tEnd;
            st.outputStep = 0.005;
            Simulator sim(lm.model, st);
            double slopeOut = 0.0, tipOut = 0.0, swing = 0.0;
            const SimulationResult r = sim.run(lm.initial, [&](const SimulationFrame& f) {
                const Vec3 slope = f.state.q.segment<3>(o + 3), tip = f.state.q.segment<3>(o + 6 * 4);
                slopeOut = std::max(slopeOut, std::abs(slope.z()) / slope.norm());
                tipOut = std::max(tipOut, std::abs(tip.z()));
                swing = std::max(swing, -tip.y());
            });
            QVERIFY2(r.ok, r.message.c_str());
            qInfo("%s, %.2f s (%ld steps): tip fell %.4f m in the plane; largest |z| of the tip %.3e m (bound %.3e m), "
                  "of the root's unit slope %.2e",
                  type == JointType::Revolute ? "revolute" : "spherical", tEnd, long(r.statistics.steps), swing, tipOut,
                  bound, slopeOut);
            // It does swing: half of what a rigid rod's tip falls at first, ½ (3g/2L) t² L.
            QVERIFY(swing > 0.25 * (3.0 * 9.81 / (2.0 * L)) * tEnd * tEnd * L);
            if (type == JointType::Revolute) {
                QVERIFY2(slopeOut < 1e-10, qPrintable(QString::number(slopeOut)));
                QVERIFY2(tipOut < bound, qPrintable(QString::number(tipOut)));
            } else if (!test::kUnderSanitizers) {
                QVERIFY(tipOut > 5.0 * bound);
            }
        }
    }

    // Bad beams are refused with the JSON location of the defect.
    void badBeamsAreRefusedWithTheirLocation() {
        auto check = [](const std::string& text, const std::string& where) {
            const std::string head = R"({"format": "looplab-model", "version": 1, "name": "x", "bodies": [], )";
            DocumentResult d = parseModelDocument(head + text + "}", "bad.json");
            Diagnostics diags = d.diagnostics;
            if (d.document) diags = buildModel(*d.document, "bad.json").diagnostics;
            QVERIFY2(hasDiagnosticAt(diags, where),
                     qPrintable(QString::fromStdString(where + " expected; got: " + formatDiagnostics(diags))));
        };
        const std::string ok = R"("material": {"young_modulus": 2e11, "density": 7800}, "section": {"type": "circle", "radius": 0.01})";
        check(R"("beams": [{"name": "b", "from": [0,0,0], "to": [1,0,0], "elements": 0, )" + ok + "}]",
              "/beams/0/elements");
        check(R"("beams": [{"name": "b", "from": [0,0,0], "to": [0,0,0], "elements": 2, )" + ok + "}]", "/beams/0/to");
        check(R"("beams": [{"name": "b", "from": [0,0,0], "to": [1,0,0], "elements": 2, "material": {"young_modulus": -1, "density": 7800}, "section": {"type": "circle", "radius": 0.01}}])",
              "/beams/0/material/young_modulus");
        check(R"("beams": [{"name": "b", "from": [0,0,0], "to": [1,0,0], "elements": 2, "material": {"young_modulus": 2e11, "density": 7800, "poisson_ratio": 0.7}, "section": {"type": "circle", "radius": 0.01}}])",
              "/beams/0/material/poisson_ratio");
        check(R"("beams": [{"name": "b", "from": [0,0,0], "to": [1,0,0], "elements": 2, "material": {"young_modulus": 2e11, "density": 7800, "stiffness_damping": -1e-5}, "section": {"type": "circle", "radius": 0.01}}])",
              "/beams/0/material/stiffness_damping");
        check(R"("beams": [{"name": "b", "from": [0,0,0], "to": [1,0,0], "elements": 2, "material": {"young_modulus": 2e11, "density": 7800}, "section": {"type": "hexagon"}}])",
              "/beams/0/section/type");
        check(R"("beams": [{"name": "b", "from": [0,0,0], "to": [1,0,0], "elements": 2, "material": {"young_modulus": 2e11, "density": 7800}, "section": {"type": "rectangle", "width": 0.01, "height": 0}}])",
              "/beams/0/section/width");
        const std::string beam = R"("beams": [{"name": "b", "from": [0,0,0], "to": [1,0,0], "elements": 2, )" + ok + "}], ";
        // Two beams meeting at (1, 0, 0): a joint holds nodes where they are.
        const std::string beams = R"("beams": [{"name": "b", "from": [0,0,0], "to": [1,0,0], "elements": 2, )" + ok +
                                  R"(}, {"name": "c", "from": [1,0,0], "to": [2,0,0], "elements": 2, )" + ok + "}], ";
        // A hinge holds a node to a rigid body or the ground about an axis across the beam; a
        // clamp does not join two nodes, and a revolute between two nodes (a pin) is not driven.
        check(beams + R"("joints": [{"name": "j", "type": "fixed", "body1": "b.tip", "body2": "c.root", "point": [1,0,0], "axis": [0,0,1]}])",
              "/joints/0/type");
        check(beam + R"("joints": [{"name": "j", "type": "revolute", "body1": "ground", "body2": "b.tip", "point": [1,0,0], "axis": [1,0,1]}])",
              "/joints/0/axis");
        check(beams + R"("joints": [{"name": "j", "type": "revolute", "body1": "c.root", "body2": "b.tip", "point": [1,0,0], "axis": [0,0,1]}], )" +
                  R"("drivers": [{"name": "d", "joint": "j", "law": {"type": "constant_velocity", "rate": 1}}])",
              "/drivers/0/joint");
        check(beams + R"("joints": [{"name": "j", "type": "revolute", "body1": "c.root", "body2": "b.tip", "point": [1,0,0], "axis": [1,0,1]}])",
              "/joints/0/axis");
        // Two nodes of one beam 1 m apart, pinned: assembly would fold the beam.
        check(beam + R"("joints": [{"name": "j", "type": "spherical", "body1": "b.root", "body2": "b.tip", "point": [1,0,0]}])",
              "/joints/0/point");
        check(beam + R"("joints": [{"name": "j", "type": "prismatic", "body1": "ground", "body2": "b.tip", "point": [1,0,0], "axis": [0,0,1]}])",
              "/joints/0/type");
        check(beam + R"("joints": [{"name": "j", "type": "spherical", "body1": "ground", "body2": "b.node7", "point": [1,0,0], "axis": [0,0,1]}])",
              "/joints/0/body2");
        check(beam + R"("joints": [{"name": "j", "type": "spherical", "body1": "ground", "body2": "b", "point": [1,0,0], "axis": [0,0,1]}])",
              "/joints/0/body2");
        check(beam + R"("forces": [{"name": "f", "type": "body_torque", "body": "b.tip", "vector": [0,0,1]}])",
              "/forces/0/body");
    }
};

QTEST_GUILESS_MAIN(BeamTest)
#include "tst_beam.moc"
