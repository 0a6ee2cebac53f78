#include "viewport/GroundGrid.h"

#include <vtkActor.h>
#include <vtkCellArray.h>
#include <vtkCellData.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkPolyDataMapper.h>
#include <vtkProperty.h>
#include <vtkUnsignedCharArray.h>

#include <algorithm>
#include <cmath>

namespace looplab::ui {
namespace {

// Lines per half-width: enough to judge distances, few enough not to turn into a
// grey carpet at grazing angles.
constexpr int kHalfLines = 10;

// Smallest of 1, 2, 5 × 10^k not below `x`.
double niceStep(double x)
{
    const double decade = std::pow(10.0, std::floor(std::log10(x)));
    for (double m : {1.0, 2.0, 5.0, 10.0}) {
        if (m * decade >= x * (1.0 - 1e-9))
            return m * decade;
    }
    return 10.0 * decade;
}

}  // namespace

GroundGrid::GroundGrid()
    : lines_(vtkSmartPointer<vtkPolyData>::New()), actor_(vtkSmartPointer<vtkActor>::New())
{
    auto mapper = vtkSmartPointer<vtkPolyDataMapper>::New();
    mapper->SetInputData(lines_);
    mapper->SetScalarModeToUseCellData();
    mapper->SetColorModeToDirectScalars();
    actor_->SetMapper(mapper);
    // Lines have no meaningful normal, and shading them would make the grid flicker as
    // the camera turns.
    actor_->GetProperty()->LightingOff();
    actor_->PickableOff();
}

GroundGrid::~GroundGrid() = default;

vtkActor* GroundGrid::actor() const
{
    return actor_;
}

void GroundGrid::fit(const double bounds[6], int upAxis)
{
    upAxis = std::clamp(upAxis, 0, 2);
    const int u = (upAxis + 1) % 3;  // the two in-plane axes, right-handed with upAxis
    const int v = (upAxis + 2) % 3;

    double extent = 0.0;
    for (int i = 0; i < 3; ++i)
        extent = std::max(extent, bounds[2 * i + 1] - bounds[2 * i]);
    if (!(extent > 0.0))
        extent = 1.0;

    // A tall, narrow mechanism still needs a floor wider than its footprint, hence the
    // largest of the three extents rather than the in-plane ones.
    const double halfWidth = 0.75 * extent;
    spacing_ = niceStep(halfWidth / kHalfLines);
    const double half = kHalfLines * spacing_;

    // Snap the centre to the grid so that the origin stays on a line when it is in view.
    const double cu = std::round(0.5 * (bounds[2 * u] + bounds[2 * u + 1]) / spacing_) * spacing_;
    const double cv = std::round(0.5 * (bounds[2 * v] + bounds[2 * v + 1]) / spacing_) * spacing_;
    // Slightly below the scene: a body resting on the lowest plane would otherwise
    // z-fight with the lines.
    const double height = bounds[2 * upAxis] - 0.01 * extent;

    auto points = vtkSmartPointer<vtkPoints>::New();
    auto cells = vtkSmartPointer<vtkCellArray>::New();
    auto colors = vtkSmartPointer<vtkUnsignedCharArray>::New();
    colors->SetNumberOfComponents(3);
    const unsigned char minor[3] = {150, 155, 165};
    const unsigned char major[3] = {105, 110, 122};

    auto addLine = [&](double u0, double v0, double u1, double v1, bool isMajor) {
        double a[3], b[3];
        a[upAxis] = b[upAxis] = height;
        a[u] = u0;
        a[v] = v0;
        b[u] = u1;
        b[v] = v1;
        const vtkIdType ids[2] = {points->InsertNextPoint(a), points->InsertNextPoint(b)};
        cells->InsertNextCell(2, ids);
        colors->InsertNextTypedTuple(isMajor ? major : minor);
    };
    for (int i = -kHalfLines; i <= kHalfLines; ++i) {
        const double offset = i * spacing_;
        // Major lines on multiples of five spacings in world terms, not relative to
        // the centre, so they do not jump when the grid is refitted.
        const bool majorU = std::lround((cu + offset) / spacing_) % 5 == 0;
        const bool majorV = std::lround((cv + offset) / spacing_) % 5 == 0;
        addLine(cu + offset, cv - half, cu + offset, cv + half, majorU);
        addLine(cu - half, cv + offset, cu + half, cv + offset, majorV);
    }

    lines_->Initialize();
    lines_->SetPoints(points);
    lines_->SetLines(cells);
    lines_->GetCellData()->SetScalars(colors);
    lines_->Modified();
}

}  // namespace looplab::ui
