// The scene of a model at a state against placements worked out here by hand: the
// documented meaning of a rigid body's position numbers (centre of mass, then the
// quaternion w, x, y, z) turned into a rotation matrix term by term, and the example
// files' global points at the initial configuration.
#include "TestModels.h"

#include "looplab/scene/Scene.h"

#include <QtTest>
#include <cmath>

using namespace looplab;

namespace {

// Rotation matrix of the quaternion (w, x, y, z), normalised first, written out term by
// term rather than through Eigen.
Mat3 rotationByHand(double w, double x, double y, double z) {
    const double n = std::sqrt(w * w + x * x + y * y + z * z);
    w /= n;
    x /= n;
    y /= n;
    z /= n;
    Mat3 R;
    R << 1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y),  //
        2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x),  //
        2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y);
    return R;
}

struct Pose {
    Vec3 r;
    Mat3 R;
};

// A pose per moving body, none of them the identity or alike, with quaternions of
// different lengths (the scene must normalise them).
State handMadeState(const Model& m, std::vector<Pose>& poses) {
    State s = initialState(m);
    s.t = 0.75;
    poses.assign(static_cast<size_t>(m.bodyCount()), Pose{Vec3::Zero(), Mat3::Identity()});
    for (int b = 1; b < m.bodyCount(); ++b) {
        const double k = b;
        const double w = std::cos(0.3 * k), x = 0.2 * std::sin(0.7 * k), y = -0.4 + 0.1 * k, z = 0.5 * std::sin(k);
        const double scale = 0.5 + 0.25 * k;  // not a unit quaternion
        double* q = s.q.data() + m.body(BodyIndex(b)).slice.positionOffset;
        q[0] = 0.1 * k;
        q[1] = -0.05 * k * k;
        q[2] = 0.02 + 0.01 * k;
        q[3] = scale * w;
        q[4] = scale * x;
        q[5] = scale * y;
        q[6] = scale * z;
        poses[static_cast<size_t>(b)] = {Vec3(q[0], q[1], q[2]), rotationByHand(w, x, y, z)};
    }
    return s;
}

Vec3 byHand(const std::vector<Pose>& poses, BodyIndex b, const Vec3& local) {
    const Pose& p = poses[static_cast<size_t>(b.value())];
    return p.r + p.R * local;
}

void verifyClose(const Vec3& got, const Vec3& want, double tol, const char* what) {
    QVERIFY2((got - want).norm() < tol, qPrintable(QString("%1: (%2, %3, %4) instead of (%5, %6, %7)")
                                                       .arg(what)
                                                       .arg(got.x())
                                                       .arg(got.y())
                                                       .arg(got.z())
                                                       .arg(want.x())
                                                       .arg(want.y())
                                                       .arg(want.z())));
}

}  // namespace

class SceneTest : public QObject {
    Q_OBJECT
private slots:
    // Andrews' mechanism: seven bodies, a spring from the ground to a lever, and a body
    // torque that is not drawn.
    void listsBodiesJointsAndSpringsInModelOrder() {
        const LoadedModel lm = test::loadExample("andrews.json");
        QVERIFY(lm.ok());
        const Model& m = *lm.model;
        const Scene scene = buildScene(m, lm.initial);
        QCOMPARE(scene.t, lm.initial.t);
        QCOMPARE(int(scene.bodies.size()), 7);
        const char* names[] = {"crank", "rod", "lever", "link4", "lever5", "link6", "lever7"};
        for (int i = 0; i < 7; ++i) {
            QCOMPARE(scene.bodies[i].name, std::string(names[i]));
            QCOMPARE(scene.bodies[i].body, BodyIndex(i + 1));
            QCOMPARE(sceneBodyIndex(scene.bodies[i].body), i);
            QVERIFY(scene.bodies[i].shape.kind == m.body(BodyIndex(i + 1)).shape.kind);
            QCOMPARE(scene.bodies[i].shape.size, m.body(BodyIndex(i + 1)).shape.size);
        }
        QCOMPARE(sceneBodyIndex(kGround), -1);
        QCOMPARE(scene.joints.size(), m.joints.size());
        for (size_t j = 0; j < m.joints.size(); ++j) {
            QCOMPARE(scene.joints[j].name, m.joints[j].name);
            QVERIFY(scene.joints[j].kind == SceneJoint::Kind::Revolute);
        }
        QCOMPARE(int(scene.springs.size()), 1);
        QCOMPARE(scene.springs[0].name, std::string("spring_CD"));
    }

