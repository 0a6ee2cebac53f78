// The first hour of docs/tutorial.md, done through the real widgets and counted: sketch a
// crank-rocker, drive it, pose it, run it, trace a coupler point, show its velocities, read
// its Grashof class, break it and mend it, export the run as a video. Each step checks
// what the user sees; the whole takes no more than 51 clicks and 5 typed numbers (the
// count of the workbench before this script was written). The tutorial's pictures come
// from here: with LOOPLAB_TUTORIAL_IMAGES set to a folder (docs/images) they are written
// there, else beside the other suites' pictures.
#include "UserSteps.h"
#include "VideoReadBack.h"
#include "WorkbenchTestSupport.h"

#include "export/AnimationTimeline.h"
#include "looplab/kinematics/JointCoordinates.h"
#include "markers/MarkerPanel.h"
#include "overlays/ArrowFeature.h"
#include "overlays/ArrowOverlay.h"
#include "overlays/TracePanel.h"
#include "posing/PosePanel.h"
#include "sketch/SketchFeature.h"
#include "watch/WatchFeature.h"
#include "workbench/PlaybackBar.h"
#include "run/RunPanel.h"
#include "panels/WarningsPanel.h"
#include "document/WorkbenchDocument.h"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDialog>
#include <QDir>
#include <QDoubleSpinBox>
#include <QLineEdit>
#include <QListWidget>
#include <QMessageBox>
#include <QPushButton>
#include <QStatusBar>
#include <QSurfaceFormat>
#include <QTemporaryDir>
#include <QTreeWidget>
#include <QtTest>

#include <cmath>

using namespace looplab;
using namespace looplab::ui;

class TestTutorial : public QObject {
    Q_OBJECT

public:
    static void initMain() { QSurfaceFormat::setDefaultFormat(VtkViewport::defaultFormat()); }

private slots:
    void initTestCase() { test::useThrowAwaySettings("tst_tutorial"); }

