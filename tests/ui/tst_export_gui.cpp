// The workbench's traces and animation export, driven through the real main window: the
// crank-rocker example opens with its coupler point traced (its file's "traces" list);
// that trace over a run against the closed-form coupler curve, drawn in the
// view and written as CSV; the recording exported to MP4 (with the plots beside it) and
// GIF and read back; an export cancelled part-way leaves nothing behind.
#include "CrankRockerReference.h"
#include "VideoReadBack.h"
#include "WorkbenchTestSupport.h"

#include "export/AnimationExportJob.h"
#include "export/AnimationTimeline.h"
#include "overlays/ArrowFeature.h"
#include "overlays/ArrowOverlay.h"
#include "overlays/TracePanel.h"
#include "viewport/VtkViewport.h"
#include "watch/WatchFeature.h"
#include "workbench/WorkbenchExports.h"
#include "plotting/PlotPanel.h"
#include "run/RunPanel.h"
#include "document/WorkbenchDocument.h"

#include "looplab/files/ModelFile.h"

#include <vtkRenderer.h>

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDialog>
#include <QDoubleSpinBox>
#include <QElapsedTimer>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSpinBox>
#include <QFile>
#include <QFileInfo>
#include <QImageReader>
#include <QTemporaryDir>
#include <QtTest>

#include <functional>

using namespace looplab;
using namespace looplab::ui;

namespace {

// Pixels of the first trace's colour (0.95, 0.55, 0.05; unlit) in a picture.
int traceColouredPixels(const QImage& image) {
    int n = 0;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x) {
            const QColor c = image.pixelColor(x, y);
            if (std::abs(c.red() - 242) < 12 && std::abs(c.green() - 140) < 12 && c.blue() < 40) ++n;
        }
    return n;
}

}  // namespace

class TestExportGui : public QObject {
    Q_OBJECT

    std::unique_ptr<MainWindow> window_;

private slots:
    void initTestCase() { ui::test::useThrowAwaySettings("tst_export_gui"); }

    void init() {
        window_ = ui::test::shownWindow();
        QVERIFY(window_);
        QString error;
        QVERIFY2(window_->openFile(ui::test::example("crank-rocker-coupler-curve.json"), &error), qPrintable(error));
        SimulationSettings s = ui::test::runSettings("projection", 1.0);
        s.ode.rtol = 1e-10;
        s.ode.atol = 1e-12;
        window_->runPanel()->setSettings(s);
        QVERIFY(ui::test::runToEnd(*window_, true));
    }
    void cleanup() { window_.reset(); }

    void couplerTraceMatchesClosedForm() {
        const ModelDocument& doc = window_->document()->document();
        TracePanel* traces = window_->tracePanel();
        QString error;
        // Nobody added it: the file names the marker to trace.
        QCOMPARE(traces->traceCount(), 1);
        const PointTrace& trace = traces->traces().front();
        QCOMPARE(trace.point.label, std::string("coupler-point"));
        QCOMPARE(trace.point.body, std::string("coupler"));
        QCOMPARE(trace.point.localPoint, Vec3(0.0, 0.12, 0.0));
        QCOMPARE(int(trace.positions.size()), window_->recording().frameCount());
        QCOMPARE(int(trace.positions.size()), 101);
        const double err = looplab::test::traceError(trace, looplab::test::crankRockerFromFile(doc),
                                                     looplab::test::crankRate(doc));
        qInfo("workbench trace of the coupler point: %zu points, largest distance from the closed form %.3e m",
              trace.positions.size(), err);
        QVERIFY(err < 1e-8);

        // Drawn in the view: the trace's orange shows in the framebuffer.
        window_->viewport()->fitToView();
        QTest::qWait(200);
        const int pixels = traceColouredPixels(window_->viewport()->grabFramebuffer());
        qInfo("trace pixels in the view: %d", pixels);
        QVERIFY(pixels > 50);

        // CSV: a header and one row per frame, the numbers those of the trace.
        QTemporaryDir dir;
        const QString csv = dir.filePath("traces.csv");
        QVERIFY2(traces->exportCsv(csv, &error), qPrintable(error));
        QFile f(csv);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = f.readAll().trimmed().split('\n');
        QCOMPARE(lines.size(), 102);
        QCOMPARE(lines[0], QByteArray("t,coupler-point.x,coupler-point.y,coupler-point.z"));
        const QList<QByteArray> last = lines.back().split(',');
        QCOMPARE(last[1].toDouble(), trace.positions.back().x());

        // A body the model does not have is refused, naming it.
        QVERIFY(!traces->addTrace(TracedPoint{"wheel", Vec3::Zero(), ""}, &error));
        QVERIFY(error.contains("wheel"));

        // Another model's file names no traces: the crank-rocker's go with it.
        QVERIFY(window_->openFile(ui::test::example("four-bar.json")));
        QCOMPARE(traces->traceCount(), 0);
    }

