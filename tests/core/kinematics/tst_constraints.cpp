// Analytic Φ_q, Φ_t, γ and the λ-weighted curvature of every joint, driver and coupler type
// (cams too) against finite differences.
// The Jacobian is with respect to the velocity coordinates, so the differences move the
// configuration with retract(): translations added, rotations applied in the body frame.
#include "RandomPoses.h"
#include "TestModels.h"

#include "looplab/kinematics/Constraints.h"
#include "looplab/model/ModelBuilder.h"
#include "looplab/model/State.h"

#include <QtTest>
#include <cmath>
#include <random>

using namespace looplab;

using looplab::test::randomQuat;
using looplab::test::randomVec;

namespace {

// Two bodies and a marker pair per joint type, in random poses; every joint between the
// two bodies, plus a copy of each to the ground. Nothing is assembled: the derivatives
// hold anywhere.
ModelDocument everyJointModel(std::mt19937& g) {
    ModelDocument doc;
    doc.name = "every joint";
    for (const char* n : {"b1", "b2"}) {
        BodyDoc b;
        b.name = n;
        b.mass = 1.0;
        b.inertia = Vec3(0.1, 0.2, 0.25).asDiagonal();
        b.position = randomVec(g);
        b.orientation = randomQuat(g);
        doc.bodies.push_back(b);
    }
    const JointType types[] = {JointType::Revolute,    JointType::Prismatic, JointType::Spherical,
                               JointType::Cylindrical, JointType::Universal, JointType::Fixed,
                               JointType::Planar,      JointType::Distance,  JointType::PointOnLine,
                               JointType::PointOnPlane, JointType::Screw};
    int k = 0;
    for (const char* first : {"b1", "ground"}) {
        for (JointType t : types) {
            const std::string id = std::to_string(k++);
            MarkerDoc m1{"m1_" + id, first, randomVec(g, 0.5), randomQuat(g)};
            MarkerDoc m2{"m2_" + id, "b2", randomVec(g, 0.5), randomQuat(g)};
            doc.markers.push_back(m1);
            doc.markers.push_back(m2);
            JointDoc j;
            j.name = std::string(jointTypeName(t)) + "_" + id;
            j.type = t;
            j.byMarkers = true;
            j.marker1 = m1.name;
            j.marker2 = m2.name;
            if (t == JointType::Distance) j.length = 0.7;
            if (t == JointType::Screw) j.lead = -1.0;  // a steep left-hand thread
            doc.joints.push_back(j);
        }
    }
    TimeLaw harmonic;
    harmonic.kind = TimeLaw::Kind::Harmonic;
    harmonic.amplitude = 0.9;
    harmonic.frequency = 2.3;
    harmonic.phase = 0.4;
    harmonic.offset = 0.1;
    doc.drivers.push_back({"rotation driver", "revolute_0", harmonic});
    doc.drivers.push_back({"translation driver", "prismatic_12", harmonic});
    doc.drivers.push_back({"screw driver", "screw_10", harmonic});
    // Couplers over joints of different bodies: a phase with angles and a displacement
    // (Φ a length), one of angles alone (dimensionless), one of displacements (linear).
    auto coupler = [&](const char* name, std::vector<std::string> joints, std::vector<double> coefficients) {
        CouplerDoc c;
        c.name = name;
        c.type = CouplerType::Linear;
        c.joints = std::move(joints);
        c.coefficients = std::move(coefficients);
        doc.couplers.push_back(c);
    };
    coupler("angles and a slide", {"revolute_0", "prismatic_12", "cylindrical_14"}, {2.0, 0.7, -3.0});
    coupler("angles", {"revolute_11", "cylindrical_3"}, {1.0, -2.0});
    coupler("slides", {"prismatic_1", "prismatic_12"}, {1.0, 2.5});
    return doc;
}

// A cam example, or (name "swinging cam") the roller example's follower on an arm swung
// by a lift table instead of a guide: moved off its constraints, the cam turned to
// somewhere in its law.
ModelDocument camModel(const std::string& name) {
    if (name != "swinging cam") return test::exampleDocument(name.c_str());
    ModelDocument doc = test::exampleDocument("cam-roller-follower.json");
    JointDoc& pivot = doc.joints[1];
    pivot.name = "arm pivot";
    pivot.type = JointType::Revolute;
    pivot.point = Vec3(0.12, 0.05, 0.0);
    pivot.axis = Vec3::UnitZ();
    CouplerDoc& c = doc.couplers[0];
    c.joints = {"camshaft", "arm pivot"};
    c.cam.followerPoint = Vec3(0.0, 0.05, 0.0);
    c.cam.rollerRadius = 0.01;
    c.cam.segments.clear();
    for (int i = 0; i < 24; ++i) c.cam.table.emplace_back(15.0 * i, 10.0 * std::pow(std::sin(M_PI * i / 24), 2));
    return doc;
}

}  // namespace

