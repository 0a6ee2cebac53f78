#pragma once
// Arrows drawn over the mechanism (looplab::MotionArrow: velocity, acceleration, joint
// reactions, applied loads), one colour per kind, with a legend in the corner that gives
// each shown kind's scale ("velocity  1 m/s = 0.2 m"). Plain VTK.

#include "looplab/analysis/MotionArrows.h"

#include <Eigen/Core>
#include <vtkSmartPointer.h>

#include <array>
#include <string>
#include <vector>

class vtkActor;
class vtkConeSource;
class vtkPolyData;
class vtkRenderer;
class vtkTextActor;

namespace looplab::ui {

class ArrowOverlay {
public:
    /// Adds the actors to `renderer`, which it keeps alive: the workbench's view may go
    /// before the panel that owns the overlay when the window closes.
    explicit ArrowOverlay(vtkRenderer* renderer);
    ~ArrowOverlay();  ///< removes the actors
    ArrowOverlay(const ArrowOverlay&) = delete;
    ArrowOverlay& operator=(const ArrowOverlay&) = delete;

    /// Draws `arrows` (their `drawn` vectors from their origins); the legend lists the
    /// kinds in `request` with their scales.
    void setArrows(const std::vector<MotionArrow>& arrows, const ArrowRequest& request, const ArrowScale& scale);
    void clear();
    /// Length of the arrow heads [m]; the shafts are lines of constant width, so a long
    /// arrow is no thicker than a short one.
    void setHeadLength(double metres);

    /// Number of arrows of `kind` drawn, and their total drawn length [m] (for tests).
    int arrowCount(ArrowKind kind) const { return counts_[static_cast<size_t>(kind)]; }
    double drawnLength(ArrowKind kind) const { return lengths_[static_cast<size_t>(kind)]; }
    /// The legend's text, one line per kind shown.
    std::string legendText() const;
    /// RGB of a kind's arrows.
    static Eigen::Vector3d color(ArrowKind kind);

private:
    vtkSmartPointer<vtkRenderer> renderer_;
    std::array<vtkSmartPointer<vtkPolyData>, kArrowKindCount> shafts_, heads_;
    std::array<vtkSmartPointer<vtkActor>, kArrowKindCount> shaftActors_, headActors_;
    vtkSmartPointer<vtkConeSource> cone_;
    /// One legend line per kind, in the kind's colour.
    std::array<vtkSmartPointer<vtkTextActor>, kArrowKindCount> legend_;
    std::array<int, kArrowKindCount> counts_{};
    std::array<double, kArrowKindCount> lengths_{};
};

}  // namespace looplab::ui
