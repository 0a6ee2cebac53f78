#include "run/ModesRunner.h"

#include "looplab/analysis/ModeMotion.h"

#include "looplab/model/TimeLaw.h"

#include <QElapsedTimer>

#include <algorithm>

namespace looplab::ui {

ModesRunner::ModesRunner(QObject* parent)
    : QObject(parent), job_("modes", BackgroundJob::Priority::BelowWindow)
{
    qRegisterMetaType<ModesComputation>();
    qRegisterMetaType<AlongMotionComputation>();
}

ModesRunner::~ModesRunner() = default;

int ModesRunner::begin()
{
    cancel();
    busy_ = true;
    return ++id_;
}

void ModesRunner::cancel()
{
    if (!busy_)
        return;
    job_.cancel();
    busy_ = false;
    if (alongRunning_) {
        AlongMotionComputation r;
        r.id = id_;
        r.cancelled = true;
        r.message = tr("cancelled");
        alongRunning_ = false;
        emit alongMotionFinished(r);
    } else {
        ModesComputation r;
        r.id = id_;
        r.cancelled = true;
        r.message = tr("cancelled");
        emit modesFinished(r);
    }
}

int ModesRunner::computeModes(std::shared_ptr<const Model> model, const State& start,
                              const StaticsOptions& statics, const ModesOptions& modes)
{
    const int id = begin();
    alongRunning_ = false;
    job_.start([this, id, model, start, statics, modes](const BackgroundJob::Run& run) {
        if (run.isCancelled())
            return;
        auto report = [this, id, &run](const QString& stage) {
            run.post([this, id, stage] {
                if (id == id_ && busy_)
                    emit progress(id, stage, 0, 0);
            });
        };
        QElapsedTimer clock;
        clock.start();
        ModesComputation r;
        r.id = id;
        r.model = model;
        r.equilibrium = start;
        report(tr("Finding the static equilibrium…"));
        r.statics = findEquilibrium(*model, r.equilibrium, statics);
        // Mechanism and unstable equilibria still have modes (zero or negative ω²).
        const bool equilibrium = r.statics.ok || r.statics.outcome == StaticsOutcome::Mechanism ||
                                 r.statics.outcome == StaticsOutcome::Unstable;
        if (!equilibrium) {
            r.message = tr("no equilibrium: %1").arg(QString::fromStdString(r.statics.message));
        } else if (!run.isCancelled()) {
            report(tr("Computing the modes…"));
            r.modes = looplab::computeModes(*model, r.equilibrium, r.statics.lambda, modes);
            r.ok = r.modes.ok;
            for (const Mode& mode : r.modes.modes)
                r.motionShares.push_back(modeMotionShares(*model, r.equilibrium, mode.shape));
            if (!r.modes.ok)
                r.message = QString::fromStdString(r.modes.message);
            else if (!r.statics.ok)
                r.message = QString::fromStdString(r.statics.message);
        }
        r.wallTime = clock.elapsed() / 1000.0;
        run.post([this, r] {
            if (r.id != id_ || !busy_)
                return;
            busy_ = false;
            emit modesFinished(r);
        });
    }, BackgroundJob::IfBusy::Replace);
    emit progress(id, tr("Queued…"), 0, 0);
    return id;
}

int ModesRunner::computeAlongMotion(std::shared_ptr<const Model> model, const State& start, const QString& driver,
                                    const std::vector<double>& times, const StaticsOptions& statics,
                                    const ModesOptions& modes)
{
    const int id = begin();
    alongRunning_ = true;
    job_.start([this, id, model, start, driver, times, statics, modes](const BackgroundJob::Run& run) {
        if (run.isCancelled())
            return;
        QElapsedTimer clock;
        clock.start();
        AlongMotionComputation r;
        r.id = id;
        r.driver = driver;
        r.times = times;
        AlongMotionOptions o;
        o.driver = driver.toStdString();
        o.statics = statics;
        o.modes = modes;
        const auto it = std::find_if(model->drivers.begin(), model->drivers.end(),
                                     [&](const Driver& d) { return d.name == o.driver; });
        if (it == model->drivers.end()) {
            r.message = tr("the model has no driver named '%1'").arg(driver);
        } else {
            // The driver is locked where its law had it at each recorded time.
            for (double t : times)
                o.coordinates.push_back(it->law.evaluate(t).value);
            const int total = static_cast<int>(times.size());
            int done = 0;
            const AlongMotionResult sweep = modesAlongMotion(
                *model, start, o,
                [this, id, &run, &done, total](const AlongMotionStep&) {
                    ++done;
                    run.post([this, id, done, total] {
                        if (id == id_ && busy_)
                            emit progress(id, tr("Posture %1 of %2").arg(done).arg(total), done, total);
                    });
                },
                [&run] { return run.isCancelled(); });
            r.ok = sweep.ok;
            r.message = QString::fromStdString(sweep.message);
            r.steps = sweep.steps;
            r.times.resize(r.steps.size());
        }
        r.wallTime = clock.elapsed() / 1000.0;
        run.post([this, r] {
            if (r.id != id_ || !busy_)
                return;
            busy_ = false;
            alongRunning_ = false;
            emit alongMotionFinished(r);
        });
    }, BackgroundJob::IfBusy::Replace);
    emit progress(id, tr("Queued…"), 0, static_cast<int>(times.size()));
    return id;
}

}  // namespace looplab::ui
