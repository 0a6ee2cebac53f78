// URDF and MJCF import and export (ModelImport.h, ModelExport.h): each test file's
// mechanism against its twin written in the model format (tests/data/exchange, both made
// from one description by make_exchange_models.py), and a model taken through MJCF and back.
#include "looplab/exchange/ModelExport.h"
#include "looplab/exchange/ModelImport.h"
#include "looplab/kinematics/Mobility.h"
#include "looplab/files/ModelFile.h"
#include "looplab/simulation/Simulation.h"

#include <QDir>
#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <thread>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace looplab;

// The longest chain of nested MJCF bodies read (docs/import-export.md).
constexpr int kMaxNestedMjcfBodiesForTest = 96;

namespace {

std::string exchangeFile(const std::string& name) { return std::string(LOOPLAB_TEST_DATA_DIR) + "/exchange/" + name; }

LoadedModel imported(const std::string& name, ImportResult* result = nullptr) {
    ImportResult r = importModel(exchangeFile(name));
    if (!r.ok()) qWarning("%s", formatDiagnostics(r.diagnostics).c_str());
    LoadedModel lm = r.ok() ? prepareModel(*r.document, exchangeFile(name)) : LoadedModel{};
    if (r.ok() && !lm.ok()) qWarning("%s", formatDiagnostics(lm.diagnostics).c_str());
    if (result) *result = std::move(r);
    return lm;
}

bool reportSays(const ImportResult& r, const std::string& words) {
    return std::any_of(r.report.begin(), r.report.end(), [&](const std::string& s) { return s.find(words) != std::string::npos; });
}

// Largest difference of the bodies' positions (by name) over a run of both models.
double largestPathDifference(const LoadedModel& a, const LoadedModel& b, double tEnd, double rtol) {
    SimulationSettings s;
    s.tEnd = tEnd;
    s.outputStep = tEnd / 20;
    s.ode.rtol = rtol;
    s.ode.atol = rtol * 1e-2;
    std::vector<State> pathA, pathB;
    Simulator(a.model, s).run(a.initial, [&](const SimulationFrame& f) { pathA.push_back(f.state); });
    Simulator(b.model, s).run(b.initial, [&](const SimulationFrame& f) { pathB.push_back(f.state); });
    if (pathA.size() != pathB.size() || pathA.empty()) return INFINITY;
    double largest = 0.0;
    for (size_t k = 0; k < pathA.size(); ++k)
        for (int i = 1; i < a.model->bodyCount(); ++i) {
            const std::string& name = a.model->bodies[size_t(i)].name;
            const auto it = std::find_if(b.model->bodies.begin(), b.model->bodies.end(),
                                         [&](const Body& x) { return x.name == name; });
            if (it == b.model->bodies.end()) return INFINITY;
            const int j = int(it - b.model->bodies.begin());
            largest = std::max(largest, (bodyPosition(*a.model, pathA[k], BodyIndex(i)) -
                                         bodyPosition(*b.model, pathB[k], BodyIndex(j))).norm());
        }
    return largest;
}

// A URDF of `links` links in a chain along x, each hanging from the last by a revolute,
// 0.1 m apart; `extraJoints` are added as they are (to close a cycle, say).
std::string urdfChain(int links, const std::string& extraJoints = "") {
    std::ostringstream u;
    u << "<robot name=\"chain\">\n<link name=\"l0\"/>\n";
    for (int k = 1; k < links; ++k)
        u << "<link name=\"l" << k << "\"><inertial><mass value=\"1\"/>"
          << "<inertia ixx=\"0.01\" iyy=\"0.01\" izz=\"0.01\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/></inertial></link>\n"
          << "<joint name=\"j" << k << "\" type=\"continuous\"><parent link=\"l" << k - 1 << "\"/><child link=\"l" << k
          << "\"/><origin xyz=\"0.1 0 0\"/><axis xyz=\"0 0 1\"/></joint>\n";
    u << extraJoints << "</robot>\n";
    return u.str();
}

std::string urdfJoint(const std::string& name, const std::string& parent, const std::string& child) {
    return "<joint name=\"" + name + "\" type=\"continuous\"><parent link=\"" + parent + "\"/><child link=\"" + child +
           "\"/><axis xyz=\"0 0 1\"/></joint>\n";
}

// An MJCF chain of `depth` bodies, each inside the last, each weighed from a sphere.
std::string mjcfNested(int depth) {
    std::string open, close;
    for (int k = 0; k < depth; ++k) {
        open += "<body name=\"b" + std::to_string(k) + "\" pos=\"0.1 0 0\"><joint type=\"hinge\" axis=\"0 0 1\"/>"
                "<geom type=\"sphere\" size=\"0.01\"/>";
        close += "</body>";
    }
    return "<mujoco><worldbody>" + open + close + "</worldbody></mujoco>";
}

// Text that reads back the same through a UTF-8 decoder, which replaces what is not UTF-8.
bool isUtf8(const std::string& text) { return QString::fromStdString(text).toStdString() == text; }

bool diagnosticSays(const ImportResult& r, const std::vector<std::string>& words) {
    const std::string all = formatDiagnostics(r.diagnostics);
    return std::all_of(words.begin(), words.end(), [&](const std::string& w) { return all.find(w) != std::string::npos; });
}

}  // namespace

