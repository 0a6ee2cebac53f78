#include "run/ModesRunner.h"

#include "looplab/analysis/ModeMotion.h"

#include "looplab/model/TimeLaw.h"

#include <QElapsedTimer>

#include <algorithm>

#ifdef __linux__
#include <sys/resource.h>
#include <unistd.h>
#endif

namespace looplab::ui {

ModesRunner::ModesRunner(QObject* parent) : QObject(parent)
{
    qRegisterMetaType<ModesComputation>();
    qRegisterMetaType<AlongMotionComputation>();
    context_ = new QObject;
    context_->moveToThread(&thread_);
    connect(&thread_, &QThread::finished, context_, &QObject::deleteLater);
    thread_.setObjectName("modes");
    thread_.start();
#ifdef __linux__
    // As for the simulation thread: the window and the renderer come first.
    QMetaObject::invokeMethod(context_, [] { setpriority(PRIO_PROCESS, static_cast<id_t>(gettid()), 10); },
                              Qt::QueuedConnection);
#endif
}

ModesRunner::~ModesRunner()
{
    cancelledThrough_->store(id_);
    thread_.quit();
    thread_.wait();
}

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
    cancelledThrough_->store(id_);
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
    auto cancelled = cancelledThrough_;
    auto report = [this, id](const QString& stage) {
        QMetaObject::invokeMethod(this, [this, id, stage] {
            if (id == id_ && busy_)
                emit progress(id, stage, 0, 0);
        }, Qt::QueuedConnection);
    };
    QMetaObject::invokeMethod(context_, [this, id, model, start, statics, modes, cancelled, report] {
        if (cancelled->load() >= id)
            return;
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
        } else if (cancelled->load() < id) {
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
        QMetaObject::invokeMethod(this, [this, r] {
            if (r.id != id_ || !busy_)
                return;
            busy_ = false;
            emit modesFinished(r);
        }, Qt::QueuedConnection);
    }, Qt::QueuedConnection);
    emit progress(id, tr("Queued…"), 0, 0);
    return id;
}

int ModesRunner::computeAlongMotion(std::shared_ptr<const Model> model, const State& start, const QString& driver,
                                    const std::vector<double>& times, const StaticsOptions& statics,
                                    const ModesOptions& modes)
{
    const int id = begin();
    alongRunning_ = true;
    auto cancelled = cancelledThrough_;
    QMetaObject::invokeMethod(context_, [this, id, model, start, driver, times, statics, modes, cancelled] {
        if (cancelled->load() >= id)
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
                [this, id, &done, total](const AlongMotionStep&) {
                    ++done;
                    QMetaObject::invokeMethod(this, [this, id, done, total] {
                        if (id == id_ && busy_)
                            emit progress(id, tr("Posture %1 of %2").arg(done).arg(total), done, total);
                    }, Qt::QueuedConnection);
                },
                [cancelled, id] { return cancelled->load() >= id; });
            r.ok = sweep.ok;
            r.message = QString::fromStdString(sweep.message);
            r.steps = sweep.steps;
            r.times.resize(r.steps.size());
        }
        r.wallTime = clock.elapsed() / 1000.0;
        QMetaObject::invokeMethod(this, [this, r] {
            if (r.id != id_ || !busy_)
                return;
            busy_ = false;
            alongRunning_ = false;
            emit alongMotionFinished(r);
        }, Qt::QueuedConnection);
    }, Qt::QueuedConnection);
    emit progress(id, tr("Queued…"), 0, static_cast<int>(times.size()));
    return id;
}

}  // namespace looplab::ui
