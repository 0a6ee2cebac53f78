// Joint reactions and the drive torque of the crank-driven slider-crank against an
// independent planar Newton–Euler free-body calculation over one revolution.
#include "TestModels.h"

#include "looplab/kinematics/Mobility.h"
#include "looplab/simulation/Simulation.h"

#include <Eigen/LU>
#include <algorithm>
#include <cmath>
#include <map>

using namespace looplab;

namespace {

constexpr double kCrank = 0.1;  // r [m]
constexpr double kRod = 0.3;    // l [m]
constexpr double kOmega = 2 * M_PI;
constexpr double kPhi0 = M_PI / 6;

using Vec2 = Eigen::Vector2d;
double cross2(const Vec2& a, const Vec2& b) { return a.x() * b.y() - a.y() * b.x(); }

// Closed-form planar kinematics at crank angle φ (φ̇ = ω, φ̈ = 0): crank from O at the
// origin to A, rod from A to B, B on the x axis; ψ is the rod angle.
struct Kinematics {
    Vec2 A, B, G1, G2;        // pin positions and centres of mass (uniform bars)
    Vec2 aG1, aG2, aB;        // centre-of-mass accelerations (slider: B)
    double psi, psiDot, psiDdot;
};

Kinematics kinematics(double phi) {
    const double r = kCrank, l = kRod, w = kOmega;
    const Vec2 u(std::cos(phi), std::sin(phi));
    const Vec2 uPerp(-u.y(), u.x());
    Kinematics k;
    // B_y = r sin φ + l sin ψ = 0.
    const double sPsi = -r * std::sin(phi) / l, cPsi = std::sqrt(1.0 - sPsi * sPsi);
    k.psi = std::atan2(sPsi, cPsi);
    // l cos ψ ψ̇ = −r ω cos φ, differentiated once more.
    k.psiDot = -r * w * std::cos(phi) / (l * cPsi);
    k.psiDdot = (r * w * w * std::sin(phi) + l * sPsi * k.psiDot * k.psiDot) / (l * cPsi);
    const Vec2 e(cPsi, sPsi), ePerp(-sPsi, cPsi);
    k.A = r * u;
    k.B = k.A + l * e;
    k.G1 = 0.5 * r * u;
    k.G2 = k.A + 0.5 * l * e;
    const Vec2 aA = -r * w * w * u;  // plus r φ̈ u⊥ = 0
    (void)uPerp;
    k.aG1 = 0.5 * aA;
    k.aG2 = aA + 0.5 * l * (k.psiDdot * ePerp - k.psiDot * k.psiDot * e);
    k.aB = aA + l * (k.psiDdot * ePerp - k.psiDot * k.psiDot * e);
    return k;
}

// Newton–Euler unknowns.
struct Loads {
    Vec2 FO;     // ground on crank at O
    Vec2 FA;     // crank on rod at A
    Vec2 FB;     // rod on slider at B
    double N;    // ground on slider through the prismatic, along y
    double tau;  // drive torque on the crank about z
};

// Planar force and moment balance of crank, rod and slider (8 equations, 8 unknowns).
// The prismatic's moment on the slider is zero: the slider does not rotate and the only
// other force on it acts at its centre of mass.
Loads newtonEuler(const Kinematics& k, double m1, double I1, double m2, double I2, double m3, double g) {
    enum { FOx, FOy, FAx, FAy, FBx, FBy, N, TAU };
    Eigen::Matrix<double, 8, 8> M = Eigen::Matrix<double, 8, 8>::Zero();
    Eigen::Matrix<double, 8, 1> b;
    const Vec2 O(0, 0);
    // Crank: m1 aG1 = F_O − F_A + m1 g;  I1 φ̈ = τ + (O−G1)×F_O − (A−G1)×F_A, φ̈ = 0.
    M(0, FOx) = 1, M(0, FAx) = -1, b[0] = m1 * k.aG1.x();
    M(1, FOy) = 1, M(1, FAy) = -1, b[1] = m1 * k.aG1.y() + m1 * g;
    {
        const Vec2 o = O - k.G1, a = k.A - k.G1;
        M(2, TAU) = 1;
        M(2, FOx) = -o.y(), M(2, FOy) = o.x();
        M(2, FAx) = a.y(), M(2, FAy) = -a.x();
        b[2] = 0.0;
    }
    // Rod: m2 aG2 = F_A − F_B + m2 g;  I2 ψ̈ = (A−G2)×F_A − (B−G2)×F_B.
    M(3, FAx) = 1, M(3, FBx) = -1, b[3] = m2 * k.aG2.x();
    M(4, FAy) = 1, M(4, FBy) = -1, b[4] = m2 * k.aG2.y() + m2 * g;
    {
        const Vec2 a = k.A - k.G2, c = k.B - k.G2;
        M(5, FAx) = -a.y(), M(5, FAy) = a.x();
        M(5, FBx) = c.y(), M(5, FBy) = -c.x();
        b[5] = I2 * k.psiDdot;
    }
    // Slider: m3 aB = F_B + N ŷ + m3 g, with aB_y = 0.
    M(6, FBx) = 1, b[6] = m3 * k.aB.x();
    M(7, FBy) = 1, M(7, N) = 1, b[7] = m3 * k.aB.y() + m3 * g;
    (void)I1;  // φ̈ = 0: the crank's inertia does not enter
    const Eigen::Matrix<double, 8, 1> x = M.fullPivLu().solve(b);
    Loads L;
    L.FO = Vec2(x[FOx], x[FOy]);
    L.FA = Vec2(x[FAx], x[FAy]);
    L.FB = Vec2(x[FBx], x[FBy]);
    L.N = x[N];
    L.tau = x[TAU];
    return L;
}

double planarAngle(const Model& m, const State& s, BodyIndex b) {
    const Mat3 R = bodyOrientation(m, s, b).toRotationMatrix();
    return std::atan2(R(1, 0), R(0, 0));
}

}  // namespace