class TestExchange : public QObject {
    Q_OBJECT
private slots:
    // A planar four-bar as MuJoCo users write it: a chain of nested bodies, closed by a
    // `connect` (a ball joint) at D. Mobility and redundancy as its twin's.
    void fourBarClosedByConnectIsItsTwin() {
        ImportResult r;
        const LoadedModel mj = imported("four-bar-connect.xml", &r);
        QVERIFY(mj.ok());
        const LoadedModel twin = loadModel(exchangeFile("four-bar-connect.json"));
        QVERIFY(twin.ok());
        const MobilityReport a = analyzeMobility(*mj.model, mj.initial);
        const MobilityReport b = analyzeMobility(*twin.model, twin.initial);
        QCOMPARE(a.dof, 1);
        QCOMPARE(a.dof, b.dof);
        QCOMPARE(a.redundant.size(), b.redundant.size());
        // The import's bodies are the twin's: same mass, centre of mass and inertia.
        for (int i = 1; i < twin.model->bodyCount(); ++i) {
            const Body& t = twin.model->bodies[size_t(i)];
            const Body& m = mj.model->bodies[size_t(i)];
            QCOMPARE(m.name, t.name);
            QVERIFY(std::abs(m.rigid()->mass() - t.rigid()->mass()) < 1e-15);
            QVERIFY((bodyPosition(*mj.model, mj.initial, BodyIndex(i)) - bodyPosition(*twin.model, twin.initial, BodyIndex(i))).norm() < 1e-15);
            const Mat3 Rm = bodyOrientation(*mj.model, mj.initial, BodyIndex(i)).toRotationMatrix();
            const Mat3 Rt = bodyOrientation(*twin.model, twin.initial, BodyIndex(i)).toRotationMatrix();
            QVERIFY((Rm * m.rigid()->inertia() * Rm.transpose() - Rt * t.rigid()->inertia() * Rt.transpose()).norm() < 1e-15);
        }
        const double d = largestPathDifference(mj, twin, 0.5, 1e-11);
        qInfo("four-bar: largest difference of the centres of mass over 0.5 s: %.3g m", d);
        QVERIFY2(d < 1e-9, qPrintable(QString::number(d)));
        // What MuJoCo says that LoopLab does not model is reported.
        QVERIFY(reportSays(r, "joint ranges enforced as end stops that hold what strikes them (restitution 0; give 'restitution' for a bounce): A, B, C"));
        QVERIFY(r.document->joints[0].limits);
        QCOMPARE((*r.document->joints[0].limits)[1], 3.0);  // range="-3 3" in radians (compiler angle)
        QVERIFY(reportSays(r, "<actuator>"));
        QVERIFY(reportSays(r, "capsules drawn as cylinders"));
    }

