// Posing by hand and explaining assembly: a dragged point against the four-bar's
// reachable set, a typed crank angle against the closed-form position solution, the
// too-long coupler's gaps and reach sentence, and the mechanism-language advice.
#include "CliRunner.h"
#include "TestModels.h"

#include "looplab/posing/AssemblyExplanation.h"
#include "looplab/kinematics/Constraints.h"
#include "looplab/linalg/ConstraintSpaces.h"
#include "looplab/posing/DragAssembly.h"
#include "looplab/posing/JointCoordinateAssembly.h"
#include "looplab/files/ModelFile.h"
#include "looplab/posing/PoseDocument.h"
#include "looplab/posing/PosingModel.h"
#include "looplab/scene/Scene.h"
#include "looplab/sketch/SketchEdits.h"
#include "looplab/sketch/SketchSnapping.h"
#include "looplab/simulation/Simulation.h"

#include <nlohmann/json.hpp>

#include <cstdio>

#include <QtTest>

using namespace looplab;
using looplab::test::CliResult;
using looplab::test::runCli;

Q_DECLARE_METATYPE(looplab::Vec3)

namespace {

double closure(const Model& m, const State& s) {
    ConstraintValues cv;
    evaluateConstraints(m, s, cv, kPhi);
    return cv.phi.cwiseAbs().maxCoeff();
}

// Four-bar of four-bar.json: ground A(0,0)–D(0.4,0), crank r = 0.1, coupler c = 0.4,
// rocker b = 0.3; the crank starts at 60°.
constexpr double kR = 0.1, kC = 0.4, kB = 0.3, kG = 0.4;
const Vec3 kD(0.4, 0.0, 0.0);

// Closed-form rocker angle for crank angle θ on the open branch of the example:
// C = D + b(cos φ, sin φ) with |C − B| = c, B = r(cos θ, sin θ).
double rockerAngle(double theta) {
    const Vec3 B(kR * std::cos(theta), kR * std::sin(theta), 0.0);
    const Vec3 e = B - kD;
    const double l = e.norm();
    const double beta = std::acos((kB * kB + l * l - kC * kC) / (2.0 * kB * l));
    return std::atan2(e.y(), e.x()) - beta;
}

double wrap(double a) { return std::remainder(a, 2.0 * M_PI); }

struct FourBar {
    std::shared_ptr<const Model> model;
    State state;
    BodyIndex crank;
    Vec3 crankTip;  // joint B on the crank, crank frame
};

FourBar fourBar() {
    FourBar f;
    LoadedModel lm = test::loadExample("four-bar.json");
    f.model = lm.model;
    f.state = lm.initial;
    f.crank = *f.model->findBody("crank");
    const Joint& B = f.model->joint(*f.model->findJoint("B"));
    f.crankTip = B.frame1.body == f.crank ? B.frame1.origin : B.frame2.origin;
    return f;
}

}  // namespace

class PosingTest : public QObject {
    Q_OBJECT
private slots:
    void dragReachesReachableTarget() {
        FourBar f = fourBar();
        const double theta = 100.0 * M_PI / 180.0;
        const Vec3 target(kR * std::cos(theta), kR * std::sin(theta), 0.0);
        DragOptions o;
        o.maxIterations = 200;
        const DragResult r = dragToTarget(*f.model, f.state, f.crank, f.crankTip, target, o);
        QCOMPARE(r.outcome, DragOutcome::Reached);
        QVERIFY2(r.distance < 1e-9 * f.model->lengthScale, qPrintable(QString::number(r.distance)));
        QVERIFY(closure(*f.model, f.state) < 1e-10);
        // The rocker is where the closed-form solution puts it.
        const double phi = rockerAngle(theta);
        const Joint& C = f.model->joint(*f.model->findJoint("C"));
        const Vec3 pc = pointPosition(*f.model, f.state, C.frame1.body, C.frame1.origin);
        QVERIFY((pc - (kD + kB * Vec3(std::cos(phi), std::sin(phi), 0.0))).norm() < 1e-8);
    }