class ReactionsTest : public QObject {
    Q_OBJECT
private slots:
    // The free-body solution itself: total external force equals the total rate of
    // momentum (the pin forces are internal), for any angle.
    void newtonEulerBalances() {
        const double m1 = 0.2, m2 = 0.6, m3 = 0.5, g = 9.81;
        for (double phi : {0.3, 1.7, 4.0}) {
            const Kinematics k = kinematics(phi);
            const Loads L = newtonEuler(k, m1, 1.7e-4, m2, 4.5e-3, m3, g);
            const Vec2 external = L.FO + Vec2(0, L.N) - Vec2(0, (m1 + m2 + m3) * g);
            const Vec2 momentumRate = m1 * k.aG1 + m2 * k.aG2 + m3 * k.aB;
            QVERIFY((external - momentumRate).norm() < 1e-12);
            QVERIFY(std::abs(k.B.y()) < 1e-15 && std::abs(k.aB.y()) < 1e-12);
            QVERIFY(std::abs((k.B - k.A).norm() - kRod) < 1e-15);
        }
    }

    void reactionsMatchNewtonEuler() {
        const LoadedModel lm = test::loadExample("slider-crank.json");
        QVERIFY(lm.ok());
        const Model& m = *lm.model;
        const BodyIndex crank = *m.findBody("crank"), rod = *m.findBody("rod"), slider = *m.findBody("slider");
        const double m1 = m.body(crank).rigid()->mass(), I1 = m.body(crank).rigid()->inertia()(2, 2);
        const double m2 = m.body(rod).rigid()->mass(), I2 = m.body(rod).rigid()->inertia()(2, 2);
        const double m3 = m.body(slider).rigid()->mass(), g = -m.gravity.y();
        QCOMPARE(m3, 0.5);

        SimulationSettings st;
        st.method = "projection";
        st.integrator = "dopri5";
        st.tEnd = 0.98;
        st.outputStep = 0.02;  // 50 crank angles, one revolution
        Simulator sim(lm.model, st);
        std::vector<SimulationFrame> frames;
        const SimulationResult res = sim.run(lm.initial, [&](const SimulationFrame& f) { frames.push_back(f); });
        QVERIFY2(res.ok, res.message.c_str());
        QCOMPARE(frames.size(), size_t(50));

        // The three out-of-plane equations of the planar loop are redundant.
        const auto redundant = std::find_if(res.events.begin(), res.events.end(), [](const SimulationEvent& e) {
            return e.kind == RunEventKind::RedundantConstraints;
        });
        QVERIFY(redundant != res.events.end());
        QCOMPARE(redundant->t, 0.0);
        QVERIFY(!redundant->joints.empty());

        // Reference loads first, for the scales.
        std::vector<Kinematics> kin;
        std::vector<Loads> ref;
        double forceScale = 0.0, torqueScale = 0.0;
        for (const SimulationFrame& f : frames) {
            kin.push_back(kinematics(kPhi0 + kOmega * f.state.t));
            ref.push_back(newtonEuler(kin.back(), m1, I1, m2, I2, m3, g));
            const Loads& L = ref.back();
            forceScale = std::max({forceScale, L.FO.norm(), L.FA.norm(), L.FB.norm(), std::abs(L.N)});
            torqueScale = std::max(torqueScale, std::abs(L.tau));
        }

        double kinError = 0.0, forceError = 0.0, torqueError = 0.0, driveError = 0.0, outOfPlane = 0.0;
        std::map<std::string, bool> indeterminate;
        for (size_t i = 0; i < frames.size(); ++i) {
            const SimulationFrame& f = frames[i];
            const Kinematics& k = kin[i];
            const Loads& L = ref[i];
            // The simulated motion is the closed-form one (checks the reference kinematics).
            const double phi = kPhi0 + kOmega * f.state.t;
            kinError = std::max({kinError, std::abs(std::remainder(planarAngle(*lm.model, f.state, crank) - phi, 2 * M_PI)),
                                 std::abs(planarAngle(*lm.model, f.state, rod) - k.psi),
                                 (bodyPosition(*lm.model, f.state, slider).head<2>() - k.B).norm() / kCrank});
            const double aScale = kOmega * kOmega * kCrank;
            kinError = std::max({kinError,
                                 (f.acceleration.segment<2>(lm.model->velocityOffset(rod)) - k.aG2).norm() / aScale,
                                 (f.acceleration.segment<2>(lm.model->velocityOffset(crank)) - k.aG1).norm() / aScale,
                                 std::abs(f.acceleration[lm.model->velocityOffset(slider)] - k.aB.x()) / aScale,
                                 std::abs(f.acceleration[lm.model->velocityOffset(rod) + 5] - k.psiDdot) * kRod / aScale});

            QCOMPARE(f.drivers.size(), size_t(1));
            QCOMPARE(f.drivers[0].driver, std::string("motor"));
            driveError = std::max(driveError, std::abs(f.drivers[0].value - L.tau) / torqueScale);

            QCOMPARE(f.reactions.size(), size_t(4));
            for (const JointReaction& r : f.reactions) {
                Vec2 force;
                if (r.joint == "O") force = L.FO;
                else if (r.joint == "A") force = L.FA;
                else if (r.joint == "B") force = L.FB;
                else if (r.joint == "P") force = Vec2(0, L.N);
                else QFAIL(r.joint.c_str());
                // In plane: x, y force and the z torque about the joint point, which is
                // zero for the revolutes (free about z) and for the prismatic (the slider
                // does not rotate and nothing else loads it with a moment).
                forceError = std::max(forceError, (r.forceGlobal.head<2>() - force).norm() / forceScale);
                torqueError = std::max(torqueError, std::abs(r.torqueGlobal.z()) / torqueScale);
                // Out of plane nothing loads the mechanism, so the minimum-norm multipliers
                // of the indeterminate components vanish.
                outOfPlane = std::max({outOfPlane, std::abs(r.forceGlobal.z()) / forceScale,
                                       r.torqueGlobal.head<2>().norm() / torqueScale});
                indeterminate[r.joint] = i == 0 ? r.indeterminate : (indeterminate[r.joint] && r.indeterminate);
                // Consistency of the two frames the reaction is given in.
                const Joint& joint = m.joint(*m.findJoint(r.joint));
                const Mat3 axes1 = bodyOrientation(*lm.model, f.state, joint.frame1.body).toRotationMatrix() * joint.frame1.axes;
                QVERIFY((axes1 * r.forceJoint - r.forceGlobal).norm() <= 1e-12 * forceScale);
            }
        }
        qInfo("largest force %.6g N, largest drive torque %.6g N m; errors relative to them: "
              "kinematics %.3g, forces %.3g, in-plane torques %.3g, drive torque %.3g, "
              "out-of-plane components %.3g",
              forceScale, torqueScale, kinError, forceError, torqueError, driveError, outOfPlane);
        QVERIFY2(kinError < 1e-9, qPrintable(QString::number(kinError)));
        QVERIFY2(forceError < 1e-9, qPrintable(QString::number(forceError)));
        QVERIFY2(torqueError < 1e-9, qPrintable(QString::number(torqueError)));
        QVERIFY2(driveError < 1e-9, qPrintable(QString::number(driveError)));
        QVERIFY2(outOfPlane < 1e-9, qPrintable(QString::number(outOfPlane)));

        // Every joint of the loop carries out-of-plane equations of the dependent set: all
        // their reactions are indeterminate. The warning names only the joints whose
        // equations were found redundant, as the mobility analysis does.
        for (const char* j : {"O", "A", "B", "P"})
            QVERIFY2(indeterminate[j], j);
        std::vector<std::string> owners;
        for (const RedundantEquation& e : analyzeMobility(m, lm.initial).redundant)
            if (std::find(owners.begin(), owners.end(), e.joint) == owners.end()) owners.push_back(e.joint);
        QCOMPARE(redundant->joints, owners);
        QVERIFY2(redundant->detail.find("The usual fix: ") != std::string::npos, redundant->detail.c_str());
    }