    // Three loops through a free platform: the same mobility and motion as the twin.
    void deltaRobotWithThreeLoopsIsItsTwin() {
        const LoadedModel mj = imported("delta-three-loops.xml");
        QVERIFY(mj.ok());
        const LoadedModel twin = loadModel(exchangeFile("delta-three-loops.json"));
        QVERIFY(twin.ok());
        const MobilityReport a = analyzeMobility(*mj.model, mj.initial);
        const MobilityReport b = analyzeMobility(*twin.model, twin.initial);
        qInfo("delta: %d coordinates, %d equations, dof %d, %zu redundant", a.coordinates, a.equations, a.dof,
              a.redundant.size());
        QCOMPARE(a.coordinates, b.coordinates);
        QCOMPARE(a.equations, b.equations);
        QCOMPARE(a.dof, b.dof);
        QCOMPARE(a.redundant.size(), b.redundant.size());
        const double d = largestPathDifference(mj, twin, 0.2, 1e-11);
        qInfo("delta: largest difference of the centres of mass over 0.2 s: %.3g m", d);
        QVERIFY2(d < 1e-9, qPrintable(QString::number(d)));
    }

    // A URDF arm: root link the ground, a base bolted to it, three revolutes, STL meshes;
    // its limits and damping reported.
    void serialArmFromUrdfIsItsTwin() {
        ImportResult r;
        const LoadedModel urdf = imported("serial-arm.urdf", &r);
        QVERIFY(urdf.ok());
        const LoadedModel twin = loadModel(exchangeFile("serial-arm.json"));
        QVERIFY(twin.ok());
        QCOMPARE(urdf.model->movingBodyCount(), 4);
        const MobilityReport a = analyzeMobility(*urdf.model, urdf.initial);
        QCOMPARE(a.dof, 3);
        QCOMPARE(a.dof, analyzeMobility(*twin.model, twin.initial).dof);
        const double d = largestPathDifference(urdf, twin, 0.3, 1e-11);
        qInfo("serial arm: largest difference over 0.3 s: %.3g m", d);
        QVERIFY2(d < 1e-9, qPrintable(QString::number(d)));
        // The STL meshes are the links' shapes, placed as in the twin (the base's file is in
        // millimetres).
        for (int i = 1; i < twin.model->bodyCount(); ++i) {
            const VisualShape& a = urdf.model->bodies[size_t(i)].shape;
            const VisualShape& b = twin.model->bodies[size_t(i)].shape;
            QCOMPARE(a.kind, VisualShape::Kind::Mesh);
            QCOMPARE(QFileInfo(QString::fromStdString(a.file)).canonicalFilePath(),
                     QFileInfo(QString::fromStdString(b.file)).canonicalFilePath());
            QVERIFY((a.offset - b.offset).norm() < 1e-15 && (a.scale - b.scale).norm() < 1e-15);
        }
        QVERIFY(!reportSays(r, "mesh"));
        QVERIFY(reportSays(r, "joint limits enforced as end stops that hold what strikes them (restitution 0; give 'restitution' for a bounce): shoulder, elbow, wrist"));
        QVERIFY(reportSays(r, "joint effort and velocity limits not kept"));
        // And written back: the arm through URDF again keeps its limits.
        const ExportResult x = exportUrdf(*urdf.model, urdf.initial);
        QVERIFY(x.ok());
        const ImportResult again = importUrdf(x.text, exchangeFile("again.urdf"));
        QVERIFY2(again.ok(), formatDiagnostics(again.diagnostics).c_str());
        for (const JointDoc& j : again.document->joints)
            if (j.type == JointType::Revolute) {
                QVERIFY(j.limits);
                QCOMPARE((*j.limits)[0], -3.1);
                QCOMPARE((*j.limits)[1], 3.1);
            }
        QVERIFY(reportSays(r, "joint damping and friction not imported"));
    }

