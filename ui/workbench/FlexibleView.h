#pragma once
// How the view shows flexible members: the field that colours them (axial strain of
// beams, von Mises stress of solids, or none) and the factor that exaggerates their
// deformation. These are view settings, not model edits: they never touch the document
// or its undo stack, and they are kept with the other view settings (QSettings,
// "view/flexibleField" and "view/deformationScale") for the next session.
//
// The window hands every scene it draws to prepare(), which keeps it and returns it with
// the deformation exaggerated (withExaggeratedDeformation, FlexibleScene.h); a change of
// the factor redraws the kept scene at once, so it takes effect on a paused frame too.

#include "viewport/FlexibleField.h"

#include "looplab/scene/Scene.h"

#include <QWidget>

class QComboBox;
class QDoubleSpinBox;
class QLabel;

namespace looplab::ui {

class VtkViewport;

class FlexibleView : public QWidget {
    Q_OBJECT

public:
    explicit FlexibleView(VtkViewport* viewport, QWidget* parent = nullptr);

    /// Keeps `scene` as the one shown and returns what to draw.
    Scene prepare(const Scene& scene);

    FlexibleField field() const;
    void setField(FlexibleField field);
    /// The factor k of x = X + k (x − X) for flexible members (k ≥ 0; 1 draws them as
    /// computed).
    double exaggeration() const;
    void setExaggeration(double k);

signals:
    void settingsChanged();

private:
    void apply();
    void redraw();
    void save() const;

    VtkViewport* viewport_;
    QComboBox* field_;
    QDoubleSpinBox* exaggeration_;
    QLabel* note_;
    Scene shown_;
    bool haveScene_ = false;
};

}  // namespace looplab::ui
