// The Modes panel driven through its widgets: the equilibrium and modes of the simple
// pendulum against the compound pendulum's small-oscillation frequency, the mode-shape
// animation against the amplitude it was asked for, the return to the recording, the
// exported table, a refused setting, and the modes along a recorded motion of a double
// pendulum whose upper link is driven (the lower one then swings about a fixed pivot at
// every posture, at the compound pendulum's frequency).

#include "WorkbenchTestSupport.h"

#include "looplab/scene/Scene.h"
#include "looplab/model/State.h"
#include "looplab/analysis/Statics.h"
#include "viewport/VtkViewport.h"
#include "workbench/WorkbenchExports.h"
#include "recording/ModeShapeAnimation.h"
#include "workbench/ModesPanel.h"
#include "workbench/PlaybackBar.h"
#include "run/RunPanel.h"
#include "document/WorkbenchDocument.h"

#include <QChart>
#include <QCheckBox>
#include <QComboBox>
#include <QDockWidget>
#include <QFile>
#include <QLineEdit>
#include <QLineSeries>
#include <QProgressBar>
#include <QPushButton>
#include <QSlider>
#include <QSpinBox>
#include <QTableWidget>
#include <QTemporaryDir>

#include <cmath>

using namespace looplab;
using namespace looplab::ui;
using looplab::ui::test::example;

namespace {

// Small-oscillation frequency of a rigid body on a fixed horizontal pivot:
// f = √(m g d / I_O) / 2π, I_O = I_G + m d² (parallel axes) [Hz].
double compoundPendulumHz(double m, double g, double d, double inertiaAboutCentre)
{
    return std::sqrt(m * g * d / (inertiaAboutCentre + m * d * d)) / (2.0 * M_PI);
}

// Rotation angle between two orientations [rad].
double angleBetween(const Eigen::Isometry3d& a, const Eigen::Isometry3d& b)
{
    return Eigen::AngleAxisd(a.linear() * b.linear().transpose()).angle();
}

// A double pendulum hanging along −y: link "upper" (0.5 m, pivot A at the origin) driven
// at 1 rad/s by "motor", link "lower" (2 kg, centre 0.4 m below pivot B, I_G = 0.01 kg m²).
const char* kDrivenDoublePendulum = R"({
  "format": "looplab-model", "version": 1, "name": "Driven double pendulum",
  "gravity": [0, -9.81, 0],
  "bodies": [
    {"name": "upper", "mass": 1.0, "inertia": [0.02, 0.002, 0.02], "position": [0, -0.25, 0],
     "shape": {"type": "box", "size": [0.03, 0.5, 0.03]}},
    {"name": "lower", "mass": 2.0, "inertia": [0.01, 0.001, 0.01], "position": [0, -0.9, 0],
     "shape": {"type": "box", "size": [0.03, 0.8, 0.03], "offset": [0, 0, 0]}}
  ],
  "joints": [
    {"name": "A", "type": "revolute", "body1": "ground", "body2": "upper", "point": [0, 0, 0], "axis": [0, 0, 1]},
    {"name": "B", "type": "revolute", "body1": "upper", "body2": "lower", "point": [0, -0.5, 0], "axis": [0, 0, 1]}
  ],
  "drivers": [
    {"name": "motor", "joint": "A", "law": {"type": "constant_velocity", "initial": 0.0, "rate": 1.0}}
  ]
})";

// One body, no joint, under gravity: no static equilibrium exists.
const char* kFallingBody = R"({
  "format": "looplab-model", "version": 1, "name": "Falling body",
  "gravity": [0, -9.81, 0],
  "bodies": [{"name": "stone", "mass": 1.0, "inertia": [0.01, 0.01, 0.01], "position": [0, 1, 0],
              "shape": {"type": "sphere", "radius": 0.05}}]
})";

