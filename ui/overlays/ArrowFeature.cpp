#include "overlays/ArrowFeature.h"

#include "overlays/ArrowOverlay.h"
#include "overlays/FrameArrows.h"
#include "viewport/VtkViewport.h"
#include "recording/FrameSource.h"

#include "looplab/model/Model.h"

#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

#include <cmath>

namespace looplab::ui {

namespace {

// Which scale spin box a kind uses: forces share one, torques another.
int scaleSlot(ArrowKind kind)
{
    switch (kind) {
    case ArrowKind::Velocity: return 0;
    case ArrowKind::Acceleration: return 1;
    case ArrowKind::ReactionForce:
    case ArrowKind::AppliedForce: return 2;
    case ArrowKind::ReactionTorque:
    case ArrowKind::AppliedTorque: return 3;
    }
    return 0;
}

double& scaleRef(ArrowScale& s, int slot)
{
    return slot == 0 ? s.velocity : slot == 1 ? s.acceleration : slot == 2 ? s.force : s.torque;
}

}  // namespace

ArrowFeature::ArrowFeature(VtkViewport* viewport, QWidget* parent)
    : QWidget(parent), viewport_(viewport), overlay_(std::make_unique<ArrowOverlay>(viewport->renderer()))
{
    auto* form = new QFormLayout;
    static const char* names[kArrowKindCount] = {"arrowVelocity",      "arrowAcceleration", "arrowReactionForce",
                                                 "arrowReactionTorque", "arrowAppliedForce", "arrowAppliedTorque"};
    for (int k = 0; k < kArrowKindCount; ++k) {
        const auto kind = static_cast<ArrowKind>(k);
        auto* box = new QCheckBox(QString::fromUtf8(arrowKindName(kind)));
        box->setObjectName(names[k]);
        boxes_[static_cast<size_t>(k)] = box;
        form->addRow(box);
        connect(box, &QCheckBox::toggled, this, [this, kind](bool on) { setShown(kind, on); });
    }
    static const char* spinNames[4] = {"velocityScale", "accelerationScale", "forceScale", "torqueScale"};
    static const ArrowKind spinKinds[4] = {ArrowKind::Velocity, ArrowKind::Acceleration, ArrowKind::ReactionForce,
                                           ArrowKind::ReactionTorque};
    static const char* spinLabels[4] = {"Velocity scale", "Acceleration scale", "Force scale", "Torque scale"};
    for (int i = 0; i < 4; ++i) {
        auto* spin = new QDoubleSpinBox;
        spin->setObjectName(spinNames[i]);
        spin->setDecimals(6);
        spin->setRange(1e-6, 1e3);
        spin->setValue(scale_.of(spinKinds[i]));
        spin->setSuffix(QString(" m per %1").arg(QString::fromUtf8(arrowKindUnit(spinKinds[i]))));
        spin->setToolTip(tr("Length of the arrow for one unit of the quantity"));
        spins_[static_cast<size_t>(i)] = spin;
        form->addRow(tr(spinLabels[i]), spin);
        connect(spin, qOverload<double>(&QDoubleSpinBox::valueChanged), this, [this, i](double v) {
            scaleRef(scale_, i) = v;
            redraw();
        });
    }
    auto* fit = new QPushButton(tr("Fit Scales to the Run"));
    fit->setObjectName("fitArrowScales");
    fit->setToolTip(tr("Scale each kind so that its longest arrow over the run is a quarter of the mechanism's size"));
    connect(fit, &QPushButton::clicked, this, &ArrowFeature::fitScales);
    problem_ = new QLabel;
    problem_->setWordWrap(true);
    auto* note = new QLabel(tr("Velocities and accelerations are drawn at the centres of mass and the markers; "
                               "reactions at the joint points, acting on each joint's second body."));
    note->setWordWrap(true);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(fit);
    layout->addWidget(note);
    layout->addWidget(problem_);
    layout->addStretch(1);
}

ArrowFeature::~ArrowFeature() = default;

QDoubleSpinBox* ArrowFeature::spinFor(ArrowKind kind) const { return spins_[static_cast<size_t>(scaleSlot(kind))]; }

void ArrowFeature::setShown(ArrowKind kind, bool on)
{
    request_.set(kind, on);
    QCheckBox* box = boxes_[static_cast<size_t>(kind)];
    if (box->isChecked() != on) {
        const QSignalBlocker block(box);
        box->setChecked(on);
    }
    redraw();
}

bool ArrowFeature::isShown(ArrowKind kind) const { return request_.wants(kind); }

void ArrowFeature::setScale(ArrowKind kind, double metresPerUnit)
{
    spinFor(kind)->setValue(metresPerUnit);  // redraws through valueChanged
    scaleRef(scale_, scaleSlot(kind)) = metresPerUnit;
    redraw();
}

QString ArrowFeature::problem() const { return problem_->text(); }

void ArrowFeature::clear()
{
    source_ = nullptr;
    frame_ = -1;
    redraw();
}

void ArrowFeature::showFrame(const FrameSource* source, int frame)
{
    source_ = source;
    frame_ = frame;
    redraw();
}

void ArrowFeature::redraw()
{
    arrows_.clear();
    problem_->clear();
    const std::shared_ptr<const Model> model = source_ ? source_->frameModel() : nullptr;
    if (wantsAnyArrow(request_) && model && frame_ >= 0 && frame_ < source_->frameCount()) {
        overlay_->setHeadLength(0.04 * model->lengthScale);
        if (const Status st = frameArrows(*source_, frame_, request_, scale_, &arrows_); !st.ok)
            problem_->setText(QString::fromStdString(st.message));
    }
    overlay_->setArrows(arrows_, request_, scale_);
    viewport_->requestRender();
}

void ArrowFeature::fitScales()
{
    const std::shared_ptr<const Model> model = source_ ? source_->frameModel() : nullptr;
    if (!model || source_->frameCount() == 0)
        return;
    ArrowRequest all;
    for (int k = 0; k < kArrowKindCount; ++k)
        all.set(static_cast<ArrowKind>(k), true);
    std::array<double, 4> largest{};
    const ArrowScale unit{1.0, 1.0, 1.0, 1.0};
    std::vector<MotionArrow> arrows;
    const int n = source_->frameCount(), stride = std::max(1, n / 400);
    for (int i = 0; i < n; i += stride) {
        frameArrows(*source_, i, all, unit, &arrows);
        for (const MotionArrow& a : arrows) {
            double& l = largest[static_cast<size_t>(scaleSlot(a.kind))];
            l = std::max(l, a.value.norm());
        }
    }
    const double target = 0.25 * model->lengthScale;
    for (int i = 0; i < 4; ++i)
        if (largest[static_cast<size_t>(i)] > 0.0) {
            const QSignalBlocker block(spins_[static_cast<size_t>(i)]);
            scaleRef(scale_, i) = target / largest[static_cast<size_t>(i)];
            spins_[static_cast<size_t>(i)]->setValue(scaleRef(scale_, i));
        }
    redraw();
}

}  // namespace looplab::ui