    // LoopLab → MJCF → LoopLab keeps the motion of the shipped examples that start at rest
    // (MJCF has no initial velocities) and have no drivers or forces: the four-bar and the
    // parallelogram, whose closing revolutes become connects, the pendulum, and the RSSR
    // linkage, closed by a spherical joint.
    void roundTripThroughMjcfKeepsTheMotion() {
        for (const char* example : {"four-bar.json", "parallelogram.json", "pendulum.json", "rssr.json"}) {
            const LoadedModel original = loadModel(std::string(LOOPLAB_EXAMPLES_DIR) + "/" + example);
            QVERIFY(original.ok());
            const ExportResult x = exportMjcf(*original.model, original.initial);
            QVERIFY2(x.ok(), x.error.c_str());
            const ImportResult back = importMjcf(x.text, "round-trip.xml");
            QVERIFY2(back.ok(), formatDiagnostics(back.diagnostics).c_str());
            const LoadedModel again = prepareModel(*back.document, "round-trip.xml");
            QVERIFY2(again.ok(), formatDiagnostics(again.diagnostics).c_str());
            QCOMPARE(analyzeMobility(*again.model, again.initial).dof, analyzeMobility(*original.model, original.initial).dof);
            const double d = largestPathDifference(original, again, 1.0, 1e-12);
            qInfo("%s through MJCF and back: largest difference over 1 s: %.3g m", example, d);
            QVERIFY2(d < 1e-10, qPrintable(QString::number(d)));
        }
    }

    // And through URDF, whose <loop_joint> keeps the closing revolute a revolute.
    void roundTripThroughUrdfKeepsTheMotion() {
        const LoadedModel original = loadModel(std::string(LOOPLAB_EXAMPLES_DIR) + "/four-bar.json");
        QVERIFY(original.ok());
        const ExportResult x = exportUrdf(*original.model, original.initial);
        QVERIFY2(x.ok(), x.error.c_str());
        ImportResult back = importUrdf(x.text, "round-trip.urdf");
        QVERIFY2(back.ok(), formatDiagnostics(back.diagnostics).c_str());
        // URDF has no gravity: the four-bar's is along −y.
        back.document->gravity = original.model->gravity;
        const LoadedModel again = prepareModel(*back.document, "round-trip.urdf");
        QVERIFY2(again.ok(), formatDiagnostics(again.diagnostics).c_str());
        const MobilityReport a = analyzeMobility(*again.model, again.initial);
        const MobilityReport b = analyzeMobility(*original.model, original.initial);
        QCOMPARE(a.dof, b.dof);
        QCOMPARE(a.redundant.size(), b.redundant.size());
        const double d = largestPathDifference(original, again, 1.0, 1e-12);
        qInfo("four-bar through URDF and back: largest difference over 1 s: %.3g m", d);
        QVERIFY2(d < 1e-10, qPrintable(QString::number(d)));
    }

