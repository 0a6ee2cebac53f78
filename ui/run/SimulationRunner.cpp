#include "run/SimulationRunner.h"

#ifdef __linux__
#include <sys/resource.h>
#include <unistd.h>
#endif

namespace looplab::ui {

SimulationRunner::SimulationRunner(QObject* parent) : QObject(parent)
{
    qRegisterMetaType<FrameBatch>();
    qRegisterMetaType<RunSummary>();
    worker_ = new SimulationWorker;
    worker_->moveToThread(&thread_);
    connect(&thread_, &QThread::finished, worker_, &QObject::deleteLater);
    connect(worker_, &SimulationWorker::framesReady, this, [this](const FrameBatch& batch) {
        if (batch.runId == runId_)
            emit framesReceived(batch);
    });
    connect(worker_, &SimulationWorker::holding, this, [this](int runId) {
        if (runId == runId_ && paused_)
            emit holding();
    });
    connect(worker_, &SimulationWorker::finished, this, [this](const RunSummary& summary) {
        if (summary.runId != runId_)
            return;
        running_ = false;
        if (paused_) {
            paused_ = false;
            emit pausedChanged(false);
        }
        emit finished(summary);
    });
    thread_.setObjectName("simulation");
    thread_.start();
#ifdef __linux__
    // The solver may use every cycle the window, the renderer and the display server
    // leave, but no more: on a machine with few cores it would otherwise take turns with
    // them and the window would stutter. Qt's thread priorities are no-ops for Linux's
    // default scheduler; a per-thread nice value is not.
    QMetaObject::invokeMethod(worker_, [] { setpriority(PRIO_PROCESS, static_cast<id_t>(gettid()), 10); },
                              Qt::QueuedConnection);
#endif
}

SimulationRunner::~SimulationRunner()
{
    if (worker_)
        worker_->stop(runId_);
    thread_.quit();
    thread_.wait();
}

int SimulationRunner::start(std::shared_ptr<const Model> model, const State& start,
                            const SimulationSettings& settings, double pace)
{
    if (running_)
        worker_->stop(runId_);
    SimulationJob job{++runId_, std::move(model), start, settings, pace};
    running_ = true;
    if (paused_) {
        paused_ = false;
        emit pausedChanged(false);
    }
    SimulationWorker* worker = worker_;
    QMetaObject::invokeMethod(worker_, [worker, job] { worker->run(job); }, Qt::QueuedConnection);
    emit started(job.runId);
    return job.runId;
}

void SimulationRunner::pause()
{
    if (!running_ || paused_)
        return;
    worker_->pause();
    paused_ = true;
    emit pausedChanged(true);
}

void SimulationRunner::resume()
{
    if (!paused_)
        return;
    worker_->resume();
    paused_ = false;
    emit pausedChanged(false);
}

void SimulationRunner::stop()
{
    if (!running_)
        return;
    worker_->stop(runId_);
}

}  // namespace looplab::ui
