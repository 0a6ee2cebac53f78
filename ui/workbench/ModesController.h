#pragma once
// The Modes panel's computations and what they show: the equilibrium and modes of the
// current model or along the recording (run/ModesRunner.h), and a mode's swing handed to
// the playback bar and the view in place of the recording until it is asked back.

#include "run/ModesRunner.h"

#include <QObject>

#include <memory>

class QMainWindow;

namespace looplab::ui {

class FlexibleView;
class ModeShapeAnimation;
class ModesPanel;
class PlaybackBar;
class SceneDisplay;
class RunSession;
class SimulationRecording;
class VtkViewport;
class WatchFeature;
class WorkbenchDocument;

class ModesController : public QObject {
    Q_OBJECT

public:
    ModesController(QMainWindow* window, WorkbenchDocument* document, ModesPanel* panel, ModesRunner* modesRunner,
                    const RunSession* session, PlaybackBar* playback, VtkViewport* viewport, FlexibleView* flexibleView,
                    WatchFeature* watch, SceneDisplay* scene);
    ~ModesController() override;

    /// As MainWindow::computeModes.
    bool computeModes();
    /// As MainWindow::computeModesAlongRecording.
    bool computeModesAlongRecording();
    /// As MainWindow::animateMode.
    void animateMode(int row);
    /// Playback and the view show the recording (or the model at rest) again.
    void showRecording();
    /// The modes no longer describe the document: forget them and their animation.
    void dropModes();

    const ModesComputation& lastModes() const { return lastModes_; }
    const ModeShapeAnimation* modeAnimation() const { return animation_.get(); }
    int animatedModeRow() const { return animatedMode_; }

signals:
    /// A modes computation ended (also when it failed or was cancelled) and is shown.
    void modesFinished(const looplab::ui::ModesComputation& result);
    void modesAlongMotionFinished(const looplab::ui::AlongMotionComputation& result);

private:
    void onModesFinished(const ModesComputation& result);
    void onAlongMotionFinished(const AlongMotionComputation& result);
    /// Refits the camera when the animated mode's swing, as drawn, leaves the picture.
    void keepModeSwingInView();

    QMainWindow* window_;
    WorkbenchDocument* document_;
    ModesPanel* panel_;
    ModesRunner* modesRunner_;
    const RunSession* session_;
    const SimulationRecording* recording_;
    PlaybackBar* playback_;
    VtkViewport* viewport_;
    WatchFeature* watch_;
    SceneDisplay* scene_;
    ModesComputation lastModes_;
    std::unique_ptr<ModeShapeAnimation> animation_;
    /// Row of the mode table that animation_ shows.
    int animatedMode_ = -1;
    /// Recording frame shown when a mode animation took over playback.
    int recordingFrame_ = -1;
};

}  // namespace looplab::ui