    // A bad file says where: XML errors by line, MJCF errors by element.
    void errorsNameTheElement() {
        ImportResult r = importMjcf("<mujoco><worldbody><body name=\"a\"><joint type=\"hinge\"/></body></worldbody></mujoco>",
                                    "massless.xml");
        QVERIFY(!r.ok());
        QCOMPARE(r.diagnostics[0].location, std::string("mujoco/worldbody/body[a]"));
        QVERIFY(r.diagnostics[0].message.find("moves but has no mass") != std::string::npos);
        r = importMjcf("<mujoco>\n<worldbody>\n<body pos=\"1 2\"/></worldbody></mujoco>", "short.xml");
        QVERIFY(!r.ok());
        QCOMPARE(r.diagnostics[0].line, 3);
        QVERIFY(r.diagnostics[0].message.find("'pos' must be 3 numbers") != std::string::npos);
        r = importMjcf("<mujoco><worldbody>\n<body></worldbody></mujoco>", "broken.xml");
        QVERIFY(!r.ok());
        QVERIFY(r.diagnostics[0].message.find("not well-formed XML") != std::string::npos);
        QVERIFY(r.diagnostics[0].line > 0);
        r = importUrdf("<robot name=\"r\"><link name=\"a\"/><joint name=\"j\" type=\"revolute\"><parent link=\"a\"/>"
                       "<child link=\"b\"/></joint></robot>", "bad.urdf");
        QVERIFY(!r.ok());
        QVERIFY(r.diagnostics[0].message.find("the URDF reader refused the file") != std::string::npos);
        r = importModel(exchangeFile("none.sdf"));
        QVERIFY(!r.ok());
        // A name in Latin-1 (found by fuzz_model_import: the JSON writer threw on it).
        r = importMjcf("<mujoco><worldbody><body name=\"Gel\xe4nk\"><freejoint/>"
                       "<geom type=\"sphere\" size=\"0.1\"/></body></worldbody></mujoco>",
                       "latin1.xml");
        QVERIFY2(r.ok(), formatDiagnostics(r.diagnostics).c_str());
        QVERIFY(reportSays(r, "not UTF-8"));
        // The report names each such text where it is in the model, and every report line
        // and message read from a file is UTF-8 (the JSON writer threw on them).
        QVERIFY(reportSays(r, "/bodies/0/name 'Gel\xef\xbf\xbdnk'"));
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString urdf = dir.filePath("latin1.urdf");
        {
            QFile f(urdf);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(urdfChain(2, urdfJoint("Gel\xe4nk \xff", "l1", "broken")).c_str());
        }
        r = importModel(urdf.toStdString());
        QVERIFY(!r.ok());  // the joint names a link that is not there
        for (const Diagnostic& d : r.diagnostics) QVERIFY(isUtf8(d.message));
        {
            QFile f(urdf);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(urdfChain(2, "<link name=\"Arm\xe4\"><inertial><mass value=\"1\"/><inertia ixx=\"1\" iyy=\"1\" "
                                 "izz=\"1\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/></inertial></link>" +
                                     urdfJoint("Gel\xe4nk", "l1", "Arm\xe4")).c_str());
        }
        r = importModel(urdf.toStdString());
        QVERIFY2(r.ok(), formatDiagnostics(r.diagnostics).c_str());
        QVERIFY(reportSays(r, "/joints/1/name 'Gel\xef\xbf\xbdnk'"));
        QVERIFY(reportSays(r, "/bodies/1/name 'Arm\xef\xbf\xbd'"));
        for (const std::string& line : r.report) QVERIFY(isUtf8(line));
    }

    // A chain of links is walked without a stack frame per link: 8 000 links overflowed
    // the reader's stack. Every link is there, the last one 0.1 m further per link.
    void longUrdfChainIsRead() {
        const int links = 8000;
        QElapsedTimer timer;
        timer.start();
        const ImportResult r = importUrdf(urdfChain(links), "chain.urdf");
        QVERIFY2(r.ok(), formatDiagnostics(r.diagnostics).c_str());
        qInfo("%d links imported in %.2f s", links, double(timer.elapsed()) / 1000);
        QCOMPARE(int(r.document->bodies.size()), links - 1);
        QCOMPARE(int(r.document->joints.size()), links - 1);
        const BodyDoc& last = r.document->bodies.back();
        QCOMPARE(last.name, "l" + std::to_string(links - 1));
        QVERIFY(std::abs(last.position.x() - 0.1 * (links - 1)) < 1e-9);
        // Parents come before their children, in the file's order.
        QCOMPARE(r.document->bodies.front().name, std::string("l1"));
    }

