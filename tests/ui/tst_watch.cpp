// Watching and measuring in the workbench (ui/watch, ui/plotting, ui/overlays/Arrow*,
// ui/camera): two plot windows and an x–y plot of the crank-rocker's coupler point against
// the closed-form coupler curve; the energy panel's work and balance for the driven
// crank; units in degrees and rpm; velocity and reaction arrows of the pendulum against
// ωL and m(g cos θ + L θ̇²); orthographic views, fit to the run and following a body.
#include "CrankRockerReference.h"
#include "WorkbenchTestSupport.h"

#include "camera/CameraController.h"
#include "overlays/ArrowFeature.h"
#include "overlays/ArrowOverlay.h"
#include "plotting/DisplayUnits.h"
#include "plotting/PlotWindow.h"
#include "plotting/PlotWindows.h"
#include "viewport/VtkViewport.h"
#include "watch/WatchFeature.h"
#include "workbench/PlaybackBar.h"
#include "workbench/PropertyEditor.h"
#include "run/RunPanel.h"
#include "document/WorkbenchDocument.h"
#include "plotting/PlotPanel.h"
#include "recording/SimulationRecording.h"

#include "looplab/model/Model.h"

#include <QAction>
#include <QCheckBox>
#include <QSettings>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QDoubleSpinBox>
#include <QDockWidget>
#include <QLineSeries>
#include <QScatterSeries>
#include <QMenuBar>
#include <QValueAxis>

#include <vtkCamera.h>
#include <vtkRenderer.h>

#include <cmath>

using namespace looplab;
using namespace looplab::ui;

namespace {

QAction* actionNamed(QWidget* window, const char* name)
{
    for (QAction* a : window->findChildren<QAction*>())
        if (a->objectName() == name)
            return a;
    return nullptr;
}

}  // namespace

class TestWatch : public QObject {
    Q_OBJECT

public:
    static void initMain() { QSurfaceFormat::setDefaultFormat(VtkViewport::defaultFormat()); }

private slots:
    void initTestCase() { ui::test::useThrowAwaySettings("tst_watch"); }
    void init()
    {
        DisplayUnits::instance().setAngleUnit(AngleUnit::Radian);
        DisplayUnits::instance().setRateUnit(RateUnit::RadianPerSecond);
        window_ = ui::test::shownWindow();
        QVERIFY(window_);
    }
    void cleanup() { window_.reset(); }