    // Beyond the crank's reach the tip ends on its circle, nearest the target: the target's
    // projection on the plane of motion, scaled to the crank radius.
    void dragStopsAtReachLimit_data() {
        QTest::addColumn<Vec3>("target");
        QTest::newRow("outside") << Vec3(0.3, 0.2, 0.0);
        QTest::newRow("outside, off plane") << Vec3(-0.25, -0.1, 0.05);
        QTest::newRow("inside") << Vec3(0.02, -0.01, 0.0);
    }
    void dragStopsAtReachLimit() {
        QFETCH(Vec3, target);
        FourBar f = fourBar();
        DragOptions o;
        o.maxIterations = 400;
        const DragResult r = dragToTarget(*f.model, f.state, f.crank, f.crankTip, target, o);
        const Vec3 inPlane(target.x(), target.y(), 0.0);
        const Vec3 expected = kR * inPlane.normalized();
        QCOMPARE(r.outcome, DragOutcome::ReachLimit);
        QVERIFY2((r.point - expected).norm() < 1e-7,
                 qPrintable(QString("ended %1 m from the analytic point after %2 steps")
                                .arg((r.point - expected).norm()).arg(r.iterations)));
        QVERIFY(std::abs(r.distance - (target - expected).norm()) < 1e-7);
        QVERIFY(closure(*f.model, f.state) < 1e-10);
        QVERIFY(!r.note.empty());
    }

    void settingCrankAngleGivesClosedFormRocker_data() {
        QTest::addColumn<double>("crankDegrees");  // absolute crank angle θ
        QTest::newRow("90") << 90.0;
        QTest::newRow("150") << 150.0;
        QTest::newRow("250") << 250.0;
        QTest::newRow("-20") << -20.0;
    }
    void settingCrankAngleGivesClosedFormRocker() {
        QFETCH(double, crankDegrees);
        FourBar f = fourBar();
        const Model& m = *f.model;
        const JointIndex A = *m.findJoint("A"), D = *m.findJoint("D");
        const double theta0 = M_PI / 3.0;
        const double phi0 = rockerAngle(theta0);
        const double theta = crankDegrees * M_PI / 180.0;
        const JointCoordinateResult r = setJointCoordinate(m, f.state, A, wrap(theta - theta0));
        QVERIFY2(r.status.ok, r.status.message.c_str());
        QVERIFY(std::abs(wrap(r.reached - (theta - theta0))) < 1e-9);
        QVERIFY(r.closure < 1e-10);
        // Joint D measures the rocker's turn from its initial direction.
        const double phi = phi0 + jointAngle(m, f.state, D);
        QVERIFY2(std::abs(wrap(phi - rockerAngle(theta))) < 1e-9,
                 qPrintable(QString("rocker %1° against %2°").arg(phi * 180 / M_PI).arg(rockerAngle(theta) * 180 / M_PI)));
    }

    // The rocker of the crank-rocker swings between 90° (crank and coupler stretched out,
    // C = (0.4, 0.3)) and 131.8° (folded). Asked for 62° it stops within one 5° increment
    // of the 90° limit, closed, and says so.
    void settingRockerBeyondItsRangeStopsAtTheLimit() {
        FourBar f = fourBar();
        const Model& m = *f.model;
        const JointIndex D = *m.findJoint("D");
        const double phi0 = rockerAngle(M_PI / 3.0);
        const JointCoordinateResult r = setJointCoordinate(m, f.state, D, 62.0 * M_PI / 180.0 - phi0);
        QVERIFY(!r.status.ok);
        QVERIFY2(r.status.message.find("cannot go beyond") != std::string::npos, r.status.message.c_str());
        QVERIFY(r.closure < 1e-10);
        const double phi = (phi0 + r.reached) * 180.0 / M_PI;
        QVERIFY2(phi >= 90.0 - 1e-9 && phi <= 95.0 + 1e-9, qPrintable(QString::number(phi)));
    }

