#include "run/SimulationRunner.h"

namespace looplab::ui {

SimulationRunner::SimulationRunner(QObject* parent)
    : QObject(parent), job_("simulation", BackgroundJob::Priority::BelowWindow)
{
    qRegisterMetaType<FrameBatch>();
    qRegisterMetaType<RunSummary>();
    // A run held by pause() or sleeping for its pace waits on the worker's condition.
    job_.setOnCancel([this] { worker_.wake(); });
    connect(&worker_, &SimulationWorker::framesReady, this, [this](const FrameBatch& batch) {
        if (batch.runId == runId_)
            emit framesReceived(batch);
    });
    connect(&worker_, &SimulationWorker::holding, this, [this](int runId) {
        if (runId == runId_ && paused_)
            emit holding();
    });
    connect(&worker_, &SimulationWorker::finished, this, [this](const RunSummary& summary) {
        if (summary.runId != runId_)
            return;
        running_ = false;
        if (paused_) {
            paused_ = false;
            emit pausedChanged(false);
        }
        emit finished(summary);
    });
}

SimulationRunner::~SimulationRunner() = default;

int SimulationRunner::start(std::shared_ptr<const Model> model, const State& start,
                            const SimulationSettings& settings, double pace)
{
    SimulationJob job{++runId_, std::move(model), start, settings, pace};
    running_ = true;
    if (paused_) {
        paused_ = false;
        emit pausedChanged(false);
    }
    SimulationWorker* worker = &worker_;
    job_.start([worker, job](const BackgroundJob::Run& run) { worker->run(job, *run.cancelFlag()); },
               BackgroundJob::IfBusy::Replace);
    emit started(job.runId);
    return job.runId;
}

void SimulationRunner::pause()
{
    if (!running_ || paused_)
        return;
    worker_.pause();
    paused_ = true;
    emit pausedChanged(true);
}

void SimulationRunner::resume()
{
    if (!paused_)
        return;
    worker_.resume();
    paused_ = false;
    emit pausedChanged(false);
}

void SimulationRunner::stop()
{
    if (!running_)
        return;
    job_.cancel();
}

}  // namespace looplab::ui