// The example cantilever's beam with nothing holding it (no joint, no gravity): five
// rigid-body modes (no torsion coordinate in the cable element), then f_n = (β_n L)² √(EI/ρA) / (2π L²), β₁L = 4.7300, each twice.
const char* kFreeFreeBeam = R"({
  "format": "looplab-model", "version": 1, "name": "Free-free beam",
  "gravity": [0, 0, 0],
  "beams": [{"name": "beam", "from": [0, 0, 0], "to": [1, 0, 0], "elements": 16,
             "material": {"young_modulus": 210000000000.0, "poisson_ratio": 0.3, "density": 7850},
             "section": {"type": "rectangle", "width": 0.02, "height": 0.02}}]
})";

}  // namespace

class TestModesPanel : public QObject {
    Q_OBJECT

public:
    static void initMain() { QSurfaceFormat::setDefaultFormat(VtkViewport::defaultFormat()); }

private slots:
    void initTestCase() { test::useThrowAwaySettings("tst_modespanel"); }
    void init()
    {
        window_ = test::shownWindow();
        QVERIFY(window_);
        // The panel shares its place with the run settings; bring it to the front so that
        // its widgets take clicks.
        auto* dock = window_->findChild<QDockWidget*>("modesDock");
        QVERIFY(dock);
        dock->raise();
        QCoreApplication::processEvents();
    }
    void cleanup() { window_.reset(); }

    void pendulumFrequencyAndFigures();
    void fourBarFrequency();
    void animationAmplitudeAndRest();
    void returnsToRecording();
    void exportsModeTable();
    void scalingChoices();
    void cancelsAndReportsFailure();
    void modesAlongRecordedMotion();
    void rigidBodyModesMarked();

private:
    /// Sets the panel to `count` modes and clicks Compute; true once the result is shown.
    bool computeThroughPanel(int count);
    /// The pendulum example's frequency from its own numbers.
    double pendulumHz() const;

    std::unique_ptr<MainWindow> window_;
};

bool TestModesPanel::computeThroughPanel(int count)
{
    ModesPanel* panel = window_->modesPanel();
    panel->countBox()->setValue(count);
    QSignalSpy finished(window_.get(), &MainWindow::modesFinished);
    if (!panel->computeButton()->isEnabled())
        return false;
    QTest::mouseClick(panel->computeButton(), Qt::LeftButton);
    // While it runs: Compute is off, Cancel on.
    if (finished.count() == 0 && (panel->computeButton()->isEnabled() || !panel->cancelButton()->isEnabled()))
        return false;
    return test::waitForSignals(finished, "the modes to be computed");
}

double TestModesPanel::pendulumHz() const
{
    const ModelDocument& doc = window_->document()->document();
    const BodyDoc& bob = doc.bodies.at(0);
    // Pivot at the origin, axis z: d is the centre's distance from it, I_G the z inertia.
    const double d = bob.position.norm();
    return compoundPendulumHz(bob.mass, -doc.gravity.y(), d, bob.inertia(2, 2));
}

void TestModesPanel::pendulumFrequencyAndFigures()
{
    QVERIFY(window_->openFile(example("pendulum.json")));
    QVERIFY(computeThroughPanel(1));
    ModesPanel* panel = window_->modesPanel();
    QVERIFY2(window_->lastModes().ok, qPrintable(panel->statusText()));
    QCOMPARE(panel->table()->rowCount(), 1);
    const double expected = pendulumHz();
    const double shown = panel->table()->item(0, 0)->text().toDouble();
    const double computed = window_->lastModes().modes.modes.at(0).frequencyHz;
    qInfo("pendulum: panel shows %s Hz, computed %.12f Hz, analytic %.12f Hz (relative difference %.2e)",
          qPrintable(panel->table()->item(0, 0)->text()), computed, expected, std::abs(computed - expected) / expected);
    QVERIFY2(std::abs(computed - expected) <= 1e-8 * expected, qPrintable(QString::number(computed, 'g', 15)));
    // The table shows eight significant digits.
    QVERIFY(std::abs(shown - expected) <= 1e-7 * expected);
    QCOMPARE(panel->table()->item(0, 1)->text().toDouble(), 0.0);
    qInfo("summary: %s", qPrintable(panel->summaryText()));
    qInfo("status: %s", qPrintable(panel->statusText()));
    const ModesResult& r = window_->lastModes().modes;
    for (const QString& part : {QString("β = %1").arg(r.scaling, 0, 'g', 3),
                                QString("%1 unscaled").arg(r.conditionUnscaled, 0, 'g', 3),
                                QString("%1 scaled").arg(r.conditionScaled, 0, 'g', 3),
                                QString("largest difference %1").arg(r.denseDifference, 0, 'g', 3),
                                QString("%1 spurious").arg(r.spuriousRejected)})
        QVERIFY2(panel->summaryText().contains(part), qPrintable(part));
    QVERIFY(r.denseChecked);
    QVERIFY(!panel->cancelButton()->isEnabled());
    QVERIFY(panel->computeButton()->isEnabled());
    QVERIFY(panel->exportButton()->isEnabled());
}