    // Reversing the bodies of a joint reverses its reaction: with the ground as body 2
    // (prismatic P) the reported load is the one the slider exerts on the ground, and
    // with the slider as body 1 of B, the one the slider exerts on the rod.
    void reversedJoints() {
        ModelDocument doc = test::exampleDocument("slider-crank.json");
        for (JointDoc& j : doc.joints)
            if (j.name == "P" || j.name == "B") std::swap(j.body1, j.body2);
        const LoadedModel lm = prepareModel(doc);
        QVERIFY(lm.ok());
        const Model& m = *lm.model;
        QCOMPARE(m.joint(*m.findJoint("P")).frame2.body.value(), 0);
        SimulationSettings st;
        st.tEnd = 0.98;
        st.outputStep = 0.02;
        Simulator sim(lm.model, st);
        std::vector<SimulationFrame> frames;
        const SimulationResult res = sim.run(lm.initial, [&](const SimulationFrame& f) { frames.push_back(f); });
        QVERIFY2(res.ok, res.message.c_str());
        QCOMPARE(frames.size(), size_t(50));
        const BodyIndex crank = *m.findBody("crank"), rod = *m.findBody("rod"), slider = *m.findBody("slider");
        double worstForce = 0.0, worstTorque = 0.0;
        for (const SimulationFrame& f : frames) {
            const Kinematics k = kinematics(kPhi0 + kOmega * f.state.t);
            const Loads L = newtonEuler(k, m.body(crank).rigid()->mass(), m.body(crank).rigid()->inertia()(2, 2), m.body(rod).rigid()->mass(),
                                        m.body(rod).rigid()->inertia()(2, 2), m.body(slider).rigid()->mass(), -m.gravity.y());
            const double scale = std::max({L.FO.norm(), L.FA.norm(), L.FB.norm(), std::abs(L.N)});
            worstTorque = std::max(worstTorque, std::abs(f.drivers[0].value - L.tau) / (scale * kCrank));
            for (const JointReaction& r : f.reactions) {
                const Vec2 force = r.joint == "O" ? L.FO : r.joint == "A" ? L.FA : r.joint == "B" ? -L.FB : Vec2(0, -L.N);
                worstForce = std::max(worstForce, (r.forceGlobal.head<2>() - force).norm() / scale);
                worstTorque = std::max(worstTorque, std::abs(r.torqueGlobal.z()) / (scale * kCrank));
            }
        }
        qInfo("reversed joints: force error %.3g, torque error %.3g (relative to the largest force, times the crank length for torques)",
              worstForce, worstTorque);
        QVERIFY(worstForce < 1e-9);
        QVERIFY(worstTorque < 1e-9);
    }

