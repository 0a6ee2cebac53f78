#include "posing/PosePanel.h"

#include "plotting/DisplayUnits.h"
#include "posing/PoseController.h"
#include "document/WorkbenchDocument.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

#include <cmath>

namespace looplab::ui {

namespace {

// Item data of the joint box: the joint's name and which of its coordinates the item sets.
constexpr int kJointNameRole = Qt::UserRole;
constexpr int kCoordinateKindRole = Qt::UserRole + 1;

}  // namespace

PosePanel::PosePanel(PoseController* controller, WorkbenchDocument* document, QWidget* parent)
    : QWidget(parent), controller_(controller), document_(document)
{
    auto* hint = new QLabel(tr("Drag a link with the left mouse button to pose it; every joint holds. "
                               "Alt + left drag (or a left drag from empty space) turns the view, "
                               "middle drag pans, right drag or the wheel zooms."),
                            this);
    hint->setWordWrap(true);
    joint_ = new QComboBox(this);
    value_ = new QDoubleSpinBox(this);
    value_->setDecimals(6);
    value_->setRange(-1e6, 1e6);
    value_->setKeyboardTracking(false);
    set_ = new QPushButton(tr("Set"), this);
    auto* row = new QHBoxLayout;
    row->addWidget(value_, 1);
    row->addWidget(set_);
    auto* form = new QFormLayout;
    form->addRow(tr("Joint"), joint_);
    form->addRow(tr("Coordinate"), row);
    keepVelocities_ = new QCheckBox(tr("Keep velocities (else start at rest)"), this);
    use_ = new QPushButton(tr("Use Current Pose as Initial Configuration"), this);
    reset_ = new QPushButton(tr("Back to Initial Pose"), this);
    status_ = new QLabel(this);
    status_->setWordWrap(true);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(hint);
    layout->addLayout(form);
    layout->addWidget(keepVelocities_);
    layout->addWidget(use_);
    layout->addWidget(reset_);
    layout->addWidget(status_);
    layout->addStretch(1);

    connect(joint_, &QComboBox::currentIndexChanged, this, &PosePanel::showCoordinate);
    connect(set_, &QPushButton::clicked, this, &PosePanel::applyCoordinate);
    connect(value_, &QDoubleSpinBox::editingFinished, this, [this] {
        if (value_->hasFocus())
            applyCoordinate();
    });
    connect(use_, &QPushButton::clicked, this, &PosePanel::usePose);
    connect(reset_, &QPushButton::clicked, controller_, &PoseController::resetPose);
    connect(controller_, &PoseController::poseChanged, this, &PosePanel::showCoordinate);
    connect(controller_, &PoseController::message, status_, &QLabel::setText);
    connect(&DisplayUnits::instance(), &DisplayUnits::changed, this, &PosePanel::showCoordinate);
    refresh();
}

void PosePanel::refresh()
{
    const QString keep = joint_->currentText();
    joint_->blockSignals(true);
    joint_->clear();
    auto add = [this](const QString& text, const QString& joint, JointCoordinateKind kind) {
        joint_->addItem(text);
        joint_->setItemData(joint_->count() - 1, joint, kJointNameRole);
        joint_->setItemData(joint_->count() - 1, static_cast<int>(kind), kCoordinateKindRole);
    };
    if (const Model* m = controller_->model())
        for (const Joint& j : m->joints) {
            const QString name = QString::fromStdString(j.name);
            if (j.type == JointType::Revolute)
                add(name, name, JointCoordinateKind::Angle);
            else if (j.type == JointType::Prismatic)
                add(name, name, JointCoordinateKind::Slide);
            else if (j.type == JointType::Cylindrical) {
                add(tr("%1 angle").arg(name), name, JointCoordinateKind::Angle);
                add(tr("%1 slide").arg(name), name, JointCoordinateKind::Slide);
            }
        }
    const int i = joint_->findText(keep);
    joint_->setCurrentIndex(i >= 0 ? i : 0);
    joint_->blockSignals(false);
    showCoordinate();
}

void PosePanel::setPosingEnabled(bool on)
{
    for (QWidget* w : std::initializer_list<QWidget*>{joint_, value_, set_, use_, reset_, keepVelocities_})
        w->setEnabled(on && controller_->model());
}

JointCoordinateKind PosePanel::chosenKind() const
{
    return static_cast<JointCoordinateKind>(joint_->currentData(kCoordinateKindRole).toInt());
}

void PosePanel::showCoordinate()
{
    const bool angular = chosenKind() == JointCoordinateKind::Angle;
    const UnitChoice& units = DisplayUnits::instance().choice();
    // Radians need more decimals than degrees for a typed angle to mean the same pose.
    value_->setDecimals(angular && units.angle == AngleUnit::Radian ? 9 : 6);
    value_->setSuffix(" " + (angular ? units.unit("rad") : tr("m")));
    const double v = controller_->coordinate(joint_->currentData(kJointNameRole).toString(), chosenKind());
    value_->blockSignals(true);
    value_->setValue(std::isfinite(v) ? (angular ? units.show(v, "rad").value : v) : 0.0);
    value_->blockSignals(false);
}

void PosePanel::applyCoordinate()
{
    if (joint_->currentIndex() < 0)
        return;
    const JointCoordinateKind kind = chosenKind();
    const double v = value_->value();
    controller_->setCoordinate(joint_->currentData(kJointNameRole).toString(), kind,
                               kind == JointCoordinateKind::Angle ? DisplayUnits::instance().choice().toSi(v, "rad") : v);
}

void PosePanel::usePose()
{
    controller_->useAsInitialConfiguration(
        *document_, keepVelocities_->isChecked() ? PoseVelocities::Keep : PoseVelocities::Zero);
}

}  // namespace looplab::ui