    // Conversions, and the choice kept in the settings.
    void unitConversions()
    {
        UnitChoice si;
        QCOMPARE(si.factor("rad"), 1.0);
        QCOMPARE(si.unit("rad/s"), QString("rad/s"));
        UnitChoice deg{AngleUnit::Degree, RateUnit::RadianPerSecond};
        QVERIFY(std::abs(deg.show(M_PI / 2, "rad").value - 90.0) < 1e-13);
        QCOMPARE(deg.unit("rad"), QString("°"));
        QVERIFY(std::abs(deg.show(M_PI, "rad/s").value - 180.0) < 1e-13);
        QCOMPARE(deg.unit("rad/s"), QString("°/s"));
        QCOMPARE(deg.unit("rad/s²"), QString("°/s²"));
        UnitChoice rpm{AngleUnit::Radian, RateUnit::Rpm};
        // One turn per second is 60 rpm.
        QVERIFY(std::abs(rpm.show(2 * M_PI, "rad/s").value - 60.0) < 1e-12);
        QCOMPARE(rpm.unit("rad/s"), QString("rpm"));
        QVERIFY(std::abs(rpm.toSi(60.0, "rad/s") - 2 * M_PI) < 1e-14);
        // Other units pass unchanged.
        QCOMPARE(rpm.factor("N"), 1.0);
        QCOMPARE(deg.unit("m/s"), QString("m/s"));

        DisplayUnits::instance().setAngleUnit(AngleUnit::Degree);
        DisplayUnits::instance().setRateUnit(RateUnit::Rpm);
        QCOMPARE(QSettings().value("units/angle").toString(), QString("deg"));
        QCOMPARE(QSettings().value("units/rate").toString(), QString("rpm"));
        QSettings().setValue("units/angle", "rad");
        DisplayUnits::instance().reload();
        QCOMPARE(DisplayUnits::instance().choice().angle, AngleUnit::Radian);
        QCOMPARE(DisplayUnits::instance().choice().rate, RateUnit::Rpm);
        // The menu shows the choice and changes it.
        QAction* degrees = actionNamed(window_.get(), "unitsDegrees");
        QVERIFY(degrees);
        QVERIFY(!degrees->isChecked());
        degrees->trigger();
        QCOMPARE(DisplayUnits::instance().choice().angle, AngleUnit::Degree);

        // The property editor reads out and takes angular rates in rpm; the document
        // stays in rad/s.
        QString error;
        QVERIFY2(window_->openFile(ui::test::example("pendulum.json"), &error), qPrintable(error));
        window_->selectItem({ItemKind::Body, 0});
        auto* spin = window_->propertyEditor()->findChild<QDoubleSpinBox*>("angularVelocity.z");
        QVERIFY(spin);
        QVERIFY(spin->suffix().contains("rpm"));
        spin->setValue(60.0);
        QTRY_VERIFY_WITH_TIMEOUT(std::abs(window_->document()->document().bodies[0].angularVelocity.z() - 2 * M_PI) < 1e-12,
                                 ui::test::safetyLimitMs());
        DisplayUnits::instance().setRateUnit(RateUnit::RadianPerSecond);
        spin = window_->propertyEditor()->findChild<QDoubleSpinBox*>("angularVelocity.z");
        QVERIFY(spin);
        QVERIFY2(spin->suffix().contains("°/s"), qPrintable(spin->suffix()));
        QVERIFY(std::abs(spin->value() - 360.0) < 1e-9);

        // The joint-quantity chart of the plot panel draws the pivot angle in degrees, and
        // in radians again when asked; the recorded values do not change.
        window_->runPanel()->setSettings(ui::test::runSettings("projection", 0.5));
        window_->document()->edit("rest", [](ModelDocument& d) { d.bodies[0].angularVelocity.setZero(); });
        QVERIFY(ui::test::runToEnd(*window_, true));
        PlotPanel* panel = window_->plotPanel();
        QVERIFY(panel->setJointQuantity("pivot.angle"));
        const int n = panel->jointQuantitySeries()->count();
        QVERIFY(n > 5);
        const double inDegrees = panel->jointQuantitySeries()->at(n - 1).y();
        const double recorded = window_->recording().frame(window_->recording().frameCount() - 1).jointValues[0];
        QVERIFY(std::abs(recorded) > 0.1);
        QVERIFY2(std::abs(inDegrees - recorded * 180 / M_PI) < 1e-9, qPrintable(QString::number(inDegrees)));
        DisplayUnits::instance().setAngleUnit(AngleUnit::Radian);
        QVERIFY(std::abs(panel->jointQuantitySeries()->at(n - 1).y() - recorded) < 1e-12);
    }

