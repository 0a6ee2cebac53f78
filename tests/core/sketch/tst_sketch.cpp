// Sketching planar linkages in the core: snapping to pivots and the grid, the document
// edits of pivots, links and sliders (a four-bar and a slider-crank come out with one
// degree of freedom), and the mass properties of every shape filled with a density,
// checked against quadrature over the solid, an independent computation.

#include "looplab/kinematics/Assembly.h"
#include "looplab/kinematics/Mobility.h"
#include "looplab/model/ModelBuilder.h"
#include "looplab/files/ModelFile.h"
#include "looplab/model/Cam.h"
#include "looplab/model/ShapeMassProperties.h"
#include "looplab/sketch/SketchEdits.h"
#include "looplab/sketch/SketchSnapping.h"

#include <QtTest>

#include <cmath>

using namespace looplab;

namespace {

// Gauss–Legendre nodes and weights on [−1, 1] (n = 8), from the tables.
const double kGaussX[8] = {-0.9602898564975363, -0.7966664774136267, -0.5255324099163290, -0.1834346424956498,
                           0.1834346424956498,  0.5255324099163290,  0.7966664774136267,  0.9602898564975363};
const double kGaussW[8] = {0.1012285362903763, 0.2223810344533745, 0.3137066458778873, 0.3626837833783620,
                           0.3626837833783620, 0.3137066458778873, 0.2223810344533745, 0.1012285362903763};

// ∫ ρ (|r|² 1 − r rᵀ) dV over the shape in its own axes by a product rule in the shape's
// natural coordinates (Cartesian, cylindrical, spherical with u = cos φ): Gauss–Legendre along lengths
// and radii, the periodic trapezoid rule (exact for these trigonometric polynomials) in
// angles. Returns mass and inertia about the shape's centre.
void integrateShape(const VisualShape& s, double rho, double& mass, Mat3& I) {
    mass = 0.0;
    I.setZero();
    auto add = [&](const Vec3& r, double dV) {
        mass += rho * dV;
        I += rho * dV * (r.squaredNorm() * Mat3::Identity() - r * r.transpose());
    };
    const int nAngle = 16;
    switch (s.kind) {
    case VisualShape::Kind::Box:
        for (int i = 0; i < 8; ++i)
            for (int j = 0; j < 8; ++j)
                for (int k = 0; k < 8; ++k) {
                    const Vec3 h = 0.5 * s.size;
                    add(Vec3(h.x() * kGaussX[i], h.y() * kGaussX[j], h.z() * kGaussX[k]),
                        h.x() * h.y() * h.z() * kGaussW[i] * kGaussW[j] * kGaussW[k]);
                }
        break;
    case VisualShape::Kind::Cylinder:
        for (int i = 0; i < 8; ++i)
            for (int a = 0; a < nAngle; ++a)
                for (int k = 0; k < 8; ++k) {
                    const double r = 0.5 * s.radius * (kGaussX[i] + 1.0), th = 2.0 * M_PI * a / nAngle;
                    const double z = 0.5 * s.length * kGaussX[k];
                    add(Vec3(r * std::cos(th), r * std::sin(th), z),
                        r * 0.5 * s.radius * kGaussW[i] * (2.0 * M_PI / nAngle) * 0.5 * s.length * kGaussW[k]);
                }
        break;
    case VisualShape::Kind::Sphere:
        for (int i = 0; i < 8; ++i)
            for (int j = 0; j < 8; ++j)
                for (int a = 0; a < nAngle; ++a) {
                    // u = cos φ makes the integrand polynomial in u, so Gauss is exact.
                    const double r = 0.5 * s.radius * (kGaussX[i] + 1.0), u = kGaussX[j];
                    const double th = 2.0 * M_PI * a / nAngle, sn = std::sqrt(1.0 - u * u);
                    add(r * Vec3(sn * std::cos(th), sn * std::sin(th), u),
                        r * r * 0.5 * s.radius * kGaussW[i] * kGaussW[j] * (2.0 * M_PI / nAngle));
                }
        break;
    case VisualShape::Kind::None: break;
    }
}

// Clicks of the sketch: snap to a pivot within 2 cm, else to a 5 cm grid.
SketchEnd click(const ModelDocument& doc, const WorkPlane& plane, const Vec3& p) {
    const std::vector<SketchPivot> pivots = sketchPivots(doc);
    const SnapResult s = snapSketchPoint(pivots, plane, p, 0.02, 0.05);
    SketchEnd e;
    e.point = s.point;
    if (s.pivot >= 0) e.pivot = pivots[static_cast<size_t>(s.pivot)].marker;
    return e;
}

MobilityReport mobilityOf(const ModelDocument& doc) {
    BuildResult b = buildModel(doc, "sketch");
    if (!b.ok()) {
        for (const auto& d : b.diagnostics) qWarning("%s: %s", d.location.c_str(), d.message.c_str());
        return {};
    }
    State s = initialState(*b.model);
    const AssemblyResult a = assemble(*b.model, s);
    if (!a.ok) qWarning("assembly: %s", a.message.c_str());
    return analyzeMobility(*b.model, s);
}

}  // namespace

