#include "workbench/RunController.h"

#include "looplab/kinematics/JointCoordinates.h"
#include "looplab/scene/Scene.h"
#include "overlays/TracePanel.h"
#include "overlays/Trails.h"
#include "panels/WarningsPanel.h"
#include "plotting/PlotPanel.h"
#include "posing/PosingFeature.h"
#include "recording/JointQuantity.h"
#include "recording/SimulationRecording.h"
#include "run/RunPanel.h"
#include "run/SimulationRunner.h"
#include "watch/WatchFeature.h"
#include "workbench/ModesController.h"
#include "workbench/ModesPanel.h"
#include "workbench/PlaybackBar.h"
#include "workbench/SceneDisplay.h"
#include "document/WorkbenchDocument.h"

#include <QMainWindow>
#include <QStatusBar>

#include <algorithm>

namespace looplab::ui {

RunController::RunController(QMainWindow* window, WorkbenchDocument* document, SimulationRunner* runner,
                             RunPanel* runPanel, SimulationRecording* recording, PlaybackBar* playback,
                             TracePanel* traces, PlotPanel* plots, WarningsPanel* warnings, WatchFeature* watch,
                             PosingFeature* posing, ModesPanel* modesPanel, SceneDisplay* scene,
                             ModesController* modes)
    : window_(window), document_(document), runner_(runner), runPanel_(runPanel), recording_(recording),
      playback_(playback), traces_(traces), plots_(plots), warnings_(warnings), watch_(watch), posing_(posing),
      modesPanel_(modesPanel), scene_(scene), modes_(modes)
{
    plotFlush_.setSingleShot(true);
    plotFlush_.setInterval(150);
    connect(&plotFlush_, &QTimer::timeout, this, &RunController::flushPlotFrames);
    connect(runPanel_, &RunPanel::runRequested, this, [this] { startRun(); });
    connect(runPanel_, &RunPanel::pauseRequested, this, &RunController::pauseRun);
    connect(runPanel_, &RunPanel::resumeRequested, this, &RunController::resumeRun);
    connect(runPanel_, &RunPanel::stopRequested, this, &RunController::stopRun);
    connect(runPanel_, &RunPanel::resetRequested, this, &RunController::resetRun);
    connect(runner_, &SimulationRunner::framesReceived, this, &RunController::onFrames);
    connect(runner_, &SimulationRunner::finished, this, &RunController::onRunFinished);
    connect(runner_, &SimulationRunner::pausedChanged, this, &RunController::updateRunState);
    connect(warnings_, &WarningsPanel::entryActivated, this, &RunController::onWarningActivated);
    // A stiff model's remedy: the run in progress is of no further use.
    connect(warnings_, &WarningsPanel::methodSwitchRequested, this, [this](const QString& method) {
        if (isRunning())
            stopRun();
        runPanel_->setMethodWithDefaults(method.toStdString());
        window_->statusBar()->showMessage(tr("Run settings switched to %1 with its defaults: press Run").arg(method),
                                          8000);
    });
}

bool RunController::isRunning() const { return runner_->isRunning(); }

bool RunController::startRun()
{
    const LoadedModel& loaded = document_->loaded();
    if (!loaded.ok()) {
        window_->statusBar()->showMessage(tr("Cannot run: %1").arg(document_->statusText()));
        return false;
    }
    const SimulationSettings settings = runPanel_->settings();
    const std::shared_ptr<const Model> runModel = loaded.model;
    // The run's frames take over playback and the view.
    modes_->showRecording();
    QStringList coordinates;
    const JointCoordinateTracker tracker(*runModel);
    for (const JointCoordinate& c : tracker.coordinates())
        coordinates << QString::fromStdString(c.name);
    // The label names the run when it is kept for comparison with another method.
    const QString label =
        QString("%1 / %2").arg(QString::fromStdString(settings.method), QString::fromStdString(settings.integrator));
    recording_->reset(runModel, coordinates, jointQuantities(*runModel), label);
    playback_->sourceChanged();
    traces_->sourceChanged();
    playback_->setInteractive(false);
    plots_->clear();
    watch_->recordingChanged();
    pendingPlotFrames_.clear();
    warnings_->clear();
    runPanel_->setMessage({});
    // The view must show the model being simulated, even if an earlier version was shown;
    // if it already does, rebuilding its actors would only delay the first frame.
    if (scene_->drawnModel() != runModel)
        scene_->refreshScene();
    else
        scene_->drawScene(buildScene(*runModel, loaded.initial), *runModel);
    scene_->restartTrail();
    runEnd_ = settings.tEnd;
    runner_->start(runModel, loaded.initial, settings, runPanel_->pace());
    runPanel_->setProgress(loaded.initial.t, runEnd_, 0.0);
    updateRunState();
    return true;
}

void RunController::pauseRun()
{
    runner_->pause();
    updateRunState();
}

void RunController::resumeRun()
{
    runner_->resume();
    updateRunState();
}

void RunController::stopRun()
{
    runner_->stop();
}

void RunController::resetRun()
{
    if (isRunning())
        return;
    modes_->showRecording();
    recording_->reset();
    playback_->sourceChanged();
    traces_->sourceChanged();
    plots_->clear();
    watch_->recordingChanged();
    pendingPlotFrames_.clear();
    warnings_->clear();
    runPanel_->setProgress(0.0, 1.0, 0.0);
    runPanel_->setMessage({});
    scene_->refreshScene();
    scene_->restartTrail();
    updateRunState();
}

void RunController::forgetRecordingOfPreviousModel()
{
    recording_->reset();
    playback_->sourceChanged();
    traces_->documentOpened();
    posing_->recordedFrameShown(-1);
    // A run of another model cannot be compared with the next ones.
    plots_->clearComparison();
    plots_->clear();
    watch_->recordingChanged();
    pendingPlotFrames_.clear();
    warnings_->clear();
    // How the previous model's last run ended is not this one's.
    runPanel_->setMessage({});
    runPanel_->setProgress(0.0, 1.0, 0.0);
}

void RunController::onFrames(const FrameBatch& batch)
{
    const int first = recording_->frameCount();
    recording_->append(batch);
    // Only the batch's last frame is shown; a trail needs the ones before it too.
    const std::shared_ptr<const Model>& drawn = scene_->drawnModel();
    if (scene_->trails()->any() && drawn && recording_->frameModel() == drawn && playback_->source() == recording_)
        for (int i = first; i + 1 < recording_->frameCount(); ++i)
            scene_->drawScene(recording_->frameScene(i), *drawn);
    // Charts redraw slowly (Qt Charts recomputes every series when an axis grows), so
    // their frames are gathered and handed over at most every plotFlush_ interval, in an
    // event-loop iteration of their own rather than together with the 3D view.
    pendingPlotFrames_.insert(pendingPlotFrames_.end(), batch.frames.begin(), batch.frames.end());
    if (!plotFlush_.isActive())
        plotFlush_.start();
    for (const SimulationEvent& e : batch.events) {
        warnings_->addEvent(e);
        if (e.kind == RunEventKind::SingularConfiguration)
            plots_->addSingularMarker(e.t);
    }
    if (playback_->source() != recording_)
        return;
    playback_->sourceChanged();
    if (!recording_->isEmpty()) {
        playback_->setCurrentFrame(recording_->frameCount() - 1);
        const double t = recording_->endTime();
        // The worker's clock, so queueing and painting delays do not count.
        const double wall = batch.wallTime;
        runPanel_->setProgress(t, runEnd_, wall > 0.0 ? (t - recording_->startTime()) / wall : 0.0);
    }
}

void RunController::flushPlotFrames()
{
    plotFlush_.stop();
    if (pendingPlotFrames_.empty())
        return;
    plots_->appendFrames(pendingPlotFrames_);
    watch_->recordingChanged();
    pendingPlotFrames_.clear();
}

void RunController::onRunFinished(const RunSummary& summary)
{
    flushPlotFrames();
    playback_->setInteractive(true);
    bool failureReported = false;
    for (const SimulationEvent& e : recording_->events())
        failureReported = failureReported || e.kind == RunEventKind::Failure;
    QString text;
    if (summary.ok)
        text = tr("Finished at t = %1 s in %2 s (%3 steps)")
                   .arg(summary.tFinal, 0, 'f', 3)
                   .arg(summary.wallTime, 0, 'f', 2)
                   .arg(summary.steps);
    else if (summary.stopped)
        text = tr("Stopped at t = %1 s").arg(summary.tFinal, 0, 'f', 3);
    else {
        text = tr("Failed at t = %1 s: %2").arg(summary.tFinal, 0, 'f', 3).arg(summary.message);
        if (!failureReported)
            warnings_->addMessage("failure", summary.message, summary.tFinal);
    }
    runPanel_->setMessage(text);
    window_->statusBar()->showMessage(text, 8000);
    watch_->runFinished();
    updateRunState();
    emit runFinished(summary);
}

void RunController::onWarningActivated(const QString& kind, double t, const QStringList& joints)
{
    if (t >= 0.0 && !isRunning())
        playback_->seekTime(t);
    // Where a run passed a singular configuration, the direction it could not move in is
    // drawn at that frame (the warning says it only in words).
    const int frame = playback_->currentFrame();
    const std::shared_ptr<const Model>& drawn = scene_->drawnModel();
    if (kind == "singular_configuration" && t >= 0.0 && !isRunning() && playback_->source() == recording_ &&
        frame >= 0 && recording_->frameModel() == drawn && drawn)
        posing_->showRecordedSingularity(*drawn, recording_->frameState(frame),
                                         recording_->frameState(std::min(frame + 1, recording_->frameCount() - 1)),
                                         t, frame);
    std::vector<int> indices;
    if (drawn)
        for (const QString& name : joints)
            if (auto j = drawn->findJoint(name.toStdString()))
                indices.push_back(j->value());
    scene_->highlightJoints(indices);
}

void RunController::updateRunState()
{
    runPanel_->setState(document_->loaded().ok(), runner_->isRunning(), runner_->isPaused(), !recording_->isEmpty());
    // Every edit rebuilds the model, so a recording of another model object is of the
    // document before an edit (an undo back to it included: its frames are not drawn).
    playback_->setRecordingOfPreviousModel(!recording_->isEmpty() &&
                                           recording_->frameModel() != document_->loaded().model);
    posing_->setPosingEnabled(!runner_->isRunning() && recording_->isEmpty());
    QStringList drivers;
    if (const std::shared_ptr<const Model> model = recording_->frameModel())
        for (const Driver& d : model->drivers)
            drivers << QString::fromStdString(d.name);
    modesPanel_->setAvailability(document_->loaded().ok(), drivers, !recording_->isEmpty() && !isRunning());
}

}  // namespace looplab::ui
