#pragma once
// The run of the open model and what it recorded: a RunSession owns the simulation runner
// and the recording of the current (or last) run, keeps the recording in step with the
// runner, and tells what happened as signals. The panels learn of a run only from those
// signals, in the order they subscribed, so nothing has to know who else is interested.
//
// A run's steps, as signalled:
//   recordingCleared(NewRun)  the recording is empty and named for the run about to start
//   runStarted                the runner has started it
//   eventRecorded, then framesRecorded, for each batch the worker sends
//   pausedChanged             paused or resumed (also false when a paused run ends)
//   runFinished               it ended (success, failure or stop); its last frames are in
// and recordingCleared(Reset or OtherModel) whenever the recording is forgotten otherwise.

#include "recording/RecordedFrame.h"
#include "recording/SimulationRecording.h"
#include "run/SimulationRunner.h"

#include <QObject>

#include <memory>

namespace looplab::ui {

class RunSession : public QObject {
    Q_OBJECT

public:
    /// Why the recording was emptied.
    enum class Clearing {
        NewRun,      ///< a run starts and records into it (runStarted follows)
        Reset,       ///< the recording was put aside on request
        OtherModel,  ///< the document is another one: nothing of the last run applies to it
    };
    Q_ENUM(Clearing)

    explicit RunSession(QObject* parent = nullptr);
    /// Stops the run in progress and waits for the simulation thread to end.
    ~RunSession() override;

    /// Forgets the recording, names it for a run of `model` from `initial` (its joint
    /// coordinates, plottable quantities, method and integrator) and starts that run,
    /// replacing any in progress. `pace` limits the simulated seconds per wall-clock second
    /// (0: as fast as possible).
    void start(const std::shared_ptr<const Model>& model, const State& initial, const SimulationSettings& settings,
               double pace = 0.0);
    void pause();
    void resume();
    /// Asks the run to end; runFinished follows once the worker has stopped.
    void stop();
    /// Forgets the recording. A run still in progress goes on recording into it.
    void clear(Clearing why);

    bool isRunning() const { return runner_->isRunning(); }
    bool isPaused() const { return runner_->isPaused(); }

    const SimulationRecording& recording() const { return recording_; }
    /// The runner itself, for what watches the worker more closely than the session says
    /// (SimulationRunner::holding, the batches as sent).
    SimulationRunner* runner() const { return runner_.get(); }

signals:
    void recordingCleared(looplab::ui::RunSession::Clearing why);
    void runStarted(const std::shared_ptr<const looplab::Model>& model, const looplab::State& initial,
                    const looplab::SimulationSettings& settings);
    /// One of a batch's events; the recording has the whole batch already.
    void eventRecorded(const looplab::SimulationEvent& event);
    /// A batch of frames is recorded: they are the recording's last batch.frames.size().
    void framesRecorded(const looplab::ui::FrameBatch& batch);
    void pausedChanged(bool paused);
    /// A run ended (success, failure or stop) and its last frames were recorded.
    void runFinished(const looplab::ui::RunSummary& summary);

private:
    void record(const FrameBatch& batch);

    SimulationRecording recording_;
    /// Last: its thread ends before the recording it feeds goes.
    std::unique_ptr<SimulationRunner> runner_;
};

}  // namespace looplab::ui
