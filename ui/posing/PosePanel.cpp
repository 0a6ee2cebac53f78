#include "posing/PosePanel.h"

#include "posing/PoseController.h"
#include "workbench/WorkbenchDocument.h"

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
    refresh();
}

void PosePanel::refresh()
{
    const QString keep = joint_->currentText();
    joint_->blockSignals(true);
    joint_->clear();
    if (const Model* m = controller_->model())
        for (const Joint& j : m->joints)
            if (j.type == JointType::Revolute || j.type == JointType::Prismatic)
                joint_->addItem(QString::fromStdString(j.name), j.type == JointType::Revolute);
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

void PosePanel::showCoordinate()
{
    const bool angular = joint_->currentData().toBool();
    value_->setSuffix(angular ? tr(" °") : tr(" m"));
    const double v = controller_->coordinate(joint_->currentText());
    value_->blockSignals(true);
    value_->setValue(std::isfinite(v) ? (angular ? v * 180.0 / M_PI : v) : 0.0);
    value_->blockSignals(false);
}

void PosePanel::applyCoordinate()
{
    if (joint_->currentIndex() < 0)
        return;
    const bool angular = joint_->currentData().toBool();
    const double v = value_->value();
    controller_->setCoordinate(joint_->currentText(), angular ? v * M_PI / 180.0 : v);
}

void PosePanel::usePose()
{
    controller_->useAsInitialConfiguration(
        *document_, keepVelocities_->isChecked() ? PoseVelocities::Keep : PoseVelocities::Zero);
}

}  // namespace looplab::ui