// The four-bar example as a planar one-degree-of-freedom system in its crank angle θ:
// closed-form loop closure, potential V(θ) = g Σ mᵢ yᵢ, reduced inertia
// I(θ) = Σ mᵢ |dGᵢ/dθ|² + I_zz,ᵢ (dφᵢ/dθ)², the equilibrium where V′ = 0 and
// ω² = V″ / I there (derivatives by central differences of the closed form). Nothing of
// the core's linearisation or eigensolver is used.
struct PlanarFourBar {
    Eigen::Vector2d A, D;        // ground pivots
    double crank, coupler, rocker;
    double side;                 // which of the two assembly branches (sign of a cross product)
    // Centre of each link in the frame of its two pivots (along, across), mass, I_zz.
    Eigen::Vector2d local[3];
    double mass[3], inertia[3];
    double g;

    static Eigen::Vector2d xy(const Vec3& v) { return {v.x(), v.y()}; }
    static double cross(const Eigen::Vector2d& a, const Eigen::Vector2d& b) { return a.x() * b.y() - a.y() * b.x(); }

    // Pivots B (crank–coupler) and C (coupler–rocker) at crank angle θ.
    void pivots(double theta, Eigen::Vector2d& B, Eigen::Vector2d& C) const
    {
        B = A + crank * Eigen::Vector2d(std::cos(theta), std::sin(theta));
        const Eigen::Vector2d BD = D - B;
        const double l = BD.norm();
        const double along = (coupler * coupler - rocker * rocker + l * l) / (2.0 * l);
        const double across = std::sqrt(std::max(coupler * coupler - along * along, 0.0));
        const Eigen::Vector2d e = BD / l, n(-e.y(), e.x());
        C = B + along * e + side * across * n;
    }
    // Centres and angles of the three links.
    void links(double theta, Eigen::Vector2d G[3], double phi[3]) const
    {
        Eigen::Vector2d B, C;
        pivots(theta, B, C);
        const Eigen::Vector2d from[3] = {A, B, D}, to[3] = {B, C, C};
        for (int i = 0; i < 3; ++i) {
            const Eigen::Vector2d e = (to[i] - from[i]).normalized(), n(-e.y(), e.x());
            G[i] = from[i] + local[i].x() * e + local[i].y() * n;
            phi[i] = std::atan2(e.y(), e.x());
        }
    }
    double potential(double theta) const
    {
        Eigen::Vector2d G[3];
        double phi[3];
        links(theta, G, phi);
        double v = 0.0;
        for (int i = 0; i < 3; ++i)
            v += mass[i] * g * G[i].y();
        return v;
    }
    double reducedInertia(double theta) const
    {
        const double h = 1e-6;
        Eigen::Vector2d Gp[3], Gm[3];
        double pp[3], pm[3];
        links(theta + h, Gp, pp);
        links(theta - h, Gm, pm);
        double inertiaSum = 0.0;
        for (int i = 0; i < 3; ++i) {
            const Eigen::Vector2d dG = (Gp[i] - Gm[i]) / (2 * h);
            const double dphi = std::remainder(pp[i] - pm[i], 2 * M_PI) / (2 * h);
            inertiaSum += mass[i] * dG.squaredNorm() + inertia[i] * dphi * dphi;
        }
        return inertiaSum;
    }
    double slope(double theta) const
    {
        const double h = 1e-5;
        return (potential(theta + h) - potential(theta - h)) / (2 * h);
    }
    double curvature(double theta) const
    {
        const double h = 1e-4;
        return (potential(theta + h) - 2 * potential(theta) + potential(theta - h)) / (h * h);
    }
    // The root of V′ bracketed in [lo, hi], by bisection.
    double equilibrium(double lo, double hi) const
    {
        for (int k = 0; k < 200 && hi - lo > 1e-13; ++k) {
            const double mid = 0.5 * (lo + hi);
            ((slope(lo) < 0) == (slope(mid) < 0) ? lo : hi) = mid;
        }
        return 0.5 * (lo + hi);
    }
};