    // A prismatic coordinate cannot be set on a revolute-only model's spherical joint:
    // the refusal names the joint.
    void settingUnsupportedJointFails() {
        LoadedModel lm = test::loadExample("rssr.json");
        QVERIFY(lm.ok());
        for (int j = 0; j < static_cast<int>(lm.model->joints.size()); ++j) {
            if (lm.model->joints[static_cast<size_t>(j)].type != JointType::Spherical) continue;
            State s = lm.initial;
            const JointCoordinateResult r = setJointCoordinate(*lm.model, s, JointIndex(j), 0.3);
            QVERIFY(!r.status.ok);
            QCOMPARE(r.status.joints.front(), lm.model->joints[static_cast<size_t>(j)].name);
            QCOMPARE(s.q, lm.initial.q);
            return;
        }
        QFAIL("rssr.json has no spherical joint");
    }

    void tooLongCouplerGivesGapsAndReachSentence() {
        DocumentResult d = readModelDocument(std::string(LOOPLAB_TEST_DATA_DIR) + "/four-bar-long-coupler.json");
        QVERIFY(d.document);
        BuildResult b = buildModel(*d.document);
        QVERIFY(b.ok());
        const AssemblyExplanation e = explainAssembly(*b.model);
        QVERIFY(!e.closed);
        QVERIFY(!e.gaps.empty());
        // The four gaps cannot add up to less than the 0.15 m the coupler is too long by.
        double total = 0.0;
        for (const JointGap& g : e.gaps) total += g.distance;
        QVERIFY2(total >= 0.15 - 1e-9, qPrintable(QString::number(total)));
        // Each gap is the distance between the joint's two frame origins.
        for (const JointGap& g : e.gaps) QVERIFY(std::abs(g.distance - (g.point2 - g.point1).norm()) < 1e-12);
        qInfo("total gap at the best pose: %.6f m (bound 0.15 m)", total);
        QVERIFY(e.fourBar);
        QCOMPARE(e.fourBar->links.size(), size_t(4));
        QCOMPARE(e.fourBar->links[2].name, std::string("coupler"));
        QVERIFY(std::abs(e.fourBar->links[2].length - 0.95) < 1e-12);
        QVERIFY(e.fourBar->tooLong());
        QCOMPARE(e.fourBar->reachSentence(),
                 std::string("coupler 0.95 m is longer than the 0.80 m the other links can span: shorten coupler "
                             "below 0.80 m, or lengthen the other links by more than 0.15 m together"));
        QVERIFY(!e.fourBar->grashof());
        const std::string g = e.fourBar->grashofSentence();
        QVERIFY2(g.find("non-Grashof") == 0 && g.find("1.05 m") != std::string::npos &&
                     g.find("0.70 m") != std::string::npos,
                 g.c_str());
        const std::vector<std::string> s = e.sentences();
        QCOMPARE(s.front(), e.fourBar->reachSentence());
        QVERIFY(e.gaps.front().label().find(" m apart") != std::string::npos);
    }

    // A four-bar whose coupler is a distance joint (a massless rod) is a four-bar too: its
    // links are measured at the assembled pose as the scene draws them, it gets its
    // Grashof sentence, and a rod too long to close says so first with its fix instead of
    // blaming the joint where the loop happened to open.
    void rodCoupledFourBarIsRecognised() {
        ModelDocument doc = test::exampleDocument("four-bar-rod-coupler.json");
        const LoadedModel lm = prepareModel(doc);
        QVERIFY(lm.ok());
        const auto fb = findPlanarFourBar(*lm.model);
        QVERIFY(fb);
        QCOMPARE(fb->links.size(), size_t(4));
        QCOMPARE(fb->joints, (std::vector<std::string>{"A", "coupler", "D"}));
        const Scene scene = buildScene(*lm.model, lm.initial);
        QCOMPARE(scene.rods.size(), size_t(1));
        const Vec3 A = scene.joints[size_t(lm.model->findJoint("A")->value())].point;
        const Vec3 D = scene.joints[size_t(lm.model->findJoint("D")->value())].point;
        const Vec3 B = scene.rods[0].end1, C = scene.rods[0].end2;
        const double measured[4] = {(D - A).norm(), (B - A).norm(), (C - B).norm(), (C - D).norm()};
        const char* names[4] = {"ground", "crank", "coupler", "rocker"};
        for (int k = 0; k < 4; ++k) {
            qInfo("%s: %.6f m (drawn %.6f m)", fb->links[size_t(k)].name.c_str(), fb->links[size_t(k)].length,
                  measured[k]);
            QCOMPARE(fb->links[size_t(k)].name, std::string(names[k]));
            QVERIFY(std::abs(fb->links[size_t(k)].length - measured[k]) < 1e-9);
        }
        QVERIFY(fb->grashof() && !fb->tooLong());
        const std::string g = fb->grashofSentence();
        QVERIFY2(g.find("crank-rocker, crank turns fully") != std::string::npos, g.c_str());

        for (JointDoc& j : doc.joints)
            if (j.name == "coupler") j.length = 0.95;
        const BuildResult b = buildModel(doc);
        QVERIFY(b.ok());
        const AssemblyExplanation e = explainAssembly(*b.model);
        QVERIFY(!e.closed);
        QVERIFY(e.fourBar && e.fourBar->tooLong());
        const double others = measured[0] + measured[1] + measured[3];
        char expected[256];
        std::snprintf(expected, sizeof expected,
                      "coupler 0.95 m is longer than the %.2f m the other links can span: shorten coupler below %.2f m, "
                      "or lengthen the other links by more than %.2f m together",
                      others, others, 0.95 - others);
        QCOMPARE(e.sentences().front(), std::string(expected));
    }

