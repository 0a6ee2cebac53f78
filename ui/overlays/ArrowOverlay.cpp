#include "overlays/ArrowOverlay.h"

#include <vtkActor.h>
#include <vtkCellArray.h>
#include <vtkConeSource.h>
#include <vtkDoubleArray.h>
#include <vtkGlyph3D.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkPolyDataMapper.h>
#include <vtkProperty.h>
#include <vtkRenderer.h>
#include <vtkTextActor.h>
#include <vtkTextProperty.h>

#include <cstdio>

namespace looplab::ui {

Eigen::Vector3d ArrowOverlay::color(ArrowKind kind)
{
    switch (kind) {
    case ArrowKind::Velocity: return {0.10, 0.45, 0.90};
    case ArrowKind::Acceleration: return {0.85, 0.20, 0.75};
    case ArrowKind::ReactionForce: return {0.90, 0.45, 0.05};
    case ArrowKind::ReactionTorque: return {0.60, 0.35, 0.10};
    case ArrowKind::AppliedForce: return {0.15, 0.65, 0.20};
    case ArrowKind::AppliedTorque: return {0.10, 0.45, 0.15};
    }
    return {0.5, 0.5, 0.5};
}

ArrowOverlay::ArrowOverlay(vtkRenderer* renderer) : renderer_(renderer)
{
    cone_ = vtkSmartPointer<vtkConeSource>::New();
    cone_->SetResolution(16);
    cone_->SetDirection(1.0, 0.0, 0.0);
    setHeadLength(0.04);
    for (int k = 0; k < kArrowKindCount; ++k) {
        const Eigen::Vector3d c = color(static_cast<ArrowKind>(k));
        shafts_[k] = vtkSmartPointer<vtkPolyData>::New();
        auto shaftMapper = vtkSmartPointer<vtkPolyDataMapper>::New();
        shaftMapper->SetInputData(shafts_[k]);
        shaftActors_[k] = vtkSmartPointer<vtkActor>::New();
        shaftActors_[k]->SetMapper(shaftMapper);
        shaftActors_[k]->GetProperty()->SetLineWidth(3.0);
        // The head: a cone of fixed size whose tip sits on the arrow's end, turned along
        // the arrow (the glyph is not scaled, so only the shaft's length carries the value).
        heads_[k] = vtkSmartPointer<vtkPolyData>::New();
        auto glyph = vtkSmartPointer<vtkGlyph3D>::New();
        glyph->SetInputData(heads_[k]);
        glyph->SetSourceConnection(cone_->GetOutputPort());
        glyph->SetVectorModeToUseVector();
        glyph->ScalingOff();
        glyph->OrientOn();
        auto headMapper = vtkSmartPointer<vtkPolyDataMapper>::New();
        headMapper->SetInputConnection(glyph->GetOutputPort());
        headMapper->ScalarVisibilityOff();
        headActors_[k] = vtkSmartPointer<vtkActor>::New();
        headActors_[k]->SetMapper(headMapper);
        for (vtkActor* a : {shaftActors_[k].Get(), headActors_[k].Get()}) {
            a->GetProperty()->SetColor(c.x(), c.y(), c.z());
            a->PickableOff();
            a->VisibilityOff();
            renderer_->AddActor(a);
        }
    }
    for (int k = 0; k < kArrowKindCount; ++k) {
        const Eigen::Vector3d c = color(static_cast<ArrowKind>(k));
        legend_[k] = vtkSmartPointer<vtkTextActor>::New();
        legend_[k]->GetTextProperty()->SetFontSize(14);
        legend_[k]->GetTextProperty()->SetBold(true);
        legend_[k]->GetTextProperty()->SetColor(c.x(), c.y(), c.z());
        legend_[k]->GetPositionCoordinate()->SetCoordinateSystemToNormalizedViewport();
        legend_[k]->VisibilityOff();
        renderer_->AddViewProp(legend_[k]);
    }
}

ArrowOverlay::~ArrowOverlay()
{
    for (int k = 0; k < kArrowKindCount; ++k) {
        renderer_->RemoveActor(shaftActors_[k]);
        renderer_->RemoveActor(headActors_[k]);
    }
    for (auto& text : legend_)
        renderer_->RemoveViewProp(text);
}

void ArrowOverlay::setHeadLength(double metres)
{
    cone_->SetHeight(metres);
    cone_->SetRadius(0.3 * metres);
    // Tip at the glyph's point: the cone is centred half its height back along x.
    cone_->SetCenter(-0.5 * metres, 0.0, 0.0);
}

void ArrowOverlay::clear()
{
    setArrows({}, ArrowRequest{}, ArrowScale{});
}

void ArrowOverlay::setArrows(const std::vector<MotionArrow>& arrows, const ArrowRequest& request,
                             const ArrowScale& scale)
{
    counts_.fill(0);
    lengths_.fill(0.0);
    std::array<vtkSmartPointer<vtkPoints>, kArrowKindCount> shaftPoints, tips;
    std::array<vtkSmartPointer<vtkCellArray>, kArrowKindCount> lines;
    std::array<vtkSmartPointer<vtkDoubleArray>, kArrowKindCount> directions;
    for (int k = 0; k < kArrowKindCount; ++k) {
        shaftPoints[k] = vtkSmartPointer<vtkPoints>::New();
        tips[k] = vtkSmartPointer<vtkPoints>::New();
        lines[k] = vtkSmartPointer<vtkCellArray>::New();
        directions[k] = vtkSmartPointer<vtkDoubleArray>::New();
        directions[k]->SetNumberOfComponents(3);
        directions[k]->SetName("direction");
    }
    for (const MotionArrow& a : arrows) {
        const int k = static_cast<int>(a.kind);
        ++counts_[k];
        lengths_[k] += a.drawn.norm();
        if (!(a.drawn.norm() > 0.0))
            continue;
        const Vec3 tip = a.origin + a.drawn;
        const vtkIdType ids[2] = {shaftPoints[k]->InsertNextPoint(a.origin.data()),
                                  shaftPoints[k]->InsertNextPoint(tip.data())};
        lines[k]->InsertNextCell(2, ids);
        tips[k]->InsertNextPoint(tip.data());
        directions[k]->InsertNextTuple(a.drawn.data());
    }
    for (int k = 0; k < kArrowKindCount; ++k) {
        shafts_[k]->SetPoints(shaftPoints[k]);
        shafts_[k]->SetLines(lines[k]);
        shafts_[k]->Modified();
        heads_[k]->SetPoints(tips[k]);
        heads_[k]->GetPointData()->SetVectors(directions[k]);
        heads_[k]->Modified();
        const bool visible = tips[k]->GetNumberOfPoints() > 0;
        shaftActors_[k]->SetVisibility(visible);
        headActors_[k]->SetVisibility(visible);
    }
    int line = 0;
    for (int k = 0; k < kArrowKindCount; ++k) {
        const auto kind = static_cast<ArrowKind>(k);
        if (!request.wants(kind)) {
            legend_[k]->VisibilityOff();
            continue;
        }
        char text[160];
        std::snprintf(text, sizeof text, "%s: 1 %s = %.3g m", arrowKindName(kind), arrowKindUnit(kind), scale.of(kind));
        legend_[k]->SetInput(text);
        legend_[k]->SetPosition(0.01, 0.95 - 0.04 * line++);
        legend_[k]->VisibilityOn();
    }
}

std::string ArrowOverlay::legendText() const
{
    std::string out;
    for (const auto& text : legend_)
        if (text->GetVisibility() && text->GetInput())
            out += std::string(text->GetInput()) + "\n";
    return out;
}

}  // namespace looplab::ui
