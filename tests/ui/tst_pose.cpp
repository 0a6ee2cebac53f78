// Drives posing and the assembly explanation in the real window with simulated mouse
// input: a crank dragged in the view, the mechanism following with every joint closed
// and the camera left alone (an Alt drag turns it); coordinates typed in degrees or
// radians, a cylindrical joint's angle and slide; the pose written as the initial
// configuration (velocities kept or zeroed) and undone; a coupler too long drawn at
// its best pose with its gaps and warnings; a joint angle at rest plotted flat.

#include "UserSteps.h"

#include "looplab/kinematics/Constraints.h"
#include "looplab/files/ModelFile.h"
#include "plotting/DisplayUnits.h"
#include "posing/DiagnosisOverlay.h"
#include "posing/PoseController.h"
#include "posing/PosePanel.h"
#include "posing/PosingFeature.h"
#include "viewport/VtkViewport.h"
#include "workbench/MainWindow.h"
#include "workbench/PlaybackBar.h"
#include "plotting/PlotAxisRange.h"
#include "plotting/PlotPanel.h"
#include "run/RunPanel.h"
#include "panels/WarningsPanel.h"
#include "document/WorkbenchDocument.h"
#include "WorkbenchTestSupport.h"

#include <QChart>
#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QChartView>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLineSeries>
#include <QPushButton>
#include <QStatusBar>
#include <QTreeWidget>
#include <QSurfaceFormat>
#include <QUndoStack>
#include <QValueAxis>
#include <QtTest>

#include <vtkCamera.h>
#include <vtkRenderer.h>

#include <cmath>

using namespace looplab;
using namespace looplab::ui;

namespace {

using test::example;

double closure(const Model& m, const State& s)
{
    ConstraintValues cv;
    evaluateConstraints(m, s, cv, kPhi);
    return cv.phi.cwiseAbs().maxCoeff();
}

// four-bar.json: ground A(0,0)–D(0.4,0), crank 0.1, coupler 0.4, rocker 0.3; crank at 60°.
double rockerAngle(double theta)
{
    const Vec3 B(0.1 * std::cos(theta), 0.1 * std::sin(theta), 0.0);
    const Vec3 e = B - Vec3(0.4, 0.0, 0.0);
    const double l = e.norm();
    return std::atan2(e.y(), e.x()) - std::acos((0.09 + l * l - 0.16) / (2.0 * 0.3 * l));
}

double wrap(double a) { return std::remainder(a, 2.0 * M_PI); }

}  // namespace

class TestPose : public QObject {
    Q_OBJECT

public:
    // Called by QTEST_MAIN before the QApplication exists.
    static void initMain() { QSurfaceFormat::setDefaultFormat(VtkViewport::defaultFormat()); }

private slots:
    void initTestCase() { test::useThrowAwaySettings("tst_pose"); }
    void init()
    {
        window_ = test::shownWindow();
        QVERIFY(window_);
    }
    void cleanup() { window_.reset(); }

    void dragCrankKeepsLoopClosed();
    void usePoseThenUndoRestoresFile();
    void typedCoordinatesFollowUnitsAndJointType();
    void usePoseKeepsOrZeroesVelocities();
    void dragLeavesCameraAltDragTurnsIt();
    void tooLongCouplerShowsGapsAndWarnings();
    void rssrAtRestPlotsFlatAngle();
    void axisRangeIgnoresRoundingNoise();
    void jointMovedOffItsLinksIsFlagged();
    void singularDirectionAtPoseAndRecordedFrame();

private:
    // Presses on `from`, moves in `steps` steps to `to`, releases; world points.
    void drag(const Vec3& from, const Vec3& to, int steps) { test::UserSteps{*window_}.drag(from, to, steps); }

    std::unique_ptr<MainWindow> window_;
};

