#pragma once
// Runs simulations on the simulation's thread (SimulationRunner's BackgroundJob): run()
// blocks that thread for the whole run, so pause and resume are plain thread-safe
// methods, and a run ends when the flag it was given is set. Its signals are emitted from
// that thread and reach the runner, in the GUI thread, queued.
//
// Frames are converted to compact RecordedFrames and sent in batches at most every
// `batchInterval` so that a fast run cannot flood the GUI thread's event queue.

#include "looplab/model/Model.h"
#include "looplab/simulation/Simulation.h"
#include "looplab/model/State.h"
#include "recording/RecordedFrame.h"

#include <QObject>

#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>

namespace looplab::ui {

/// What one run needs; copied into the worker so the GUI may change its model freely.
struct SimulationJob {
    int runId = 0;
    std::shared_ptr<const Model> model;
    State start;
    SimulationSettings settings;
    /// Simulated seconds per wall-clock second the run may go at most, so that a fast
    /// model can be watched as it moves; 0 runs as fast as the solver goes.
    double pace = 0.0;
};

class SimulationWorker : public QObject {
    Q_OBJECT

public:
    explicit SimulationWorker(QObject* parent = nullptr);

    /// Runs the job to its end, failure or `stop` (set already: it does not begin); call
    /// it in the worker thread.
    void run(const SimulationJob& job, const std::atomic<bool>& stop);

    /// Holds the run between two frames until resume() or stop.
    void pause();
    void resume();
    /// After a run's stop flag is set: a paused or pacing run waits on a condition, not on
    /// the flag, and sees it only once woken.
    void wake();

    /// Shortest time between two batches [ms].
    void setBatchInterval(int milliseconds) { batchIntervalMs_ = milliseconds; }

signals:
    void framesReady(const looplab::ui::FrameBatch& batch);
    /// The paused run `runId` now holds at a frame; every frame up to it has been sent.
    void holding(int runId);
    void finished(const looplab::ui::RunSummary& summary);

private:
    void waitWhilePaused(const std::atomic<bool>& stop);
    /// Sleeps up to `seconds`, waking early when the run is stopped.
    void sleepUnlessStopped(double seconds, const std::atomic<bool>& stop);

    std::mutex mutex_;
    std::condition_variable resumed_;
    bool paused_ = false;
    std::atomic<int> batchIntervalMs_{30};
};

}  // namespace looplab::ui
