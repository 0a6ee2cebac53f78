#pragma once
// GUI-side owner of the simulation thread. It starts runs of a SimulationWorker on a
// BackgroundJob of its own, forwards the worker's batches and end-of-run summary, and drops
// anything that belongs to a run it has replaced by a newer one. Nothing here ever blocks
// the GUI thread except the destructor, which stops the run and waits for the thread to end.

#include "run/BackgroundJob.h"
#include "run/SimulationWorker.h"

#include <QObject>

namespace looplab::ui {

class SimulationRunner : public QObject {
    Q_OBJECT

public:
    explicit SimulationRunner(QObject* parent = nullptr);
    /// Stops the current run and joins the worker thread (never terminates it).
    ~SimulationRunner() override;

    /// Starts a run (stopping any current one first); returns its id. `pace` limits the
    /// simulated seconds per wall-clock second (0: as fast as possible).
    int start(std::shared_ptr<const Model> model, const State& start, const SimulationSettings& settings,
              double pace = 0.0);
    void pause();
    void resume();
    /// Asks the current run to end; finished() follows once the worker has stopped.
    void stop();

    bool isRunning() const { return running_; }
    bool isPaused() const { return paused_; }
    int currentRun() const { return runId_; }

signals:
    void started(int runId);
    void framesReceived(const looplab::ui::FrameBatch& batch);
    void finished(const looplab::ui::RunSummary& summary);
    void pausedChanged(bool paused);
    /// After pause(): the worker holds the run at a frame, and the frames before it have
    /// all been forwarded (framesReceived) before this signal.
    void holding();

private:
    SimulationWorker worker_;
    int runId_ = 0;
    bool running_ = false;
    bool paused_ = false;
    BackgroundJob job_;  ///< last: its thread ends before worker_ goes
};

}  // namespace looplab::ui
