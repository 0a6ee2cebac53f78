#include "workbench/RunController.h"

#include "overlays/TracePanel.h"
#include "panels/WarningsPanel.h"
#include "plotting/PlotPanel.h"
#include "posing/PosingFeature.h"
#include "recording/SimulationRecording.h"
#include "run/MemberStart.h"
#include "run/RunPanel.h"
#include "run/RunSession.h"
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

RunController::RunController(QMainWindow* window, WorkbenchDocument* document, RunSession* session,
                             RunPanel* runPanel, PlaybackBar* playback, TracePanel* traces, PlotPanel* plots,
                             WarningsPanel* warnings, WatchFeature* watch, PosingFeature* posing,
                             ModesPanel* modesPanel, SceneDisplay* scene, ModesController* modes)
    : window_(window), document_(document), session_(session), runPanel_(runPanel), playback_(playback),
      traces_(traces), plots_(plots), warnings_(warnings), watch_(watch), posing_(posing), modesPanel_(modesPanel),
      scene_(scene), modes_(modes)
{
    plotFlush_.setSingleShot(true);
    plotFlush_.setInterval(150);
    connect(&plotFlush_, &QTimer::timeout, this, &RunController::flushPlotFrames);
    connect(runPanel_, &RunPanel::runRequested, this, [this] { startRun(); });
    connect(runPanel_, &RunPanel::pauseRequested, this, &RunController::pauseRun);
    connect(runPanel_, &RunPanel::resumeRequested, this, &RunController::resumeRun);
    connect(runPanel_, &RunPanel::stopRequested, this, &RunController::stopRun);
    connect(runPanel_, &RunPanel::resetRequested, this, &RunController::resetRun);
    subscribeToSession();
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

void RunController::subscribeToSession()
{
    // Qt calls a signal's slots in the order they were connected: the panels below learn of
    // each step of a run in the order written, which is the order their updates depend on
    // (playback before what it shows, the charts' frames before a finished run is reported,
    // the run state last). Lambdas capture only their context object's pointer, so none
    // outlives what it calls.
    using Clearing = RunSession::Clearing;
    const RunSession* s = session_;

    connect(s, &RunSession::recordingCleared, playback_, &PlaybackBar::sourceChanged);
    connect(s, &RunSession::recordingCleared, traces_, [traces = traces_](Clearing why) {
        // Another document has traces of its own.
        if (why == Clearing::OtherModel)
            traces->documentOpened();
        else
            traces->sourceChanged();
    });
    connect(s, &RunSession::recordingCleared, posing_, [posing = posing_](Clearing why) {
        if (why == Clearing::OtherModel)
            posing->recordedFrameShown(-1);
    });
    connect(s, &RunSession::recordingCleared, plots_, [plots = plots_](Clearing why) {
        // A run of another model cannot be compared with the next ones.
        if (why == Clearing::OtherModel)
            plots->clearComparison();
        plots->clear();
    });
    connect(s, &RunSession::recordingCleared, watch_, &WatchFeature::recordingChanged);
    connect(s, &RunSession::recordingCleared, this, [this] { pendingPlotFrames_.clear(); });
    connect(s, &RunSession::recordingCleared, warnings_, &WarningsPanel::clear);
    connect(s, &RunSession::recordingCleared, runPanel_, [panel = runPanel_](Clearing why) {
        // How the last run ended is not of what is shown now; a new run sets its own progress.
        panel->setMessage({});
        if (why != Clearing::NewRun)
            panel->setProgress(0.0, 1.0, 0.0);
    });

    connect(s, &RunSession::runStarted, playback_, [playback = playback_] { playback->setInteractive(false); });
    connect(s, &RunSession::runStarted, scene_, &SceneDisplay::showRunStart);
    connect(s, &RunSession::runStarted, this,
            [this](const std::shared_ptr<const Model>&, const State& initial, const SimulationSettings& settings) {
                runEnd_ = settings.tEnd;
                runPanel_->setProgress(initial.t, runEnd_, 0.0);
            });
    connect(s, &RunSession::runStarted, this, &RunController::updateRunState);

    connect(s, &RunSession::eventRecorded, warnings_, &WarningsPanel::addEvent);
    connect(s, &RunSession::eventRecorded, plots_, [plots = plots_](const SimulationEvent& e) {
        if (e.kind == RunEventKind::SingularConfiguration)
            plots->addSingularMarker(e.t);
    });

    connect(s, &RunSession::framesRecorded, scene_, &SceneDisplay::traceRecordedFrames);
    connect(s, &RunSession::framesRecorded, this, &RunController::queueForCharts);
    connect(s, &RunSession::framesRecorded, this, &RunController::followRecording);

    connect(s, &RunSession::pausedChanged, this, &RunController::updateRunState);

    connect(s, &RunSession::runFinished, this, &RunController::flushPlotFrames);
    connect(s, &RunSession::runFinished, playback_, [playback = playback_] { playback->setInteractive(true); });
    connect(s, &RunSession::runFinished, this, &RunController::reportEnd);
    connect(s, &RunSession::runFinished, watch_, &WatchFeature::runFinished);
    connect(s, &RunSession::runFinished, this, &RunController::updateRunState);
}

bool RunController::isRunning() const { return session_->isRunning(); }

bool RunController::startRun()
{
    const LoadedModel& loaded = document_->loaded();
    if (!loaded.ok()) {
        window_->statusBar()->showMessage(tr("Cannot run: %1").arg(document_->statusText()));
        return false;
    }
    const SimulationSettings settings = runPanel_->settings();
    // Held here: the panels the session tells of the start must not change what is run.
    const std::shared_ptr<const Model> runModel = loaded.model;
    const StartReport start = loaded.start;
    const double t0 = loaded.initial.t;
    const StartMotion motion = modelStart(document_->document());
    // The run's frames take over playback and the view.
    modes_->showRecording();
    session_->start(runModel, loaded.initial, settings, runPanel_->pace());
    // The run's first row (the session has emptied the warnings for it): what the start
    // gave the flexible members, which a rest start makes ring for the whole run.
    if (startWorthReporting(start))
        warnings_->addMessage("start", startReportText(start, motion), t0);
    return true;
}

void RunController::pauseRun()
{
    session_->pause();
    updateRunState();
}

void RunController::resumeRun()
{
    session_->resume();
    updateRunState();
}

void RunController::stopRun()
{
    session_->stop();
}

void RunController::resetRun()
{
    if (isRunning())
        return;
    modes_->showRecording();
    session_->clear(RunSession::Clearing::Reset);
    scene_->refreshScene();
    scene_->restartTrail();
    updateRunState();
}

void RunController::forgetRecordingOfPreviousModel()
{
    session_->clear(RunSession::Clearing::OtherModel);
}

void RunController::queueForCharts(const FrameBatch& batch)
{
    // Charts redraw slowly (Qt Charts recomputes every series when an axis grows), so
    // their frames are gathered and handed over at most every plotFlush_ interval, in an
    // event-loop iteration of their own rather than together with the 3D view.
    pendingPlotFrames_.insert(pendingPlotFrames_.end(), batch.frames.begin(), batch.frames.end());
    if (!plotFlush_.isActive())
        plotFlush_.start();
}

void RunController::followRecording(const FrameBatch& batch)
{
    const SimulationRecording& recording = session_->recording();
    if (playback_->source() != &recording)
        return;
    playback_->sourceChanged();
    if (!recording.isEmpty()) {
        playback_->setCurrentFrame(recording.frameCount() - 1);
        const double t = recording.endTime();
        // The worker's clock, so queueing and painting delays do not count.
        const double wall = batch.wallTime;
        runPanel_->setProgress(t, runEnd_, wall > 0.0 ? (t - recording.startTime()) / wall : 0.0);
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

void RunController::reportEnd(const RunSummary& summary)
{
    bool failureReported = false;
    for (const SimulationEvent& e : session_->recording().events())
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
}

void RunController::onWarningActivated(const QString& kind, double t, const QStringList& joints)
{
    if (t >= 0.0 && !isRunning())
        playback_->seekTime(t);
    // Where a run passed a singular configuration, the direction it could not move in is
    // drawn at that frame (the warning says it only in words).
    const SimulationRecording& recording = session_->recording();
    const int frame = playback_->currentFrame();
    const std::shared_ptr<const Model>& drawn = scene_->drawnModel();
    if (kind == "singular_configuration" && t >= 0.0 && !isRunning() && playback_->source() == &recording &&
        frame >= 0 && recording.frameModel() == drawn && drawn)
        posing_->showRecordedSingularity(*drawn, recording.frameState(frame),
                                         recording.frameState(std::min(frame + 1, recording.frameCount() - 1)), t,
                                         frame);
    std::vector<int> indices;
    if (drawn)
        for (const QString& name : joints)
            if (auto j = drawn->findJoint(name.toStdString()))
                indices.push_back(j->value());
    scene_->highlightJoints(indices);
}

void RunController::updateRunState()
{
    const SimulationRecording& recording = session_->recording();
    runPanel_->setState(document_->loaded().ok(), session_->isRunning(), session_->isPaused(), !recording.isEmpty());
    // Every edit rebuilds the model, so a recording of another model object is of the
    // document before an edit (an undo back to it included: its frames are not drawn).
    playback_->setRecordingOfPreviousModel(!recording.isEmpty() && recording.frameModel() != document_->loaded().model);
    posing_->setPosingEnabled(!session_->isRunning() && recording.isEmpty());
    QStringList drivers;
    if (const std::shared_ptr<const Model> model = recording.frameModel())
        for (const Driver& d : model->drivers)
            drivers << QString::fromStdString(d.name);
    modesPanel_->setAvailability(document_->loaded().ok(), drivers, !recording.isEmpty() && !isRunning());
}

}  // namespace looplab::ui
