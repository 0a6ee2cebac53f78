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
//  - the loader's diagnostics for bad beams, naming their JSON location.
#include "TestModels.h"

#include "looplab/bodies/AncfCableElement.h"
#include "looplab/kinematics/Constraints.h"
#include "looplab/dynamics/Dynamics.h"
#include "looplab/dynamics/Linearization.h"
#include "looplab/kinematics/Mobility.h"
#include "looplab/dynamics/Reactions.h"
#include "looplab/bodies/Rotation.h"
#include "looplab/simulation/Simulation.h"

#include <cmath>
#include <functional>
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
        if (body.kind != BodyKind::Beam) continue;
        const int o = body.slice.velocityOffset;
        for (int i = 0; i < 3; ++i) {
            VecX unit = VecX::Zero(body.slice.velocitySize);
            body.beam->addGravityForce(Vec3::Unit(i), unit.data());
            P[i] += unit.dot(s.v.segment(o, body.slice.velocitySize));
        }
        for (int e = 0; e < body.beam->elementCount(); ++e) {
            const ancf::CableProperties& p = body.beam->element(e);
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

    // The shipped flexible examples with the projection method: every reported frame
    // within 1e-10 of Φ = 0 (the method iterates to 8ε·L). 2 ms each: the beams' axial
    // modes (up to ~5e6 rad/s with the consistent mass) hold Dormand–Prince to steps of
    // about 1e-6 s, so 2 ms are already a few thousand steps with a projection in each.
    void flexibleExamplesKeepTheirConstraints() {
        for (const char* file : {"cantilever-beam.json", "flexible-slider-crank.json", "flexible-four-bar.json"}) {
            // A quarter of it under the sanitizers (the same code, 10–15 times slower).
            const double tEnd = test::kUnderSanitizers ? 0.0005 : 0.002;
            const LoadedModel lm = test::loadExample(file);
            QVERIFY(lm.ok());
            SimulationSettings st;
            st.tEnd = tEnd;
            st.outputStep = 0.0001;
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
        check(R"("beams": [{"name": "b", "from": [0,0,0], "to": [1,0,0], "elements": 2, "material": {"young_modulus": 2e11, "density": 7800}, "section": {"type": "hexagon"}}])",
              "/beams/0/section/type");
        check(R"("beams": [{"name": "b", "from": [0,0,0], "to": [1,0,0], "elements": 2, "material": {"young_modulus": 2e11, "density": 7800}, "section": {"type": "rectangle", "width": 0.01, "height": 0}}])",
              "/beams/0/section/width");
        const std::string beam = R"("beams": [{"name": "b", "from": [0,0,0], "to": [1,0,0], "elements": 2, )" + ok + "}], ";
        check(beam + R"("joints": [{"name": "j", "type": "revolute", "body1": "ground", "body2": "b.tip", "point": [1,0,0], "axis": [0,0,1]}])",
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
