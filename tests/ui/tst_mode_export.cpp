// A mode shape exported as a video from the workbench, driven through the real main
// window: the pendulum example's one mode, computed in the Modes panel and selected at
// 20 % amplitude. The exported frames against the phase they stand for (whole periods,
// the extremes at the asked amplitude, the equilibrium at phases 0 and π, the ghost), a
// GIF read back whose every frame equals the one a period later while the two extremes
// differ, an MP4 written through File → Export Animation…'s dialog, the cantilever
// beam's first mode, and the settings that are refused with a reason and leave nothing
// behind; the Flexible Bodies view's exaggeration and colour map in the exported frames.

#include "VideoReadBack.h"
#include "WorkbenchTestSupport.h"

#include "export/AnimationExportJob.h"
#include "export/AnimationTimeline.h"
#include "export/ModeOscillationFrames.h"
#include "viewport/VtkViewport.h"
#include "viewport/FlexibleField.h"
#include "workbench/WorkbenchExports.h"
#include "workbench/FlexibleView.h"
#include "recording/ModeShapeAnimation.h"
#include "workbench/ModesPanel.h"
#include "workbench/PlaybackBar.h"
#include "document/WorkbenchDocument.h"

#include "looplab/scene/Scene.h"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QDialog>
#include <QDir>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest>

#include <cmath>
#include <cstdlib>

using namespace looplab;
using namespace looplab::ui;

namespace {

constexpr double kAmplitude = 0.20;  // of the model's size

// Pixels of two RGB pictures of the same size whose channels differ by more than
// `threshold` in at least one channel.
int pixelsDiffering(const std::vector<std::uint8_t>& a, const std::vector<std::uint8_t>& b, int threshold)
{
    int n = 0;
    for (size_t i = 0; i + 2 < a.size() && i + 2 < b.size(); i += 3)
        if (std::abs(a[i] - b[i]) > threshold || std::abs(a[i + 1] - b[i + 1]) > threshold ||
            std::abs(a[i + 2] - b[i + 2]) > threshold)
            ++n;
    return n;
}

// Rotation angle between the orientations of a scene's first body in two scenes [rad].
double bodyTurn(const Scene& a, const Scene& b)
{
    return a.bodies.at(0).orientation.angularDistance(b.bodies.at(0).orientation);
}

QAction* exportAnimationAction(QWidget& window)
{
    for (QAction* a : window.findChildren<QAction*>())
        if (a->text() == "Export &Animation…")
            return a;
    return nullptr;
}

}  // namespace

class TestModeExport : public QObject {
    Q_OBJECT

public:
    static void initMain() { QSurfaceFormat::setDefaultFormat(VtkViewport::defaultFormat()); }

private slots:
    void initTestCase() { test::useThrowAwaySettings("tst_mode_export"); }

    void init()
    {
        window_ = test::shownWindow();
        QVERIFY(window_);
        QVERIFY(animateFirstMode("pendulum.json"));
        QCOMPARE(window_->modeAnimation()->amplitudeFraction(), kAmplitude);
    }
    void cleanup() { window_.reset(); }