class ConstraintsTest : public QObject {
    Q_OBJECT
private slots:
    void derivativesMatchFiniteDifferences_data() {
        QTest::addColumn<int>("seed");
        QTest::addColumn<QString>("cam");
        for (int s = 1; s <= 5; ++s) QTest::newRow(qPrintable(QString("seed %1").arg(s))) << s << QString();
        for (const char* cam : {"cam-roller-follower.json", "cam-flat-follower.json", "swinging cam"})
            QTest::newRow(cam) << 7 << QString(cam);
    }

    void derivativesMatchFiniteDifferences() {
        QFETCH(int, seed);
        QFETCH(QString, cam);
        std::mt19937 g(static_cast<unsigned>(seed));
        const BuildResult built = buildModel(cam.isEmpty() ? everyJointModel(g) : camModel(cam.toStdString()));
        QVERIFY2(built.ok(), formatDiagnostics(built.diagnostics).c_str());
        const Model& model = *built.model;
        if (cam.isEmpty()) QCOMPARE(model.equationCount(), 2 * (5 + 5 + 3 + 4 + 4 + 6 + 3 + 1 + 2 + 1 + 5) + 3 + 3);

        // Off the document's pose, where each coupler's phase was made zero: its own
        // second derivatives then count (a cam turned by two radians, into its law).
        State s = initialState(model);
        {
            std::uniform_real_distribution<double> u(-0.05, 0.05);
            VecX e(model.velocitySize());
            for (int k = 0; k < e.size(); ++k) e[k] = u(g);
            if (!cam.isEmpty()) e[model.velocityOffset(*model.findBody("cam")) + 5] = 2.0;
            retract(model, s.q, e);
        }
        s.t = 0.37;
        s.v = VecX::Random(model.velocitySize());
        ConstraintValues cv;
        evaluateConstraints(model, s, cv);
        const MatX J = cv.denseJacobian();

        // Φ_q column by column.
        const double h = 1e-6;
        double worst = 0.0;
        // The constraint values at s moved by ±h along velocity coordinate k.
        auto around = [&](int k, unsigned parts, ConstraintValues& p, ConstraintValues& m) {
            State sp = s, sm = s;
            VecX e = VecX::Zero(model.velocitySize());
            e[k] = h;
            retract(model, sp.q, e);
            retract(model, sm.q, -e);
            evaluateConstraints(model, sp, p, parts);
            evaluateConstraints(model, sm, m, parts);
        };
        for (int k = 0; k < model.velocitySize(); ++k) {
            ConstraintValues p, m;
            around(k, kPhi, p, m);
            const VecX fd = (p.phi - m.phi) / (2 * h);
            worst = std::max(worst, (fd - J.col(k)).cwiseAbs().maxCoeff());
        }
        qInfo("%d equations of every joint and driver type: Phi_q against central differences %.3g",
              model.equationCount(), worst);
        QVERIFY2(worst < 1e-8, qPrintable(QString("Jacobian error %1").arg(worst)));

        // The λ-weighted curvature ∂(Φ_qᵀλ)/∂δ, column by column.
        {
            const VecX lambda = VecX::Random(model.equationCount());
            const MatX curvature(constraintCurvature(model, s, lambda));
            double worstCurvature = 0.0;
            for (int k = 0; k < model.velocitySize(); ++k) {
                ConstraintValues p, m;
                around(k, kJacobian, p, m);
                const VecX fd = (p.jacobian.transpose() * lambda - m.jacobian.transpose() * lambda) / (2 * h);
                worstCurvature = std::max(worstCurvature, (fd - curvature.col(k)).cwiseAbs().maxCoeff());
            }
            qInfo("curvature d(Phi_q^T lambda)/dq against central differences %.3g", worstCurvature);
            QVERIFY2(worstCurvature < 1e-7, qPrintable(QString("curvature error %1").arg(worstCurvature)));
        }

        // Φ_t.
        {
            State sp = s, sm = s;
            sp.t += h;
            sm.t -= h;
            ConstraintValues p, m;
            evaluateConstraints(model, sp, p, kPhi);
            evaluateConstraints(model, sm, m, kPhi);
            const double err = ((p.phi - m.phi) / (2 * h) - cv.phiT).cwiseAbs().maxCoeff();
            QVERIFY2(err < 1e-8, qPrintable(QString("Phi_t error %1").arg(err)));
            QVERIFY(cv.phiT.cwiseAbs().maxCoeff() > 0.1);  // the drivers do depend on time
        }

        // Along q(τ) = q ⊕ τ v, t + τ with v constant (v̇ = 0): dΦ/dτ = Φ_q v + Φ_t and
        // d²Φ/dτ² = −γ.
        {
            // The second difference needs the larger step (rounding grows as 1/h²); the
            // first the smaller one (a coupler's phase, 3θ + ..., and a screw's, θ − 2πs/lead, change fast).
            const double hh = 1e-4, hr = 1e-5;
            auto phiAt = [&](double tau) {
                State x = s;
                retract(model, x.q, tau * s.v);
                x.t += tau;
                ConstraintValues c;
                evaluateConstraints(model, x, c, kPhi);
                return VecX(c.phi);
            };
            const VecX p = phiAt(hh), z = phiAt(0.0), m = phiAt(-hh);
            const VecX rate = cv.jacobian * s.v + cv.phiT;
            const double errRate = ((phiAt(hr) - phiAt(-hr)) / (2 * hr) - rate).cwiseAbs().maxCoeff();
            const double errGamma = ((p - 2 * z + m) / (hh * hh) + cv.gamma).cwiseAbs().maxCoeff();
            qInfo("Phi_q v + Phi_t %.3g, gamma %.3g (relative to max |gamma| %.3g)", errRate,
                  errGamma / std::max(1.0, cv.gamma.cwiseAbs().maxCoeff()), cv.gamma.cwiseAbs().maxCoeff());
            QVERIFY2(errRate < 1e-7, qPrintable(QString("velocity error %1").arg(errRate)));
            QVERIFY2(errGamma < 1e-5 * std::max(1.0, cv.gamma.cwiseAbs().maxCoeff()),
                     qPrintable(QString("gamma error %1").arg(errGamma)));
        }
    }

    void sparseAndDenseAgree() {
        std::mt19937 g(11);
        const BuildResult built = buildModel(everyJointModel(g));
        QVERIFY(built.ok());
        State s = initialState(*built.model);
        ConstraintValues cv;
        evaluateConstraints(*built.model, s, cv, kJacobian);
        const MatX dense = cv.denseJacobian();
        QCOMPARE(dense.rows(), Eigen::Index(built.model->equationCount()));
        // Only the columns of the two bodies a joint connects may be nonzero.
        for (const Joint& j : built.model->joints) {
            for (int r = j.firstEquation; r < j.firstEquation + j.equationCount; ++r) {
                for (int c = 0; c < dense.cols(); ++c) {
                    const int body = c / 6 + 1;
                    if (body != j.frame1.body.value() && body != j.frame2.body.value())
                        QCOMPARE(dense(r, c), 0.0);
                }
            }
        }
    }
};

QTEST_APPLESS_MAIN(ConstraintsTest)
#include "tst_constraints.moc"