    void exampleFourBarIsGrashofCrankRocker() {
        const auto fb = findPlanarFourBar(*fourBar().model);
        QVERIFY(fb);
        QVERIFY(fb->grashof() && !fb->tooLong());
        QCOMPARE(fb->reachSentence(), std::string());
        const std::string g = fb->grashofSentence();
        QVERIFY2(g.find("crank-rocker, crank turns fully") != std::string::npos, g.c_str());
        QVERIFY(g.find("0.50 m") != std::string::npos && g.find("0.70 m") != std::string::npos);
    }

    // Driving a link that cannot turn fully at a constant rate ends in a limit, where the
    // solver sees only a loop that no longer closes: the failure says the cause first,
    // with the Grashof numbers and what to do, and keeps the solver's words after it. The
    // non-Grashof example (s + l = 0.68 m > p + q = 0.65 m) driven at 6 rad/s stops near
    // its limit of 145.3° (0.42 s); the crank-rocker driven at its rocker names the crank
    // as the link to drive. The crank of the crank-rocker turns fully: no sentence.
    void drivenLinkThatCannotTurnSaysSoFirst() {
        ModelDocument doc = test::exampleDocument("non-grashof-four-bar.json");
        for (BodyDoc& b : doc.bodies) {
            b.velocity = Vec3::Zero();
            b.angularVelocity = Vec3::Zero();
        }
        DriverDoc drv;
        drv.name = "motor";
        drv.joint = "A";
        drv.law.kind = TimeLaw::Kind::ConstantVelocity;
        drv.law.rate = 6.0;
        doc.drivers = {drv};
        const LoadedModel lm = prepareModel(doc);
        QVERIFY(lm.ok());
        SimulationSettings st;
        st.tEnd = 1.0;
        st.outputStep = 0.01;
        const SimulationResult res = Simulator(lm.model, st).run(lm.initial, [](const SimulationFrame&) {});
        QVERIFY(!res.ok);
        qInfo("%s", res.message.c_str());
        QVERIFY2(res.message.rfind("The driven link crank cannot turn fully: non-Grashof four-bar", 0) == 0,
                 res.message.c_str());
        QVERIFY2(res.message.find("0.68 m") != std::string::npos && res.message.find("0.65 m") != std::string::npos,
                 res.message.c_str());
        QVERIFY2(res.message.find("it stops where coupler and rocker line up") != std::string::npos, res.message.c_str());
        QVERIFY2(res.message.find("(the solver: ") != std::string::npos, res.message.c_str());
        QVERIFY(res.tFinal > 0.3 && res.tFinal < 0.5);

        ModelDocument crankRocker = test::exampleDocument("four-bar.json");
        drv.joint = "A";
        crankRocker.drivers = {drv};
        QVERIFY(drivenLinkLimitSentence(*buildModel(crankRocker).model).empty());
        crankRocker.drivers.at(0).joint = "D";
        const std::string rocker = drivenLinkLimitSentence(*buildModel(crankRocker).model);
        QVERIFY2(rocker.rfind("The driven link rocker cannot turn fully: Grashof four-bar", 0) == 0, rocker.c_str());
        QVERIFY2(rocker.find("drive crank instead") != std::string::npos, rocker.c_str());
    }

