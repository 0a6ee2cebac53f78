#include "sketch/SketchOverlay.h"

#include <vtkActor.h>
#include <vtkNew.h>
#include <vtkPolyDataMapper.h>
#include <vtkProperty.h>
#include <vtkRenderer.h>
#include <vtkSphereSource.h>

namespace looplab::ui {

namespace {
constexpr double kGroundColor[3] = {0.15, 0.15, 0.2};
constexpr double kMovingColor[3] = {0.95, 0.95, 0.95};
constexpr double kPendingColor[3] = {0.1, 0.75, 0.2};
}  // namespace

SketchOverlay::SketchOverlay(vtkRenderer* renderer) : renderer_(renderer) {}

SketchOverlay::~SketchOverlay() { clear(); }

void SketchOverlay::clear()
{
    for (vtkProp* p : props_) {
        renderer_->RemoveViewProp(p);
        p->Delete();
    }
    props_.clear();
    pivots_ = 0;
}

void SketchOverlay::addDot(const Vec3& point, double radius, const double color[3], double opacity)
{
    vtkNew<vtkSphereSource> dot;
    dot->SetCenter(point.data());
    dot->SetRadius(radius);
    dot->SetThetaResolution(20);
    dot->SetPhiResolution(12);
    vtkNew<vtkPolyDataMapper> mapper;
    mapper->SetInputConnection(dot->GetOutputPort());
    vtkActor* actor = vtkActor::New();
    actor->SetMapper(mapper);
    actor->GetProperty()->SetColor(color[0], color[1], color[2]);
    actor->GetProperty()->SetOpacity(opacity);
    actor->PickableOff();
    renderer_->AddActor(actor);
    props_.push_back(actor);
}

void SketchOverlay::addPivot(const Vec3& point, bool ground, double radius)
{
    addDot(point, radius, ground ? kGroundColor : kMovingColor, 1.0);
    ++pivots_;
}

void SketchOverlay::addPending(const Vec3& point, double radius) { addDot(point, radius, kPendingColor, 0.5); }

}  // namespace looplab::ui