    // The frames of 3 periods at 16 frames a period, checked as states and scenes.
    void framesFollowThePhase()
    {
        const ModeShapeAnimation& shown = *window_->modeAnimation();
        const ModeOscillationFrames frames(shown, ModeVideoCycles{3, 16}, 16.0);
        QCOMPARE(frames.frameCount(), 48);
        QCOMPARE(frames.frameTime(47), 47.0 / 16.0);
        // The export job takes the frame nearest each video time: every frame, once.
        std::vector<double> times;
        for (int i = 0; i < frames.frameCount(); ++i)
            times.push_back(frames.frameTime(i));
        const std::vector<int> picks = recordedFramesForVideo(times, 16.0);
        QCOMPARE(int(picks.size()), 48);
        for (int k = 0; k < 48; ++k)
            QCOMPARE(picks[size_t(k)], k);

        // A period later, the same state to the bit; phases 0 and π are the equilibrium.
        for (int i = 0; i + 16 < frames.frameCount(); ++i)
            QVERIFY2(frames.frameState(i).q == frames.frameState(i + 16).q, qPrintable(QString::number(i)));
        QVERIFY(frames.frameState(0).q == shown.equilibrium().q);
        QVERIFY(frames.frameState(8).q == shown.equilibrium().q);
        QVERIFY(frames.frameState(4).q != shown.equilibrium().q);

        // The extremes at phases π/2 and 3π/2: the view's own quarter-cycle frame, and its
        // mirror image. The bob turns about the pivot by the angle that moves its farthest
        // corner by 20 % of the model's size (the ball of radius r, d from the pivot: the
        // drawn points span 2r × (d + r) × 2r, the farthest corner hypot(r, d + r) away).
        QVERIFY((frames.frameState(4).q - shown.frameState(ModeShapeAnimation::kFramesPerCycle / 4).q).norm() <=
                1e-15);
        const ModelDocument& doc = window_->document()->document();
        const double r = doc.bodies.at(0).shape.radius;
        const double d = doc.bodies.at(0).position.norm();
        const double alpha = kAmplitude * std::sqrt(8.0 * r * r + (d + r) * (d + r)) / std::hypot(r, d + r);
        const Scene rest = frames.frameScene(0), up = frames.frameScene(4), down = frames.frameScene(12);
        const double turnedUp = bodyTurn(up, rest), turnedDown = bodyTurn(down, rest), between = bodyTurn(up, down);
        qInfo("exported extremes: turned %.9f and %.9f rad from rest, %.9f rad apart (expected %.9f each)", turnedUp,
              turnedDown, between, alpha);
        QVERIFY(std::abs(turnedUp - alpha) <= 1e-7 * alpha);
        QVERIFY(std::abs(turnedDown - alpha) <= 1e-7 * alpha);
        QVERIFY(std::abs(between - 2.0 * alpha) <= 2e-7 * alpha);

        // Every frame carries the equilibrium as its ghost.
        for (int i : {0, 4, 12, 47}) {
            const Scene s = frames.frameScene(i);
            QCOMPARE(int(s.ghosts.size()), 1);
            QVERIFY((s.ghosts[0].position - rest.bodies[0].position).norm() == 0.0);
            QVERIFY((s.ghosts[0].orientation.coeffs() - rest.bodies[0].orientation.coeffs()).norm() == 0.0);
        }

        // The frames keep the amplitude they were made with.
        window_->modesPanel()->setAmplitudeFraction(0.05);
        QCOMPARE(window_->modeAnimation()->amplitudeFraction(), 0.05);
        QCOMPARE(bodyTurn(frames.frameScene(4), rest), turnedUp);
    }

