#pragma once
// A traced point's path drawn as a polyline with a dot at its newest point: the VTK side
// of a looplab::PointTrace. Plain VTK (no Qt), so the workbench's view and the offscreen
// animation renderer draw traces alike.

#include <Eigen/Core>
#include <vtkSmartPointer.h>

#include <vector>

class vtkActor;
class vtkPolyData;
class vtkRenderer;

namespace looplab::ui {

class TracePolyline {
public:
    /// Adds the line's actors to `renderer`, which must outlive this object.
    TracePolyline(vtkRenderer* renderer, const Eigen::Vector3d& color);
    ~TracePolyline();  ///< removes the actors
    TracePolyline(const TracePolyline&) = delete;
    TracePolyline& operator=(const TracePolyline&) = delete;

    /// Draws the first `count` points of `points` (all of them for count < 0), global
    /// frame [m], and puts the dot on the last one drawn.
    void setPoints(const std::vector<Eigen::Vector3d>& points, int count = -1);
    /// Moves the dot (the point's place at the frame shown) without changing the line.
    void setDot(const Eigen::Vector3d& point);
    void setVisible(bool visible);
    /// Line width in pixels (2 by default) and the dot's radius [m] (0 hides it).
    void setStyle(double lineWidth, double dotRadius);

private:
    vtkRenderer* renderer_;
    vtkSmartPointer<vtkPolyData> line_;
    vtkSmartPointer<vtkActor> lineActor_;
    vtkSmartPointer<vtkActor> dotActor_;
    double dotRadius_ = 0.0;
};

}  // namespace looplab::ui
