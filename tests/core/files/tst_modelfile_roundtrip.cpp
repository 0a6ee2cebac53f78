// Model files saved and read again: lossless load/save of the shipped examples and of a
// document that sets every field of the format, the complete example of
// docs/model-format.md, the field-by-field comparer the round trips rely on, and atomic
// saving. Files that are wrong are tst_modelfile's.
#include "TestModels.h"

#include "looplab/integrate/MethodRegistry.h"
#include "looplab/model/ModelBuilder.h"
#include "looplab/files/ModelFile.h"

#include <QDir>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QtTest>

#include <array>
#include <optional>
#include <string>
#include <vector>

using namespace looplab;
using looplab::test::exampleFiles;
using looplab::test::examplesDir;
using looplab::test::readText;

namespace {

// ---------------------------------------------------------------------------------------
// Field-by-field comparison of two documents. Every difference is recorded with the path
// of the field, so that a failing round trip says exactly what was lost. Numbers are
// compared exactly: saving must not round.

class DocumentComparer {
public:
    QStringList differences;

    void compare(const ModelDocument& a, const ModelDocument& b) {
        same("name", a.name, b.name);
        same("description", a.description, b.description);
        same("gravity", a.gravity, b.gravity);
        list("bodies", a.bodies, b.bodies);
        list("markers", a.markers, b.markers);
        list("joints", a.joints, b.joints);
        list("drivers", a.drivers, b.drivers);
        list("forces", a.forces, b.forces);
        list("stops", a.stops, b.stops);
        list("beams", a.beams, b.beams);  // beams
        list("node_sets", a.nodeSets, b.nodeSets);
        same("expected/dof", a.expected.dof, b.expected.dof);
        same("expected/redundant", a.expected.redundant, b.expected.redundant);
        same("run/method", a.run.method, b.run.method);
        same("run/integrator", a.run.integrator, b.run.integrator);
        same("run/t_end", a.run.tEnd, b.run.tEnd);
        same("run/rtol", a.run.rtol, b.run.rtol);
        same("run/atol", a.run.atol, b.run.atol);
        same("run/step", a.run.step, b.run.step);
        same("run/output_step", a.run.outputStep, b.run.outputStep);
        same("run/pace", a.run.pace, b.run.pace);
        for (const ParameterInfo& p : methodParameters())
            same(QString::fromStdString("run/" + p.fileKey()), a.run.parameter(p.key), b.run.parameter(p.key));
        same("camera (present)", a.camera.has_value(), b.camera.has_value());
        if (a.camera && b.camera) {
            same("camera/position", a.camera->position, b.camera->position);
            same("camera/focal_point", a.camera->focalPoint, b.camera->focalPoint);
            same("camera/view_up", a.camera->viewUp, b.camera->viewUp);
            same("camera/parallel", a.camera->parallel, b.camera->parallel);
            same("camera/parallel_scale", a.camera->parallelScale, b.camera->parallelScale);
        }
        list("traces", a.traces, b.traces);
    }

private:
    void differ(const QString& where, const QString& a, const QString& b) {
        differences << QStringLiteral("%1: %2 != %3").arg(where, a, b);
    }

    static QString num(double x) { return QString::number(x, 'g', 17); }

