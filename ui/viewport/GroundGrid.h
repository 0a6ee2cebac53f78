#pragma once
// A reference grid under the mechanism. It gives the eye a floor and a sense of scale,
// so its extent and line spacing follow the scene instead of being fixed in metres.

#include <vtkSmartPointer.h>

class vtkActor;
class vtkPolyData;

namespace looplab::ui {

class GroundGrid {
public:
    /// Creates an empty, unpickable, unlit grid actor; call fit() to give it lines.
    GroundGrid();
    ~GroundGrid();
    GroundGrid(const GroundGrid&) = delete;
    GroundGrid& operator=(const GroundGrid&) = delete;

    /// The actor to add to a renderer.
    vtkActor* actor() const;

    /// Rebuilds the grid so that it covers `bounds` (xmin, xmax, ymin, ymax, zmin, zmax,
    /// world frame) with a margin, on the plane normal to world axis `upAxis` (0 = x,
    /// 1 = y, 2 = z) just below the lowest point of the bounds. The spacing is a round
    /// number (1, 2 or 5 times a power of ten); every fifth line is darker.
    void fit(const double bounds[6], int upAxis);

    /// Distance between neighbouring lines after the last fit() [m]; 0 before.
    double spacing() const { return spacing_; }

private:
    vtkSmartPointer<vtkPolyData> lines_;
    vtkSmartPointer<vtkActor> actor_;
    double spacing_ = 0.0;
};

}  // namespace looplab::ui
