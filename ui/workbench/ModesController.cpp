#include "workbench/ModesController.h"

#include "camera/CameraController.h"
#include "recording/ModeShapeAnimation.h"
#include "recording/SimulationRecording.h"
#include "run/RunSession.h"
#include "viewport/VtkViewport.h"
#include "watch/WatchFeature.h"
#include "workbench/FlexibleView.h"
#include "workbench/ModesPanel.h"
#include "workbench/PlaybackBar.h"
#include "workbench/SceneDisplay.h"
#include "document/WorkbenchDocument.h"

#include <QMainWindow>
#include <QStatusBar>

namespace looplab::ui {

ModesController::ModesController(QMainWindow* window, WorkbenchDocument* document, ModesPanel* panel,
                                 ModesRunner* modesRunner, const RunSession* session, PlaybackBar* playback,
                                 VtkViewport* viewport, FlexibleView* flexibleView, WatchFeature* watch,
                                 SceneDisplay* scene)
    : window_(window), document_(document), panel_(panel), modesRunner_(modesRunner), session_(session),
      recording_(&session->recording()), playback_(playback), viewport_(viewport), watch_(watch), scene_(scene)
{
    connect(flexibleView, &FlexibleView::settingsChanged, this, &ModesController::keepModeSwingInView);
    connect(panel_, &ModesPanel::computeRequested, this, [this] { computeModes(); });
    connect(panel_, &ModesPanel::cancelRequested, modesRunner_, &ModesRunner::cancel);
    connect(panel_, &ModesPanel::alongMotionRequested, this, [this] { computeModesAlongRecording(); });
    connect(panel_, &ModesPanel::modeSelected, this, &ModesController::animateMode);
    connect(panel_, &ModesPanel::showRecordingRequested, this, &ModesController::showRecording);
    connect(panel_, &ModesPanel::amplitudeChanged, this, [this](double fraction) {
        if (!animation_)
            return;
        animation_->setAmplitudeFraction(fraction);
        scene_->showFrame(playback_->currentFrame());
        keepModeSwingInView();
    });
    connect(modesRunner_, &ModesRunner::progress, panel_,
            [this](int, const QString& stage, int done, int total) { panel_->setProgress(stage, done, total); });
    connect(modesRunner_, &ModesRunner::modesFinished, this, &ModesController::onModesFinished);
    connect(modesRunner_, &ModesRunner::alongMotionFinished, this, &ModesController::onAlongMotionFinished);
}

ModesController::~ModesController() = default;

bool ModesController::computeModes()
{
    const LoadedModel& loaded = document_->loaded();
    if (!loaded.ok()) {
        ModesComputation refused;
        refused.message = tr("the model does not build: %1").arg(document_->statusText());
        onModesFinished(refused);
        return false;
    }
    ModesOptions options;
    QString error;
    if (!panel_->modesOptions(options, &error)) {
        ModesComputation refused;
        refused.message = error;
        onModesFinished(refused);
        return false;
    }
    // The old table's animation would outlive the table.
    showRecording();
    lastModes_ = {};
    panel_->clearResults();
    // Started first: starting cancels what still runs, whose end would clear the busy state.
    modesRunner_->computeModes(loaded.model, loaded.initial, StaticsOptions{}, options);
    panel_->setBusy(true);
    return true;
}

bool ModesController::computeModesAlongRecording()
{
    const std::shared_ptr<const Model> model = recording_->frameModel();
    const QString driver = panel_->alongDriver();
    if (!model || recording_->isEmpty() || session_->isRunning() || driver.isEmpty())
        return false;
    ModesOptions options;
    QString error;
    if (!panel_->modesOptions(options, &error)) {
        AlongMotionComputation refused;
        refused.message = error;
        onAlongMotionFinished(refused);
        return false;
    }
    // Postures evenly spread over the recorded time; the sweep starts from the recorded
    // configuration at the first one.
    const int n = panel_->alongSteps();
    const double t0 = recording_->startTime(), t1 = recording_->endTime();
    std::vector<double> times;
    for (int i = 0; i < n; ++i)
        times.push_back(n == 1 ? t0 : t0 + (t1 - t0) * i / (n - 1));
    State start = recording_->frameState(recording_->frameAt(t0));
    start.t = t0;
    modesRunner_->computeAlongMotion(model, start, driver, times, StaticsOptions{}, options);
    panel_->setBusy(true);
    return true;
}

void ModesController::onModesFinished(const ModesComputation& result)
{
    panel_->setBusy(false);
    if (!result.cancelled)
        lastModes_ = result;
    panel_->showModes(result);
    if (!result.ok && !result.cancelled)
        window_->statusBar()->showMessage(tr("Modes: %1").arg(result.message), 8000);
    emit modesFinished(result);
}

void ModesController::onAlongMotionFinished(const AlongMotionComputation& result)
{
    panel_->setBusy(false);
    panel_->showAlongMotion(result);
    emit modesAlongMotionFinished(result);
}

void ModesController::animateMode(int row)
{
    if (row < 0 || !lastModes_.ok || row >= static_cast<int>(lastModes_.modes.modes.size())) {
        showRecording();
        return;
    }
    const bool first = !animation_;
    if (first)
        recordingFrame_ = playback_->currentFrame();
    playback_->pause();
    animation_ = std::make_unique<ModeShapeAnimation>(lastModes_.model, lastModes_.equilibrium,
                                                      lastModes_.modes.modes[static_cast<size_t>(row)].shape);
    animatedMode_ = row;
    animation_->setAmplitudeFraction(panel_->amplitudeFraction());
    // The view draws the frames of the model the modes belong to.
    if (scene_->drawnModel() != lastModes_.model)
        scene_->drawModel(animation_->frameScene(0), lastModes_.model);
    playback_->setSource(animation_.get());
    playback_->sourceChanged();
    playback_->setInteractive(true);
    playback_->setLoop(true);
    scene_->restartTrail();
    playback_->setCurrentFrame(0);
    // The equilibrium may lie far from where the view was framed (a pendulum released
    // from above hangs below its pivot).
    if (first)
        viewport_->fitToView();
    keepModeSwingInView();
    playback_->play();
}

void ModesController::keepModeSwingInView()
{
    // Amplitude and exaggeration multiply: the whole swing as drawn stays in the picture.
    if (animation_ && !watch_->camera()->showsWholeRun(*animation_))
        watch_->camera()->fitToRun(*animation_);
}

void ModesController::showRecording()
{
    if (!animation_)
        return;
    playback_->pause();
    playback_->setSource(recording_);
    playback_->sourceChanged();
    playback_->setInteractive(!session_->isRunning());
    animation_.reset();
    animatedMode_ = -1;
    // The model at rest, without ghosts; then the recorded frame that was shown.
    scene_->refreshScene();
    scene_->restartTrail();
    if (!recording_->isEmpty())
        playback_->setCurrentFrame(recordingFrame_ >= 0 ? recordingFrame_ : recording_->frameCount() - 1);
    recordingFrame_ = -1;
    if (panel_->selectedMode() >= 0)
        panel_->selectMode(-1);
}

void ModesController::dropModes()
{
    if (!lastModes_.ok && !animation_ && !modesRunner_->isBusy())
        return;
    modesRunner_->cancel();
    showRecording();
    lastModes_ = {};
    panel_->clearResults();
}

}  // namespace looplab::ui