void TestPose::dragCrankKeepsLoopClosed()
{
    QVERIFY(window_->openFile(example("four-bar.json")));
    VtkViewport* view = window_->viewport();
    view->setStandardView(VtkViewport::StandardView::Front);  // looking along −z: the plane of motion
    QCoreApplication::processEvents();
    view->grabFramebuffer();
    PoseController* c = window_->posing()->controller();
    QVERIFY(c->model());
    const Model& m = *c->model();
    const JointIndex A = *m.findJoint("A"), D = *m.findJoint("D");

    // Grab the crank half-way along (on its front face, z = 0.01) and turn it from 60° to 120°.
    const double r = 0.05;
    const Vec3 grab(r * std::cos(M_PI / 3), r * std::sin(M_PI / 3), 0.01);
    const Vec3 goal(r * std::cos(2 * M_PI / 3), r * std::sin(2 * M_PI / 3), 0.01);
    drag(grab, goal, 12);
    QVERIFY(c->isPosed());
    // The cursor sits on whole pixels, so the target may lie a fraction of a pixel off the
    // grabbed point's circle: it is reached, or missed by less than a pixel (< 1 mm here).
    QVERIFY2(c->lastDrag().outcome == DragOutcome::Reached ||
                 (c->lastDrag().outcome == DragOutcome::ReachLimit && c->lastDrag().distance < 1e-3),
             qPrintable(QString("%1, %2 m short").arg(dragOutcomeName(c->lastDrag().outcome)).arg(c->lastDrag().distance)));
    QVERIFY(closure(m, c->state()) < 1e-10);
    // The cursor lands on whole pixels: the crank turned to within a pixel of 120°.
    const double theta = M_PI / 3 + jointAngle(m, c->state(), A);
    QVERIFY2(std::abs(theta - 2 * M_PI / 3) < 2.0 * M_PI / 180.0, qPrintable(QString::number(theta * 180 / M_PI)));
    // The rocker is where the closed-form position solution puts it for that crank angle.
    const double phi = rockerAngle(M_PI / 3) + jointAngle(m, c->state(), D);
    QVERIFY2(std::abs(wrap(phi - rockerAngle(theta))) < 1e-8,
             qPrintable(QString("rocker %1°, closed form %2°").arg(phi * 180 / M_PI).arg(rockerAngle(theta) * 180 / M_PI)));
    QDir().mkpath(LOOPLAB_SCREENSHOT_DIR);
    QVERIFY(window_->screenshot().save(QStringLiteral(LOOPLAB_SCREENSHOT_DIR) + "/four-bar-dragged.png"));

    // Far beyond reach: the grabbed point stops on its circle, pointing at the target.
    const Vec3 grabNow = goal;
    const Vec3 far(0.6, 0.6, 0.01);
    drag(grabNow, far, 8);
    QCOMPARE(c->lastDrag().outcome, DragOutcome::ReachLimit);
    QVERIFY(closure(m, c->state()) < 1e-10);
    const Vec3 p = c->lastDrag().point;
    QVERIFY(std::abs(std::hypot(p.x(), p.y()) - std::hypot(grab.x(), grab.y())) < 2e-3);
    const double towards = std::atan2(p.y(), p.x()) - std::atan2(far.y(), far.x());
    QVERIFY2(std::abs(wrap(towards)) < 0.05, qPrintable(QString::number(towards)));
    QVERIFY(window_->statusBar()->currentMessage().contains("reach limit"));
    const PoseController::Timing t = c->timing();
    qInfo("drag updates: %d, mean %.3f ms, max %.3f ms; closure %.2e m", t.updates, t.meanMs, t.maxMs,
          closure(m, c->state()));

    // Typing a coordinate: crank at −30° from its start, the rocker closed-form again.
    DisplayUnits::instance().setAngleUnit(AngleUnit::Degree);
    PosePanel* panel = window_->posing()->panel();
    panel->jointBox()->setCurrentText("A");
    panel->valueBox()->setValue(-30.0);
    QTest::mouseClick(panel->setButton(), Qt::LeftButton);
    QVERIFY(std::abs(jointAngle(m, c->state(), A) + M_PI / 6) < 1e-9);
    const double phi2 = rockerAngle(M_PI / 3) + jointAngle(m, c->state(), D);
    QVERIFY(std::abs(wrap(phi2 - rockerAngle(M_PI / 6))) < 1e-8);
}