    // urdfdom takes links that form a cycle (the reader then went round it until its stack
    // ran out) and a link hanging from two joints: both are refused, naming the file and
    // the links and joints in the user's words.
    void urdfCyclesAreRefused() {
        // l1 → l2 → l3 → l1, hanging from the root by j1.
        ImportResult r = importUrdf(urdfChain(4, urdfJoint("back", "l3", "l1")), "cycle.urdf");
        QVERIFY(!r.ok());
        QVERIFY2(diagnosticSays(r, {"cycle.urdf", "cycle", "'l1' → 'l2' → 'l3' → 'l1'", "'j2', 'j3', 'back'",
                                    "<loop_joint>"}),
                 formatDiagnostics(r.diagnostics).c_str());
        // A cycle hanging from nothing: l0 is the only link without a parent.
        r = importUrdf("<robot name=\"r\"><link name=\"l0\"/><link name=\"a\"/><link name=\"b\"/>" +
                           urdfJoint("ab", "a", "b") + urdfJoint("ba", "b", "a") + "</robot>",
                       "detached.urdf");
        QVERIFY(!r.ok());
        QVERIFY2(diagnosticSays(r, {"detached.urdf", "cycle", "'a' → 'b' → 'a'"}), formatDiagnostics(r.diagnostics).c_str());
        // Every link in the cycle, none outside it: urdfdom refused this one itself, but left
        // the cycle unfreed (found by fuzz_model_import).
        r = importUrdf("<robot name=\"r\"><link name=\"a\"/><link name=\"b\"/>" + urdfJoint("ab", "a", "b") +
                           urdfJoint("ba", "b", "a") + "</robot>",
                       "rootless.urdf");
        QVERIFY(!r.ok());
        QVERIFY2(diagnosticSays(r, {"rootless.urdf", "cycle", "'a' → 'b' → 'a'"}), formatDiagnostics(r.diagnostics).c_str());
        // A link joined to itself.
        r = importUrdf(urdfChain(2, urdfJoint("self", "l1", "l1")), "self.urdf");
        QVERIFY(!r.ok());
        QVERIFY2(diagnosticSays(r, {"self.urdf", "joint 'self' joins link 'l1' to itself"}),
                 formatDiagnostics(r.diagnostics).c_str());
        // Two parents, no cycle: l2 would have been imported twice. The place is the second
        // joint, with its line.
        r = importUrdf(urdfChain(3, urdfJoint("second", "l0", "l2")), "diamond.urdf");
        QVERIFY(!r.ok());
        QVERIFY2(diagnosticSays(r, {"diamond.urdf", "link 'l2' is the child of 2 joints ('j2' and 'second')"}),
                 formatDiagnostics(r.diagnostics).c_str());
        QCOMPARE(r.diagnostics[0].location, std::string("robot/joint[second]"));
        QCOMPARE(r.diagnostics[0].line, 7);  // after the robot, l0 and two lines per link
    }

    // A chain of MJCF bodies nested deeper than the XML reader reads is refused as that,
    // not as XML that is not well-formed; one body less is read.
    void deeplyNestedMjcfSaysWhy() {
        const ImportResult deepest = importMjcf(mjcfNested(kMaxNestedMjcfBodiesForTest), "deepest.xml");
        QVERIFY2(deepest.ok(), formatDiagnostics(deepest.diagnostics).c_str());
        QCOMPARE(int(deepest.document->bodies.size()), kMaxNestedMjcfBodiesForTest);
        const ImportResult r = importMjcf(mjcfNested(kMaxNestedMjcfBodiesForTest + 1), "deep.xml");
        QVERIFY(!r.ok());
        QVERIFY2(diagnosticSays(r, {"deep.xml", "elements nested 100 deep",
                                    "a chain of more than " + std::to_string(kMaxNestedMjcfBodiesForTest) + " bodies"}),
                 formatDiagnostics(r.diagnostics).c_str());
        QVERIFY(!diagnosticSays(r, {"not well-formed"}));
    }