void TestModesPanel::fourBarFrequency()
{
    QVERIFY(window_->openFile(example("four-bar.json")));
    QVERIFY(computeThroughPanel(1));
    ModesPanel* panel = window_->modesPanel();
    const ModesComputation& r = window_->lastModes();
    QVERIFY2(r.ok, qPrintable(panel->statusText()));

    // The planar model from the document's numbers.
    const ModelDocument& doc = window_->document()->document();
    PlanarFourBar bar;
    auto jointPoint = [&](const char* name) {
        for (const JointDoc& j : doc.joints)
            if (j.name == name)
                return PlanarFourBar::xy(j.point);
        return Eigen::Vector2d(Eigen::Vector2d::Constant(NAN));
    };
    bar.A = jointPoint("A");
    const Eigen::Vector2d B0 = jointPoint("B"), C0 = jointPoint("C");
    bar.D = jointPoint("D");
    bar.crank = (B0 - bar.A).norm();
    bar.coupler = (C0 - B0).norm();
    bar.rocker = (C0 - bar.D).norm();
    bar.side = PlanarFourBar::cross(bar.D - B0, C0 - B0) > 0 ? 1.0 : -1.0;
    bar.g = -doc.gravity.y();
    const Eigen::Vector2d from[3] = {bar.A, B0, bar.D}, to[3] = {B0, C0, C0};
    for (int i = 0; i < 3; ++i) {
        const BodyDoc& body = doc.bodies.at(size_t(i));
        const Eigen::Vector2d e = (to[i] - from[i]).normalized(), n(-e.y(), e.x());
        const Eigen::Vector2d rel = PlanarFourBar::xy(body.position) - from[i];
        bar.local[i] = Eigen::Vector2d(rel.dot(e), rel.dot(n));
        bar.mass[i] = body.mass;
        bar.inertia[i] = body.inertia(2, 2);  // bodies turn about their z axis, parallel to global z
    }
    // The closed form reproduces the document's assembled pose.
    Eigen::Vector2d B, C;
    bar.pivots(std::atan2(B0.y() - bar.A.y(), B0.x() - bar.A.x()), B, C);
    QVERIFY((C - C0).norm() < 1e-12);

    // The crank angle at the core's equilibrium, and the analytic equilibrium near it.
    const Model& model = *r.model;
    const Vec3 crankCentre = bodyPosition(model, r.equilibrium, BodyIndex(1));
    const double coreTheta = std::atan2(crankCentre.y() - bar.A.y(), crankCentre.x() - bar.A.x()) -
                             std::atan2(bar.local[0].y(), bar.local[0].x());
    const double theta = bar.equilibrium(coreTheta - 0.05, coreTheta + 0.05);
    QVERIFY(std::abs(bar.slope(theta)) < 1e-9);
    const double omega2 = bar.curvature(theta) / bar.reducedInertia(theta);
    QVERIFY(omega2 > 0.0);  // a stable posture: the crank hangs down
    const double expected = std::sqrt(omega2) / (2.0 * M_PI);
    const double computed = r.modes.modes.at(0).frequencyHz;
    qInfo("four-bar: equilibrium crank angle %.9f rad (planar %.9f), %s Hz in the panel, %.10f Hz computed, %.10f Hz "
          "planar (relative difference %.2e); %s",
          coreTheta, theta, qPrintable(panel->table()->item(0, 0)->text()), computed, expected,
          std::abs(computed - expected) / expected, qPrintable(panel->summaryText()));
    QVERIFY(std::abs(std::remainder(coreTheta - theta, 2 * M_PI)) < 1e-6);
    QVERIFY2(std::abs(computed - expected) <= 2e-7 * expected, qPrintable(QString::number(computed, 'g', 12)));
    QCOMPARE(panel->table()->rowCount(), 1);
}

