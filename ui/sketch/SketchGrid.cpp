#include "sketch/SketchGrid.h"

#include <vtkActor.h>
#include <vtkActor2D.h>
#include <vtkCellArray.h>
#include <vtkCellData.h>
#include <vtkCoordinate.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkPolyDataMapper.h>
#include <vtkPolyDataMapper2D.h>
#include <vtkProperty.h>
#include <vtkProperty2D.h>
#include <vtkRenderer.h>
#include <vtkTextActor.h>
#include <vtkTextProperty.h>
#include <vtkUnsignedCharArray.h>

#include <cmath>
#include <cstdio>

namespace looplab::ui {

namespace {

double roundStep(double raw)
{
    if (!(raw > 0.0) || !std::isfinite(raw))
        return 0.0;
    const double decade = std::pow(10.0, std::floor(std::log10(raw)));
    const double m = raw / decade;
    return (m < 2.0 ? 1.0 : m < 5.0 ? 2.0 : 5.0) * decade;
}

// Lines and a colour per line.
void addLine(vtkPoints* points, vtkCellArray* cells, vtkUnsignedCharArray* colours, const Vec3& a, const Vec3& b,
             const unsigned char rgb[3])
{
    const vtkIdType ids[2] = {points->InsertNextPoint(a.data()), points->InsertNextPoint(b.data())};
    cells->InsertNextCell(2, ids);
    colours->InsertNextTypedTuple(rgb);
}

vtkSmartPointer<vtkActor> lineActor(vtkPolyData* lines, float width)
{
    auto mapper = vtkSmartPointer<vtkPolyDataMapper>::New();
    mapper->SetInputData(lines);
    mapper->SetScalarModeToUseCellData();
    mapper->SetColorModeToDirectScalars();
    auto actor = vtkSmartPointer<vtkActor>::New();
    actor->SetMapper(mapper);
    actor->GetProperty()->LightingOff();
    actor->GetProperty()->SetLineWidth(width);
    actor->PickableOff();
    actor->VisibilityOff();
    return actor;
}

}  // namespace

double automaticSketchStep(double viewHeight) { return roundStep(viewHeight / 40.0); }

double sketchScaleBarLength(double viewWidth)
{
    const double raw = viewWidth / 5.0;
    if (!(raw > 0.0) || !std::isfinite(raw))
        return 0.0;
    const double decade = std::pow(10.0, std::floor(std::log10(raw)));
    const double m = raw / decade;
    return (m >= 5.0 ? 5.0 : m >= 2.0 ? 2.0 : 1.0) * decade;
}

std::string sketchLengthLabel(double metres)
{
    char text[32];
    if (metres < 1e-3)
        std::snprintf(text, sizeof text, "%g µm", metres * 1e6);
    else if (metres < 0.1)
        std::snprintf(text, sizeof text, "%g mm", metres * 1e3);
    else
        std::snprintf(text, sizeof text, "%g m", metres);
    return text;
}

SketchGrid::SketchGrid(vtkRenderer* renderer)
    : renderer_(renderer), lines_(vtkSmartPointer<vtkPolyData>::New()), axes_(vtkSmartPointer<vtkPolyData>::New()),
      bar_(vtkSmartPointer<vtkPolyData>::New()), barActor_(vtkSmartPointer<vtkActor2D>::New()),
      barLabel_(vtkSmartPointer<vtkTextActor>::New())
{
    grid_ = lineActor(lines_, 1.0f);
    origin_ = lineActor(axes_, 3.0f);
    auto mapper2d = vtkSmartPointer<vtkPolyDataMapper2D>::New();
    mapper2d->SetInputData(bar_);
    barActor_->SetMapper(mapper2d);
    barActor_->GetProperty()->SetColor(0.1, 0.1, 0.12);
    barActor_->GetProperty()->SetLineWidth(3.0f);
    barActor_->VisibilityOff();
    vtkTextProperty* text = barLabel_->GetTextProperty();
    text->SetFontSize(14);
    text->SetColor(0.1, 0.1, 0.12);
    text->SetJustificationToCentered();
    text->SetVerticalJustificationToBottom();
    barLabel_->VisibilityOff();
    renderer_->AddActor(grid_);
    renderer_->AddActor(origin_);
    renderer_->AddViewProp(barActor_);
    renderer_->AddViewProp(barLabel_);
}

SketchGrid::~SketchGrid()
{
    renderer_->RemoveActor(grid_);
    renderer_->RemoveActor(origin_);
    renderer_->RemoveViewProp(barActor_);
    renderer_->RemoveViewProp(barLabel_);
}

void SketchGrid::show(const WorkPlane& plane, const Vec3& centre, double halfExtent, double step, double markLength,
                      double barMetres, double barPixels)
{
    step_ = step;
    barMetres_ = barMetres;
    const Vec3 u = plane.u(), v = plane.v();
    auto points = vtkSmartPointer<vtkPoints>::New();
    auto cells = vtkSmartPointer<vtkCellArray>::New();
    auto colours = vtkSmartPointer<vtkUnsignedCharArray>::New();
    colours->SetNumberOfComponents(3);
    const unsigned char light[3] = {185, 190, 200}, dark[3] = {140, 146, 158};
    if (step > 0.0 && halfExtent > 0.0 && halfExtent / step < 400.0) {
        const double cu = centre.dot(u), cv = centre.dot(v);
        const long i0 = long(std::floor((cu - halfExtent) / step)), i1 = long(std::ceil((cu + halfExtent) / step));
        const long j0 = long(std::floor((cv - halfExtent) / step)), j1 = long(std::ceil((cv + halfExtent) / step));
        // Drawn a hair behind the plane, so that links and pivots on it stay in front.
        const Vec3 behind = -1e-4 * halfExtent * plane.normal();
        for (long i = i0; i <= i1; ++i)
            addLine(points, cells, colours, behind + i * step * u + j0 * step * v, behind + i * step * u + j1 * step * v,
                    i % 5 == 0 ? dark : light);
        for (long j = j0; j <= j1; ++j)
            addLine(points, cells, colours, behind + i0 * step * u + j * step * v, behind + i1 * step * u + j * step * v,
                    j % 5 == 0 ? dark : light);
    }
    lines_->Initialize();
    lines_->SetPoints(points);
    lines_->SetLines(cells);
    lines_->GetCellData()->SetScalars(colours);
    grid_->SetVisibility(lines_->GetNumberOfCells() > 0);

    auto axisPoints = vtkSmartPointer<vtkPoints>::New();
    auto axisCells = vtkSmartPointer<vtkCellArray>::New();
    auto axisColours = vtkSmartPointer<vtkUnsignedCharArray>::New();
    axisColours->SetNumberOfComponents(3);
    const unsigned char red[3] = {210, 40, 40}, green[3] = {30, 150, 50};
    addLine(axisPoints, axisCells, axisColours, Vec3::Zero(), markLength * u, red);
    addLine(axisPoints, axisCells, axisColours, Vec3::Zero(), markLength * v, green);
    axes_->Initialize();
    axes_->SetPoints(axisPoints);
    axes_->SetLines(axisCells);
    axes_->GetCellData()->SetScalars(axisColours);
    origin_->SetVisibility(markLength > 0.0);

    // The bar in display pixels from the bottom left corner, with end ticks.
    const double x0 = 20.0, y0 = 24.0, tick = 6.0;
    auto barPoints = vtkSmartPointer<vtkPoints>::New();
    barPoints->InsertNextPoint(x0, y0 + tick, 0.0);
    barPoints->InsertNextPoint(x0, y0, 0.0);
    barPoints->InsertNextPoint(x0 + barPixels, y0, 0.0);
    barPoints->InsertNextPoint(x0 + barPixels, y0 + tick, 0.0);
    auto barCells = vtkSmartPointer<vtkCellArray>::New();
    const vtkIdType ids[4] = {0, 1, 2, 3};
    barCells->InsertNextCell(4, ids);
    bar_->Initialize();
    bar_->SetPoints(barPoints);
    bar_->SetLines(barCells);
    const bool bar = barMetres > 0.0 && barPixels > 4.0;
    barActor_->SetVisibility(bar);
    barLabel_->SetInput(scaleLabel().c_str());
    barLabel_->SetDisplayPosition(int(x0 + 0.5 * barPixels), int(y0 + 4.0));
    barLabel_->SetVisibility(bar);
}

void SketchGrid::hide()
{
    grid_->VisibilityOff();
    origin_->VisibilityOff();
    barActor_->VisibilityOff();
    barLabel_->VisibilityOff();
}

bool SketchGrid::isShown() const { return grid_->GetVisibility() != 0; }

int SketchGrid::lineCount() const { return int(lines_->GetNumberOfCells()); }

std::string SketchGrid::scaleLabel() const { return barMetres_ > 0.0 ? sketchLengthLabel(barMetres_) : std::string(); }

}  // namespace looplab::ui