    // The same reactions from evaluateFrame at a state away from the run's output times.
    void evaluateFrameAgrees() {
        const LoadedModel lm = test::loadExample("slider-crank.json");
        QVERIFY(lm.ok());
        const Model& m = *lm.model;
        SimulationSettings st;
        Simulator sim(lm.model, st);
        State s = lm.initial;
        s.t = 0.137;  // the projection moves the state onto the driver's position at s.t
        SimulationFrame f;
        std::string err;
        QVERIFY2(sim.evaluateFrame(s, f, &err), err.c_str());
        const BodyIndex crank = *m.findBody("crank"), rod = *m.findBody("rod"), slider = *m.findBody("slider");
        const Kinematics k = kinematics(kPhi0 + kOmega * s.t);
        const Loads L = newtonEuler(k, m.body(crank).rigid()->mass(), m.body(crank).rigid()->inertia()(2, 2), m.body(rod).rigid()->mass(),
                                    m.body(rod).rigid()->inertia()(2, 2), m.body(slider).rigid()->mass(), -m.gravity.y());
        const double scale = std::max({L.FO.norm(), L.FA.norm(), L.FB.norm(), std::abs(L.N)});
        QVERIFY(std::abs(planarAngle(*lm.model, f.state, crank) - (kPhi0 + kOmega * s.t)) < 1e-12);
        QVERIFY(std::abs(f.drivers[0].value - L.tau) < 1e-9 * std::abs(L.tau));
        for (const JointReaction& r : f.reactions) {
            const Vec2 force = r.joint == "O" ? L.FO : r.joint == "A" ? L.FA : r.joint == "B" ? L.FB : Vec2(0, L.N);
            QVERIFY2((r.forceGlobal.head<2>() - force).norm() < 1e-9 * scale, r.joint.c_str());
        }
    }
};

QTEST_APPLESS_MAIN(ReactionsTest)
#include "tst_reactions.moc"