    // Two plot windows on the driven crank-rocker: the crank angle against time in
    // degrees, and the coupler point's y against its x, which must lie on the closed-form
    // coupler curve; the energy panel's work balances the energy.
    void plotWindowsAndCouplerCurve()
    {
        QString error;
        QVERIFY2(window_->openFile(ui::test::example("crank-rocker-coupler-curve.json"), &error), qPrintable(error));
        SimulationSettings s = ui::test::runSettings("projection", 1.0);
        s.outputStep = 0.002;
        s.ode.rtol = 1e-10;
        s.ode.atol = 1e-12;
        window_->runPanel()->setSettings(s);
        QVERIFY(ui::test::runToEnd(*window_, true));
        const SimulationRecording& rec = window_->recording();
        QCOMPARE(rec.frameCount(), 501);

        PlotWindows* plots = window_->watch()->plotWindows();
        QAction* newPlot = actionNamed(window_.get(), "newPlotWindow");
        QVERIFY(newPlot);
        newPlot->trigger();
        newPlot->trigger();
        QCOMPARE(int(plots->windows().size()), 2);
        PlotWindow* angle = plots->windows()[0];
        PlotWindow* curve = plots->windows()[1];
        QVERIFY(angle->isVisible() && curve->isVisible());

        // Crank angle against time, in degrees: 360° over the one-second turn.
        QVERIFY(angle->setXQuantity("t"));
        QVERIFY(angle->setYQuantity("A.angle"));
        DisplayUnits::instance().setAngleUnit(AngleUnit::Degree);
        QCOMPARE(angle->series()->count(), 501);
        const QPointF first = angle->series()->at(0), last = angle->series()->at(500);
        QVERIFY2(std::abs(last.y() - first.y() - 360.0) < 1e-6, qPrintable(QString::number(last.y() - first.y())));
        QVERIFY(angle->yAxis()->titleText().contains("°"));
        // Its rate in rpm: one turn per second is 60 rpm, flat, and the axis says so.
        DisplayUnits::instance().setRateUnit(RateUnit::Rpm);
        QVERIFY(angle->setYQuantity("A.angle.rate"));
        for (int i = 0; i < angle->series()->count(); i += 50)
            QVERIFY(std::abs(angle->series()->at(i).y() - 60.0) < 1e-6);
        QVERIFY2(angle->yAxis()->titleText().contains("rpm") && angle->yAxis()->titleText().contains("constant"),
                 qPrintable(angle->yAxis()->titleText()));
        QVERIFY(angle->yAxis()->min() < 60.0 && angle->yAxis()->max() > 60.0);

        // x–y: the coupler point's path against the closed form.
        QVERIFY(curve->setXQuantity("coupler-point.position.x"));
        QVERIFY(curve->setYQuantity("coupler-point.position.y"));
        QCOMPARE(curve->series()->count(), 501);
        PointTrace plotted;
        for (int i = 0; i < curve->series()->count(); ++i) {
            plotted.times.push_back(rec.frameTime(i));
            plotted.positions.emplace_back(curve->series()->at(i).x(), curve->series()->at(i).y(), 0.0);
        }
        const ModelDocument& doc = window_->document()->document();
        const double err = looplab::test::traceError(plotted, looplab::test::crankRockerFromFile(doc),
                                                     looplab::test::crankRate(doc));
        qInfo("x–y plot of the coupler point: largest distance from the closed-form curve %.2e m", err);
        QVERIFY2(err < 1e-7, qPrintable(QString::number(err)));
        QVERIFY(curve->windowTitle().contains("against"));
        QVERIFY2(curve->xAxis()->titleText() == "coupler-point position x [m]", qPrintable(curve->xAxis()->titleText()));
        QVERIFY(curve->yAxis()->titleText() == "coupler-point position y [m]");
        QDir().mkpath(QStringLiteral(LOOPLAB_SCREENSHOT_DIR));
        QTest::qWait(100);  // Qt Charts lays out the new titles in the event loop
        QVERIFY(curve->grab().save(QStringLiteral(LOOPLAB_SCREENSHOT_DIR) + "/watch-xy-plot.png"));

        // Playback marks the frame shown with a dot on the curve.
        window_->playbackBar()->setCurrentFrame(123);
        QCOMPARE(curve->cursor()->count(), 1);
        QCOMPARE(curve->cursor()->at(0), curve->series()->at(123));

        // The transmission angle is offered for a four-bar.
        QVERIFY(curve->setYQuantity("four-bar.transmission_angle"));
        QVERIFY(curve->setXQuantity("t"));
        QCOMPARE(curve->series()->count(), 501);

        // Energy panel: the motor's work, and the balance near zero.
        PlotPanel* panel = window_->plotPanel();
        QVERIFY(panel->workSeries()->isVisible());
        QVERIFY(panel->balanceSeries()->isVisible());
        double largestWork = 0.0, largestBalance = 0.0;
        for (int i = 0; i < panel->workSeries()->count(); ++i)
            largestWork = std::max(largestWork, std::abs(panel->workSeries()->at(i).y()));
        for (int i = 0; i < panel->balanceSeries()->count(); ++i)
            largestBalance = std::max(largestBalance, std::abs(panel->balanceSeries()->at(i).y()));
        qInfo("energy panel: largest |W| %.4f J, largest |E − E0 − W| %.2e J", largestWork, largestBalance);
        QVERIFY(largestWork > 0.05);
        // Trapezoidal rule over 2 ms frames: h²/12 · |P̈| · T ≈ 1.3e-5 J.
        QVERIFY(largestBalance < 5e-5);
        // The same numbers in a plot window.
        QVERIFY(curve->setYQuantity("energy.balance"));
        double windowBalance = 0.0;
        for (int i = 0; i < curve->series()->count(); ++i)
            windowBalance = std::max(windowBalance, std::abs(curve->series()->at(i).y()));
        QVERIFY(std::abs(windowBalance - largestBalance) < 1e-12);

        // The windows close like any dock.
        qobject_cast<QDockWidget*>(angle->parentWidget())->close();
        QTRY_COMPARE_WITH_TIMEOUT(int(plots->windows().size()), 1, ui::test::safetyLimitMs());
    }

