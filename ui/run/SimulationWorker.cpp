#include "run/SimulationWorker.h"

#include "looplab/kinematics/JointCoordinates.h"

#include <QElapsedTimer>

#include <chrono>
#include <cmath>
#include <exception>

namespace looplab::ui {

SimulationWorker::SimulationWorker(QObject* parent) : QObject(parent) {}

void SimulationWorker::pause()
{
    std::lock_guard<std::mutex> lock(mutex_);
    paused_ = true;
}

void SimulationWorker::resume()
{
    {
        std::lock_guard<std::mutex> lock(mutex_);
        paused_ = false;
    }
    resumed_.notify_all();
}

void SimulationWorker::wake()
{
    {
        // Taken and released between the flag being set and the notification, so that a
        // waiter that read the flag just before cannot miss the wake-up.
        std::lock_guard<std::mutex> lock(mutex_);
    }
    resumed_.notify_all();
}

void SimulationWorker::waitWhilePaused(const std::atomic<bool>& stop)
{
    std::unique_lock<std::mutex> lock(mutex_);
    resumed_.wait(lock, [this, &stop] { return !paused_ || stop; });
}

void SimulationWorker::sleepUnlessStopped(double seconds, const std::atomic<bool>& stop)
{
    std::unique_lock<std::mutex> lock(mutex_);
    resumed_.wait_for(lock, std::chrono::duration<double>(seconds), [&stop] { return stop.load(); });
}

void SimulationWorker::run(const SimulationJob& job, const std::atomic<bool>& stop)
{
    RunSummary summary;
    summary.runId = job.runId;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        paused_ = false;
    }
    if (stop) {
        summary.stopped = true;
        summary.message = tr("stopped");
        emit finished(summary);
        return;
    }

    QElapsedTimer wall, sinceBatch, sincePaceStart;
    wall.start();
    sinceBatch.start();
    sincePaceStart.start();
    double paceStart = job.start.t;
    FrameBatch pending;
    pending.runId = job.runId;
    auto flush = [&] {
        if (pending.frames.empty() && pending.events.empty())
            return;
        pending.wallTime = wall.elapsed() / 1000.0;
        emit framesReady(pending);
        pending.frames.clear();
        pending.events.clear();
        sinceBatch.restart();
    };

    try {
        Simulator simulator(job.model, job.settings);
        JointCoordinateTracker tracker(*job.model);
        const double tEnd = job.settings.tEnd;
        auto onFrame = [&](const SimulationFrame& f) {
            RecordedFrame r;
            r.t = f.state.t;
            r.q = f.state.q;
            r.v = f.state.v;
            r.acceleration = f.acceleration;
            r.violation = f.violation;
            r.energy = f.energy.total();
            r.kinetic = f.energy.kinetic;
            r.work = f.work;
            r.smallestSingularValue = f.smallestSingularValue;
            r.rank = f.rank;
            // The simulator follows the angles at every solver step; the frames alone
            // would alias a joint that turns more than half a turn between them.
            r.jointValues = f.jointCoordinates.empty() ? tracker.update(f.state) : f.jointCoordinates;
            r.reactions.reserve(6 * f.reactions.size());
            for (const JointReaction& j : f.reactions) {
                r.reactions.insert(r.reactions.end(), j.forceGlobal.data(), j.forceGlobal.data() + 3);
                r.reactions.insert(r.reactions.end(), j.torqueGlobal.data(), j.torqueGlobal.data() + 3);
            }
            r.driverEfforts.reserve(f.drivers.size());
            for (const DriverEffort& d : f.drivers)
                r.driverEfforts.push_back(d.value);
            r.couplerEfforts.reserve(4 * f.couplers.size());
            for (const CouplerEffort& c : f.couplers)
                r.couplerEfforts.insert(r.couplerEfforts.end(), {c.value, c.pitchForce, c.contactForce, c.pressureAngle});
            pending.frames.push_back(std::move(r));
            const bool last = f.state.t >= tEnd - 1e-12 * std::max(1.0, std::abs(tEnd));
            if (last || sinceBatch.elapsed() >= batchIntervalMs_)
                flush();
            if (job.pace > 0.0 && !last) {
                const double early = (f.state.t - paceStart) / job.pace - sincePaceStart.nsecsElapsed() * 1e-9;
                if (early > 0.0) {
                    // A sleep past the next batch time would hold frames that are due.
                    if (1e3 * early >= batchIntervalMs_ - sinceBatch.elapsed())
                        flush();
                    sleepUnlessStopped(early, stop);
                }
            }
            bool paused;
            {
                std::lock_guard<std::mutex> lock(mutex_);
                paused = paused_;
            }
            if (paused) {
                // Show the frame the run paused at before waiting.
                flush();
                emit holding(job.runId);
                waitWhilePaused(stop);
                // A paced run resumes at its pace instead of catching up the pause.
                paceStart = f.state.t;
                sincePaceStart.restart();
            }
        };
        // A warning shows when it is found, not with the next frame: a run whose steps are held
        // short (a stiff model under an explicit integrator) can take many seconds to reach it.
        auto onEvent = [&](const SimulationEvent& e) {
            pending.events.push_back(e);
            flush();
        };
        const SimulationResult result = simulator.run(job.start, onFrame, onEvent, &stop);
        summary.ok = result.ok;
        summary.message = QString::fromStdString(result.message);
        summary.tFinal = result.tFinal;
        summary.steps = result.statistics.steps;
        summary.stopped = !result.ok && stop;
    } catch (const std::exception& e) {
        summary.ok = false;
        summary.message = QString::fromUtf8(e.what());
    }
    flush();
    summary.wallTime = wall.elapsed() / 1000.0;
    emit finished(summary);
}

}  // namespace looplab::ui