void TestModesPanel::animationAmplitudeAndRest()
{
    QVERIFY(window_->openFile(example("pendulum.json")));
    QVERIFY(computeThroughPanel(1));
    ModesPanel* panel = window_->modesPanel();
    panel->amplitudeSlider()->setValue(10);
    // Clicking the row animates it.
    const QRect cell = panel->table()->visualItemRect(panel->table()->item(0, 0));
    QTest::mouseClick(panel->table()->viewport(), Qt::LeftButton, {}, cell.center());
    const ModeShapeAnimation* animation = window_->modeAnimation();
    QVERIFY(animation);
    QCOMPARE(window_->playbackBar()->source(), static_cast<const FrameSource*>(animation));
    QVERIFY(window_->playbackBar()->isPlaying());
    window_->playbackBar()->pause();
    VtkViewport* view = window_->viewport();
    QCOMPARE(view->ghostCount(), 1);
    const Eigen::Isometry3d rest = view->ghostPose(0);

    // The model's size and the largest lever arm, from the example's shape: a ball of
    // radius r at the bob, d below the pivot at the equilibrium. The drawn points are the
    // corners of its bounding box and the pivot: a box 2r wide and deep, d + r high.
    const ModelDocument& doc = window_->document()->document();
    const double r = doc.bodies.at(0).shape.radius;
    const double d = doc.bodies.at(0).position.norm();
    const double modelSize = std::sqrt(8.0 * r * r + (d + r) * (d + r));
    const double lever = std::hypot(r, d + r);  // farthest corner from the pivot axis
    QVERIFY(std::abs(animation->modelSize() - modelSize) <= 1e-12);

    const int quarter = ModeShapeAnimation::kFramesPerCycle / 4;  // sin = 1
    for (int percent : {10, 20}) {
        panel->amplitudeSlider()->setValue(percent);
        window_->playbackBar()->setCurrentFrame(quarter);
        const Eigen::Isometry3d peak = view->bodyPose(0);
        // The bob turns about the pivot by the angle that moves its farthest corner by
        // the fraction of the model's size; its centre moves by that angle × d.
        const double alpha = percent / 100.0 * modelSize / lever;
        const double turned = angleBetween(peak, rest);
        const double moved = (peak.translation() - rest.translation()).norm();
        qInfo("amplitude %d %%: turned %.9f rad (expected %.9f), centre moved %.9f m (expected %.9f)", percent,
              turned, alpha, moved, alpha * d);
        QVERIFY(std::abs(turned - alpha) <= 1e-7 * alpha);
        QVERIFY(std::abs(moved - alpha * d) <= 1e-7 * alpha * d);
        // The ghost stays at the equilibrium.
        QVERIFY((view->ghostPose(0).matrix() - rest.matrix()).norm() <= 1e-12);
    }
    // Every frame keeps a unit quaternion; phase 0 and π are the equilibrium itself.
    for (int i = 0; i < animation->frameCount(); ++i) {
        const State s = animation->frameState(i);
        QVERIFY(std::abs(s.q.segment<4>(3).norm() - 1.0) <= 1e-14);
    }
    for (int i : {0, ModeShapeAnimation::kFramesPerCycle / 2, ModeShapeAnimation::kFramesPerCycle}) {
        window_->playbackBar()->setCurrentFrame(i);
        QVERIFY2((view->bodyPose(0).matrix() - rest.matrix()).norm() <= 1e-14, qPrintable(QString::number(i)));
        QVERIFY((animation->frameState(i).q - animation->equilibrium().q).norm() == 0.0);
    }
}