    // The planar loop of four spatial revolutes repeats three orientation equations.
    void redundantFourBarAdvisesSphericalAndUniversal() {
        FourBar f = fourBar();
        const MobilityReport rep = analyzeMobility(*f.model, f.state);
        const auto a = redundancyAdvice(*f.model, rep);
        QVERIFY(a);
        QCOMPARE(a->rotations + a->translations, 3);
        std::vector<std::string> owners;
        for (const RedundantEquation& e : rep.redundant)
            if (std::find(owners.begin(), owners.end(), e.joint) == owners.end()) owners.push_back(e.joint);
        QCOMPARE(a->joints, owners);
        QVERIFY(a->sentence.find("spherical joint and another to a universal joint") != std::string::npos);
    }

    // A joint given twice (pasted, or added again from the other body) is named first with its
    // fix; the planar loop's own three redundant equations keep the usual advice.
    void duplicatedJointIsNamedWithItsFix() {
        ModelDocument doc = test::exampleDocument("four-bar.json");
        JointDoc again = doc.joints[0];  // A: ground–crank at the origin
        again.name = "A2";
        doc.joints.push_back(again);
        JointDoc reversed = doc.joints[3];  // D, from the rocker's side
        reversed.name = "D2";
        std::swap(reversed.body1, reversed.body2);
        doc.joints.push_back(reversed);
        const BuildResult b = buildModel(doc);
        QVERIFY(b.ok());
        const std::vector<DuplicatedJoint> d = duplicatedJoints(*b.model);
        QCOMPARE(d.size(), size_t(2));
        QCOMPARE(d[0].joint, std::string("A2"));
        QCOMPARE(d[0].original, std::string("A"));
        QCOMPARE(d[0].equations, 5);
        QCOMPARE(d[1].joint, std::string("D2"));
        QCOMPARE(d[1].original, std::string("D"));
        const AssemblyExplanation e = explainAssembly(*b.model);
        QVERIFY(e.closed && e.redundancy);
        const std::string& s = e.redundancy->sentence;
        qInfo("%s", s.c_str());
        QVERIFY2(s.rfind("joint A2 repeats joint A (the same revolute between ground and crank at the same place): "
                         "delete one of them. joint D2 repeats joint D (the same revolute between ground and rocker "
                         "at the same place): delete one of them. 13 redundant equations",
                         0) == 0,
                 s.c_str());
        QVERIFY2(s.find("The usual fix for the other 3: change one revolute of the loop to a spherical joint and "
                        "another to a universal joint") != std::string::npos,
                 s.c_str());
        // A second bearing further along the same axis is redundant too, but not a repeat.
        doc.joints.pop_back();
        doc.joints.back().point = Vec3(0.0, 0.0, 0.05);
        QVERIFY(duplicatedJoints(*buildModel(doc).model).empty());
        // The repeat alone, on a loop without its own redundancy, is the whole advice.
        ModelDocument pendulum = test::exampleDocument("pendulum.json");
        JointDoc pin = pendulum.joints.at(0);
        pin.name = pin.name + " again";
        pendulum.joints.push_back(pin);
        const BuildResult p = buildModel(pendulum);
        QVERIFY(p.ok());
        const AssemblyExplanation pe = explainAssembly(*p.model);
        QVERIFY(pe.closed && pe.redundancy);
        QVERIFY2(pe.redundancy->sentence.find("delete one of them") != std::string::npos &&
                     pe.redundancy->sentence.find("usual fix") == std::string::npos,
                 pe.redundancy->sentence.c_str());
    }