    // Pendulum arrows at a frame of playback: the velocity arrow of the bob is ω L · scale
    // long along the tangent; the pivot's force arrow has m (g cos θ + L θ̇²) along the rod.
    void arrowsOfThePendulum()
    {
        QString error;
        QVERIFY2(window_->openFile(ui::test::example("pendulum.json"), &error), qPrintable(error));
        SimulationSettings s = ui::test::runSettings("projection", 1.0);
        s.ode.rtol = 1e-10;
        s.ode.atol = 1e-12;
        window_->runPanel()->setSettings(s);
        QVERIFY(ui::test::runToEnd(*window_, true));
        ArrowFeature* arrows = window_->watch()->arrows();
        QCheckBox* velocityBox = arrows->findChild<QCheckBox*>("arrowVelocity");
        QCheckBox* forceBox = arrows->findChild<QCheckBox*>("arrowReactionForce");
        QVERIFY(velocityBox && forceBox);
        velocityBox->click();
        forceBox->click();
        arrows->setScale(ArrowKind::Velocity, 0.25);
        arrows->setScale(ArrowKind::ReactionForce, 0.02);
        const Model& m = *window_->recording().frameModel();
        const double mass = m.bodies[1].rigid()->mass(), g = 9.81, L = 1.0;
        const double Ip = m.bodies[1].rigid()->inertia()(2, 2) + mass * L * L;
        for (int frame : {20, 45, 80}) {
            window_->playbackBar()->setCurrentFrame(frame);
            const State st = window_->recording().frameState(frame);
            const Vec3 r = bodyPosition(m, st, BodyIndex(1));
            const double theta = std::atan2(r.x(), -r.y());
            const double omega2 = 2 * mass * g * L * (std::cos(theta) - std::cos(2 * M_PI / 3)) / Ip;
            const ArrowOverlay& overlay = arrows->overlay();
            QCOMPARE(overlay.arrowCount(ArrowKind::Velocity), 1);
            QCOMPARE(overlay.arrowCount(ArrowKind::ReactionForce), 1);
            QCOMPARE(overlay.arrowCount(ArrowKind::Acceleration), 0);
            QVERIFY2(std::abs(overlay.drawnLength(ArrowKind::Velocity) - std::sqrt(omega2) * L * 0.25) < 1e-6,
                     qPrintable(QString::number(overlay.drawnLength(ArrowKind::Velocity))));
            for (const MotionArrow& a : arrows->arrows()) {
                if (a.kind == ArrowKind::Velocity)
                    QVERIFY(std::abs(a.drawn.normalized().dot(r.normalized())) < 1e-6);
                if (a.kind == ArrowKind::ReactionForce)
                    QVERIFY(std::abs(-a.value.dot(r.normalized()) - mass * (g * std::cos(theta) + L * omega2)) < 1e-5);
            }
        }
        const QString legend = QString::fromStdString(arrows->overlay().legendText());
        QVERIFY2(legend.contains("velocity: 1 m/s = 0.25 m") && legend.contains("reaction force: 1 N = 0.02 m"),
                 qPrintable(legend));
        // Something is drawn: the arrows' colours are in the picture.
        QDir().mkpath(QStringLiteral(LOOPLAB_SCREENSHOT_DIR));
        const QImage picture = window_->viewport()->grabFramebuffer();
        QVERIFY(!picture.isNull());
        picture.save(QStringLiteral(LOOPLAB_SCREENSHOT_DIR) + "/watch-arrows.png");
        // Below the legend (the top tenth), so that only the arrow's shaft counts.
        int blue = 0;
        for (int y = picture.height() / 10; y < picture.height(); y += 2)
            for (int x = 0; x < picture.width(); x += 2) {
                const QColor c = picture.pixelColor(x, y);
                blue += c.blue() > 150 && c.red() < 80 && c.green() > 60 && c.green() < 150;
            }
        QVERIFY2(blue > 20, qPrintable(QString::number(blue)));
        // Fitted scales make the longest velocity arrow a quarter of the model's size.
        arrows->fitScales();
        QVERIFY(arrows->scale().velocity > 0.0);
        velocityBox->click();
        QCOMPARE(arrows->overlay().arrowCount(ArrowKind::Velocity), 0);
    }