    // URDF that urdfdom reads in its own way: a document type declaration (urdfdom then
    // found no <robot>), an axis whose length overflows (it was called zero length), and
    // visuals with sizes or scales that are not numbers (dropped without a word).
    void urdfEdgeCasesSayWhat() {
        const std::string chain = urdfChain(2);
        ImportResult r = importUrdf("<?xml version=\"1.0\"?>\n<!DOCTYPE robot [\n  <!ELEMENT robot ANY>\n]>\n" + chain,
                                    "doctype.urdf");
        QVERIFY(!r.ok());
        QVERIFY2(diagnosticSays(r, {"doctype.urdf:2", "document type declaration", "not supported", "remove it"}),
                 formatDiagnostics(r.diagnostics).c_str());
        QVERIFY(!diagnosticSays(r, {"Could not find the 'robot' element"}));
        // A plain one, which urdfdom reads, is read.
        r = importUrdf("<?xml version=\"1.0\"?>\n<!DOCTYPE robot SYSTEM \"urdf.dtd\">\n" + chain, "plain-doctype.urdf");
        QVERIFY2(r.ok(), formatDiagnostics(r.diagnostics).c_str());
        // (1e300, 1e300, 0) is a direction, the one of (1, 1, 0).
        std::string big = chain;
        big.replace(big.find("<axis xyz=\"0 0 1\"/>"), 19, "<axis xyz=\"1e300 1e300 0\"/>");
        r = importUrdf(big, "big-axis.urdf");
        QVERIFY2(r.ok(), formatDiagnostics(r.diagnostics).c_str());
        const Vec3 axis = r.document->joints[0].axis;
        QVERIFY2((axis - Vec3(1, 1, 0).normalized()).norm() < 4e-16, qPrintable(QString::number((axis - Vec3(1, 1, 0).normalized()).norm())));
        // The same through a <loop_joint>.
        r = importUrdf(urdfChain(3, "<loop_joint name=\"close\" type=\"revolute\"><parent link=\"l0\"/><child link=\"l2\"/>"
                                    "<origin xyz=\"0.2 0 0\"/><axis xyz=\"0 1e300 1e300\"/></loop_joint>\n"),
                       "big-loop-axis.urdf");
        QVERIFY2(r.ok(), formatDiagnostics(r.diagnostics).c_str());
        // Visuals whose numbers are not numbers: not drawn, and said, naming the links.
        const std::string inertial = "<inertial><mass value=\"1\"/><inertia ixx=\"0.01\" iyy=\"0.01\" izz=\"0.01\" ixy=\"0\" "
                                     "ixz=\"0\" iyz=\"0\"/></inertial>";
        auto link = [&](const std::string& name, const std::string& geometry) {
            return "<link name=\"" + name + "\">" + inertial + "<visual><geometry>" + geometry + "</geometry></visual></link>\n" +
                   urdfJoint(name + " joint", "l1", name);
        };
        r = importUrdf(urdfChain(2, link("box", "<box size=\"nan 0.1 0.1\"/>") + link("ball", "<sphere radius=\"nan\"/>") +
                                        link("rod", "<cylinder radius=\"0.1\" length=\"inf\"/>") +
                                        link("part", "<mesh filename=\"part.stl\" scale=\"1 nan 1\"/>") +
                                        link("good", "<box size=\"0.1 0.2 0.3\"/>")),
                       "nan-visuals.urdf");
        QVERIFY2(r.ok(), formatDiagnostics(r.diagnostics).c_str());
        std::string report;
        for (const std::string& line : r.report) report += line + "\n";
        for (const char* name : {"box", "ball", "rod", "part"})
            QVERIFY2(report.find(name) != std::string::npos && report.find("visuals not drawn") != std::string::npos,
                     report.c_str());
        QVERIFY2(report.find("good") == std::string::npos, report.c_str());
        qInfo("%s", report.c_str());
        const auto good = std::find_if(r.document->bodies.begin(), r.document->bodies.end(),
                                       [](const BodyDoc& b) { return b.name == "good"; });
        QVERIFY(good != r.document->bodies.end());
        QCOMPARE(good->shape.kind, VisualShape::Kind::Box);
        QCOMPARE(good->shape.size, Vec3(0.1, 0.2, 0.3));
    }

