#include "workbench/FlexibleView.h"

#include "viewport/VtkViewport.h"

#include "looplab/scene/FlexibleScene.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QSettings>
#include <QSignalBlocker>

namespace looplab::ui {

namespace {

constexpr const char* kFieldKey = "view/flexibleField";
constexpr const char* kScaleKey = "view/deformationScale";

}  // namespace

FlexibleView::FlexibleView(VtkViewport* viewport, QWidget* parent)
    : QWidget(parent), viewport_(viewport)
{
    auto* form = new QFormLayout(this);
    field_ = new QComboBox(this);
    field_->setObjectName("flexibleField");
    field_->addItem(tr("None"), int(FlexibleField::None));
    field_->addItem(tr("Axial strain (beams)"), int(FlexibleField::AxialStrain));
    field_->addItem(tr("Bending strain (beams)"), int(FlexibleField::BendingStrain));
    field_->addItem(tr("Von Mises stress (solids)"), int(FlexibleField::VonMises));
    field_->setToolTip(tr("Colours beams by the axial strain of their centreline or the bending strain of "
                          "their outer fibre, or solid meshes by the von Mises equivalent of the Cauchy "
                          "stress, with a legend; a mode shape by the mode's own strain or stress, relative "
                          "to its largest"));
    form->addRow(tr("Colour by"), field_);

    exaggeration_ = new QDoubleSpinBox(this);
    exaggeration_->setObjectName("deformationScale");
    exaggeration_->setRange(0.0, 1e6);
    exaggeration_->setDecimals(1);
    exaggeration_->setStepType(QAbstractSpinBox::AdaptiveDecimalStepType);
    exaggeration_->setSuffix(tr(" ×"));
    exaggeration_->setToolTip(tr("Draws the displacement of beams and solid meshes from their undeformed "
                                 "shape this many times larger; strains and stresses stay the computed ones"));
    form->addRow(tr("Exaggerate deformation"), exaggeration_);

    note_ = new QLabel(tr("A view setting: the model is not changed."), this);
    note_->setWordWrap(true);
    note_->setEnabled(false);
    form->addRow(note_);

    const QSettings settings;
    const int stored = settings.value(kFieldKey, int(FlexibleField::None)).toInt();
    field_->setCurrentIndex(std::max(0, field_->findData(stored)));
    exaggeration_->setValue(settings.value(kScaleKey, 1.0).toDouble());

    connect(field_, qOverload<int>(&QComboBox::currentIndexChanged), this, [this] {
        apply();
        save();
        emit settingsChanged();
    });
    connect(exaggeration_, qOverload<double>(&QDoubleSpinBox::valueChanged), this, [this] {
        redraw();
        save();
        emit settingsChanged();
    });
    apply();
}

Scene FlexibleView::prepare(const Scene& scene)
{
    shown_ = scene;
    haveScene_ = true;
    return withExaggeratedDeformation(scene, exaggeration());
}

FlexibleField FlexibleView::field() const { return FlexibleField(field_->currentData().toInt()); }

void FlexibleView::setField(FlexibleField field) { field_->setCurrentIndex(std::max(0, field_->findData(int(field)))); }

double FlexibleView::exaggeration() const { return exaggeration_->value(); }

void FlexibleView::setExaggeration(double k) { exaggeration_->setValue(k); }

void FlexibleView::apply() { viewport_->setFlexibleField(field()); }

void FlexibleView::redraw()
{
    // Only the members' points change, so the view moves them without refitting.
    if (haveScene_)
        viewport_->setScene(withExaggeratedDeformation(shown_, exaggeration()));
}

void FlexibleView::save() const
{
    QSettings settings;
    settings.setValue(kFieldKey, int(field()));
    settings.setValue(kScaleKey, exaggeration());
}

}  // namespace looplab::ui