void TestModesPanel::returnsToRecording()
{
    QVERIFY(window_->openFile(example("pendulum.json")));
    window_->runPanel()->setSettings(test::runSettings("projection", 0.5));
    QVERIFY(test::runToEnd(*window_, true));
    PlaybackBar* playback = window_->playbackBar();
    playback->setCurrentFrame(20);
    const Eigen::Isometry3d recorded = window_->viewport()->bodyPose(0);
    QVERIFY(computeThroughPanel(1));
    ModesPanel* panel = window_->modesPanel();
    panel->table()->selectRow(0);
    QVERIFY(window_->modeAnimation());
    QCOMPARE(window_->viewport()->ghostCount(), 1);
    playback->setCurrentFrame(5);
    QTest::mouseClick(panel->showRecordingButton(), Qt::LeftButton);
    QVERIFY(!window_->modeAnimation());
    QCOMPARE(playback->source(), static_cast<const FrameSource*>(&window_->recording()));
    QCOMPARE(playback->currentFrame(), 20);
    QCOMPARE(window_->viewport()->ghostCount(), 0);
    QVERIFY((window_->viewport()->bodyPose(0).matrix() - recorded.matrix()).norm() <= 1e-14);
    QCOMPARE(panel->selectedMode(), -1);
    // Playback of the recording works as before.
    playback->setCurrentFrame(40);
    const Scene expected = window_->recording().frameScene(40);
    QVERIFY((window_->viewport()->bodyPose(0).translation() - expected.bodies.at(0).position).norm() <= 1e-14);
}

void TestModesPanel::exportsModeTable()
{
    QVERIFY(window_->openFile(example("pendulum.json")));
    QVERIFY(computeThroughPanel(1));
    QTemporaryDir dir;
    const QString path = dir.filePath("modes.csv");
    {
        QFile old(path);
        QVERIFY(old.open(QIODevice::WriteOnly));
        old.write("old contents\n");
    }
    QString error;
    QVERIFY2(window_->exports()->exportModeTable(path, &error), qPrintable(error));
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly | QIODevice::Text));
    const QStringList lines = QString::fromUtf8(file.readAll()).split('\n', Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 2);
    const QStringList header = lines[0].split(',');
    const QStringList row = lines[1].split(',');
    // 6 velocity coordinates of the bob and the revolute joint's 5 equations.
    QCOMPARE(header.size(), 4 + 6 + 5);
    QCOMPARE(row.size(), header.size());
    QCOMPARE(header.mid(0, 5), QStringList({"mode", "frequency_hz", "damping_ratio", "squared_frequency", "shape.bob.x"}));
    QCOMPARE(header[9], QString("shape.bob.rz"));
    QVERIFY(header[10].startsWith("lambda.pivot."));
    QCOMPARE(row[0], QString("1"));
    const double f = row[1].toDouble(), expected = pendulumHz();
    QVERIFY(std::abs(f - expected) <= 1e-8 * expected);
    QCOMPARE(row[2].toDouble(), 0.0);
    QVERIFY(std::abs(row[3].toDouble() - std::pow(2.0 * M_PI * f, 2)) <= 1e-12 * row[3].toDouble());
    // Unit modal mass about the pivot: I_O θ² = 1, so the rotation entry is 1/√I_O.
    const BodyDoc& bob = window_->document()->document().bodies.at(0);
    const double inertiaPivot = bob.inertia(2, 2) + bob.mass * bob.position.squaredNorm();
    QVERIFY(std::abs(std::abs(row[9].toDouble()) - 1.0 / std::sqrt(inertiaPivot)) <= 1e-9);
    // Nothing left behind but the file itself.
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList({"modes.csv"}));
    // An unwritable place is reported, not ignored.
    QVERIFY(!window_->exports()->exportModeTable(dir.filePath("no/such/dir/modes.csv"), &error));
    QVERIFY(!error.isEmpty());
}