    // A run ends with all of its motion in the picture. The pendulum, released at 120°,
    // swings to the other side; with the camera brought four times nearer to the start
    // the swing leaves the view, and at the run's end every corner of the box the run
    // sweeps is inside it again. A camera that already shows the whole run is not moved.
    void runEndsWithTheWholeRunInView()
    {
        QString error;
        QVERIFY2(window_->openFile(ui::test::example("pendulum.json"), &error), qPrintable(error));
        window_->runPanel()->setSettings(ui::test::runSettings("projection", 1.5));
        vtkCamera* vc = window_->viewport()->renderer()->GetActiveCamera();
        vc->Dolly(4.0);
        window_->viewport()->renderer()->ResetCameraClippingRange();
        QVERIFY(ui::test::runToEnd(*window_, true));
        CameraController* camera = window_->watch()->camera();
        QVERIFY(camera->showsWholeRun(window_->recording()));
        std::array<double, 6> b{};
        QVERIFY(CameraController::runBounds(window_->recording(), b));
        qInfo("run box x %.3f .. %.3f, y %.3f .. %.3f m", b[0], b[1], b[2], b[3]);
        QVERIFY(b[1] - b[0] > 1.5);  // both sides of the swing
        // The next run sees the whole of its motion already: the camera stays.
        double before[3], after[3];
        vc->GetPosition(before);
        QVERIFY(ui::test::runToEnd(*window_, true));
        vc->GetPosition(after);
        QCOMPARE(std::vector<double>(before, before + 3), std::vector<double>(after, after + 3));
        // Without the fit at the end the dollied camera would not have shown it.
        vc->Dolly(4.0);
        QVERIFY(!camera->showsWholeRun(window_->recording()));
    }

    // Every shipped example opens with a camera of its own, and for those run here that
    // camera already shows the whole of the example's own run: the run's end does not
    // have to move it.
    void everyExampleOpensWithItsRunInView()
    {
        const QStringList files = QDir(ui::test::example("")).entryList({"*.json"}, QDir::Files, QDir::Name);
        QVERIFY(files.size() > 25);
        for (const QString& name : files) {
            QFile file(ui::test::example(qPrintable(name)));
            QVERIFY(file.open(QIODevice::ReadOnly));
            const QJsonObject json = QJsonDocument::fromJson(file.readAll()).object();
            QVERIFY2(json.value("camera").isObject(), qPrintable(name + " stores no camera"));
        }
        // The small ones: a swing, a rocker, a bounce, a slider, a clamp.
        for (const char* name : {"pendulum.json", "non-grashof-four-bar.json", "spring-mass.json", "slider-crank.json",
                                 "toggle-clamp.json"}) {
            QFile file(ui::test::example(name));
            QVERIFY(file.open(QIODevice::ReadOnly));
            const QJsonArray stored =
                QJsonDocument::fromJson(file.readAll()).object().value("camera").toObject().value("position").toArray();
            QCOMPARE(stored.size(), 3);
            QString error;
            QVERIFY2(window_->openFile(ui::test::example(name), &error), qPrintable(error));
            vtkCamera* c = window_->viewport()->renderer()->GetActiveCamera();
            double before[3], after[3];
            // The model's camera replaces the view's own framing once the window has drawn it.
            QVERIFY(ui::test::waitUntil(
                [&] {
                    c->GetPosition(before);
                    return std::abs(before[0] - stored[0].toDouble()) < 1e-9 &&
                           std::abs(before[1] - stored[1].toDouble()) < 1e-9 &&
                           std::abs(before[2] - stored[2].toDouble()) < 1e-9;
                },
                "the model's camera"));
            QVERIFY2(ui::test::runToEnd(*window_, true), name);
            std::array<double, 6> b{};
            QVERIFY(CameraController::runBounds(window_->recording(), b));
            c->GetPosition(after);
            qInfo("%s: run box x %.3f .. %.3f, y %.3f .. %.3f, z %.3f .. %.3f m; camera moved %.2e m at the end", name,
                  b[0], b[1], b[2], b[3], b[4], b[5],
                  std::hypot(after[0] - before[0], after[1] - before[1], after[2] - before[2]));
            QVERIFY2(std::equal(before, before + 3, after), name);
            QVERIFY(window_->watch()->camera()->showsWholeRun(window_->recording()));
        }
    }