class TestSketch : public QObject {
    Q_OBJECT

private slots:
    void shapeMassMatchesQuadrature_data() {
        QTest::addColumn<int>("kind");
        QTest::addColumn<double>("angle");
        QTest::newRow("box") << 1 << 0.0;
        QTest::newRow("box turned") << 1 << 0.7;
        QTest::newRow("cylinder") << 2 << 0.0;
        QTest::newRow("cylinder turned") << 2 << 1.1;
        QTest::newRow("sphere") << 3 << 0.4;
    }
    void shapeMassMatchesQuadrature() {
        QFETCH(int, kind);
        QFETCH(double, angle);
        VisualShape s;
        s.kind = static_cast<VisualShape::Kind>(kind);
        s.size = Vec3(0.3, 0.05, 0.02);
        s.radius = 0.04;
        s.length = 0.25;
        s.orientation = Quat(Eigen::AngleAxisd(angle, Vec3(1, 2, 3).normalized()));
        const double rho = 7850.0;
        const ShapeMassProperties mp = massPropertiesOfShape(s, rho);
        QVERIFY2(mp.ok, mp.message.c_str());
        double m = 0.0;
        Mat3 local;
        integrateShape(s, rho, m, local);
        const Mat3 R = s.orientation.toRotationMatrix();
        const Mat3 I = R * local * R.transpose();
        QVERIFY2(std::abs(mp.mass - m) <= 1e-12 * m, qPrintable(QString("mass %1 vs %2").arg(mp.mass).arg(m)));
        QVERIFY2((mp.inertia - I).norm() <= 1e-11 * I.norm(),
                 qPrintable(QString("inertia differs by %1 of %2").arg((mp.inertia - I).norm()).arg(I.norm())));
    }

    void shapeMassClosedForms() {
        const double rho = 2700.0;
        VisualShape bar;
        bar.kind = VisualShape::Kind::Box;
        bar.size = Vec3(0.5, 0.04, 0.01);
        const ShapeMassProperties b = massPropertiesOfShape(bar, rho);
        const double m = rho * 0.04 * 0.01 * 0.5;  // ρ A L
        QCOMPARE(b.mass, m);
        QVERIFY(std::abs(b.inertia(2, 2) - m * (0.25 + 0.0016) / 12.0) < 1e-15);
        VisualShape ball;
        ball.kind = VisualShape::Kind::Sphere;
        ball.radius = 0.1;
        const ShapeMassProperties s = massPropertiesOfShape(ball, rho);
        QVERIFY(std::abs(s.mass - rho * 4.0 / 3.0 * M_PI * 1e-3) < 1e-12);
        QVERIFY(std::abs(s.inertia(0, 0) - 0.4 * s.mass * 0.01) < 1e-15);
        VisualShape none;
        QVERIFY(!massPropertiesOfShape(none, rho).ok);
        QVERIFY(!massPropertiesOfShape(bar, 0.0).ok);
        bar.size.z() = 0.0;
        QVERIFY(!massPropertiesOfShape(bar, rho).ok);
    }