    // Driven at the rocker, the four-bar locks where crank and coupler line up: rocker
    // upright, C = (0.4, 0.3), B on the line from A to C.
    void deadCentreNamesTheLinksThatLineUp() {
        FourBar f = fourBar();
        const Model& m = *f.model;
        const double theta = std::atan2(0.3, 0.4);
        QVERIFY(setJointCoordinate(m, f.state, *m.findJoint("A"), theta - M_PI / 3.0).status.ok);
        ModelDocument doc = m.document;
        DriverDoc drv;
        drv.name = "rocker drive";
        drv.joint = "D";
        drv.law.initial = jointAngle(m, f.state, *m.findJoint("D"));
        doc.drivers = {drv};
        const BuildResult driven = buildModel(doc);
        QVERIFY(driven.ok());
        QVERIFY(closure(*driven.model, f.state) < 1e-10);
        const auto l = singularLineUp(*driven.model, f.state);
        if (!l) {
            ConstraintValues cv;
            evaluateConstraints(*driven.model, f.state, cv, kJacobian);
            ConstraintSpaces sp;
            sp.factorize(cv.jacobian, equationScales(*driven.model), coordinateScales(*driven.model));
            qInfo("sigma %g rank %d", sp.smallestSingularValue(), sp.rank());
        }
        QVERIFY(l);
        QCOMPARE(l->joint, std::string("B"));
        QVERIFY((l->link1 == "crank" && l->link2 == "coupler") || (l->link1 == "coupler" && l->link2 == "crank"));
        QVERIFY2(std::abs(std::abs(l->direction.dot(Vec3(0.8, 0.6, 0.0))) - 1.0) < 1e-9,
                 qPrintable(QString("%1 %2").arg(l->direction.x()).arg(l->direction.y())));
        // Away from the dead centre the same model is regular.
        State away = f.state;
        QVERIFY(setJointCoordinate(m, away, *m.findJoint("A"), 0.0).status.ok);
        ModelDocument doc2 = doc;
        doc2.drivers[0].law.initial = jointAngle(m, away, *m.findJoint("D"));
        QVERIFY(!singularLineUp(*buildModel(doc2).model, away));
    }

    // A run through the parallelogram's flat configuration (t = 0.2153 s) says which links
    // line up there: all four lie on the x axis, so the direction is ±x.
    void singularEventNamesLinksThatLineUp() {
        LoadedModel lm = test::loadExample("parallelogram.json");
        QVERIFY(lm.ok());
        SimulationSettings st;
        st.method = "projection";
        st.integrator = "dopri5";
        st.tEnd = 0.3;
        st.outputStep = 0.01;
        Simulator sim(lm.model, st);
        const SimulationResult res = sim.run(lm.initial, [](const SimulationFrame&) {});
        QVERIFY2(res.ok, res.message.c_str());
        const auto e = std::find_if(res.events.begin(), res.events.end(),
                                    [](const SimulationEvent& x) { return x.kind == RunEventKind::SingularConfiguration; });
        QVERIFY(e != res.events.end());
        QVERIFY2(e->detail.find("line up through joint") != std::string::npos, e->detail.c_str());
        const auto at = e->detail.find("(direction ");
        QVERIFY(at != std::string::npos);
        double x = 0, y = 0, z = 0;
        QCOMPARE(std::sscanf(e->detail.c_str() + at, "(direction %lf, %lf, %lf)", &x, &y, &z), 3);
        // Sampled within a step of the flat configuration: along x to well within a degree.
        QVERIFY2(std::abs(x) > std::cos(M_PI / 180.0) && std::hypot(y, z) < 0.02, e->detail.c_str());
    }

    void jointAwayFromItsLinksIsFlagged() {
        ModelDocument doc = test::exampleDocument("four-bar.json");
        QVERIFY(detachedJoints(*buildModel(doc).model).empty());
        doc.joints[1].point = Vec3(0.05, 0.3, 0.0);  // B, off both crank and coupler
        const BuildResult b = buildModel(doc);
        const std::vector<DetachedJoint> d = detachedJoints(*b.model);
        QCOMPARE(d.size(), size_t(1));
        QCOMPARE(d[0].name, std::string("B"));
        // Crank box: centre (0.025, 0.0433), x at 60°, half sizes 0.05 × 0.01 × 0.01.
        const double px = 0.05 - 0.025, py = 0.3 - 0.04330127018922193;
        const double lx = px * 0.5 + py * std::sqrt(3.0) / 2.0, ly = -px * std::sqrt(3.0) / 2.0 + py * 0.5;
        const double crankDistance = std::hypot(lx - 0.05, ly - 0.01);
        const bool crankIsBody1 = b.model->joints[1].frame1.body == *b.model->findBody("crank");
        QVERIFY(std::abs((crankIsBody1 ? d[0].distance1 : d[0].distance2) - crankDistance) < 1e-12);
        QVERIFY(d[0].sentence.find("joint B lies") == 0);
    }