    // An import path that is not a file to read is refused with the reason, naming the
    // file: a folder named x.urdf, a named pipe no program writes to (a plain open waited
    // for a writer for ever), a link to a device that never ends (the read stopped only
    // when the memory ran out).
    void unreadableImportSourcesAreRefused() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string folder = dir.filePath("x.urdf").toStdString();
        QVERIFY(QDir().mkpath(QString::fromStdString(folder)));
        ImportResult r = importModel(folder);
        QVERIFY(!r.ok());
        QCOMPARE(r.diagnostics.size(), size_t(1));
        QCOMPARE(r.diagnostics[0].file, folder);
        QCOMPARE(r.diagnostics[0].message, std::string("is a directory, not a URDF file"));
        if (QFileInfo::exists("/dev/zero")) {
            const QString zero = dir.filePath("zero.xml");
            QVERIFY(QFile::link("/dev/zero", zero));
            r = importModel(zero.toStdString());
            QVERIFY(!r.ok());
            QCOMPARE(r.diagnostics[0].file, zero.toStdString());
            QVERIFY2(diagnosticSays(r, {"larger than 64 MB", "MJCF file"}), formatDiagnostics(r.diagnostics).c_str());
        }
        const QString fifo = dir.filePath("robot.urdf");
        if (::mkfifo(fifo.toLocal8Bit().constData(), 0600) != 0) QSKIP("cannot make a FIFO here");
        r = importModel(fifo.toStdString());
        QVERIFY(!r.ok());
        QCOMPARE(r.diagnostics[0].file, fifo.toStdString());
        QVERIFY2(diagnosticSays(r, {"is a pipe that nothing wrote to within 5 s"}), formatDiagnostics(r.diagnostics).c_str());
        // A pipe whose writer sends a URDF is read like a file.
        const std::string text = urdfChain(3);
        std::thread writer([&] {
            QFile out(fifo);
            if (out.open(QIODevice::WriteOnly)) out.write(text.data(), qint64(text.size()));
        });
        r = importModel(fifo.toStdString());
        const int release = ::open(fifo.toLocal8Bit().constData(), O_RDONLY | O_NONBLOCK);
        writer.join();
        if (release >= 0) ::close(release);
        QVERIFY2(r.ok(), formatDiagnostics(r.diagnostics).c_str());
        QCOMPARE(int(r.document->bodies.size()), 2);
    }

    // What a format cannot say is reported: initial velocities, drivers, a spatial loop
    // closed by a revolute.
    void exportReportsWhatItLeavesOut() {
        const LoadedModel moving = loadModel(std::string(LOOPLAB_EXAMPLES_DIR) + "/double-parallelogram.json");
        QVERIFY(moving.ok());
        const ExportResult x = exportMjcf(*moving.model, moving.initial);
        QVERIFY(x.ok());
        QVERIFY(std::any_of(x.report.begin(), x.report.end(),
                            [](const std::string& s) { return s.rfind("initial velocities not exported", 0) == 0; }));
        const LoadedModel driven = loadModel(std::string(LOOPLAB_EXAMPLES_DIR) + "/crank-rocker-coupler-curve.json");
        QVERIFY(driven.ok());
        const ExportResult y = exportUrdf(*driven.model, driven.initial);
        QVERIFY(std::any_of(y.report.begin(), y.report.end(),
                            [](const std::string& s) { return s.rfind("drivers not exported", 0) == 0; }));
        const LoadedModel beam = loadModel(std::string(LOOPLAB_EXAMPLES_DIR) + "/cantilever-beam.json");
        QVERIFY(beam.ok());
        QVERIFY(!exportMjcf(*beam.model, beam.initial).ok());
    }
};

QTEST_GUILESS_MAIN(TestExchange)
#include "tst_exchange.moc"