    // At the document's own initial positions, every joint sits at the global point the
    // file gives and points along its axis, and the spring runs between the file's points.
    void initialStatePutsJointsAndSpringsWhereTheFileSays_data() {
        QTest::addColumn<QString>("file");
        for (const char* f : {"andrews.json", "four-bar.json", "slider-crank.json", "rssr.json", "bricard.json"})
            QTest::newRow(f) << QString(f);
    }
    void initialStatePutsJointsAndSpringsWhereTheFileSays() {
        QFETCH(QString, file);
        const ModelDocument doc = test::exampleDocument(qPrintable(file));
        const LoadedModel lm = test::loadExample(qPrintable(file));
        QVERIFY(lm.ok());
        const Scene scene = buildScene(*lm.model, initialState(*lm.model));
        QCOMPARE(scene.joints.size(), doc.joints.size());
        for (size_t j = 0; j < doc.joints.size(); ++j) {
            const JointDoc& jd = doc.joints[j];
            if (jd.byMarkers)
                continue;
            verifyClose(scene.joints[j].point, jd.point, 1e-12, jd.name.c_str());
            if (jd.type != JointType::Spherical) {
                // The axis as a direction: the frame may point either way along it.
                const double alignment = std::abs(scene.joints[j].axis().dot(jd.axis.normalized()));
                QVERIFY2(std::abs(alignment - 1.0) < 1e-12, jd.name.c_str());
            }
            const SceneJoint::Kind want = jd.type == JointType::Revolute    ? SceneJoint::Kind::Revolute
                                          : jd.type == JointType::Prismatic ? SceneJoint::Kind::Prismatic
                                          : jd.type == JointType::Spherical ? SceneJoint::Kind::Spherical
                                                                            : SceneJoint::Kind::Other;
            QVERIFY(scene.joints[j].kind == want);
        }
        size_t spring = 0;
        for (const ForceDoc& fd : doc.forces) {
            if (fd.type != ForceType::SpringDamper)
                continue;
            QVERIFY(spring < scene.springs.size());
            verifyClose(scene.springs[spring].end1, fd.point1, 1e-12, "spring end 1");
            verifyClose(scene.springs[spring].end2, fd.point2, 1e-12, "spring end 2");
            ++spring;
        }
        QCOMPARE(spring, scene.springs.size());
    }

    // At a state written number by number, body poses, joint points and axes and spring
    // ends are the body-fixed points moved by the poses worked out by hand.
    void placementsFollowTheState() {
        const LoadedModel lm = test::loadExample("andrews.json");
        QVERIFY(lm.ok());
        const Model& m = *lm.model;
        std::vector<Pose> poses;
        const State s = handMadeState(m, poses);
        const Scene scene = buildScene(m, s);
        QCOMPARE(scene.t, 0.75);
        for (const SceneBody& body : scene.bodies) {
            const Pose& p = poses[static_cast<size_t>(body.body.value())];
            verifyClose(body.position, p.r, 1e-15, body.name.c_str());
            QVERIFY2((body.orientation.toRotationMatrix() - p.R).norm() < 1e-14, body.name.c_str());
            QVERIFY(std::abs(body.orientation.norm() - 1.0) < 1e-14);
        }
        for (size_t j = 0; j < m.joints.size(); ++j) {
            const Joint& joint = m.joints[j];
            // Every joint of this model has a moving second body, which carries the marker.
            QVERIFY(joint.frame2.body != kGround);
            const SceneJoint& marker = scene.joints[j];
            QCOMPARE(marker.body, joint.frame2.body);
            verifyClose(marker.point, byHand(poses, joint.frame2.body, joint.frame2.origin), 1e-14, joint.name.c_str());
            const Mat3& R = poses[static_cast<size_t>(joint.frame2.body.value())].R;
            verifyClose(marker.axis(), R * joint.frame2.axes.col(2), 1e-14, joint.name.c_str());
            QVERIFY((marker.orientation.toRotationMatrix() - R * joint.frame2.axes).norm() < 1e-14);
        }
        const ForceElement& spring = m.forces[0];
        QCOMPARE(spring.point1.body, kGround);
        // The ground end stays at the file's global point whatever the state.
        verifyClose(scene.springs[0].end1, Vec3(0.014, 0.072, 0.0), 1e-15, "ground end");
        verifyClose(scene.springs[0].end2, byHand(poses, spring.point2.body, spring.point2.origin), 1e-14,
                    "lever end");
    }

    // A joint whose second body is the ground rides on its first body.
    void markerOnFirstBodyWhenSecondIsGround() {
        ModelDocument doc = test::exampleDocument("pendulum.json");
        QCOMPARE(doc.joints.size(), size_t(1));
        std::swap(doc.joints[0].body1, doc.joints[0].body2);
        const LoadedModel lm = prepareModel(doc, test::examplePath("pendulum.json"));
        QVERIFY(lm.ok());
        const Model& m = *lm.model;
        QCOMPARE(m.joints[0].frame2.body, kGround);
        std::vector<Pose> poses;
        const State s = handMadeState(m, poses);
        const Scene scene = buildScene(m, s);
        QCOMPARE(scene.joints[0].body, m.joints[0].frame1.body);
        verifyClose(scene.joints[0].point, byHand(poses, m.joints[0].frame1.body, m.joints[0].frame1.origin), 1e-14,
                    "pivot");
    }
};

QTEST_APPLESS_MAIN(SceneTest)
#include "tst_scene.moc"