    void same(const QString& where, double a, double b) {
        // Bitwise-equal values, including the sign of zero.
        if (!(a == b && std::signbit(a) == std::signbit(b))) differ(where, num(a), num(b));
    }
    void same(const QString& where, int a, int b) {
        if (a != b) differ(where, QString::number(a), QString::number(b));
    }
    void same(const QString& where, bool a, bool b) {
        if (a != b) differ(where, a ? "true" : "false", b ? "true" : "false");
    }
    void same(const QString& where, const std::string& a, const std::string& b) {
        if (a != b) differ(where, QString::fromStdString(a), QString::fromStdString(b));
    }
    void same(const QString& where, const Vec3& a, const Vec3& b) {
        for (int i = 0; i < 3; ++i) same(where + "/" + QString::number(i), a[i], b[i]);
    }
    void same(const QString& where, const Mat3& a, const Mat3& b) {
        for (int r = 0; r < 3; ++r)
            for (int c = 0; c < 3; ++c)
                same(QStringLiteral("%1/%2/%3").arg(where).arg(r).arg(c), a(r, c), b(r, c));
    }
    void same(const QString& where, const Quat& a, const Quat& b) {
        same(where + "/w", a.w(), b.w());
        same(where + "/x", a.x(), b.x());
        same(where + "/y", a.y(), b.y());
        same(where + "/z", a.z(), b.z());
    }
    void same(const QString& where, const std::array<double, 3>& a,
              const std::array<double, 3>& b) {
        for (size_t i = 0; i < 3; ++i) same(where + "/" + QString::number(i), a[i], b[i]);
    }
    void same(const QString& where, const std::vector<double>& a, const std::vector<double>& b) {
        if (a.size() != b.size()) {
            differ(where + " (size)", QString::number(a.size()), QString::number(b.size()));
            return;
        }
        for (size_t i = 0; i < a.size(); ++i) same(where + "/" + QString::number(i), a[i], b[i]);
    }
    template <typename T>
    void same(const QString& where, const std::optional<T>& a, const std::optional<T>& b) {
        if (a.has_value() != b.has_value()) {
            differ(where, a ? "set" : "unset", b ? "set" : "unset");
            return;
        }
        if (a) same(where, *a, *b);
    }
    void same(const QString& where, JointType a, JointType b) {
        if (a != b) differ(where, jointTypeName(a), jointTypeName(b));
    }
    void same(const QString& where, ForceType a, ForceType b) {
        if (a != b) differ(where, forceTypeName(a), forceTypeName(b));
    }
    void same(const QString& where, const TimeLaw& a, const TimeLaw& b) {
        if (a.kind != b.kind)
            differ(where + "/kind", timeLawKindName(a.kind), timeLawKindName(b.kind));
        same(where + "/initial", a.initial, b.initial);
        same(where + "/rate", a.rate, b.rate);
        same(where + "/coefficients", a.coefficients, b.coefficients);
        same(where + "/offset", a.offset, b.offset);
        same(where + "/amplitude", a.amplitude, b.amplitude);
        same(where + "/frequency", a.frequency, b.frequency);
        same(where + "/phase", a.phase, b.phase);
        same(where + "/t0", a.t0, b.t0);
        same(where + "/h0", a.h0, b.h0);
        same(where + "/t1", a.t1, b.t1);
        same(where + "/h1", a.h1, b.h1);
    }
    void same(const QString& where, const VisualShape& a, const VisualShape& b) {
        if (a.kind != b.kind)
            differ(where + "/kind", visualShapeKindName(a.kind), visualShapeKindName(b.kind));
        same(where + "/size", a.size, b.size);
        same(where + "/radius", a.radius, b.radius);
        same(where + "/length", a.length, b.length);
        same(where + "/offset", a.offset, b.offset);
        same(where + "/orientation", a.orientation, b.orientation);
        same(where + "/color", a.color, b.color);
    }
    void same(const QString& p, const BodyDoc& a, const BodyDoc& b) {
        same(p + "/name", a.name, b.name);
        same(p + "/density", a.density, b.density);
        same(p + "/mass", a.mass, b.mass);
        same(p + "/inertia", a.inertia, b.inertia);
        same(p + "/position", a.position, b.position);
        same(p + "/orientation", a.orientation, b.orientation);
        same(p + "/velocity", a.velocity, b.velocity);
        same(p + "/angular_velocity", a.angularVelocity, b.angularVelocity);
        same(p + "/shape", a.shape, b.shape);
    }
    void same(const QString& p, const MarkerDoc& a, const MarkerDoc& b) {
        same(p + "/name", a.name, b.name);
        same(p + "/body", a.body, b.body);
        same(p + "/position", a.position, b.position);
        same(p + "/orientation", a.orientation, b.orientation);
    }
    void same(const QString& p, const TraceDoc& a, const TraceDoc& b) {
        same(p + "/marker", a.marker, b.marker);
        same(p + "/body", a.body, b.body);
        same(p + "/point", a.point, b.point);
    }
    void same(const QString& p, const JointDoc& a, const JointDoc& b) {
        same(p + "/name", a.name, b.name);
        same(p + "/type", a.type, b.type);
        same(p + "/byMarkers", a.byMarkers, b.byMarkers);
        same(p + "/marker1", a.marker1, b.marker1);
        same(p + "/marker2", a.marker2, b.marker2);
        same(p + "/body1", a.body1, b.body1);
        same(p + "/body2", a.body2, b.body2);
        same(p + "/point", a.point, b.point);
        same(p + "/axis", a.axis, b.axis);
        same(p + "/axis2", a.axis2, b.axis2);
        same(p + "/point2", a.point2, b.point2);
        same(p + "/length", a.length, b.length);
        same(p + "/restitution", a.restitution, b.restitution);
    }
    void same(const QString& p, const StopDoc& a, const StopDoc& b) {
        same(p + "/name", a.name, b.name);
        same(p + "/body1", a.body1, b.body1);
        same(p + "/body2", a.body2, b.body2);
        same(p + "/point1", a.point1, b.point1);
        same(p + "/point2", a.point2, b.point2);
        same(p + "/min", a.min, b.min);
        same(p + "/max", a.max, b.max);
        same(p + "/restitution", a.restitution, b.restitution);
    }
    void same(const QString& p, const DriverDoc& a, const DriverDoc& b) {
        same(p + "/name", a.name, b.name);
        same(p + "/joint", a.joint, b.joint);
        same(p + "/law", a.law, b.law);
    }
    void same(const QString& p, const ForceDoc& a, const ForceDoc& b) {
        same(p + "/name", a.name, b.name);
        same(p + "/type", a.type, b.type);
        same(p + "/body1", a.body1, b.body1);
        same(p + "/body2", a.body2, b.body2);
        same(p + "/point1", a.point1, b.point1);
        same(p + "/point2", a.point2, b.point2);
        same(p + "/stiffness", a.stiffness, b.stiffness);
        same(p + "/damping", a.damping, b.damping);
        same(p + "/free_length", a.freeLength, b.freeLength);
        same(p + "/preload", a.preload, b.preload);
        same(p + "/joint", a.joint, b.joint);
        same(p + "/free_angle", a.freeAngle, b.freeAngle);
        same(p + "/body", a.body, b.body);
        same(p + "/local_point", a.localPoint, b.localPoint);
        same(p + "/vector", a.vector, b.vector);
        same(p + "/law", a.law, b.law);
        same(p + "/voltage", a.motor.voltage, b.motor.voltage);
        same(p + "/torque_constant", a.motor.torqueConstant, b.motor.torqueConstant);
        same(p + "/resistance", a.motor.resistance, b.motor.resistance);
        same(p + "/gear_ratio", a.motor.gearRatio, b.motor.gearRatio);
        same(p + "/efficiency", a.motor.efficiency, b.motor.efficiency);
        same(p + "/table (size)", int(a.motor.table.size()), int(b.motor.table.size()));
        for (size_t k = 0; k < std::min(a.motor.table.size(), b.motor.table.size()); ++k) {
            same(p + "/table/" + QString::number(k) + "/0", a.motor.table[k].first, b.motor.table[k].first);
            same(p + "/table/" + QString::number(k) + "/1", a.motor.table[k].second, b.motor.table[k].second);
        }
    }
    // --- beams ---
    void same(const QString& p, const BeamDoc& a, const BeamDoc& b) {
        same(p + "/name", a.name, b.name);
        same(p + "/from", a.from, b.from);
        same(p + "/to", a.to, b.to);
        same(p + "/elements", a.elements, b.elements);
        same(p + "/material/young_modulus", a.material.youngModulus, b.material.youngModulus);
        same(p + "/material/poisson_ratio", a.material.poissonRatio, b.material.poissonRatio);
        same(p + "/material/density", a.material.density, b.material.density);
        same(p + "/section/type", int(a.section.shape), int(b.section.shape));
        same(p + "/section/width", a.section.width, b.section.width);
        same(p + "/section/height", a.section.height, b.section.height);
        same(p + "/section/radius", a.section.radius, b.section.radius);
        same(p + "/section/area", a.section.area, b.section.area);
        same(p + "/section/inertia", a.section.inertia, b.section.inertia);
        same(p + "/preload", a.preload, b.preload);
    }
    // --- end beams ---
    void same(const QString& p, const NodeSetDoc& a, const NodeSetDoc& b) {
        same(p + "/name", a.name, b.name);
        if (a.nodes != b.nodes) differ(p + "/nodes", QString::number(a.nodes.size()), QString::number(b.nodes.size()));
    }
    template <typename T>
    void list(const QString& where, const std::vector<T>& a, const std::vector<T>& b) {
        if (a.size() != b.size()) {
            differ(where + " (count)", QString::number(a.size()), QString::number(b.size()));
            return;
        }
        for (size_t i = 0; i < a.size(); ++i) same(where + "/" + QString::number(i), a[i], b[i]);
    }
};

/// Empty if the documents are equal in every field, else one entry per difference.
QStringList documentDifferences(const ModelDocument& a, const ModelDocument& b) {
    DocumentComparer c;
    c.compare(a, b);
    return c.differences;
}

// A document that sets every field of the format to a value other than its default.
ModelDocument everyFieldDocument() {
    ModelDocument d;
    d.name = "every field";
    d.description = "Quotes \" and backslashes \\, a tab\t, a newline\n and \xC2\xB5m";
    d.gravity = Vec3(0.1, -9.80665, 1e-300);

    BodyDoc box;
    box.name = "box";
    box.mass = 1.25;
    box.inertia << 0.3, 0.01, -0.02, 0.01, 0.4, 0.03, -0.02, 0.03, 0.5;
    box.position = Vec3(0.1, -0.2, 1.0 / 3.0);
    box.orientation = Quat(0.9, 0.1, -0.2, 0.3);  // stored as written, not normalised
    box.velocity = Vec3(1.5, -2.5, 3.5);
    box.angularVelocity = Vec3(-0.25, 0.5, 2.0 / 7.0);
    box.shape.kind = VisualShape::Kind::Box;
    box.shape.size = Vec3(0.4, 0.05, 0.025);
    box.shape.offset = Vec3(0.01, 0.02, 0.03);
    box.shape.orientation = Quat(0.5, 0.5, 0.5, 0.5);
    box.shape.color = {0.1, 0.2, 0.3};
    d.bodies.push_back(box);

    BodyDoc cyl;
    cyl.name = "cylinder";
    cyl.mass = 3e-3;
    cyl.inertia = Vec3(2e-7, 2e-7, 3e-7).asDiagonal();
    cyl.position = Vec3(-1e5, 2e-5, 0.0);
    cyl.shape.kind = VisualShape::Kind::Cylinder;
    cyl.shape.radius = 0.015;
    cyl.shape.length = 0.2;
    cyl.shape.offset = Vec3(0, 0, -0.1);
    cyl.shape.orientation = Quat(0.0, 1.0, 0.0, 0.0);
    cyl.shape.color = {1.0, 0.0, 0.5};
    d.bodies.push_back(cyl);

    BodyDoc ball;
    ball.name = "ball";
    ball.mass = 7.0;
    ball.shape.kind = VisualShape::Kind::Sphere;
    ball.shape.radius = 0.05;
    d.bodies.push_back(ball);

    BodyDoc plain;  // defaults, no shape
    plain.name = "plain";
    d.bodies.push_back(plain);

    MarkerDoc m1;
    m1.name = "m_ground";
    m1.body = kGroundName;
    m1.position = Vec3(0.5, 0.25, -0.125);
    m1.orientation = Quat(0.0, 0.0, 0.0, 1.0);
    d.markers.push_back(m1);
    MarkerDoc m2;
    m2.name = "m_box";
    m2.body = "box";
    m2.position = Vec3(-0.2, 0, 0);
    d.markers.push_back(m2);

    auto joint = [&](const char* name, JointType type, const char* b1, const char* b2) {
        JointDoc j;
        j.name = name;
        j.type = type;
        j.body1 = b1;
        j.body2 = b2;
        j.point = Vec3(0.1 * double(d.joints.size()), -0.3, 0.7);
        j.axis = Vec3(0.0, 0.6, 0.8);
        d.joints.push_back(j);
        return &d.joints.back();
    };
    JointDoc byMarkers;
    byMarkers.name = "by_markers";
    byMarkers.type = JointType::Revolute;
    byMarkers.byMarkers = true;
    byMarkers.marker1 = "m_ground";
    byMarkers.marker2 = "m_box";
    d.joints.push_back(byMarkers);
    joint("revolute", JointType::Revolute, "ground", "box");
    joint("prismatic", JointType::Prismatic, "box", "cylinder")->length = 0.5;
    joint("spherical", JointType::Spherical, "cylinder", "ball");
    joint("cylindrical", JointType::Cylindrical, "ball", "plain");
    joint("universal", JointType::Universal, "ground", "plain")->axis2 = Vec3(1.0, 0.0, 0.0);
    joint("fixed", JointType::Fixed, "box", "plain");
    joint("planar", JointType::Planar, "ground", "ball");
    JointDoc* dist = joint("distance", JointType::Distance, "box", "ball");
    dist->point2 = Vec3(0.3, 0.2, 0.1);
    dist->length = 0.75;
    joint("point_on_line", JointType::PointOnLine, "ground", "cylinder");
    joint("point_on_plane", JointType::PointOnPlane, "cylinder", "plain");
    JointDoc rod = byMarkers;
    rod.name = "rod";
    rod.type = JointType::Distance;
    rod.length = 1.5;
    d.joints.push_back(rod);

    auto driver = [&](const char* name, const char* jointName, TimeLaw law) {
        DriverDoc dd;
        dd.name = name;
        dd.joint = jointName;
        dd.law = law;
        d.drivers.push_back(dd);
    };
    TimeLaw constant;
    constant.kind = TimeLaw::Kind::Constant;
    constant.initial = 0.25;
    driver("hold", "revolute", constant);
    TimeLaw ramp;
    ramp.kind = TimeLaw::Kind::ConstantVelocity;
    ramp.initial = -0.5;
    ramp.rate = 6.283185307179586;
    driver("motor", "by_markers", ramp);
    TimeLaw poly;
    poly.kind = TimeLaw::Kind::Polynomial;
    poly.coefficients = {0.1, -0.2, 0.3, 1e-12};
    driver("stroke", "prismatic", poly);
    TimeLaw harmonic;
    harmonic.kind = TimeLaw::Kind::Harmonic;
    harmonic.amplitude = 0.2;
    harmonic.frequency = 3.0;
    harmonic.phase = -1.0;
    harmonic.offset = 0.05;
    TimeLaw step;
    step.kind = TimeLaw::Kind::SmoothStep;
    step.t0 = 0.5;
    step.h0 = -1.0;
    step.t1 = 2.5;
    step.h1 = 1.0;
    driver("lift", "prismatic", step);

    ForceDoc spring;
    spring.name = "spring";
    spring.type = ForceType::SpringDamper;
    spring.body1 = "ground";
    spring.body2 = "ball";
    spring.point1 = Vec3(0, 1, 0);
    spring.point2 = Vec3(0.1, 0.2, 0.3);
    spring.stiffness = 1500.0;
    spring.damping = 2.5;
    spring.freeLength = 0.4;
    spring.preload = -12.0;
    d.forces.push_back(spring);
    ForceDoc spring2 = spring;
    spring2.name = "spring_free_length_from_geometry";
    spring2.freeLength.reset();
    spring2.preload = 0.0;
    d.forces.push_back(spring2);
    ForceDoc torsion;
    torsion.name = "torsion";
    torsion.type = ForceType::RotationalSpringDamper;
    torsion.joint = "revolute";
    torsion.stiffness = 0.75;
    torsion.damping = 0.01;
    torsion.freeAngle = -0.5;
    d.forces.push_back(torsion);
    ForceDoc push;
    push.name = "push";
    push.type = ForceType::BodyForce;
    push.body = "box";
    push.localPoint = Vec3(0.2, 0, 0);
    push.vector = Vec3(0, 0, -3.0);
    push.law = harmonic;
    d.forces.push_back(push);
    ForceDoc twist;
    twist.name = "twist";
    twist.type = ForceType::BodyTorque;
    twist.body = "cylinder";
    twist.vector = Vec3(0.0, 0.5, 0.0);
    d.forces.push_back(twist);
    ForceDoc dc;
    dc.name = "dc";
    dc.type = ForceType::DcMotor;
    dc.joint = "revolute";
    dc.motor.voltage = harmonic;
    dc.motor.torqueConstant = 0.031;
    dc.motor.resistance = 1.7;
    dc.motor.gearRatio = -12.5;
    dc.motor.efficiency = 0.83;
    d.forces.push_back(dc);
    ForceDoc curve;
    curve.name = "curve";
    curve.type = ForceType::TableMotor;
    curve.joint = "revolute";
    curve.motor.table = {{-10.0, 1.25}, {0.0, 1.0}, {157.1, 0.0}};
    curve.motor.gearRatio = 3.0;
    curve.motor.efficiency = 0.95;
    d.forces.push_back(curve);

    // Read and saved as written; only building checks the names.
    d.nodeSets.push_back({"ends", {"rod.root", "rod.tip"}});
    d.nodeSets.push_back({"corner", {"block.node0_0_0"}});

    d.expected.dof = 2;
    d.expected.redundant = 0;
    return d;
}

}  // namespace

class ModelFileRoundTripTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { QVERIFY2(exampleFiles().size() >= 5, qPrintable(examplesDir())); }

    // ---- 1. lossless load -> save -> load ------------------------------------------

    void exampleRoundTrip_data() {
        QTest::addColumn<QString>("path");
        for (const QString& f : exampleFiles())
            QTest::newRow(qPrintable(f)) << examplesDir() + "/" + f;
    }

    void exampleRoundTrip() {
        QFETCH(QString, path);
        const DocumentResult first = readModelDocument(path.toStdString());
        QVERIFY2(first.document, formatDiagnostics(first.diagnostics).c_str());
        QVERIFY(first.diagnostics.empty());

        const std::string text1 = serializeModelDocument(*first.document);
        const DocumentResult second = parseModelDocument(text1, "saved");
        QVERIFY2(second.document, formatDiagnostics(second.diagnostics).c_str());
        const QString diff =
            documentDifferences(*first.document, *second.document).join(QLatin1Char('\n'));
        QVERIFY2(diff.isEmpty(), qPrintable(diff));

        const std::string text2 = serializeModelDocument(*second.document);
        QCOMPARE(QString::fromStdString(text2), QString::fromStdString(text1));

        // The saved text is a model that loads to the same mechanism.
        const LoadedModel a = prepareModel(*first.document, path.toStdString());
        const LoadedModel b = prepareModel(*second.document, "saved");
        QVERIFY2(a.ok(), formatDiagnostics(a.diagnostics).c_str());
        QVERIFY2(b.ok(), formatDiagnostics(b.diagnostics).c_str());
        QCOMPARE(b.model->equationCount(), a.model->equationCount());
        QVERIFY(b.initial.q == a.initial.q);
    }

    void everyFieldRoundTrip() {
        const ModelDocument doc = everyFieldDocument();
        const std::string text1 = serializeModelDocument(doc);
        const DocumentResult parsed = parseModelDocument(text1, "every-field");
        QVERIFY2(parsed.document, formatDiagnostics(parsed.diagnostics).c_str());
        const QString diff = documentDifferences(doc, *parsed.document).join(QLatin1Char('\n'));
        QVERIFY2(diff.isEmpty(), qPrintable(diff));
        QCOMPARE(QString::fromStdString(serializeModelDocument(*parsed.document)),
                 QString::fromStdString(text1));
    }

    // The complete example at the end of docs/model-format.md is a valid model.
    void documentedExampleLoads() {
        const QString md = examplesDir() + "/../../docs/model-format.md";
        if (!QFileInfo::exists(md)) QSKIP("docs/model-format.md is not in this tree");
        const QString text = QString::fromStdString(readText(md));
        const QString open = QStringLiteral("```json\n");
        const qsizetype start = text.lastIndexOf(open);
        QVERIFY(start >= 0);
        const qsizetype end = text.indexOf(QStringLiteral("```"), start + open.size());
        QVERIFY(end > start);
        const std::string json =
            text.mid(start + open.size(), end - start - open.size()).toStdString();
        const DocumentResult doc = parseModelDocument(json, "model-format.md");
        QVERIFY2(doc.document, formatDiagnostics(doc.diagnostics).c_str());
        QVERIFY(!doc.document->forces.empty());
        const LoadedModel lm = prepareModel(*doc.document, "model-format.md");
        QVERIFY2(lm.ok(), formatDiagnostics(lm.diagnostics).c_str());
        QCOMPARE(lm.model->grueblerCount(), *doc.document->expected.dof);
    }

    // The comparison helper itself must see a change in any kind of field.
    void comparerDetectsChanges_data() {
        QTest::addColumn<int>("mutation");
        QTest::addColumn<QString>("field");
        QTest::newRow("description") << 0 << "description";
        QTest::newRow("inertia product") << 1 << "bodies/0/inertia/1/2";
        QTest::newRow("quaternion") << 2 << "bodies/0/orientation/x";
        QTest::newRow("shape colour") << 3 << "bodies/1/shape/color/2";
        QTest::newRow("joint by markers") << 4 << "joints/0/byMarkers";
        QTest::newRow("optional length") << 5 << "joints/2/length";
        QTest::newRow("law") << 6 << "drivers/3/law/t1";
        QTest::newRow("force law") << 7 << "forces/3/law";
        QTest::newRow("expected") << 8 << "expected/redundant";
        QTest::newRow("count") << 9 << "markers (count)";
        QTest::newRow("negative zero") << 10 << "gravity/2";
        QTest::newRow("last bit") << 11 << "forces/0/stiffness";
        QTest::newRow("node set") << 12 << "node_sets/1/nodes";
    }

    void comparerDetectsChanges() {
        QFETCH(int, mutation);
        QFETCH(QString, field);
        const ModelDocument a = everyFieldDocument();
        QVERIFY(documentDifferences(a, a).isEmpty());
        ModelDocument b = a;
        switch (mutation) {
        case 0: b.description += " "; break;
        case 1: b.bodies[0].inertia(1, 2) += 1e-3; break;
        case 2: b.bodies[0].orientation.x() = 0.0; break;
        case 3: b.bodies[1].shape.color[2] = 0.25; break;
        case 4: b.joints[0].byMarkers = false; break;
        case 5: b.joints[2].length.reset(); break;
        case 6: b.drivers[3].law.t1 = 3.0; break;
        case 7: b.forces[3].law.reset(); break;
        case 8: b.expected.redundant.reset(); break;
        case 9: b.markers.pop_back(); break;
        case 10: b.gravity.z() = -0.0; break;
        case 11: b.forces[0].stiffness = std::nextafter(a.forces[0].stiffness, 1e9); break;
        case 12: b.nodeSets[1].nodes.push_back("block.node1_0_0"); break;
        }
        ModelDocument reference = a;
        if (mutation == 10) reference.gravity.z() = 0.0;  // differ only in the sign of zero
        const QStringList diff = documentDifferences(reference, b);
        QCOMPARE(diff.size(), 1);
        QVERIFY2(diff.front().startsWith(field + ":") || diff.front().startsWith(field + " "),
                 qPrintable(diff.front()));
    }

    // ---- 2. atomic saving ---------------------------------------------------------

    void writeAndReadBack() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath("model.json");
        const ModelDocument doc = everyFieldDocument();
        std::string error;
        QVERIFY2(writeModelDocument(doc, path.toStdString(), &error), error.c_str());
        // Only the model is left behind: the temporary file was renamed onto it.
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden), QStringList{"model.json"});
        QCOMPARE(QString::fromStdString(readText(path)),
                 QString::fromStdString(serializeModelDocument(doc)));
        const DocumentResult back = readModelDocument(path.toStdString());
        QVERIFY2(back.document, formatDiagnostics(back.diagnostics).c_str());
        QString diff = documentDifferences(doc, *back.document).join(QLatin1Char('\n'));
        QVERIFY2(diff.isEmpty(), qPrintable(diff));

        // Saving over an existing model replaces it completely.
        const DocumentResult example =
            readModelDocument((examplesDir() + "/four-bar.json").toStdString());
        QVERIFY(example.document);
        QVERIFY2(writeModelDocument(*example.document, path.toStdString(), &error), error.c_str());
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden), QStringList{"model.json"});
        const DocumentResult again = readModelDocument(path.toStdString());
        QVERIFY(again.document);
        diff = documentDifferences(*example.document, *again.document).join(QLatin1Char('\n'));
        QVERIFY2(diff.isEmpty(), qPrintable(diff));
        QVERIFY(loadModel(path.toStdString()).ok());
    }

    void writeFailureLeavesNoTrace() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const ModelDocument doc = everyFieldDocument();

        // A directory that does not exist.
        std::string error;
        QVERIFY(!writeModelDocument(doc, dir.filePath("missing/model.json").toStdString(), &error));
        QVERIFY(!error.empty());
        QVERIFY(QDir(dir.path()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot).isEmpty());

        // The target is a directory: the rename fails, the temporary file is removed and
        // the directory is untouched.
        QVERIFY(QDir(dir.path()).mkdir("taken.json"));
        error.clear();
        QVERIFY(!writeModelDocument(doc, dir.filePath("taken.json").toStdString(), &error));
        QVERIFY(!error.empty());
        QCOMPARE(QDir(dir.path()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden),
                 QStringList{"taken.json"});
        QVERIFY(QFileInfo(dir.filePath("taken.json")).isDir());

        // A null error pointer is allowed.
        QVERIFY(
            !writeModelDocument(doc, dir.filePath("missing/model.json").toStdString(), nullptr));
    }

    // Joint limits are read, saved and read back as they were; reversed ones refused.
    void jointLimitsAreKeptAsData() {
        const std::string text = R"({"format": "looplab-model", "version": 1,
            "bodies": [{"name": "arm", "mass": 1, "inertia": [1, 1, 1]}],
            "joints": [{"name": "shoulder", "type": "revolute", "body1": "ground", "body2": "arm",
                        "point": [0, 0, 0], "axis": [0, 0, 1], "limits": [-1.5, 2.25]}]})";
        const DocumentResult doc = parseModelDocument(text, "limits.json");
        QVERIFY(doc.document);
        QVERIFY(doc.document->joints[0].limits);
        QCOMPARE((*doc.document->joints[0].limits)[0], -1.5);
        QCOMPARE((*doc.document->joints[0].limits)[1], 2.25);
        const DocumentResult again = parseModelDocument(serializeModelDocument(*doc.document), "saved.json");
        QVERIFY(again.document && again.document->joints[0].limits == doc.document->joints[0].limits);
        std::string reversed = text;
        reversed.replace(reversed.find("[-1.5, 2.25]"), 12, "[2.25, -1.5]");
        const DocumentResult bad = parseModelDocument(reversed, "limits.json");
        QVERIFY(!bad.document);
        QCOMPARE(bad.diagnostics[0].location, std::string("/joints/0/limits"));
        // The compiled joint carries them, for export and display without the document.
        const BuildResult built = buildModel(*doc.document, "limits.json");
        QVERIFY(built.ok());
        QVERIFY(built.model->joints[0].limits == doc.document->joints[0].limits);
    }

    // Markers are compiled in document order onto their bodies' frames: the plots' marker
    // points and the traces read them from the model.
    void markersAreCompiledInDocumentOrder() {
        const std::string text = R"({"format": "looplab-model", "version": 1,
            "bodies": [{"name": "arm", "mass": 1, "inertia": [1, 1, 1]}],
            "markers": [{"name": "tip", "body": "arm", "position": [0.5, 0.1, -0.2]},
                        {"name": "anchor", "body": "ground", "position": [1, 2, 3]}]})";
        const DocumentResult doc = parseModelDocument(text, "markers.json");
        QVERIFY(doc.document);
        const BuildResult built = buildModel(*doc.document, "markers.json");
        QVERIFY(built.ok());
        const Model& m = *built.model;
        QCOMPARE(m.markers.size(), size_t(2));
        QCOMPARE(m.markers[0].name, std::string("tip"));
        QCOMPARE(m.body(m.markers[0].frame.body).name, std::string("arm"));
        QCOMPARE(m.markers[0].frame.origin, Vec3(0.5, 0.1, -0.2));
        QCOMPARE(m.markers[1].name, std::string("anchor"));
        QVERIFY(m.markers[1].frame.body == kGround);
        QCOMPARE(m.markers[1].frame.origin, Vec3(1, 2, 3));
    }
};

QTEST_APPLESS_MAIN(ModelFileRoundTripTest)
#include "tst_modelfile_roundtrip.moc"
