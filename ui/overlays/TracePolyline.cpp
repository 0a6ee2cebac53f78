#include "overlays/TracePolyline.h"

#include <vtkActor.h>
#include <vtkCellArray.h>
#include <vtkNew.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkPolyDataMapper.h>
#include <vtkProperty.h>
#include <vtkRenderer.h>
#include <vtkSphereSource.h>

#include <algorithm>

namespace looplab::ui {

TracePolyline::TracePolyline(vtkRenderer* renderer, const Eigen::Vector3d& color)
    : renderer_(renderer),
      line_(vtkSmartPointer<vtkPolyData>::New()),
      lineActor_(vtkSmartPointer<vtkActor>::New()),
      dotActor_(vtkSmartPointer<vtkActor>::New()) {
    line_->SetPoints(vtkNew<vtkPoints>());
    line_->SetLines(vtkNew<vtkCellArray>());
    vtkNew<vtkPolyDataMapper> mapper;
    mapper->SetInputData(line_);
    lineActor_->SetMapper(mapper);
    lineActor_->GetProperty()->SetColor(color.x(), color.y(), color.z());
    lineActor_->GetProperty()->SetLineWidth(2.0);
    lineActor_->GetProperty()->LightingOff();
    // A trace is a measurement drawn over the mechanism, never something to pick.
    lineActor_->PickableOff();
    vtkNew<vtkSphereSource> sphere;
    sphere->SetThetaResolution(16);
    sphere->SetPhiResolution(12);
    vtkNew<vtkPolyDataMapper> dotMapper;
    dotMapper->SetInputConnection(sphere->GetOutputPort());
    dotActor_->SetMapper(dotMapper);
    dotActor_->GetProperty()->SetColor(color.x(), color.y(), color.z());
    dotActor_->PickableOff();
    dotActor_->VisibilityOff();
    renderer_->AddActor(lineActor_);
    renderer_->AddActor(dotActor_);
}

TracePolyline::~TracePolyline() {
    renderer_->RemoveActor(lineActor_);
    renderer_->RemoveActor(dotActor_);
}

void TracePolyline::setPoints(const std::vector<Eigen::Vector3d>& points, int count) {
    const int n = count < 0 ? int(points.size()) : std::min(count, int(points.size()));
    vtkNew<vtkPoints> pts;
    pts->SetNumberOfPoints(n);
    for (int i = 0; i < n; ++i) pts->SetPoint(i, points[size_t(i)].data());
    vtkNew<vtkCellArray> lines;
    if (n >= 2) {
        lines->InsertNextCell(n);
        for (int i = 0; i < n; ++i) lines->InsertCellPoint(i);
    }
    line_->SetPoints(pts);
    line_->SetLines(lines);
    line_->Modified();
    if (n >= 1) setDot(points[size_t(n - 1)]);
    else dotActor_->VisibilityOff();
}

void TracePolyline::setDot(const Eigen::Vector3d& p) {
    if (dotRadius_ <= 0.0) return;
    dotActor_->SetPosition(p.x(), p.y(), p.z());
    dotActor_->SetScale(dotRadius_ * 2.0);
    dotActor_->SetVisibility(lineActor_->GetVisibility());
}

void TracePolyline::setVisible(bool visible) {
    lineActor_->SetVisibility(visible);
    if (!visible) dotActor_->VisibilityOff();
    else if (dotRadius_ > 0.0 && line_->GetNumberOfPoints() > 0) dotActor_->VisibilityOn();
}

void TracePolyline::setStyle(double lineWidth, double dotRadius) {
    lineActor_->GetProperty()->SetLineWidth(lineWidth);
    dotRadius_ = dotRadius;
    if (dotRadius_ <= 0.0) dotActor_->VisibilityOff();
}

}  // namespace looplab::ui
