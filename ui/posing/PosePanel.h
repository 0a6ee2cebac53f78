#pragma once
// The Pose panel: type a joint coordinate (an angle in the chosen display unit) and the mechanism assembles around it; write
// the pose into the model as its initial configuration (velocities zeroed or kept); go
// back to the initial pose. It also says how to drag in the view and how the last drag
// went (outcome, update time, closure).

#include "looplab/posing/JointCoordinateAssembly.h"

#include <QWidget>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QPushButton;

namespace looplab::ui {

class PoseController;
class WorkbenchDocument;

class PosePanel : public QWidget {
    Q_OBJECT

public:
    PosePanel(PoseController* controller, WorkbenchDocument* document, QWidget* parent = nullptr);

    /// Lists the model's settable joints again (after the model changed).
    void refresh();
    /// Enables or disables posing (off while a run or a recording is shown).
    void setPosingEnabled(bool on);

    /// Lists each revolute angle and prismatic slide, and both of a cylindrical joint
    /// ("C angle", "C slide").
    QComboBox* jointBox() const { return joint_; }
    /// An angle in the chosen display unit (° or rad), a slide in metres.
    QDoubleSpinBox* valueBox() const { return value_; }
    QPushButton* setButton() const { return set_; }
    QPushButton* useButton() const { return use_; }
    QPushButton* resetButton() const { return reset_; }
    QCheckBox* keepVelocitiesBox() const { return keepVelocities_; }
    QLabel* statusLabel() const { return status_; }

private:
    JointCoordinateKind chosenKind() const;
    void showCoordinate();
    void applyCoordinate();
    void usePose();

    PoseController* controller_;
    WorkbenchDocument* document_;
    QComboBox* joint_;
    QDoubleSpinBox* value_;
    QPushButton *set_, *use_, *reset_;
    QCheckBox* keepVelocities_;
    QLabel* status_;
};

}  // namespace looplab::ui