    // The pose written as the initial configuration loads back as that pose, every joint
    // at coordinate zero, and undoing means keeping the old document: it is untouched.
    void poseWrittenIntoDocumentLoadsBack() {
        FourBar f = fourBar();
        const Model& m = *f.model;
        QVERIFY(setJointCoordinate(m, f.state, *m.findJoint("A"), 1.0).status.ok);
        f.state.v.setConstant(0.5);
        const PoseDocumentResult r = documentWithPose(m, f.state, PoseVelocities::Zero);
        QVERIFY(r.status.ok);
        const LoadedModel back = prepareModel(r.document);
        QVERIFY(back.ok());
        QVERIFY((back.initial.q - f.state.q).cwiseAbs().maxCoeff() < 1e-12);
        QVERIFY(back.initial.v.cwiseAbs().maxCoeff() == 0.0);
        QVERIFY(std::abs(jointAngle(*back.model, back.initial, *back.model->findJoint("A"))) < 1e-12);
        const auto fb = findPlanarFourBar(*back.model);
        QVERIFY(fb && std::abs(fb->links[2].length - kC) < 1e-12 && std::abs(fb->links[0].length - kG) < 1e-12);
    }

    // `check` explains the failure: the diagnostic first, then the reach sentence and the
    // gaps; --json carries them with their numbers.
    void cliCheckExplainsTooLongCoupler() {
        const QString path = QString(LOOPLAB_TEST_DATA_DIR) + "/four-bar-long-coupler.json";
        const CliResult text = runCli({"check", path});
        QCOMPARE(text.exitCode, 2);
        const QStringList lines = QString::fromUtf8(text.err).split('\n');
        QVERIFY(lines.size() > 2 && lines[0].contains("/joints"));
        QCOMPARE(lines[1].trimmed(), QString("coupler 0.95 m is longer than the 0.80 m the other links can span: "
                                             "shorten coupler below 0.80 m, or lengthen the other links by more "
                                             "than 0.15 m together"));
        const CliResult json = runCli({"check", path, "--json"});
        QCOMPARE(json.exitCode, 2);
        const nlohmann::json j = nlohmann::json::parse(json.out.toStdString());
        QCOMPARE(j["ok"].get<bool>(), false);
        const nlohmann::json& e = j["explanation"];
        QCOMPARE(e["closed"].get<bool>(), false);
        QCOMPARE(e["four_bar"]["links"][2]["length_m"].get<double>(), 0.95);
        QCOMPARE(e["gaps"].size(), size_t(4));
        double total = 0.0;
        for (const auto& g : e["gaps"]) total += g["distance_m"].get<double>();
        QVERIFY(total >= 0.15 - 1e-9);
        // A model that closes reports its findings too.
        const CliResult ok = runCli({"check", QString::fromStdString(test::examplePath("four-bar.json")), "--json"});
        QCOMPARE(ok.exitCode, 0);
        const nlohmann::json k = nlohmann::json::parse(ok.out.toStdString());
        QCOMPARE(k["explanation"]["closed"].get<bool>(), true);
        QCOMPARE(k["explanation"]["four_bar"]["grashof"].get<bool>(), true);
        QVERIFY(k["explanation"].contains("redundancy_advice"));
    }