void TestModesPanel::scalingChoices()
{
    QVERIFY(window_->openFile(example("pendulum.json")));
    ModesPanel* panel = window_->modesPanel();
    QVERIFY(computeThroughPanel(1));
    const double automaticBeta = window_->lastModes().modes.scaling;
    const double automaticHz = window_->lastModes().modes.modes.at(0).frequencyHz;
    // A β that is not a positive number is refused with the reason.
    panel->scalingBox()->setCurrentIndex(2);
    QVERIFY(panel->scalingEdit()->isEnabled());
    panel->scalingEdit()->setText("-3");
    QVERIFY(computeThroughPanel(1));
    QVERIFY(!window_->lastModes().ok);
    QVERIFY2(panel->statusText().contains("finite positive"), qPrintable(panel->statusText()));
    QCOMPARE(panel->table()->rowCount(), 0);
    // The automatic β entered as a value gives the same result.
    panel->scalingEdit()->setText(QString::number(automaticBeta, 'g', 17));
    QVERIFY(computeThroughPanel(1));
    QVERIFY2(window_->lastModes().ok, qPrintable(panel->statusText()));
    QCOMPARE(window_->lastModes().modes.scaling, automaticBeta);
    QCOMPARE(window_->lastModes().modes.modes.at(0).frequencyHz, automaticHz);
    // Unscaled (β = 1): the condition numbers before and after are the same.
    panel->scalingBox()->setCurrentIndex(1);
    QVERIFY(computeThroughPanel(1));
    QVERIFY(window_->lastModes().ok);
    QCOMPARE(window_->lastModes().modes.scaling, 1.0);
    QCOMPARE(window_->lastModes().modes.conditionScaled, window_->lastModes().modes.conditionUnscaled);
    qInfo("unscaled: %s", qPrintable(panel->summaryText()));
    // A set shift: the automatic one of the first run gives the same frequency.
    panel->scalingBox()->setCurrentIndex(0);
    panel->shiftAutomaticBox()->setChecked(false);
    QVERIFY(panel->shiftEdit()->isEnabled());
    panel->shiftEdit()->setText("-0.5");
    QVERIFY(computeThroughPanel(1));
    QVERIFY(window_->lastModes().ok);
    QCOMPARE(window_->lastModes().modes.shift, -0.5);
    QVERIFY(std::abs(window_->lastModes().modes.modes.at(0).frequencyHz - automaticHz) <= 1e-10 * automaticHz);
}

void TestModesPanel::cancelsAndReportsFailure()
{
    QVERIFY(window_->openFile(example("pendulum.json")));
    ModesPanel* panel = window_->modesPanel();
    QSignalSpy finished(window_.get(), &MainWindow::modesFinished);
    QTest::mouseClick(panel->computeButton(), Qt::LeftButton);
    QVERIFY(panel->cancelButton()->isEnabled());
    QTest::mouseClick(panel->cancelButton(), Qt::LeftButton);
    QCOMPARE(finished.count(), 1);
    QVERIFY(finished.front().front().value<ModesComputation>().cancelled);
    QCOMPARE(panel->statusText(), QString("Cancelled"));
    QVERIFY(panel->computeButton()->isEnabled());
    // What the cancelled computation still produces is dropped.
    QTest::qWait(300);
    QCOMPARE(finished.count(), 1);
    QCOMPARE(panel->table()->rowCount(), 0);

    // A free body under gravity has no equilibrium: the panel gives the solver's reason.
    QTemporaryDir dir;
    const QString path = dir.filePath("falling.json");
    {
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(kFallingBody);
    }
    QVERIFY(window_->openFile(path));
    QVERIFY(computeThroughPanel(1));
    const ModesComputation& r = window_->lastModes();
    QVERIFY(!r.ok);
    State s = window_->document()->loaded().initial;
    const StaticsResult direct = findEquilibrium(*window_->document()->loaded().model, s);
    QVERIFY(!direct.ok);
    qInfo("falling body: %s", qPrintable(panel->statusText()));
    QVERIFY2(panel->statusText().contains("no equilibrium: " + QString::fromStdString(direct.message)),
             qPrintable(panel->statusText()));
    QVERIFY(!panel->exportButton()->isEnabled());
}