void TestPose::usePoseThenUndoRestoresFile()
{
    const QString path = example("four-bar.json");
    QVERIFY(window_->openFile(path));
    PoseController* c = window_->posing()->controller();
    QVERIFY(c->setCoordinate("A", 1.0).status.ok);
    const State pose = c->state();
    PosePanel* panel = window_->posing()->panel();
    QVERIFY(!panel->keepVelocitiesBox()->isChecked());
    QTest::mouseClick(panel->useButton(), Qt::LeftButton);
    WorkbenchDocument* doc = window_->document();
    QVERIFY(doc->isModified());
    QVERIFY(doc->loaded().ok());
    QVERIFY((doc->loaded().initial.q - pose.q).cwiseAbs().maxCoeff() < 1e-12);
    QVERIFY(doc->loaded().initial.v.isZero(0.0));
    const std::string file = serializeModelDocument(*readModelDocument(path.toStdString()).document);
    QVERIFY(serializeModelDocument(doc->document()) != file);
    doc->undoStack()->undo();
    QCOMPARE(serializeModelDocument(doc->document()), file);
    QVERIFY(!doc->isModified());
}

void TestPose::typedCoordinatesFollowUnitsAndJointType()
{
    QVERIFY(window_->openFile(example("four-bar.json")));
    PoseController* c = window_->posing()->controller();
    PosePanel* panel = window_->posing()->panel();
    const Model& m = *c->model();
    const JointIndex A = *m.findJoint("A");

    // The same crank angle typed in degrees and in radians gives the same pose.
    DisplayUnits::instance().setAngleUnit(AngleUnit::Degree);
    panel->jointBox()->setCurrentText("A");
    QVERIFY(panel->valueBox()->suffix().contains("°"));
    panel->valueBox()->setValue(-30.0);
    QTest::mouseClick(panel->setButton(), Qt::LeftButton);
    const State inDegrees = c->state();
    QTest::mouseClick(panel->resetButton(), Qt::LeftButton);
    QVERIFY(std::abs(jointAngle(m, c->state(), A)) < 1e-12);
    DisplayUnits::instance().setAngleUnit(AngleUnit::Radian);
    QVERIFY(panel->valueBox()->suffix().contains("rad"));
    panel->valueBox()->setValue(-M_PI / 6);
    QTest::mouseClick(panel->setButton(), Qt::LeftButton);
    QVERIFY(std::abs(jointAngle(m, c->state(), A) + M_PI / 6) < 1e-9);
    const double apart = (c->state().q - inDegrees.q).cwiseAbs().maxCoeff();
    QVERIFY2(apart < 1e-9, qPrintable(QString::number(apart)));

    // A sleeve on a cylindrical joint along z through the origin: its slide and its angle
    // are both offered, and each moves the sleeve as the joint's closed form says.
    QTemporaryDir dir;
    const QString path = dir.filePath("sleeve.json");
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(R"({"format": "looplab-model", "version": 1, "name": "Sleeve", "gravity": [0, 0, 0],
        "bodies": [{"name": "sleeve", "mass": 1, "inertia": [0.01, 0.01, 0.01],
                    "position": [0.1, 0, 0], "orientation": [1, 0, 0, 0]}],
        "joints": [{"name": "C", "type": "cylindrical", "body1": "ground", "body2": "sleeve",
                    "point": [0, 0, 0], "axis": [0, 0, 1]}]})");
    file.close();
    QVERIFY(window_->openFile(path));
    const Model& cyl = *c->model();
    const JointIndex C = *cyl.findJoint("C");
    const BodyIndex sleeve = *cyl.findBody("sleeve");
    QVERIFY(panel->jointBox()->findText("C angle") >= 0);
    panel->jointBox()->setCurrentText("C slide");
    QVERIFY(panel->valueBox()->suffix().contains("m"));
    panel->valueBox()->setValue(0.25);
    QTest::mouseClick(panel->setButton(), Qt::LeftButton);
    QVERIFY(std::abs(jointDisplacement(cyl, c->state(), C) - 0.25) < 1e-9);
    const Vec3 slid = pointPosition(cyl, c->state(), sleeve, Vec3::Zero());
    QVERIFY2((slid - Vec3(0.1, 0.0, 0.25)).norm() < 1e-9, qPrintable(QString::number((slid - Vec3(0.1, 0.0, 0.25)).norm())));

    DisplayUnits::instance().setAngleUnit(AngleUnit::Degree);
    panel->jointBox()->setCurrentText("C angle");
    panel->valueBox()->setValue(40.0);
    QTest::mouseClick(panel->setButton(), Qt::LeftButton);
    const double turn = 40.0 * M_PI / 180.0;
    QVERIFY(std::abs(jointAngle(cyl, c->state(), C) - turn) < 1e-9);
    const Vec3 turned = pointPosition(cyl, c->state(), sleeve, Vec3::Zero());
    const Vec3 expected(0.1 * std::cos(turn), 0.1 * std::sin(turn), 0.25);
    QVERIFY2((turned - expected).norm() < 1e-9, qPrintable(QString::number((turned - expected).norm())));
}