    // Posing a driven joint moves where the drive starts: the pose loads back as it was
    // posed (the driver does not pull the mechanism back to its old start) and the law keeps
    // its rate. For a joint given by points the angle counts from the new pose, so the law's
    // numbers stay; for a joint given by markers (as sketched) the angle is measured between
    // the markers, so the law is shifted by what the joint turned.
    void posingADrivenJointMovesTheDriversStart() {
        for (const bool sketched : {false, true}) {
            ModelDocument doc;
            std::string driven;
            if (sketched) {
                const WorkPlane xy;
                QVERIFY(addGroundPivot(doc, xy, Vec3(0, 0, 0)).ok);
                QVERIFY(addGroundPivot(doc, xy, Vec3(0.6, 0, 0)).ok);
                const Vec3 chain[4] = {Vec3(0, 0, 0), Vec3(0.1, 0.2, 0), Vec3(0.5, 0.4, 0), Vec3(0.6, 0, 0)};
                for (int k = 1; k < 4; ++k) {
                    const std::vector<SketchPivot> pivots = sketchPivots(doc);
                    auto end = [&](const Vec3& p) {
                        const SnapResult snap = snapSketchPoint(pivots, xy, p, 0.02, 0.05);
                        return SketchEnd{snap.point, snap.pivot >= 0 ? pivots[size_t(snap.pivot)].marker : ""};
                    };
                    const SketchEditResult r = addLink(doc, xy, end(chain[k - 1]), end(chain[k]), BarStyle{});
                    QVERIFY2(r.ok, r.message.c_str());
                    if (k == 1) driven = r.joints.front();
                }
            } else {
                doc = test::exampleDocument("four-bar.json");
                driven = "A";
            }
            QVERIFY(doc.joints.front().byMarkers == sketched);
            DriverDoc drv;
            drv.name = "motor";
            drv.joint = driven;
            drv.law.kind = TimeLaw::Kind::ConstantVelocity;
            drv.law.rate = 2.0;
            // The joint's angle where it was drawn: 0 for points, the sketch's for markers.
            const BuildResult free = buildModel(doc);
            QVERIFY(free.ok());
            const double drawn = jointAngle(*free.model, initialState(*free.model), *free.model->findJoint(driven));
            QVERIFY(sketched ? std::abs(drawn) > 0.5 : std::abs(drawn) < 1e-12);
            drv.law.initial = drawn;
            doc.drivers = {drv};
            const LoadedModel lm = prepareModel(doc);
            QVERIFY2(lm.ok(), formatDiagnostics(lm.diagnostics).c_str());
            // Posed 0.4 rad further, with the drivers released as the workbench does.
            const BuildResult posing = buildPosingModel(*lm.model);
            QVERIFY(posing.ok());
            State pose = lm.initial;
            QVERIFY(setJointCoordinate(*posing.model, pose, *posing.model->findJoint(driven), drawn + 0.4).status.ok);
            const PoseDocumentResult r = documentWithPose(*lm.model, pose, PoseVelocities::Zero);
            QVERIFY2(r.status.ok, r.status.message.c_str());
            const LoadedModel back = prepareModel(r.document);
            QVERIFY2(back.ok(), formatDiagnostics(back.diagnostics).c_str());
            const double error = (back.initial.q - pose.q).cwiseAbs().maxCoeff();
            qInfo("%s: driven joint drawn at %.6f rad, posed to %.6f; loads back within %.1e; driver starts at %.6f",
                  sketched ? "sketched (markers)" : "four-bar (points)", drawn, drawn + 0.4, error,
                  r.document.drivers[0].law.initial);
            QVERIFY2(error < 1e-9, qPrintable(QString::number(error)));
            const TimeLaw& law = r.document.drivers[0].law;
            QCOMPARE(law.rate, 2.0);
            if (sketched) {
                QVERIFY(std::abs(law.initial - (drawn + 0.4)) < 1e-9);
                QCOMPARE(r.shiftedDrivers.size(), size_t(1));
                QVERIFY(std::abs(r.shiftedDrivers[0].second - 0.4) < 1e-9);
            } else {
                QCOMPARE(law.initial, 0.0);
                QVERIFY(r.shiftedDrivers.empty());
            }
        }
    }

    void driversAreReleasedForPosing() {
        ModelDocument doc = test::exampleDocument("four-bar.json");
        DriverDoc drv;
        drv.name = "motor";
        drv.joint = "A";
        doc.drivers = {drv};
        const BuildResult b = buildModel(doc);
        const BuildResult p = buildPosingModel(*b.model);
        QVERIFY(p.ok());
        QVERIFY(p.model->drivers.empty());
        QCOMPARE(p.model->positionSize(), b.model->positionSize());
    }
};

QTEST_APPLESS_MAIN(PosingTest)
#include "tst_posing.moc"
