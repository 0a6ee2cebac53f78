#include "run/RunSession.h"

#include "looplab/kinematics/JointCoordinates.h"
#include "recording/JointQuantity.h"

#include <QString>
#include <QStringList>

namespace looplab::ui {

RunSession::RunSession(QObject* parent) : QObject(parent), runner_(std::make_unique<SimulationRunner>())
{
    // Connected before anyone can reach the runner through runner(): whoever watches its
    // batches finds them in the recording already.
    connect(runner_.get(), &SimulationRunner::framesReceived, this, &RunSession::record);
    connect(runner_.get(), &SimulationRunner::pausedChanged, this, &RunSession::pausedChanged);
    connect(runner_.get(), &SimulationRunner::finished, this, &RunSession::runFinished);
}

RunSession::~RunSession() = default;

void RunSession::start(const std::shared_ptr<const Model>& model, const State& initial,
                       const SimulationSettings& settings, double pace)
{
    QStringList coordinates;
    const JointCoordinateTracker tracker(*model);
    for (const JointCoordinate& c : tracker.coordinates())
        coordinates << QString::fromStdString(c.name);
    // The label names the run when it is kept for comparison with another method.
    const QString label =
        QString("%1 / %2").arg(QString::fromStdString(settings.method), QString::fromStdString(settings.integrator));
    recording_.reset(model, coordinates, jointQuantities(*model), label);
    emit recordingCleared(Clearing::NewRun);
    runner_->start(model, initial, settings, pace);
    emit runStarted(model, initial, settings);
}

void RunSession::pause() { runner_->pause(); }
void RunSession::resume() { runner_->resume(); }
void RunSession::stop() { runner_->stop(); }

void RunSession::clear(Clearing why)
{
    recording_.reset();
    emit recordingCleared(why);
}

void RunSession::record(const FrameBatch& batch)
{
    recording_.append(batch);
    for (const SimulationEvent& e : batch.events)
        emit eventRecorded(e);
    emit framesRecorded(batch);
}

}  // namespace looplab::ui