void TestPose::usePoseKeepsOrZeroesVelocities()
{
    // The double parallelogram starts with its cranks turning at 12 rad/s.
    QVERIFY(window_->openFile(example("double-parallelogram.json")));
    WorkbenchDocument* doc = window_->document();
    const Model& m = *doc->loaded().model;
    const State start = doc->loaded().initial;
    const BodyIndex crank = *m.findBody("crank1");
    QVERIFY(std::abs(bodyAngularVelocity(m, start, crank).z() - 12.0) < 1e-9);
    PosePanel* panel = window_->posing()->panel();

    // Kept: the written initial state moves as the model did.
    panel->keepVelocitiesBox()->setChecked(true);
    QTest::mouseClick(panel->useButton(), Qt::LeftButton);
    QVERIFY(doc->isModified());
    QVERIFY(doc->loaded().ok());
    const State kept = doc->loaded().initial;
    QVERIFY(std::abs(bodyAngularVelocity(*doc->loaded().model, kept, crank).z() - 12.0) < 1e-9);
    const double vDiff = (kept.v - start.v).cwiseAbs().maxCoeff();
    QVERIFY2(vDiff < 1e-9, qPrintable(QString::number(vDiff)));
    QVERIFY((kept.q - start.q).cwiseAbs().maxCoeff() < 1e-12);
    doc->undoStack()->undo();
    QVERIFY(!doc->isModified());

    // Zeroed: the same pose, at rest.
    panel->keepVelocitiesBox()->setChecked(false);
    QTest::mouseClick(panel->useButton(), Qt::LeftButton);
    QVERIFY(doc->isModified());
    QVERIFY(doc->loaded().ok());
    QVERIFY(doc->loaded().initial.v.isZero(0.0));
    QVERIFY((doc->loaded().initial.q - start.q).cwiseAbs().maxCoeff() < 1e-12);
}

void TestPose::dragLeavesCameraAltDragTurnsIt()
{
    QVERIFY(window_->openFile(example("four-bar.json")));
    VtkViewport* view = window_->viewport();
    view->setStandardView(VtkViewport::StandardView::Front);
    QCoreApplication::processEvents();
    view->grabFramebuffer();
    vtkCamera* camera = view->renderer()->GetActiveCamera();
    auto cameraNow = [camera] {
        double p[3], f[3], u[3];
        camera->GetPosition(p);
        camera->GetFocalPoint(f);
        camera->GetViewUp(u);
        return std::array<Vec3, 3>{Vec3(p[0], p[1], p[2]), Vec3(f[0], f[1], f[2]), Vec3(u[0], u[1], u[2])};
    };
    const auto before = cameraNow();
    const Vec3 direction = (before[1] - before[0]).normalized();

    // A left drag on the crank poses it and leaves the camera where it was.
    PoseController* c = window_->posing()->controller();
    const double r = 0.05;
    const Vec3 grab(r * std::cos(M_PI / 3), r * std::sin(M_PI / 3), 0.01);
    const Vec3 goal(r * std::cos(M_PI / 2), r * std::sin(M_PI / 2), 0.01);
    drag(grab, goal, 8);
    QVERIFY(c->isPosed());
    const auto afterDrag = cameraNow();
    for (int k = 0; k < 3; ++k)
        QVERIFY2((afterDrag[static_cast<size_t>(k)] - before[static_cast<size_t>(k)]).norm() < 1e-12,
                 qPrintable(QString("camera vector %1 moved").arg(k)));

    // The same gesture with Alt held turns the view and leaves the pose alone.
    const State pose = c->state();
    QWindow* surface = view->renderSurface();
    const QPoint a = view->worldToView(goal).toPoint();
    QTest::mousePress(surface, Qt::LeftButton, Qt::AltModifier, a);
    for (int k = 1; k <= 8; ++k)
        QTest::mouseMove(surface, a + QPoint(10 * k, 0));
    QTest::mouseRelease(surface, Qt::LeftButton, Qt::AltModifier, a + QPoint(80, 0));
    QCoreApplication::processEvents();
    const auto afterAlt = cameraNow();
    const Vec3 turnedDirection = (afterAlt[1] - afterAlt[0]).normalized();
    const double turned = std::acos(std::clamp(turnedDirection.dot(direction), -1.0, 1.0));
    QVERIFY2(turned > 0.1, qPrintable(QString("view turned by %1 rad").arg(turned)));
    QVERIFY(c->state().q == pose.q);
}

