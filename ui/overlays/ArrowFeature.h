#pragma once
// Arrows in the 3D view during runs and playback: the panel where the user picks which
// (velocity and acceleration of the centres of mass and markers, joint reaction forces
// and torques, applied loads) and their scales, and the overlay that draws them at the
// frame shown. The numbers come from the core (MotionArrows.h) at each recorded frame.

#include "looplab/analysis/MotionArrows.h"

#include <QWidget>

#include <array>
#include <memory>

class QCheckBox;
class QDoubleSpinBox;
class QLabel;

namespace looplab::ui {

class ArrowOverlay;
class FrameSource;
class VtkViewport;

class ArrowFeature : public QWidget {
    Q_OBJECT

public:
    explicit ArrowFeature(VtkViewport* viewport, QWidget* parent = nullptr);
    ~ArrowFeature() override;

    /// Draws the arrows of frame `frame` of `source` (velocities only for a source that is
    /// not a simulation recording); nothing for a null source.
    void showFrame(const FrameSource* source, int frame);
    /// Forgets the frame shown (a new run, another model).
    void clear();

    void setShown(ArrowKind kind, bool on);
    bool isShown(ArrowKind kind) const;
    void setScale(ArrowKind kind, double metresPerUnit);
    const ArrowScale& scale() const { return scale_; }
    /// The kinds shown.
    const ArrowRequest& request() const { return request_; }
    /// Scales every shown kind so that its longest arrow over the whole source is a
    /// quarter of the model's length scale.
    void fitScales();

    const ArrowOverlay& overlay() const { return *overlay_; }
    /// The arrows drawn at the frame shown.
    const std::vector<MotionArrow>& arrows() const { return arrows_; }
    /// Why the last frame's arrows could not be made; empty if they could.
    QString problem() const;

private:
    void redraw();
    QDoubleSpinBox* spinFor(ArrowKind kind) const;

    VtkViewport* viewport_;
    std::unique_ptr<ArrowOverlay> overlay_;
    std::array<QCheckBox*, kArrowKindCount> boxes_{};
    std::array<QDoubleSpinBox*, 4> spins_{};  // velocity, acceleration, force, torque
    QLabel* problem_;
    ArrowRequest request_;
    ArrowScale scale_;
    std::vector<MotionArrow> arrows_;
    const FrameSource* source_ = nullptr;
    int frame_ = -1;
};

}  // namespace looplab::ui
