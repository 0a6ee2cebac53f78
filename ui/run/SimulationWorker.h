#pragma once
// Runs simulations on a worker thread. It lives in the thread it is moved to; run() is
// invoked there through a queued call and blocks that thread for the whole run, which
// is why pause, resume and stop are plain thread-safe methods rather than slots (the
// worker's event loop is busy while a run is in progress).
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

    /// Runs the job to its end, failure or stop; call it in the worker's thread.
    void run(const SimulationJob& job);

    /// Holds the run between two frames until resume() or stop.
    void pause();
    void resume();
    /// Ends run `runId` after its current step, or prevents it from starting if it is
    /// still queued. Ids of later runs are unaffected.
    void stop(int runId);

    /// Shortest time between two batches [ms].
    void setBatchInterval(int milliseconds) { batchIntervalMs_ = milliseconds; }

signals:
    void framesReady(const looplab::ui::FrameBatch& batch);
    /// The paused run `runId` now holds at a frame; every frame up to it has been sent.
    void holding(int runId);
    void finished(const looplab::ui::RunSummary& summary);

private:
    void waitWhilePaused();
    /// Sleeps up to `seconds`, waking early when the run is stopped.
    void sleepUnlessStopped(double seconds);

    std::mutex mutex_;
    std::condition_variable resumed_;
    bool paused_ = false;
    int currentRun_ = 0;
    int cancelledThrough_ = 0;
    std::atomic<bool> stop_{false};
    std::atomic<int> batchIntervalMs_{30};
};

}  // namespace looplab::ui