void TestPose::tooLongCouplerShowsGapsAndWarnings()
{
    QVERIFY(window_->openFile(QStringLiteral(LOOPLAB_TEST_DATA_DIR) + "/four-bar-long-coupler.json"));
    QVERIFY(!window_->document()->loaded().ok());
    const auto& e = window_->posing()->explanation();
    QVERIFY(e && !e->closed);
    // The best pose is drawn with a labelled gap at each unclosed joint.
    const DiagnosisOverlay& overlay = window_->posing()->overlay();
    QCOMPARE(overlay.segmentCount(), static_cast<int>(e->gaps.size()));
    QCOMPARE(e->gaps.size(), size_t(4));
    double total = 0.0;
    for (const JointGap& g : e->gaps)
        total += g.distance;
    QVERIFY(total >= 0.15 - 1e-9);
    for (const std::string& l : overlay.labels())
        QVERIFY2(l.find(" m apart") != std::string::npos, l.c_str());
    // The cause first, with its numbers and its fix, then one row per unclosed joint; the
    // Kind column is words, never the internal kind.
    WarningsPanel* w = window_->warningsPanel();
    auto* tree = w->findChild<QTreeWidget*>("warnings");
    QVERIFY(tree && w->count() >= 5);
    QCOMPARE(w->kindAt(0), QString("assembly"));
    QCOMPARE(tree->topLevelItem(0)->text(1), QString("Does not assemble"));
    const QString cause = tree->topLevelItem(0)->text(3);
    QVERIFY2(cause.startsWith("coupler 0.95 m is longer than the 0.80 m the other links can span: shorten coupler "
                              "below 0.80 m, or lengthen the other links by more than 0.15 m together"),
             qPrintable(cause));
    int unclosed = 0;
    for (int i = 0; i < w->count(); ++i) {
        unclosed += w->kindAt(i) == "unclosed_joint";
        const QString kind = tree->topLevelItem(i)->text(1);
        QVERIFY2(!kind.contains('_') && kind != w->kindAt(i), qPrintable(kind));
    }
    QCOMPARE(unclosed, 4);
    QVERIFY2(window_->statusBar()->currentMessage().contains("coupler 0.95 m is longer than the 0.80 m"),
             qPrintable(window_->statusBar()->currentMessage()));
    QVERIFY(!window_->runPanel()->isEnabled() || !window_->startRun());
    const QImage shot = window_->screenshot();
    QVERIFY(!shot.isNull());
    QDir().mkpath(LOOPLAB_SCREENSHOT_DIR);
    QVERIFY(shot.save(QStringLiteral(LOOPLAB_SCREENSHOT_DIR) + "/long-coupler-gaps.png"));

    // The same with the coupler a distance joint (a rod): the rod is named, not the joint
    // where the loop happened to open.
    QVERIFY(window_->openFile(example("four-bar-rod-coupler.json")));
    window_->document()->edit("longer rod", [](ModelDocument& d) {
        for (JointDoc& j : d.joints)
            if (j.name == "coupler")
                j.length = 0.95;
    });
    QVERIFY(!window_->document()->loaded().ok());
    QCOMPARE(w->kindAt(0), QString("assembly"));
    const QString rodCause = tree->topLevelItem(0)->text(3);
    QVERIFY2(rodCause.startsWith("coupler 0.95 m is longer than the 0.80 m the other links can span: shorten coupler "
                                 "below 0.80 m, or lengthen the other links by more than 0.15 m together"),
             qPrintable(rodCause));
}