    void densityBodyInFile() {
        const std::string text = R"({"format": "looplab-model", "version": 1, "name": "d",
          "bodies": [{"name": "rod", "density": 1000,
                      "shape": {"type": "cylinder", "radius": 0.01, "length": 2}}]})";
        DocumentResult d = parseModelDocument(text, "d.json");
        QVERIFY(d.document);
        const double m = 1000.0 * M_PI * 1e-4 * 2.0;
        QVERIFY(std::abs(d.document->bodies[0].mass - m) < 1e-12);
        BuildResult b = buildModel(*d.document, "d.json");
        QVERIFY(b.ok());
        QVERIFY(std::abs(b.model->bodies[1].rigid()->inertia()(0, 0) - m * (3e-4 + 4.0) / 12.0) < 1e-12);
        // Saved with its density, not its numbers, so it stays a function of the shape.
        const std::string saved = serializeModelDocument(*d.document);
        QVERIFY(saved.find("\"density\"") != std::string::npos);
        QVERIFY(saved.find("\"mass\"") == std::string::npos);

        const std::string both = R"({"format": "looplab-model", "version": 1, "name": "d",
          "bodies": [{"name": "rod", "density": 1000, "mass": 2, "inertia": [1, 1, 1],
                      "shape": {"type": "sphere", "radius": 0.1}}]})";
        DocumentResult e = parseModelDocument(both, "e.json");
        QVERIFY(!e.document);
        QCOMPARE(QString::fromStdString(e.diagnostics.at(0).location), QString("/bodies/0/mass"));

        const std::string noShape = R"({"format": "looplab-model", "version": 1, "name": "d",
          "bodies": [{"name": "rod", "density": 1000}]})";
        DocumentResult f = parseModelDocument(noShape, "f.json");
        QVERIFY(f.document);
        BuildResult fb = buildModel(*f.document, "f.json");
        QVERIFY(!fb.ok());
        QCOMPARE(QString::fromStdString(fb.diagnostics.at(0).location), QString("/bodies/0/shape"));
    }

    void snapping() {
        ModelDocument doc;
        WorkPlane plane{WorkPlane::Kind::YZ};
        addGroundPivot(doc, plane, Vec3(5.0, 0.2, 0.1));  // projected: x dropped
        QCOMPARE(doc.markers.at(0).position, Vec3(0.0, 0.2, 0.1));
        const std::vector<SketchPivot> pivots = sketchPivots(doc);
        SnapResult near = snapSketchPoint(pivots, plane, Vec3(0.3, 0.21, 0.11), 0.02, 0.05);
        QCOMPARE(near.pivot, 0);
        QCOMPARE(near.point, Vec3(0.0, 0.2, 0.1));
        SnapResult far = snapSketchPoint(pivots, plane, Vec3(0.0, 0.26, 0.07), 0.02, 0.05);
        QCOMPARE(far.pivot, -1);
        QVERIFY((far.point - Vec3(0.0, 0.25, 0.05)).norm() < 1e-15);
        SnapResult free = snapSketchPoint(pivots, plane, Vec3(0.0, 0.26, 0.07), 0.02, 0.0);
        QVERIFY((free.point - Vec3(0.0, 0.26, 0.07)).norm() < 1e-15);
        // Of coincident pivots the ground one wins even when listed second.
        ModelDocument two;
        WorkPlane xy;
        addLink(two, xy, {Vec3(0, 0, 0), ""}, {Vec3(0.3, 0, 0), ""}, BarStyle{});
        addGroundPivot(two, xy, Vec3(0.3, 0, 0));
        const std::vector<SketchPivot> p2 = sketchPivots(two);
        const SnapResult g = snapSketchPoint(p2, xy, Vec3(0.305, 0.004, 0), 0.02, 0.05);
        QVERIFY(g.pivot >= 0);
        QVERIFY(p2[static_cast<size_t>(g.pivot)].ground());
        QVERIFY((g.point - Vec3(0.3, 0, 0)).norm() < 1e-15);
    }

    // The eight clicks of the workbench: two ground pivots, then a chain of links A, B, C, D.
    void fourBarFromClicks_data() {
        QTest::addColumn<int>("plane");
        QTest::newRow("XY") << 0;
        QTest::newRow("YZ") << 1;
        QTest::newRow("ZX") << 2;
    }
    void fourBarFromClicks() {
        QFETCH(int, plane);
        const WorkPlane wp{static_cast<WorkPlane::Kind>(plane)};
        auto at = [&](double a, double b) -> Vec3 { return a * wp.u() + b * wp.v(); };
        ModelDocument doc;
        QVERIFY(addGroundPivot(doc, wp, click(doc, wp, at(0.0, 0.0)).point).ok);
        QVERIFY(addGroundPivot(doc, wp, click(doc, wp, at(0.6, 0.0)).point).ok);
        const Vec3 chain[4] = {at(0.004, -0.003), at(0.1, 0.2), at(0.5, 0.4), at(0.598, 0.002)};
        SketchEnd from = click(doc, wp, chain[0]);
        QCOMPARE(from.pivot, std::string("ground_pivot1"));
        const double L[3] = {std::hypot(0.1, 0.2), std::hypot(0.4, 0.2), std::hypot(0.1, 0.4)};
        for (int k = 1; k < 4; ++k) {
            const SketchEnd to = click(doc, wp, chain[k]);
            const SketchEditResult r = addLink(doc, wp, from, to, BarStyle{});
            QVERIFY2(r.ok, r.message.c_str());
            from = click(doc, wp, to.point);
            QVERIFY(!from.pivot.empty());
        }
        QCOMPARE(doc.bodies.size(), size_t(3));
        QCOMPARE(doc.joints.size(), size_t(4));
        const MobilityReport mob = mobilityOf(doc);
        QCOMPARE(mob.dof, 1);
        BuildResult b = buildModel(doc, "sketch");
        QVERIFY(b.ok());
        const BarStyle st;
        for (int k = 0; k < 3; ++k) {
            const Body& body = b.model->bodies[static_cast<size_t>(k + 1)];
            const double m = st.density * st.height * st.thickness * L[k];
            QVERIFY2(std::abs(body.rigid()->mass() - m) <= 1e-12 * m, body.name.c_str());
            // About the pivot axis (body z is the plane normal): I = m(L² + h²)/12.
            const double I = m * (L[k] * L[k] + st.height * st.height) / 12.0;
            QVERIFY2(std::abs(body.rigid()->inertia()(2, 2) - I) <= 1e-12 * I, body.name.c_str());
        }
    }

    void sliderCrank() {
        const WorkPlane wp;
        ModelDocument doc;
        addGroundPivot(doc, wp, Vec3(0, 0, 0));
        SketchEditResult crank = addLink(doc, wp, {Vec3(0, 0, 0), "ground_pivot1"}, {Vec3(0.1, 0.1, 0), ""}, BarStyle{});
        QVERIFY(crank.ok);
        SketchEditResult rod = addLink(doc, wp, {Vec3(0.1, 0.1, 0), crank.markers[1]}, {Vec3(0.5, 0, 0), ""}, BarStyle{});
        QVERIFY(rod.ok);
        SketchEditResult slider = addSlider(doc, wp, {Vec3(0.5, 0, 0), rod.markers[1]}, Vec3(1, 0, 0), BarStyle{});
        QVERIFY2(slider.ok, slider.message.c_str());
        QCOMPARE(mobilityOf(doc).dof, 1);
        // Degenerate edits are refused with a reason.
        QVERIFY(!addLink(doc, wp, {Vec3(0, 0, 0), ""}, {Vec3(0, 0, 0), ""}, BarStyle{}).ok);
        QVERIFY(!addSlider(doc, wp, {Vec3(0, 0, 0), ""}, Vec3(0, 0, 1), BarStyle{}).ok);
        QVERIFY(!addLink(doc, wp, {Vec3(0, 0, 0), "nowhere"}, {Vec3(1, 0, 0), ""}, BarStyle{}).ok);
    }

    // A gear pair from a crank's ground pivot to a free one: the crank is the first wheel
    // (its pin is the coupler's first joint), a new disc the second, 20:40 teeth for a
    // contact a third of the way across; one degree of freedom left.
    void gearPairOnACrank() {
        const WorkPlane wp;
        ModelDocument doc;
        addGroundPivot(doc, wp, Vec3(0, 0, 0));
        addGroundPivot(doc, wp, Vec3(0.3, 0, 0));
        const SketchEditResult crank = addLink(doc, wp, {Vec3(0, 0, 0), "ground_pivot1"}, {Vec3(0.1, 0.1, 0), ""}, BarStyle{});
        QVERIFY(crank.ok);
        const SketchEnd a{Vec3(0, 0, 0), "ground_pivot1"}, b{Vec3(0.3, 0, 0), "ground_pivot2"};
        const SketchEditResult r = addGearPair(doc, wp, a, b, Vec3(0.1, 0.02, 0), BarStyle{});
        QVERIFY2(r.ok, r.message.c_str());
        QCOMPARE(doc.bodies.size(), size_t(2));
        QCOMPARE(doc.couplers.size(), size_t(1));
        const CouplerDoc& gear = doc.couplers[0];
        QCOMPARE(gear.joints[0], crank.joints[0]);
        QCOMPARE(gear.teeth1.value_or(0), 20);
        QCOMPARE(gear.teeth2.value_or(0), 40);
        QCOMPARE(doc.bodies[1].shape.radius, 0.2);
        QCOMPARE(mobilityOf(doc).dof, 1);
        // Refused with a reason: a contact outside the pivots, one pivot twice, no pivot.
        QVERIFY(!addGearPair(doc, wp, a, b, Vec3(0.4, 0, 0), BarStyle{}).ok);
        QVERIFY(!addGearPair(doc, wp, a, a, Vec3(0.1, 0, 0), BarStyle{}).ok);
        QVERIFY(!addGearPair(doc, wp, a, {Vec3(0.3, 0, 0), ""}, Vec3(0.1, 0, 0), BarStyle{}).ok);
    }

    // A cam on a ground pivot with its roller's centre 0.1 m above: a roller of 20 mm, so a
    // base circle of 80 mm, which the cam's profile keeps over the dwell; one degree of
    // freedom (the cam's turn) once the follower rides on it.
    void camOnAPivot() {
        const WorkPlane wp;
        ModelDocument doc;
        addGroundPivot(doc, wp, Vec3(0, 0, 0));
        const SketchEditResult r = addCam(doc, wp, {Vec3(0, 0, 0), "ground_pivot1"}, Vec3(0, 0.1, 0), BarStyle{});
        QVERIFY2(r.ok, r.message.c_str());
        QCOMPARE(doc.bodies.size(), size_t(2));
        QCOMPARE(doc.couplers.size(), size_t(1));
        QCOMPARE(mobilityOf(doc).dof, 1);
        const BuildResult b = buildModel(doc, "sketch");
        QVERIFY(b.ok());
        const CamCycle cycle = camCycle(*b.model->couplers[0].cam);
        qInfo("sketched cam: base radius %.12f m, pressure angle up to %.3f deg", cycle.baseRadius,
              cycle.largestPressureAngle * 180 / M_PI);
        QVERIFY(std::abs(cycle.baseRadius - 0.08) < 1e-12);
        QVERIFY(!cycle.undercut);
        QVERIFY(!addCam(doc, wp, {Vec3(0, 0, 0), ""}, Vec3(0, 0.1, 0), BarStyle{}).ok);
        QVERIFY(!addCam(doc, wp, {Vec3(0, 0, 0), "ground_pivot1"}, Vec3(0, 0, 0), BarStyle{}).ok);
    }
};

QTEST_GUILESS_MAIN(TestSketch)
#include "tst_sketch.moc"