    // Orthographic views look along the axes in parallel projection; fit to the run keeps
    // every frame's bodies in the picture; following a body keeps it at the view's centre.
    void cameraViews()
    {
        QString error;
        QVERIFY2(window_->openFile(ui::test::example("crank-rocker-coupler-curve.json"), &error), qPrintable(error));
        window_->runPanel()->setSettings(ui::test::runSettings("projection", 1.0));
        QVERIFY(ui::test::runToEnd(*window_, true));
        CameraController* camera = window_->watch()->camera();
        vtkCamera* vc = window_->viewport()->renderer()->GetActiveCamera();

        actionNamed(window_.get(), "cameraOrthoFront")->trigger();
        QVERIFY(camera->isOrthographic());
        double dop[3];
        vc->GetDirectionOfProjection(dop);
        // Gravity along −y: y is up, the front view looks along −z.
        QVERIFY2(std::abs(dop[2] + 1.0) < 1e-9, qPrintable(QString("%1 %2 %3").arg(dop[0]).arg(dop[1]).arg(dop[2])));
        actionNamed(window_.get(), "cameraOrthoTop")->trigger();
        vc->GetDirectionOfProjection(dop);
        QVERIFY(std::abs(dop[1] + 1.0) < 1e-9);
        QVERIFY(camera->isOrthographic());
        actionNamed(window_.get(), "cameraOrthoSide")->trigger();
        vc->GetDirectionOfProjection(dop);
        QVERIFY(std::abs(std::abs(dop[0]) - 1.0) < 1e-9);
        actionNamed(window_.get(), "cameraPerspective")->trigger();
        QVERIFY(!camera->isOrthographic());

        // Fit to the run: every frame's coupler-point and joints inside the picture.
        actionNamed(window_.get(), "cameraOrthoFront")->trigger();
        actionNamed(window_.get(), "cameraFitRun")->trigger();
        std::array<double, 6> b{};
        QVERIFY(CameraController::runBounds(window_->recording(), b));
        const QSize size = window_->viewport()->renderSurface()->size();
        const SimulationRecording& rec = window_->recording();
        int outside = 0;
        for (int i = 0; i < rec.frameCount(); i += 5) {
            const Scene scene = rec.frameScene(i);
            for (const SceneJoint& j : scene.joints) {
                const QPointF p = window_->viewport()->worldToView(j.point);
                if (p.x() < 0 || p.y() < 0 || p.x() > size.width() || p.y() > size.height())
                    ++outside;
                for (int c = 0; c < 3; ++c)
                    QVERIFY(j.point[c] >= b[2 * c] - 1e-12 && j.point[c] <= b[2 * c + 1] + 1e-12);
            }
        }
        QCOMPARE(outside, 0);

        // Follow the coupler (scene body 1): as playback moves, it stays where it was on
        // screen, while the camera moves.
        camera->followBody(1);
        window_->playbackBar()->setCurrentFrame(0);
        const QPointF at0 = window_->viewport()->worldToView(rec.frameScene(0).bodies[1].position);
        double f0[3];
        vc->GetFocalPoint(f0);
        window_->playbackBar()->setCurrentFrame(rec.frameCount() / 3);
        const QPointF at1 = window_->viewport()->worldToView(rec.frameScene(rec.frameCount() / 3).bodies[1].position);
        double f1[3];
        vc->GetFocalPoint(f1);
        QVERIFY2((at1 - at0).manhattanLength() < 1.0, qPrintable(QString("%1 %2 / %3 %4").arg(at0.x()).arg(at0.y()).arg(at1.x()).arg(at1.y())));
        QVERIFY(std::hypot(f1[0] - f0[0], f1[1] - f0[1]) > 0.01);
        camera->followBody(-1);
        QDir().mkpath(QStringLiteral(LOOPLAB_SCREENSHOT_DIR));
        QVERIFY(window_->viewport()->saveScreenshot(QStringLiteral(LOOPLAB_SCREENSHOT_DIR) + "/watch-camera.png"));
    }

private:
    std::unique_ptr<MainWindow> window_;
};

QTEST_MAIN(TestWatch)
#include "tst_watch.moc"