void TestPose::rssrAtRestPlotsFlatAngle()
{
    QVERIFY(window_->openFile(example("rssr.json")));
    window_->document()->edit("no gravity", [](ModelDocument& d) { d.gravity = Vec3::Zero(); });
    window_->runPanel()->setSettings(test::runSettings("projection", 0.5));
    QVERIFY(test::runToEnd(*window_, true));
    PlotPanel* plots = window_->plotPanel();
    QVERIFY(plots->setJointQuantity("R1.angle"));
    QLineSeries* series = plots->jointQuantitySeries();
    QVERIFY(series->count() > 10);
    double lo = INFINITY, hi = -INFINITY;
    for (const QPointF& p : series->points()) {
        lo = std::min(lo, p.y());
        hi = std::max(hi, p.y());
    }
    qInfo("R1.angle at rest spans %.3g rad", hi - lo);
    QVERIFY(hi - lo <= 1e-9);
    const auto axes = plots->chartView(PlotPanel::Chart::JointQuantity)->chart()->axes(Qt::Vertical, series);
    QCOMPARE(axes.size(), 1);
    auto* axis = qobject_cast<QValueAxis*>(axes.front());
    QVERIFY(axis);
    // Flat in the middle of a range set by the value, not by the noise.
    const double value = 0.5 * (lo + hi), pad = 0.1 * std::max(std::abs(value), 1.0);
    QVERIFY(std::abs(axis->min() - (value - pad)) < 1e-12 && std::abs(axis->max() - (value + pad)) < 1e-12);
    QVERIFY2(axis->titleText().contains("constant"), qPrintable(axis->titleText()));

    // E − E₀ at rest is rounding noise too: its axis is flat about the value, not ±noise.
    QLineSeries* drift = plots->driftSeries();
    QVERIFY(drift->count() > 10);
    double dlo = INFINITY, dhi = -INFINITY;
    for (const QPointF& p : drift->points()) {
        dlo = std::min(dlo, p.y());
        dhi = std::max(dhi, p.y());
    }
    qInfo("E - E0 at rest spans %.3g J", dhi - dlo);
    QVERIFY(dhi - dlo <= 1e-9);
    const auto driftAxes = plots->chartView(PlotPanel::Chart::Energy)->chart()->axes(Qt::Vertical, drift);
    QCOMPARE(driftAxes.size(), 1);
    auto* driftAxis = qobject_cast<QValueAxis*>(driftAxes.front());
    QVERIFY(driftAxis);
    const double drifted = 0.5 * (dlo + dhi), driftPad = 0.1 * std::max(std::abs(drifted), 1.0);
    QVERIFY2(std::abs(driftAxis->min() - (drifted - driftPad)) < 1e-12 &&
                 std::abs(driftAxis->max() - (drifted + driftPad)) < 1e-12,
             qPrintable(QString("drift axis %1 .. %2").arg(driftAxis->min()).arg(driftAxis->max())));
    QVERIFY2(driftAxis->titleText().contains("constant"), qPrintable(driftAxis->titleText()));
}

// Moving a joint's point away from both links (as in the property editor) keeps a model
// that closes, but the joint is marked in the view and listed in Warnings; undo clears it.
void TestPose::jointMovedOffItsLinksIsFlagged()
{
    QVERIFY(window_->openFile(example("four-bar.json")));
    QCOMPARE(window_->posing()->overlay().segmentCount(), 0);
    window_->document()->edit("move B", [](ModelDocument& d) { d.joints[1].point = Vec3(0.05, 0.3, 0.0); });
    QVERIFY(window_->document()->loaded().ok());
    QCOMPARE(window_->posing()->overlay().segmentCount(), 1);
    WarningsPanel* w = window_->warningsPanel();
    QCOMPARE(w->count(), 1);
    QCOMPARE(w->kindAt(0), QString("detached_joint"));
    window_->document()->undoStack()->undo();
    QCOMPARE(window_->posing()->overlay().segmentCount(), 0);
    QCOMPARE(w->count(), 0);
}

