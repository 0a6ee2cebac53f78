#include "overlays/ArrowOverlay.h"

#include <vtkActor.h>
#include <vtkArrowSource.h>
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
#include <sstream>

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
    for (int k = 0; k < kArrowKindCount; ++k) {
        data_[k] = vtkSmartPointer<vtkPolyData>::New();
        auto arrow = vtkSmartPointer<vtkArrowSource>::New();
        arrow->SetTipLength(0.25);
        arrow->SetTipRadius(0.06);
        arrow->SetShaftRadius(0.02);
        // The glyph is the unit arrow along x, turned along each vector and scaled by its
        // length: the drawn arrow is exactly MotionArrow::drawn.
        auto glyph = vtkSmartPointer<vtkGlyph3D>::New();
        glyph->SetInputData(data_[k]);
        glyph->SetSourceConnection(arrow->GetOutputPort());
        glyph->SetVectorModeToUseVector();
        glyph->SetScaleModeToScaleByVector();
        glyph->SetScaleFactor(1.0);
        glyph->OrientOn();
        auto mapper = vtkSmartPointer<vtkPolyDataMapper>::New();
        mapper->SetInputConnection(glyph->GetOutputPort());
        mapper->ScalarVisibilityOff();
        actors_[k] = vtkSmartPointer<vtkActor>::New();
        actors_[k]->SetMapper(mapper);
        const Eigen::Vector3d c = color(static_cast<ArrowKind>(k));
        actors_[k]->GetProperty()->SetColor(c.x(), c.y(), c.z());
        actors_[k]->PickableOff();
        actors_[k]->VisibilityOff();
        renderer_->AddActor(actors_[k]);
    }
    legend_ = vtkSmartPointer<vtkTextActor>::New();
    legend_->GetTextProperty()->SetFontSize(14);
    legend_->GetTextProperty()->SetColor(0.15, 0.15, 0.15);
    legend_->GetPositionCoordinate()->SetCoordinateSystemToNormalizedViewport();
    legend_->SetPosition(0.01, 0.85);
    legend_->VisibilityOff();
    renderer_->AddViewProp(legend_);
}

ArrowOverlay::~ArrowOverlay()
{
    for (auto& a : actors_)
        renderer_->RemoveActor(a);
    renderer_->RemoveViewProp(legend_);
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
    std::array<vtkSmartPointer<vtkPoints>, kArrowKindCount> points;
    std::array<vtkSmartPointer<vtkDoubleArray>, kArrowKindCount> vectors;
    for (int k = 0; k < kArrowKindCount; ++k) {
        points[k] = vtkSmartPointer<vtkPoints>::New();
        vectors[k] = vtkSmartPointer<vtkDoubleArray>::New();
        vectors[k]->SetNumberOfComponents(3);
        vectors[k]->SetName("drawn");
    }
    for (const MotionArrow& a : arrows) {
        const int k = static_cast<int>(a.kind);
        points[k]->InsertNextPoint(a.origin.data());
        vectors[k]->InsertNextTuple(a.drawn.data());
        ++counts_[k];
        lengths_[k] += a.drawn.norm();
    }
    for (int k = 0; k < kArrowKindCount; ++k) {
        data_[k]->SetPoints(points[k]);
        data_[k]->GetPointData()->SetVectors(vectors[k]);
        data_[k]->Modified();
        actors_[k]->SetVisibility(counts_[k] > 0);
    }
    std::ostringstream legend;
    for (int k = 0; k < kArrowKindCount; ++k) {
        const auto kind = static_cast<ArrowKind>(k);
        if (!request.wants(kind))
            continue;
        char line[160];
        std::snprintf(line, sizeof line, "%s: 1 %s = %.3g m\n", arrowKindName(kind), arrowKindUnit(kind), scale.of(kind));
        legend << line;
    }
    const std::string text = legend.str();
    legend_->SetInput(text.c_str());
    legend_->SetVisibility(!text.empty());
}

std::string ArrowOverlay::legendText() const
{
    const char* text = legend_->GetInput();
    return text ? text : "";
}

}  // namespace looplab::ui