void TestModesPanel::modesAlongRecordedMotion()
{
    QTemporaryDir dir;
    const QString path = dir.filePath("driven-double-pendulum.json");
    {
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(kDrivenDoublePendulum);
    }
    QString error;
    QVERIFY2(window_->openFile(path, &error), qPrintable(error));
    window_->runPanel()->setSettings(test::runSettings("projection", 1.0));
    QVERIFY(test::runToEnd(*window_, true));
    ModesPanel* panel = window_->modesPanel();
    QCOMPARE(panel->driverBox()->currentText(), QString("motor"));
    QVERIFY(panel->alongButton()->isEnabled());
    panel->countBox()->setValue(1);
    panel->alongStepsBox()->setValue(6);
    QSignalSpy finished(window_.get(), &MainWindow::modesAlongMotionFinished);
    QTest::mouseClick(panel->alongButton(), Qt::LeftButton);
    QVERIFY(test::waitForSignals(finished, "the modes along the motion"));
    const auto result = finished.front().front().value<AlongMotionComputation>();
    QVERIFY2(result.ok, qPrintable(result.message));
    QCOMPARE(int(result.steps.size()), 6);
    // The lower link swings about a fixed pivot at every locked posture.
    const double expected = compoundPendulumHz(2.0, 9.81, 0.4, 0.01);
    const auto series = panel->alongChart()->series();
    QCOMPARE(series.size(), 1);
    auto* curve = qobject_cast<QLineSeries*>(series.front());
    QVERIFY(curve);
    QCOMPARE(curve->count(), 6);
    double worst = 0.0;
    for (int i = 0; i < curve->count(); ++i) {
        QCOMPARE(curve->at(i).x(), i / 5.0);  // the recording's 0 … 1 s
        worst = std::max(worst, std::abs(curve->at(i).y() - expected) / expected);
        // The driver really was locked where its law had it.
        QVERIFY(std::abs(result.steps[size_t(i)].coordinate - i / 5.0) <= 1e-15);
    }
    qInfo("along the motion: %d postures, worst relative difference %.2e from %.9f Hz in %.2f s", curve->count(),
          worst, expected, result.wallTime);
    QVERIFY(worst <= 1e-8);

    // A long sweep is cancelled at once; the curves already shown stay until a result
    // replaces them, and what the sweep still sends is dropped.
    panel->alongStepsBox()->setValue(500);
    QTest::mouseClick(panel->alongButton(), Qt::LeftButton);
    QVERIFY(!panel->alongButton()->isEnabled());
    QVERIFY(panel->cancelButton()->isEnabled());
    QTest::mouseClick(panel->cancelButton(), Qt::LeftButton);
    QCOMPARE(finished.count(), 2);
    QVERIFY(finished.back().front().value<AlongMotionComputation>().cancelled);
    QCOMPARE(panel->statusText(), QString("Cancelled"));
    QVERIFY(panel->alongButton()->isEnabled());
    QTest::qWait(300);
    QCOMPARE(finished.count(), 2);
    QCOMPARE(panel->alongChart()->series().size(), 1);
    QCOMPARE(qobject_cast<QLineSeries*>(panel->alongChart()->series().front())->count(), 6);
}

void TestModesPanel::rigidBodyModesMarked()
{
    QTemporaryDir dir;
    const QString path = dir.filePath("free-free.json");
    {
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(kFreeFreeBeam);
    }
    QVERIFY(window_->openFile(path));
    QVERIFY(computeThroughPanel(2));
    ModesPanel* panel = window_->modesPanel();
    QVERIFY2(window_->lastModes().ok, qPrintable(panel->statusText()));
    QCOMPARE(panel->table()->rowCount(), 7);
    for (int row = 0; row < 7; ++row) {
        const bool rigid = panel->table()->item(row, 3)->text().contains("rigid body");
        QCOMPARE(rigid, row < 5);
        if (row < 5)
            QCOMPARE(panel->table()->item(row, 0)->text().toDouble(), 0.0);
    }
    const double EI = 2.1e11 * std::pow(0.02, 4) / 12.0, rhoA = 7850 * 0.02 * 0.02, betaL = 4.730040745;
    const double expected = betaL * betaL * std::sqrt(EI / rhoA) / (2.0 * M_PI);
    for (int row = 5; row < 7; ++row) {
        const double shown = panel->table()->item(row, 0)->text().toDouble();
        qInfo("free-free beam: row %d shows %.8g Hz, closed form %.8g Hz", row + 1, shown, expected);
        QVERIFY(std::abs(shown - expected) <= 0.005 * expected);
    }
    QVERIFY2(panel->summaryText().contains("5 rigid-body mode(s)"), qPrintable(panel->summaryText()));
}

QTEST_MAIN(TestModesPanel)
#include "tst_modespanel.moc"