    void exportMp4WithPlotsAndGif() {
        // The example's own trace of the coupler point is drawn into the video.
        QCOMPARE(window_->tracePanel()->traceCount(), 1);
        QTemporaryDir dir;
        const int expected = videoFrameCount(0.0, 1.0, 25.0);
        QCOMPARE(expected, 26);

        AnimationExportSettings mp4{dir.filePath("run.mp4"), 320, 240, 25.0, true};
        QString error;
        QElapsedTimer clock;
        clock.start();
        QVERIFY2(window_->exports()->exportAnimation(mp4, &error), qPrintable(error));
        qInfo("MP4 with plots: %.1f ms a frame in the workbench", double(clock.elapsed()) / expected);
        const ui::test::VideoInfo video = ui::test::readVideo(mp4.path);
        QCOMPARE(video.frames, expected);
        QCOMPARE(video.height, 240);
        // The plots' picture is beside the 3D picture, at its height.
        QVERIFY(video.width > 320 + 100);
        QCOMPARE(video.width % 2, 0);
        // For a look by eye: the first picture as decoded from the file.
        QDir().mkpath(LOOPLAB_SCREENSHOT_DIR);
        QImage(video.firstRgb.data(), video.width, video.height, video.width * 3, QImage::Format_RGB888)
            .save(QString(LOOPLAB_SCREENSHOT_DIR) + "/export-mp4-with-plots.png");

        AnimationExportSettings gif{dir.filePath("run.gif"), 320, 240, 25.0, false};
        QVERIFY2(window_->exports()->exportAnimation(gif, &error), qPrintable(error));
        const ui::test::VideoInfo still = ui::test::readVideo(gif.path);
        QCOMPARE(still.frames, expected);
        QCOMPARE(still.width, 320);
        QCOMPARE(still.height, 240);
        // Only the two videos: no temporary file left.
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden).size(), 2);

        // The view still draws after the off-screen renderer came and went.
        window_->viewport()->requestRender();
        QTest::qWait(200);
        QVERIFY(traceColouredPixels(window_->viewport()->grabFramebuffer()) > 50);
    }

    // Cancelled after a few frames: the job stops, reports no error, and neither the
    // video nor its temporary file is left; the event loop ran between frames.
    void cancelLeavesNothing() {
        QTemporaryDir dir;
        AnimationExportJob job(window_->recording(), AnimationExportSettings{dir.filePath("x.mp4"), 320, 240, 100.0, false});
        QSignalSpy finished(&job, &AnimationExportJob::finished);
        int turns = 0;
        QTimer other;
        other.setInterval(0);
        connect(&other, &QTimer::timeout, [&] { ++turns; });
        connect(&job, &AnimationExportJob::progress, &job, [&](int done, int) {
            if (done == 5) job.cancel();
        });
        QString error;
        other.start();
        QVERIFY2(job.start(&error), qPrintable(error));
        QVERIFY(ui::test::waitForSignals(finished, "the cancelled export to finish"));
        other.stop();
        QCOMPARE(finished.front().at(0).toBool(), false);
        QVERIFY(finished.front().at(1).toString().isEmpty());
        QCOMPARE(job.framesDone(), 5);
        QVERIFY(job.frameCount() > 5);
        QVERIFY(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden).isEmpty());
        qInfo("other timer ran %d times during 5 exported frames; render %.1f ms, encode %.1f ms a frame", turns,
              1e3 * job.renderSecondsPerFrame(), 1e3 * job.encodeSecondsPerFrame());
        QVERIFY(turns >= 5);
    }

    // As a user would: Traces → Add…, pick the marker in the dialog, Enter; then File →
    // Export Animation…, type a file name and size, Export.
    void throughTheDialogs() {
        // Without the example's own trace, so that the one added here is the only one.
        window_->tracePanel()->removeTrace(0);
        QCOMPARE(window_->tracePanel()->traceCount(), 0);
        auto* add = window_->tracePanel()->findChild<QPushButton*>("addTraceButton");
        QVERIFY(add);
        bool dialogSeen = false;
        QTimer::singleShot(0, this, [&] {
            auto* dialog = qobject_cast<QDialog*>(QApplication::activeModalWidget());
            if (!dialog || dialog->objectName() != "addTraceDialog") return;
            dialogSeen = true;
            auto* combo = dialog->findChild<QComboBox*>("tracePointCombo");
            QCOMPARE(combo->itemText(0), QString("Marker coupler-point (on coupler)"));
            combo->setCurrentIndex(0);
            QTest::keyClick(dialog, Qt::Key_Return);
        });
        QTest::mouseClick(add, Qt::LeftButton);
        QVERIFY(dialogSeen);
        QCOMPARE(window_->tracePanel()->traceCount(), 1);
        QCOMPARE(int(window_->tracePanel()->traces().front().positions.size()), window_->recording().frameCount());

        QAction* exportAction = nullptr;
        for (QAction* a : window_->findChildren<QAction*>())
            if (a->text() == "Export &Animation…") exportAction = a;
        QVERIFY(exportAction);
        QTemporaryDir dir;
        const QString path = dir.filePath("typed.gif");
        dialogSeen = false;
        QTimer::singleShot(0, this, [&] {
            auto* dialog = qobject_cast<QDialog*>(QApplication::activeModalWidget());
            if (!dialog || dialog->objectName() != "animationExportDialog") return;
            dialogSeen = true;
            auto* file = dialog->findChild<QLineEdit*>("animationPath");
            file->selectAll();
            QTest::keyClicks(file, path);
            auto* width = dialog->findChild<QSpinBox*>("animationWidth");
            auto* height = dialog->findChild<QSpinBox*>("animationHeight");
            width->selectAll();
            QTest::keyClicks(width, "200");
            height->selectAll();
            QTest::keyClicks(height, "150");
            dialog->findChild<QDoubleSpinBox*>("animationFps")->setValue(20);
            QTest::keyClick(dialog, Qt::Key_Return);
        });
        exportAction->trigger();
        QVERIFY(dialogSeen);
        const ui::test::VideoInfo video = ui::test::readVideo(path);
        QCOMPARE(video.frames, videoFrameCount(0.0, 1.0, 20.0));
        QCOMPARE(video.width, 200);
        QCOMPARE(video.height, 150);
    }

    // The PNG exports (a chart, the 3D view) replace an existing file only once the new
    // picture is complete. A save that cannot make its temporary file beside the target
    // fails with a message naming the file and leaves the old one as it was; writing the
    // target in place would have succeeded in both cases below. A read-only directory does
    // not stop root, a name too long for the temporary file's suffix does.
    void pngExportsReplaceOnlyWhenComplete() {
        PlotPanel* plots = window_->plotPanel();
        VtkViewport* view = window_->viewport();
        const QChartView* chart = plots->chartView(PlotPanel::Chart::Energy);
        using Save = std::function<bool(const QString&, QString*)>;
        const std::vector<std::tuple<QString, Save, QSize>> exports = {
            {"chart", [&](const QString& p, QString* e) { return plots->exportPng(PlotPanel::Chart::Energy, p, e); },
             chart->size() * chart->devicePixelRatio()},
            {"view", [&](const QString& p, QString* e) { return view->saveScreenshot(p, e); },
             view->grabFramebuffer().size()}};
        const QByteArray old = "the previous picture";
        const auto writeOld = [&](const QString& path) {
            QFile f(path);
            return f.open(QIODevice::WriteOnly) && f.write(old) == old.size();
        };
        const auto contents = [](const QString& path) {
            QFile f(path);
            return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
        };
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        for (const auto& [name, save, size] : exports) {
            QVERIFY(size.width() > 50 && size.height() > 50);
            const QString path = dir.filePath(name + ".png");
            QVERIFY(writeOld(path));
            QString error;
            QVERIFY2(save(path, &error), qPrintable(error));
            QImageReader reader(path);
            QCOMPARE(reader.format(), QByteArray("png"));
            const QImage image = reader.read();
            QVERIFY2(!image.isNull(), qPrintable(reader.errorString()));
            QCOMPARE(image.size(), size);
            QCOMPARE(QDir(dir.path()).entryList(QDir::Files).size(), 1);  // no temporary left
            QVERIFY(QFile::remove(path));

            // 255 characters, the longest name a file can have: the temporary file's is longer.
            const QString longPath = dir.filePath(QString(251, QChar('x')) + ".png");
            QVERIFY(writeOld(longPath));
            error.clear();
            QVERIFY(!save(longPath, &error));
            QVERIFY2(error.contains(longPath), qPrintable(error));
            QCOMPARE(contents(longPath), old);
            QVERIFY(QFile::remove(longPath));

            QTemporaryDir locked;
            QVERIFY(locked.isValid());
            const QString lockedPath = QDir(locked.path()).filePath(name + ".png");
            QVERIFY(writeOld(lockedPath));
            const QFile::Permissions open = QFile::permissions(locked.path());
            QVERIFY(QFile::setPermissions(locked.path(), QFile::ReadOwner | QFile::ExeOwner));
            QFile probe(QDir(locked.path()).filePath("probe"));
            if (probe.open(QIODevice::WriteOnly)) {
                qInfo("%s: the read-only directory is writable to this user (root): not tried", qPrintable(name));
            } else {
                error.clear();
                QVERIFY(!save(lockedPath, &error));
                QVERIFY2(error.contains(lockedPath), qPrintable(error));
                QCOMPARE(contents(lockedPath), old);
            }
            QVERIFY(QFile::setPermissions(locked.path(), open));
        }
    }

    // What the view shows over the mechanism is in the video: the arrows the Arrows panel
    // draws (velocities here, at each frame) and the frame's time in the top left corner.
    void videoHasTheViewsArrowsAndTheTime() {
        QTemporaryDir dir;
        ArrowFeature* arrows = window_->watch()->arrows();
        auto exported = [&](const QString& name) {
            QString error;
            const AnimationExportSettings gif{dir.filePath(name), 320, 240, 10.0, false};
            if (!window_->exports()->exportAnimation(gif, &error)) qWarning("%s", qPrintable(error));
            return ui::test::readVideo(gif.path);
        };
        const ui::test::VideoInfo bare = exported("bare.gif");
        arrows->setShown(ArrowKind::Velocity, true);
        arrows->fitScales();
        QVERIFY(!arrows->arrows().empty());
        const ui::test::VideoInfo withArrows = exported("arrows.gif");
        arrows->setShown(ArrowKind::Velocity, false);
        QVERIFY(bare.ok && withArrows.ok);
        QCOMPARE(withArrows.frames, bare.frames);
        // Where the pictures differ, the arrows' blue is drawn: shafts, heads and the legend.
        const Eigen::Vector3d blue = 255.0 * ArrowOverlay::color(ArrowKind::Velocity);
        int differing = 0, bluish = 0;
        for (const auto& [a, b] : {std::pair(&bare.firstRgb, &withArrows.firstRgb), std::pair(&bare.lastRgb, &withArrows.lastRgb)})
            for (size_t i = 0; i + 2 < a->size(); i += 3) {
                const int d = std::abs((*a)[i] - (*b)[i]) + std::abs((*a)[i + 1] - (*b)[i + 1]) +
                              std::abs((*a)[i + 2] - (*b)[i + 2]);
                if (d < 90) continue;
                ++differing;
                const Eigen::Vector3d c((*b)[i], (*b)[i + 1], (*b)[i + 2]);
                // Lit shafts are darker or lighter than the colour itself: its hue is what stays.
                if (c.z() > c.x() + 60 && c.z() > c.y() + 30) ++bluish;
            }
        qInfo("first and last frames: %d pixels changed by the velocity arrows, %d of them blue (arrow colour %.0f %.0f "
              "%.0f)", differing, bluish, blue.x(), blue.y(), blue.z());
        QVERIFY2(differing > 150, qPrintable(QString::number(differing)));
        QVERIFY2(bluish > differing / 2, qPrintable(QString::number(bluish)));

        // The time: a job without a caption differs from the default only in the top left corner.
        auto byJob = [&](const QString& name, bool caption) {
            AnimationExportJob job(window_->recording(), AnimationExportSettings{dir.filePath(name), 320, 240, 10.0, false});
            job.setCamera(window_->viewport()->renderer()->GetActiveCamera(), 1);
            if (!caption) job.setCaption(nullptr);
            QString error;
            if (!job.runToEnd(&error)) qWarning("%s", qPrintable(error));
            return ui::test::readVideo(dir.filePath(name));
        };
        const ui::test::VideoInfo timed = byJob("timed.gif", true), untimed = byJob("untimed.gif", false);
        QVERIFY(timed.ok && untimed.ok);
        int inCorner = 0, elsewhere = 0, firstToLast = 0;
        for (int y = 0; y < 240; ++y)
            for (int x = 0; x < 320; ++x) {
                const size_t i = size_t(3 * (y * 320 + x));
                int d = 0;
                for (int c = 0; c < 3; ++c) d += std::abs(timed.firstRgb[i + size_t(c)] - untimed.firstRgb[i + size_t(c)]);
                if (d < 60) continue;
                (x < 160 && y < 40 ? inCorner : elsewhere) += 1;
            }
        // "t = 0.000 s" and "t = 1.000 s": the captions of the first and last frames differ.
        for (int y = 0; y < 40; ++y)
            for (int x = 0; x < 160; ++x) {
                const size_t i = size_t(3 * (y * 320 + x));
                int dTimed = 0, dUntimed = 0;
                for (int c = 0; c < 3; ++c) {
                    dTimed += std::abs(timed.firstRgb[i + size_t(c)] - timed.lastRgb[i + size_t(c)]);
                    dUntimed += std::abs(untimed.firstRgb[i + size_t(c)] - untimed.lastRgb[i + size_t(c)]);
                }
                if (dTimed >= 60 && dUntimed < 60) ++firstToLast;
            }
        qInfo("caption: %d pixels in the corner, %d elsewhere; %d corner pixels differ between t = 0 and t = 1 s",
              inCorner, elsewhere, firstToLast);
        QVERIFY2(inCorner > 40, qPrintable(QString::number(inCorner)));
        QCOMPARE(elsewhere, 0);
        QVERIFY2(firstToLast > 5, qPrintable(QString::number(firstToLast)));
    }

    // File → Export Animation… offers the model's folder, and ends by naming the file with
    // a button that opens its folder.
    void dialogStartsBesideTheModelAndNamesTheFile() {
        QTemporaryDir dir;
        const QString model = dir.filePath("lecture.json");
        QString error;
        QVERIFY2(window_->saveFile(model, &error), qPrintable(error));
        QAction* exportAction = nullptr;
        for (QAction* a : window_->findChildren<QAction*>())
            if (a->text() == "Export &Animation…") exportAction = a;
        QVERIFY(exportAction);
        QString offered;
        QTimer::singleShot(0, this, [&] {
            auto* dialog = qobject_cast<QDialog*>(QApplication::activeModalWidget());
            if (!dialog || dialog->objectName() != "animationExportDialog") return;
            offered = dialog->findChild<QLineEdit*>("animationPath")->text();
            dialog->findChild<QSpinBox*>("animationWidth")->setValue(160);
            dialog->findChild<QSpinBox*>("animationHeight")->setValue(120);
            dialog->findChild<QDoubleSpinBox*>("animationFps")->setValue(5);
            QTest::keyClick(dialog, Qt::Key_Return);
        });
        exportAction->trigger();
        QCOMPARE(offered, dir.filePath("lecture.mp4"));
        QVERIFY(QFileInfo::exists(offered));
        auto* done = window_->findChild<QMessageBox*>("exportDoneMessage");
        QVERIFY(done);
        QVERIFY(done->isVisible());
        QVERIFY2(done->text().contains("lecture.mp4") && done->text().contains(dir.path()), qPrintable(done->text()));
        QVERIFY2(done->text().contains("6 frames"), qPrintable(done->text()));
        auto* openFolder = done->findChild<QPushButton*>("openExportFolder");
        QVERIFY(openFolder);
        QCOMPARE(openFolder->text(), QString("Open Folder"));
        done->close();
    }

    void refusals() {
        QString error;
        QVERIFY(!window_->exports()->exportAnimation(AnimationExportSettings{"/nonexistent-dir/x.mp4", 320, 240, 25, false}, &error));
        QVERIFY2(error.contains("does not exist"), qPrintable(error));
        QVERIFY(!window_->exports()->exportAnimation(AnimationExportSettings{QDir::temp().filePath("x.avi"), 320, 240, 25, false}, &error));
        QVERIFY2(error.contains(".mp4"), qPrintable(error));
        QVERIFY(!window_->exports()->exportAnimation(AnimationExportSettings{QDir::temp().filePath("x.mp4"), 321, 240, 25, false}, &error));
        QVERIFY2(error.contains("even"), qPrintable(error));
    }
};

QTEST_MAIN(TestExportGui)
#include "tst_export_gui.moc"