    // A GIF (lossless once its palette is chosen) of 3 periods at 16 frames a period: 48
    // frames, each the same picture as the one a period later, rest at phases 0 and π,
    // the two extremes far apart; the event loop ran between frames and playback resumes.
    void gifRepeatsEveryPeriod()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath("mode.gif");
        QVERIFY(window_->playbackBar()->isPlaying());
        int turns = 0;
        QTimer other;
        other.setInterval(0);
        connect(&other, &QTimer::timeout, [&] { ++turns; });
        other.start();
        QString error;
        QVERIFY2(window_->exports()->exportModeAnimation(AnimationExportSettings{path, 320, 240, 16.0, false},
                                              ModeVideoCycles{3, 16}, &error),
                 qPrintable(error));
        other.stop();
        QVERIFY(window_->playbackBar()->isPlaying());
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden), QStringList{"mode.gif"});

        const test::VideoInfo video = test::readVideo(path, true);
        QVERIFY(video.ok);
        QCOMPARE(video.codec, std::string("gif"));
        QCOMPARE(video.width, 320);
        QCOMPARE(video.height, 240);
        QCOMPARE(video.frames, 3 * 16);
        QCOMPARE(int(video.everyRgb.size()), 48);
        int unequal = 0;
        for (int i = 0; i + 16 < 48; ++i)
            if (video.everyRgb[size_t(i)] != video.everyRgb[size_t(i + 16)])
                ++unequal;
        const int restToRest = pixelsDiffering(video.everyRgb[0], video.everyRgb[8], 0);
        const int swing = pixelsDiffering(video.everyRgb[4], video.everyRgb[12], 0);
        const int restToExtreme = pixelsDiffering(video.everyRgb[0], video.everyRgb[4], 0);
        qInfo("GIF: %d of 32 frames differ from the one a period later; pixels differing rest/rest %d, "
              "rest/extreme %d, extreme/extreme %d; other timer ran %d times during 48 frames",
              unequal, restToRest, restToExtreme, swing, turns);
        QCOMPARE(unequal, 0);
        QCOMPARE(restToRest, 0);
        QVERIFY(swing > 500);
        QVERIFY(restToExtreme > 250);
        QVERIFY(turns >= 24);
        QDir().mkpath(LOOPLAB_SCREENSHOT_DIR);
        QImage(video.everyRgb[4].data(), 320, 240, 320 * 3, QImage::Format_RGB888)
            .save(QString(LOOPLAB_SCREENSHOT_DIR) + "/mode-export-extreme.png");

        // At zero amplitude the extremes are the rest: the difference above was the swing.
        window_->modesPanel()->setAmplitudeFraction(0.0);
        const QString still = dir.filePath("still.gif");
        QVERIFY2(window_->exports()->exportModeAnimation(AnimationExportSettings{still, 320, 240, 16.0, false},
                                              ModeVideoCycles{1, 16}, &error),
                 qPrintable(error));
        const test::VideoInfo stillVideo = test::readVideo(still, true);
        QCOMPARE(stillVideo.frames, 16);
        const int stillSwing = pixelsDiffering(stillVideo.everyRgb[4], stillVideo.everyRgb[12], 0);
        qInfo("GIF at zero amplitude: extremes differ in %d pixels", stillSwing);
        QVERIFY(20 * stillSwing < swing);
    }

    // As a user would with a mode selected: File → Export Animation… asks for periods and
    // frames a period instead of the plots; an MP4 of 2 periods at 12 frames a period.
    void mp4ThroughTheDialog()
    {
        QAction* action = exportAnimationAction(*window_);
        QVERIFY(action);
        QTemporaryDir dir;
        const QString path = dir.filePath("mode.mp4");
        bool dialogSeen = false;
        QTimer::singleShot(0, this, [&] {
            auto* dialog = qobject_cast<QDialog*>(QApplication::activeModalWidget());
            if (!dialog || dialog->objectName() != "animationExportDialog")
                return;
            dialogSeen = true;
            QCOMPARE(dialog->windowTitle(), QString("Export Mode Animation"));
            QVERIFY(!dialog->findChild<QCheckBox*>("animationWithPlots")->isVisible());
            dialog->findChild<QLineEdit*>("animationPath")->setText(path);
            dialog->findChild<QSpinBox*>("animationWidth")->setValue(320);
            dialog->findChild<QSpinBox*>("animationHeight")->setValue(240);
            dialog->findChild<QDoubleSpinBox*>("animationFps")->setValue(24);
            auto* periods = dialog->findChild<QSpinBox*>("animationPeriods");
            auto* perPeriod = dialog->findChild<QSpinBox*>("animationFramesPerPeriod");
            QVERIFY(periods && perPeriod);
            periods->setValue(2);
            perPeriod->selectAll();
            QTest::keyClicks(perPeriod, "12");
            QTest::keyClick(dialog, Qt::Key_Return);
        });
        action->trigger();
        QVERIFY(dialogSeen);
        const test::VideoInfo video = test::readVideo(path, true);
        QVERIFY(video.ok);
        QCOMPARE(video.frames, 2 * 12);
        QCOMPARE(video.width, 320);
        QCOMPARE(video.height, 240);
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden), QStringList{"mode.mp4"});
        // Lossy: a period apart the pictures agree but for the encoder's noise, which
        // stays far below what the swing changes.
        int periodApart = 0;
        for (int i = 0; i < 12; ++i)
            periodApart = std::max(periodApart,
                                   pixelsDiffering(video.everyRgb[size_t(i)], video.everyRgb[size_t(i + 12)], 48));
        const int swing = pixelsDiffering(video.everyRgb[3], video.everyRgb[9], 48);
        qInfo("MP4 (%s): pixels differing by more than 48 levels: at most %d a period apart, %d between the extremes",
              video.codec.c_str(), periodApart, swing);
        QVERIFY(swing > 250);
        QVERIFY(10 * periodApart < swing);
    }

    // Settings that make no video are refused with a reason and write nothing; without
    // an animated mode there is nothing to export.
    void refusals()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const auto attempt = [&](const QString& name, double fps, ModeVideoCycles cycles) {
            QString error;
            const bool ok = window_->exports()->exportModeAnimation(AnimationExportSettings{name, 320, 240, fps, false}, cycles,
                                                         &error);
            return ok ? QString() : error;
        };
        const QString gif = dir.filePath("x.gif");
        QString error = attempt(gif, 16.0, ModeVideoCycles{0, 16});
        QVERIFY2(error.contains("periods"), qPrintable(error));
        error = attempt(gif, 16.0, ModeVideoCycles{2, 3});
        QVERIFY2(error.contains("frames per period"), qPrintable(error));
        error = attempt(gif, 60.0, ModeVideoCycles{2, 16});
        QVERIFY2(error.contains("50"), qPrintable(error));
        error = attempt("/nonexistent-dir/x.mp4", 24.0, ModeVideoCycles{2, 16});
        QVERIFY2(error.contains("does not exist"), qPrintable(error));
        error = attempt(dir.filePath("x.avi"), 24.0, ModeVideoCycles{2, 16});
        QVERIFY2(error.contains(".mp4"), qPrintable(error));
        QVERIFY(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden).isEmpty());

        // The panel's button opens the mode's dialog; cancelling it writes nothing.
        bool dialogSeen = false;
        QTimer::singleShot(0, this, [&] {
            auto* dialog = qobject_cast<QDialog*>(QApplication::activeModalWidget());
            if (!dialog || dialog->objectName() != "animationExportDialog")
                return;
            dialogSeen = dialog->findChild<QSpinBox*>("animationPeriods") != nullptr;
            dialog->reject();
        });
        window_->modesPanel()->videoExportButton()->click();
        QVERIFY(dialogSeen);

        window_->showRecording();
        QVERIFY(!window_->modeAnimation());
        QVERIFY(!window_->modesPanel()->videoExportButton()->isEnabled());
        error = attempt(gif, 16.0, ModeVideoCycles{2, 16});
        QVERIFY2(error.contains("select one"), qPrintable(error));
        QVERIFY(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden).isEmpty());
    }

    // A flexible member's mode: the cantilever's first bending mode swings the beam over
    // its ghost, and the GIF repeats every period as for a rigid body.
    void flexibleBeamMode()
    {
        QVERIFY(animateFirstMode("cantilever-beam.json"));
        const ModeOscillationFrames frames(*window_->modeAnimation(), ModeVideoCycles{2, 8}, 8.0);
        QCOMPARE(int(frames.frameScene(2).ghostBeams.size()), 1);
        QTemporaryDir dir;
        const QString path = dir.filePath("beam.gif");
        QString error;
        QVERIFY2(window_->exports()->exportModeAnimation(AnimationExportSettings{path, 320, 240, 8.0, false},
                                              ModeVideoCycles{2, 8}, &error),
                 qPrintable(error));
        const test::VideoInfo video = test::readVideo(path, true);
        QCOMPARE(video.frames, 16);
        int unequal = 0;
        for (int i = 0; i < 8; ++i)
            if (video.everyRgb[size_t(i)] != video.everyRgb[size_t(i + 8)])
                ++unequal;
        const int swing = pixelsDiffering(video.everyRgb[2], video.everyRgb[6], 0);
        const int restToRest = pixelsDiffering(video.everyRgb[0], video.everyRgb[4], 0);
        qInfo("beam GIF: %d of 8 frames differ from the one a period later; pixels differing rest/rest %d, "
              "extreme/extreme %d",
              unequal, restToRest, swing);
        QCOMPARE(unequal, 0);
        QCOMPARE(restToRest, 0);
        QVERIFY(swing > 500);
    }

    // The Flexible Bodies view's settings reach the video (the frames look like the view):
    // the cantilever's first mode exported three times with the view's camera, as GIFs
    // (lossless once the palette is chosen). Exaggeration 0 draws every frame at the
    // undeformed shape, so the swing between the extremes vanishes from the video; the
    // colour map of axial strain changes the beam's pixels (and adds its legend) at the
    // same geometry, while the video still repeats every period.
    void flexibleViewSettingsReachTheVideo()
    {
        QVERIFY(animateFirstMode("cantilever-beam.json"));
        FlexibleView* view = window_->flexibleView();
        QVERIFY(view);
        view->setField(FlexibleField::None);
        view->setExaggeration(1.0);
        QTemporaryDir dir;
        const auto exported = [&](const QString& name) {
            const QString path = dir.filePath(name);
            QString error;
            if (!window_->exports()->exportModeAnimation(AnimationExportSettings{path, 320, 240, 8.0, false},
                                              ModeVideoCycles{2, 8}, &error))
                qWarning("%s", qPrintable(error));
            return test::readVideo(path, true);
        };
        const test::VideoInfo plain = exported("plain.gif");
        view->setExaggeration(0.0);
        const test::VideoInfo undeformed = exported("undeformed.gif");
        view->setExaggeration(1.0);
        view->setField(FlexibleField::AxialStrain);
        const test::VideoInfo coloured = exported("strain.gif");
        view->setField(FlexibleField::None);  // the settings outlive the window
        for (const test::VideoInfo* v : {&plain, &undeformed, &coloured}) {
            QVERIFY(v->ok);
            QCOMPARE(v->frames, 16);
        }
        const int swing = pixelsDiffering(plain.everyRgb[2], plain.everyRgb[6], 0);
        const int swingUndeformed = pixelsDiffering(undeformed.everyRgb[2], undeformed.everyRgb[6], 0);
        const int exaggerated = pixelsDiffering(plain.everyRgb[2], undeformed.everyRgb[2], 0);
        const int recoloured = pixelsDiffering(plain.everyRgb[2], coloured.everyRgb[2], 16);
        int colouredUnequal = 0;
        for (int i = 0; i < 8; ++i)
            if (coloured.everyRgb[size_t(i)] != coloured.everyRgb[size_t(i + 8)])
                ++colouredUnequal;
        qInfo("beam GIF, pixels differing: extremes %d at exaggeration 1, %d at 0; extreme at 1 against 0: %d; "
              "axial strain against no colour map (more than 16 levels): %d; strain video: %d of 8 frames differ "
              "a period later",
              swing, swingUndeformed, exaggerated, recoloured, colouredUnequal);
        QDir().mkpath(LOOPLAB_SCREENSHOT_DIR);
        QImage(coloured.everyRgb[2].data(), 320, 240, 320 * 3, QImage::Format_RGB888)
            .save(QString(LOOPLAB_SCREENSHOT_DIR) + "/mode-export-axial-strain.png");
        QVERIFY(swing > 500);
        QVERIFY(20 * swingUndeformed < swing);
        QVERIFY(exaggerated > 250);
        QVERIFY(recoloured > 250);
        QCOMPARE(colouredUnequal, 0);
    }

private:
    /// Opens `example`, computes its first mode in the Modes panel and animates it at
    /// kAmplitude; false if any step fails.
    bool animateFirstMode(const char* example)
    {
        QString error;
        if (!window_->openFile(test::example(example), &error)) {
            qWarning("%s", qPrintable(error));
            return false;
        }
        auto* dock = window_->findChild<QDockWidget*>("modesDock");
        if (!dock)
            return false;
        dock->raise();
        ModesPanel* panel = window_->modesPanel();
        panel->countBox()->setValue(1);
        QSignalSpy finished(window_.get(), &MainWindow::modesFinished);
        if (!window_->computeModes() || !test::waitForSignals(finished, "the modes to be computed"))
            return false;
        if (!window_->lastModes().ok) {
            qWarning("%s", qPrintable(panel->statusText()));
            return false;
        }
        panel->setAmplitudeFraction(kAmplitude);
        // Nothing to export until a mode is selected.
        if (panel->videoExportButton()->isEnabled())
            return false;
        panel->selectMode(0);
        return window_->modeAnimation() && panel->videoExportButton()->isEnabled();
    }

    std::unique_ptr<MainWindow> window_;
};

QTEST_MAIN(TestModeExport)
#include "tst_mode_export.moc"