// The parallelogram (cranks 0.15 m, coupler and ground 0.3 m) loses a direction of motion
// where all four links lie on the x axis. Typing the crank to that flat configuration, and
// activating the singular_configuration warning of a run through it, both draw the
// magenta arrow along ±x from the shared joint; away from it, nothing is drawn.
void TestPose::singularDirectionAtPoseAndRecordedFrame()
{
    QVERIFY(window_->openFile(example("parallelogram.json")));
    PosingFeature* posing = window_->posing();
    QCOMPARE(posing->overlay().segmentCount(), 0);
    auto alongX = [](const DiagnosisOverlay& o) {
        const Vec3 d = o.segmentEnds().front().second - o.segmentEnds().front().first;
        return d.norm() > 0.0 && std::abs(d.x()) / d.norm() > std::cos(M_PI / 180.0);
    };

    // The crank starts at 60° from x: −60° from there lays it, and everything, flat.
    PosePanel* panel = posing->panel();
    panel->jointBox()->setCurrentText("A");
    panel->valueBox()->setValue(-60.0);
    QTest::mouseClick(panel->setButton(), Qt::LeftButton);
    const Model& m = *posing->controller()->model();
    QVERIFY(std::abs(jointAngle(m, posing->controller()->state(), *m.findJoint("A")) + M_PI / 3) < 1e-9);
    QCOMPARE(posing->overlay().segmentCount(), 1);
    QVERIFY2(QString::fromStdString(posing->overlay().labels().front()).contains("line up: cannot move this way"),
             posing->overlay().labels().front().c_str());
    QVERIFY(alongX(posing->overlay()));
    // Back where it started, regular again: the arrow goes.
    panel->valueBox()->setValue(0.0);
    QTest::mouseClick(panel->setButton(), Qt::LeftButton);
    QCOMPARE(posing->overlay().segmentCount(), 0);

    // Released under gravity it swings down through the flat configuration.
    window_->runPanel()->setSettings(test::runSettings("projection", 0.3));
    QVERIFY(test::runToEnd(*window_, true));
    WarningsPanel* warnings = window_->warningsPanel();
    int singular = -1;
    for (int i = 0; i < warnings->count() && singular < 0; ++i)
        if (warnings->kindAt(i) == "singular_configuration")
            singular = i;
    QVERIFY2(singular >= 0, "no singular-configuration warning");
    QCOMPARE(posing->recordingOverlay().segmentCount(), 0);
    warnings->activate(singular);
    const int frame = window_->playbackBar()->currentFrame();
    QVERIFY(std::abs(window_->recording().frame(frame).t - warnings->timeAt(singular)) <= 0.0100001);
    const DiagnosisOverlay& recorded = posing->recordingOverlay();
    QCOMPARE(recorded.segmentCount(), 1);
    QVERIFY2(QString::fromStdString(recorded.labels().front()).contains("line up"), recorded.labels().front().c_str());
    QVERIFY(alongX(recorded));
    // Another frame shown: the mark belonged to the warning's frame only.
    window_->playbackBar()->setCurrentFrame(0);
    QCOMPARE(recorded.segmentCount(), 0);
}

// The rule itself, on the rounding noise the issue saw (5e-14 rad about zero) and at
// both sides of the 1e-9 relative threshold.
void TestPose::axisRangeIgnoresRoundingNoise()
{
    const PlotAxisRange noise = plotAxisRange(-2.5e-14, 2.5e-14);
    QVERIFY(noise.flat);
    QCOMPARE(noise.value, 0.0);
    QCOMPARE(noise.min, -0.1);
    QCOMPARE(noise.max, 0.1);
    const PlotAxisRange large = plotAxisRange(250.0, 250.0 + 2e-7);  // 8e-10 of 250
    QVERIFY(large.flat);
    QVERIFY(std::abs(large.min - 0.9 * large.value) < 1e-9);
    const PlotAxisRange varies = plotAxisRange(250.0, 250.0 + 3e-7);  // 1.2e-9 of 250
    QVERIFY(!varies.flat);
    QVERIFY(std::abs(varies.max - varies.min - 1.1 * 3e-7) < 1e-12);
}

QTEST_MAIN(TestPose)
#include "tst_pose.moc"
