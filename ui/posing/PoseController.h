#pragma once
// Posing a mechanism by hand: drags a grabbed point of a body toward the cursor, sets a
// joint coordinate, and writes the pose into the document as its initial configuration
// through the undo stack. The pose is kept apart from the document until then, so
// posing never changes the model by itself. Drivers are released while posing.

#include "looplab/posing/DragAssembly.h"
#include "looplab/posing/JointCoordinateAssembly.h"
#include "looplab/model/Model.h"
#include "looplab/posing/PoseDocument.h"
#include "looplab/model/State.h"

#include <QObject>
#include <QString>
#include <QTimer>

#include <memory>

namespace looplab::ui {

class WorkbenchDocument;

class PoseController : public QObject {
    Q_OBJECT

public:
    explicit PoseController(QObject* parent = nullptr);

    /// The model to pose and its assembled initial state; any pose is dropped.
    void setModel(std::shared_ptr<const Model> model, const State& initial);
    void clear();
    const Model* model() const { return model_.get(); }
    const std::shared_ptr<const Model>& sharedModel() const { return model_; }
    /// The pose: the initial state until something moved it.
    const State& state() const { return state_; }
    /// Whether the pose differs from the model's initial configuration.
    bool isPosed() const { return posed_; }

    /// Grabs `worldPoint` on body `sceneBody` (an index into the scene's bodies, as the
    /// viewport reports it). False if that body cannot be dragged (the ground, a beam).
    bool beginDrag(int sceneBody, const Vec3& worldPoint);
    /// Moves the grabbed point toward `target`. Each call does a bounded amount of work;
    /// if the target is not reached yet the controller goes on from the event loop.
    DragResult dragTo(const Vec3& target);
    void endDrag();
    bool isDragging() const { return dragging_; }
    /// The last drag step's outcome.
    const DragResult& lastDrag() const { return last_; }

    /// Sets the angle [rad] of a revolute or the displacement [m] of a prismatic joint.
    JointCoordinateResult setCoordinate(const QString& joint, double value);
    /// Sets the angle [rad] or the slide [m] of a joint that has it (a cylindrical joint
    /// has both).
    JointCoordinateResult setCoordinate(const QString& joint, JointCoordinateKind kind, double value);
    /// The present value of that coordinate (rad or m); NaN if the joint has none.
    double coordinate(const QString& joint, JointCoordinateKind kind) const;

    /// Writes the pose into `document` as one undoable edit; the velocities are zeroed
    /// or kept (made consistent with the pose first). False with the reason in `error`
    /// if the document has changed since the model was built or has beams.
    bool useAsInitialConfiguration(WorkbenchDocument& document, PoseVelocities velocities,
                                   QString* error = nullptr);
    /// Back to the model's initial configuration.
    void resetPose();

    /// Wall time of the drag updates since the model was set [ms].
    struct Timing {
        int updates = 0;
        double lastMs = 0.0, meanMs = 0.0, maxMs = 0.0;
    };
    const Timing& timing() const { return timing_; }

signals:
    /// state() changed.
    void poseChanged();
    /// Something to tell the user (drag outcome, reach limit, a failure).
    void message(const QString& text);

private:
    void continueDrag();
    DragResult step(int maxIterations);

    std::shared_ptr<const Model> model_, posing_;
    State initial_, state_;
    bool posed_ = false;
    bool dragging_ = false;
    BodyIndex body_;
    Vec3 localPoint_ = Vec3::Zero(), target_ = Vec3::Zero();
    DragResult last_;
    Timing timing_;
    QTimer continuation_;
};

}  // namespace looplab::ui
