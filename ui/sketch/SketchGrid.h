#pragma once
// What gives a sketch its sense of size: the work plane's grid at the snapping step
// (every fifth line darker), a mark at the origin along the plane's two axes in the axes'
// colours (u red, v green), and a scale bar in the view's bottom left corner labelled in
// metres. Plain VTK props added to the view's renderer; the view's own ground grid lies
// under the mechanism and is seen edge-on from a vertical work plane, so the sketch
// draws its own.

#include "looplab/sketch/WorkPlane.h"

#include <vtkSmartPointer.h>

#include <string>

class vtkActor;
class vtkActor2D;
class vtkPolyData;
class vtkRenderer;
class vtkTextActor;

namespace looplab::ui {

/// The automatic snapping step for a view `viewHeight` metres high: 1, 2 or 5 × 10^k
/// near a fortieth of it.
double automaticSketchStep(double viewHeight);
/// The scale bar's length for a view `viewWidth` metres wide: the largest 1, 2 or 5 ×
/// 10^k not above a fifth of it.
double sketchScaleBarLength(double viewWidth);
/// A length as the scale bar labels it: "0.2 m", "50 mm", "2 m".
std::string sketchLengthLabel(double metres);

class SketchGrid {
public:
    explicit SketchGrid(vtkRenderer* renderer);
    ~SketchGrid();
    SketchGrid(const SketchGrid&) = delete;
    SketchGrid& operator=(const SketchGrid&) = delete;

    /// Draws the grid of `step` on `plane` over the square of half side `halfExtent`
    /// about `centre` (a point of the plane), the origin mark `markLength` long, and the
    /// scale bar of `barMetres` drawn `barPixels` long.
    void show(const WorkPlane& plane, const Vec3& centre, double halfExtent, double step, double markLength,
              double barMetres, double barPixels);
    void hide();

    bool isShown() const;
    double step() const { return step_; }
    int lineCount() const;
    /// The scale bar's label ("0.2 m"), and its length [m].
    std::string scaleLabel() const;
    double scaleMetres() const { return barMetres_; }

private:
    vtkRenderer* renderer_;
    vtkSmartPointer<vtkPolyData> lines_;
    vtkSmartPointer<vtkActor> grid_;
    vtkSmartPointer<vtkPolyData> axes_;
    vtkSmartPointer<vtkActor> origin_;
    vtkSmartPointer<vtkPolyData> bar_;
    vtkSmartPointer<vtkActor2D> barActor_;
    vtkSmartPointer<vtkTextActor> barLabel_;
    double step_ = 0.0;
    double barMetres_ = 0.0;
};

}  // namespace looplab::ui