    void firstHour()
    {
        const std::unique_ptr<MainWindow> window = test::shownWindow();
        QVERIFY(window);
        test::UserSteps user{*window};
        WorkbenchDocument* doc = window->document();
        doc->newDocument();
        int stepClicks = 0, stepNumbers = 0;
        auto step = [&](const char* name) {
            qInfo("%-34s %2d clicks, %d typed numbers", name, user.clicks - stepClicks, user.typedNumbers - stepNumbers);
            stepClicks = user.clicks;
            stepNumbers = user.typedNumbers;
        };

        // 1. Sketch: two ground pivots, then the chain A–B–C–D.
        SketchFeature* sketch = window->sketch();
        user.toolButton(sketch->toolBar(), sketch->sketchAction());
        const Vec3 A(-0.2, -0.1, 0), B(-0.1, 0.12, 0), C(0.24, 0.2, 0), D(0.2, -0.1, 0);
        user.view(A);
        user.view(D);
        user.toolButton(sketch->toolBar(), sketch->toolAction(SketchFeature::Tool::Link));
        for (const Vec3& p : {A, B, C, D}) user.view(p);
        QCOMPARE(doc->document().bodies.size(), size_t(3));
        QCOMPARE(doc->document().joints.size(), size_t(4));
        picture(*window, "tutorial-1-sketch.png");
        step("1. sketch a four-bar");

        // 2. Drive the crank: it starts where it was sketched, and the model runs.
        user.toolButton(sketch->toolBar(), sketch->sketchAction());
        user.menu("Edit", "Add driver");
        QCOMPARE(doc->document().drivers.size(), size_t(1));
        QVERIFY(doc->loaded().ok());
        QVERIFY(window->runPanel()->runButton()->isEnabled());
        const Model& model = *doc->loaded().model;
        const JointIndex crankPin = *model.findJoint(doc->document().drivers[0].joint);
        const double sketched = jointAngle(model, doc->loaded().initial, crankPin);
        QVERIFY(std::abs(doc->document().drivers[0].law.initial - sketched) < 1e-12);
        step("2. drive the crank");

        // 3. Grashof: said in the status line without a click. Crank 0.24 m + ground 0.40 m
        // = 0.64 m ≤ coupler 0.35 m + rocker 0.30 m = 0.65 m.
        const QString status = doc->statusText();
        qInfo("status: %s", qPrintable(status));
        QVERIFY2(status.contains("Grashof four-bar") && status.contains("crank-rocker, link1 turns fully"),
                 qPrintable(status));
        step("3. read the Grashof class");

        // 4. Pose: turn the crank by a drag on the view and start from there.
        const Vec3 grab = 0.5 * (A + B) + Vec3(0, 0, 0.005);
        const double turn = 0.5;  // rad
        const Vec3 goal = A + Eigen::AngleAxisd(turn, Vec3::UnitZ()) * (grab - A);
        user.drag(grab, goal, 12);
        user.tab("poseDock");
        user.click(window->posing()->panel()->useButton());
        const double posed = doc->document().drivers[0].law.initial;
        qInfo("crank sketched at %.4f rad, posed at %.4f rad", sketched, posed);
        QVERIFY(std::abs(posed - (sketched + turn)) < 0.02);
        QVERIFY(doc->loaded().ok());
        step("4. pose the crank");

        // 5. Run a full turn of the crank (1 rad/s for 6.3 s).
        user.tab("runDock");
        user.typeNumber(window->findChild<QDoubleSpinBox*>("tEnd"), "6.3");
        QSignalSpy finished(window.get(), &MainWindow::runFinished);
        user.click(window->runPanel()->runButton());
        QVERIFY(test::waitForSignals(finished, "the tutorial's run"));
        QVERIFY2(finished.front().front().value<RunSummary>().ok, "the run failed");
        QVERIFY(window->recording().frameCount() > 100);
        step("5. run");

        // 6. Trace a coupler point 8 cm off the coupler's middle.
        user.tab("traceDock");
        QTimer::singleShot(0, this, [&] {
            auto* dialog = qobject_cast<QDialog*>(QApplication::activeModalWidget());
            if (!dialog || dialog->objectName() != "addTraceDialog") return;
            auto* what = dialog->findChild<QComboBox*>("tracePointCombo");
            what->setCurrentIndex(what->findText("Body link2, point below"));
            user.clicks += 2;  // open the list, choose
            // Enter after the number accepts the dialog, as OK would.
            user.typeNumber(dialog->findChild<QDoubleSpinBox*>("traceY"), "0.08");
            ++user.clicks;
        });
        user.click(window->tracePanel()->findChild<QPushButton*>("addTraceButton"));
        QCOMPARE(window->tracePanel()->traceCount(), 1);
        QCOMPARE(window->tracePanel()->traces().front().point.body, std::string("link2"));
        QCOMPARE(window->tracePanel()->traces().front().point.localPoint, Vec3(0, 0.08, 0));
        QCOMPARE(int(window->tracePanel()->traces().front().positions.size()), window->recording().frameCount());
        step("6. trace a coupler point");

        // 7. Velocity arrows, scaled to the run.
        user.tab("arrowDock");
        ArrowFeature* arrows = window->watch()->arrows();
        user.click(arrows->findChild<QCheckBox*>("arrowVelocity"));
        user.click(arrows->findChild<QPushButton*>("fitArrowScales"));
        QVERIFY(arrows->overlay().arrowCount(ArrowKind::Velocity) > 0);
        picture(*window, "tutorial-2-run.png");
        step("7. show velocities");

        // 8. Break it: ground pivot D moved to x = 0.8 m, too far for the links to reach;
        // the first warning says so, with the fix. Then undo.
        user.tab("markersDock");
        MarkerPanel* markers = window->markerPanel();
        int dRow = -1;
        for (size_t i = 0; i < doc->document().markers.size(); ++i)
            if ((doc->document().markers[i].position - D).norm() < 1e-9 && doc->document().markers[i].body == "ground")
                dRow = int(i);
        QVERIFY(dRow >= 0);
        QTest::mouseClick(markers->list()->viewport(), Qt::LeftButton, {},
                          markers->list()->visualItemRect(markers->list()->item(dRow)).center());
        ++user.clicks;
        user.typeNumber(markers->coordinate(0), "0.8");
        QVERIFY(!doc->loaded().ok());
        auto* tree = window->warningsPanel()->findChild<QTreeWidget*>("warnings");
        QVERIFY(tree && tree->topLevelItemCount() > 0);
        const QString cause = tree->topLevelItem(0)->text(3);
        qInfo("first warning: %s", qPrintable(cause));
        QVERIFY2(cause.startsWith("the ground pivots 1.00 m apart are farther than the 0.89 m the other links can "
                                  "span: move them closer than 0.89 m"),
                 qPrintable(cause));
        // The status line leads with it too, and no arrow of the recording floats over the
        // pose the edited model reached.
        QVERIFY2(window->statusBar()->currentMessage().startsWith("Does not assemble: the ground pivots 1.00 m apart"),
                 qPrintable(window->statusBar()->currentMessage()));
        QCOMPARE(arrows->overlay().arrowCount(ArrowKind::Velocity), 0);
        user.tab("warningsDock");
        picture(*window, "tutorial-3-broken.png");
        user.menu("Edit", "Undo");
        QVERIFY(doc->loaded().ok());
        step("8. break it and undo");

        // 9. Export the run as a video, as the view shows it; the last message names the file.
        QTemporaryDir folder;
        const QString video = folder.filePath("crank-rocker.mp4");
        QTimer::singleShot(0, this, [&] {
            auto* dialog = qobject_cast<QDialog*>(QApplication::activeModalWidget());
            if (!dialog || dialog->objectName() != "animationExportDialog") return;
            dialog->findChild<QLineEdit*>("animationPath")->setText(video);  // a file name, not a number
            dialog->findChild<QDoubleSpinBox*>("animationFps")->setValue(10);
            ++user.typedNumbers;
            QTest::keyClick(dialog, Qt::Key_Return);
            ++user.clicks;
        });
        user.menu("File", "Export Animation…");
        const test::VideoInfo read = test::readVideo(video);
        QVERIFY(read.ok);
        qInfo("video: %d frames of %d × %d", read.frames, read.width, read.height);
        QCOMPARE(read.frames, videoFrameCount(window->recording().startTime(), window->recording().endTime(), 10.0));
        auto* done = window->findChild<QMessageBox*>("exportDoneMessage");
        QVERIFY(done && done->text().contains("crank-rocker.mp4"));
        picture(*window, "tutorial-4-exported.png");
        user.click(done->button(QMessageBox::Ok));
        step("9. export the video");

        qInfo("the first hour: %d clicks and %d typed numbers (before: 51 and 5)", user.clicks, user.typedNumbers);
        QVERIFY(user.clicks <= 51);
        QVERIFY(user.typedNumbers <= 5);
    }

private:
    /// The whole window as on screen, 1000 px wide, for the tutorial (and at full size
    /// beside the other suites' pictures).
    static void picture(MainWindow& window, const char* name)
    {
        const QString folder = qEnvironmentVariable("LOOPLAB_TUTORIAL_IMAGES", LOOPLAB_SCREENSHOT_DIR);
        QDir().mkpath(folder);
        QDir().mkpath(LOOPLAB_SCREENSHOT_DIR);
        QTest::qWait(50);
        const QImage full = window.screenshot();
        QVERIFY(full.save(QDir(LOOPLAB_SCREENSHOT_DIR).filePath(QString("full-") + name)));
        const QImage shot = full.scaledToWidth(1000, Qt::SmoothTransformation);
        QVERIFY(shot.save(QDir(folder).filePath(name)));
    }
};

QTEST_MAIN(TestTutorial)
#include "tst_tutorial.moc"
