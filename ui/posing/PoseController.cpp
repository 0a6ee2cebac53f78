#include "posing/PoseController.h"

#include "document/WorkbenchDocument.h"

#include "looplab/kinematics/Assembly.h"
#include "looplab/posing/PosingModel.h"
#include "looplab/scene/Scene.h"

#include <QElapsedTimer>

#include <cmath>
#include <limits>

namespace looplab::ui {
namespace {

// Steps per mouse event: a few milliseconds on the examples, so the view keeps up with
// the cursor; a target farther away is finished from the event loop.
constexpr int kStepsPerEvent = 12;

// A driver's change of start in the unit the user reads: degrees or millimetres.
QString driverShiftText(const Model& model, const std::string& driver, double by)
{
    for (const Driver& d : model.drivers)
        if (d.name == driver)
            return d.rotational ? QStringLiteral("%1°").arg(by * 180.0 / M_PI, 0, 'f', 1)
                                : QStringLiteral("%1 mm").arg(by * 1000.0, 0, 'f', 1);
    return QString::number(by);
}

}  // namespace

PoseController::PoseController(QObject* parent) : QObject(parent)
{
    continuation_.setSingleShot(true);
    continuation_.setInterval(0);
    connect(&continuation_, &QTimer::timeout, this, &PoseController::continueDrag);
}

void PoseController::setModel(std::shared_ptr<const Model> model, const State& initial)
{
    continuation_.stop();
    model_ = std::move(model);
    posing_.reset();
    if (model_) {
        const BuildResult b = buildPosingModel(*model_);
        posing_ = b.model;
    }
    initial_ = state_ = initial;
    posed_ = dragging_ = false;
    last_ = DragResult{};
    timing_ = Timing{};
}

void PoseController::clear() { setModel(nullptr, State{}); }

bool PoseController::beginDrag(int sceneBody, const Vec3& worldPoint)
{
    if (!model_ || !posing_)
        return false;
    const Scene scene = buildScene(*model_, state_);
    if (sceneBody < 0 || sceneBody >= static_cast<int>(scene.bodies.size()))
        return false;
    const BodyIndex b = scene.bodies[static_cast<size_t>(sceneBody)].body;
    if (!model_->body(b).movesAsOneFrame()) {
        emit message(tr("Only rigid links can be dragged"));
        return false;
    }
    body_ = b;
    localPoint_ = bodyOrientation(*model_, state_, b).conjugate() * (worldPoint - bodyPosition(*model_, state_, b));
    target_ = worldPoint;
    dragging_ = true;
    emit message(tr("Dragging %1: every joint is held; alt + left drag turns the view")
                     .arg(QString::fromStdString(model_->body(b).name)));
    return true;
}

DragResult PoseController::step(int maxIterations)
{
    DragOptions o;
    o.maxIterations = maxIterations;
    QElapsedTimer clock;
    clock.start();
    last_ = dragToTarget(*posing_, state_, body_, localPoint_, target_, o);
    const double ms = clock.nsecsElapsed() * 1e-6;
    timing_.lastMs = ms;
    timing_.meanMs = (timing_.meanMs * timing_.updates + ms) / (timing_.updates + 1);
    timing_.maxMs = std::max(timing_.maxMs, ms);
    ++timing_.updates;
    posed_ = true;
    emit poseChanged();
    // The cursor moves by whole pixels, so a target a hair off the point's path is no limit
    // worth announcing.
    const bool atLimit = last_.outcome == DragOutcome::ReachLimit && last_.distance > 1e-3 * model_->lengthScale;
    switch (atLimit ? DragOutcome::ReachLimit : last_.outcome == DragOutcome::ReachLimit ? DragOutcome::Reached
                                                                                        : last_.outcome) {
    case DragOutcome::ReachLimit: emit message(QString::fromStdString(last_.note)); break;
    case DragOutcome::Failed: emit message(QString::fromStdString(last_.status.message)); break;
    default:
        emit message(tr("Dragging %1 (update %2 ms, closure %3 m)")
                         .arg(QString::fromStdString(model_->body(body_).name))
                         .arg(ms, 0, 'f', 2)
                         .arg(last_.closure, 0, 'g', 2));
    }
    if (last_.outcome == DragOutcome::Moving)
        continuation_.start();
    return last_;
}

DragResult PoseController::dragTo(const Vec3& target)
{
    if (!dragging_)
        return last_;
    target_ = target;
    continuation_.stop();
    return step(kStepsPerEvent);
}

void PoseController::continueDrag()
{
    if (model_ && posing_ && body_.value() > 0)
        step(kStepsPerEvent);
}

void PoseController::endDrag()
{
    dragging_ = false;
}

JointCoordinateResult PoseController::setCoordinate(const QString& joint, double value)
{
    const auto j = model_ ? model_->findJoint(joint.toStdString()) : std::nullopt;
    const bool revolute = j && model_->joint(*j).type == JointType::Revolute;
    return setCoordinate(joint, revolute ? JointCoordinateKind::Angle : JointCoordinateKind::Slide, value);
}

JointCoordinateResult PoseController::setCoordinate(const QString& joint, JointCoordinateKind kind, double value)
{
    JointCoordinateResult r;
    if (!model_) {
        r.status = Status::failure("no model");
        return r;
    }
    const auto j = model_->findJoint(joint.toStdString());
    if (!j) {
        r.status = Status::failure("no joint '" + joint.toStdString() + "'");
        return r;
    }
    continuation_.stop();
    r = setJointCoordinate(*model_, state_, *j, kind, value);
    posed_ = true;
    emit poseChanged();
    emit message(r.status.ok ? tr("%1 set; closure %2 m").arg(joint).arg(r.closure, 0, 'g', 2)
                             : QString::fromStdString(r.status.message));
    return r;
}

double PoseController::coordinate(const QString& joint, JointCoordinateKind kind) const
{
    if (!model_)
        return std::numeric_limits<double>::quiet_NaN();
    const auto j = model_->findJoint(joint.toStdString());
    if (!j)
        return std::numeric_limits<double>::quiet_NaN();
    const JointType type = model_->joint(*j).type;
    if (kind == JointCoordinateKind::Angle && (type == JointType::Revolute || type == JointType::Cylindrical))
        return jointAngle(*model_, state_, *j);
    if (kind == JointCoordinateKind::Slide && (type == JointType::Prismatic || type == JointType::Cylindrical))
        return jointDisplacement(*model_, state_, *j);
    return std::numeric_limits<double>::quiet_NaN();
}

bool PoseController::useAsInitialConfiguration(WorkbenchDocument& document, PoseVelocities velocities,
                                               QString* error)
{
    auto fail = [&](const QString& why) {
        if (error)
            *error = why;
        emit message(why);
        return false;
    };
    if (!model_ || document.loaded().model != model_)
        return fail(tr("The document has changed since this pose was made: pose it again"));
    State s = state_;
    if (velocities == PoseVelocities::Keep)
        projectVelocities(*model_, s);
    const PoseDocumentResult r = documentWithPose(*model_, s, velocities);
    if (!r.status.ok)
        return fail(QString::fromStdString(r.status.message));
    document.edit(tr("Use Current Pose as Initial Configuration"), [&](ModelDocument& d) { d = r.document; });
    QStringList moved;
    for (const auto& [name, by] : r.shiftedDrivers)
        moved << tr("%1 moved by %2").arg(QString::fromStdString(name)).arg(driverShiftText(*model_, name, by));
    if (moved.isEmpty())
        emit message(tr("The pose is now the initial configuration (undo restores the previous one)"));
    else
        emit message(tr("The pose is now the initial configuration and the drive starts there: %1 "
                        "(undo restores the previous one)")
                         .arg(moved.join(tr(", "))));
    return true;
}

void PoseController::resetPose()
{
    continuation_.stop();
    state_ = initial_;
    posed_ = dragging_ = false;
    emit poseChanged();
}

}  // namespace looplab::ui
