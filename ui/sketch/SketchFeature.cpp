#include "sketch/SketchFeature.h"

#include "looplab/sketch/SketchSnapping.h"
#include "sketch/SketchGrid.h"
#include "sketch/SketchOverlay.h"
#include "viewport/VtkViewport.h"
#include "document/WorkbenchDocument.h"

#include <QAction>
#include <QActionGroup>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QKeyEvent>
#include <QLabel>
#include <QMouseEvent>
#include <QTimer>
#include <QToolBar>
#include <QWindow>

#include <vtkCamera.h>
#include <vtkRenderWindow.h>
#include <vtkRenderer.h>

#include <algorithm>
#include <cmath>

namespace looplab::ui {

namespace {
// A click within this many pixels of a pivot joins it.
constexpr double kSnapPixels = 12.0;
// A press and release further apart than this are a drag, not a click.
constexpr int kClickSlopPixels = 4;
}  // namespace

SketchFeature::SketchFeature(WorkbenchDocument* document, VtkViewport* viewport, QObject* parent)
    : QObject(parent), document_(document), viewport_(viewport)
{
    toolBar_ = new QToolBar(tr("Sketch"));
    toolBar_->setObjectName("sketchToolBar");
    sketchAction_ = toolBar_->addAction(tr("Sketch"));
    sketchAction_->setCheckable(true);
    sketchAction_->setToolTip(tr("Sketch a planar linkage on a work plane"));
    toolBar_->addWidget(new QLabel(tr(" Plane ")));
    planeBox_ = new QComboBox;
    planeBox_->addItems({"XY", "YZ", "ZX"});
    toolBar_->addWidget(planeBox_);
    tools_ = new QActionGroup(this);
    groundAction_ = toolBar_->addAction(tr("Ground Pivot"));
    linkAction_ = toolBar_->addAction(tr("Link"));
    sliderAction_ = toolBar_->addAction(tr("Slider"));
    gearAction_ = toolBar_->addAction(tr("Gear Pair"));
    camAction_ = toolBar_->addAction(tr("Cam"));
    groundAction_->setToolTip(tr("Click to place a pivot fixed to the ground"));
    linkAction_->setToolTip(tr("Click pivot after pivot: each click adds a link from the last one; "
                               "a chain ends on a ground pivot or with Esc"));
    sliderAction_->setToolTip(tr("Click a pivot, then a point along the guide line"));
    gearAction_->setToolTip(tr("Click two ground pivots, then the point between them where the wheels touch"));
    camAction_->setToolTip(tr("Click a ground pivot for the cam, then where its follower's roller should be"));
    for (QAction* a : {groundAction_, linkAction_, sliderAction_, gearAction_, camAction_}) {
        a->setCheckable(true);
        tools_->addAction(a);
        a->setEnabled(false);
    }
    groundAction_->setChecked(true);
    toolBar_->addWidget(new QLabel(tr(" Density ")));
    density_ = new QDoubleSpinBox;
    density_->setRange(1.0, 30000.0);
    density_->setDecimals(0);
    density_->setSuffix(tr(" kg/m³"));
    density_->setValue(BarStyle{}.density);
    density_->setToolTip(tr("Material density of new links and sliders (aluminium 2700, steel 7850)"));
    toolBar_->addWidget(density_);
    toolBar_->addWidget(new QLabel(tr(" Grid ")));
    step_ = new QDoubleSpinBox;
    step_->setObjectName("sketchGridStep");
    step_->setRange(0.0, 10.0);
    step_->setDecimals(4);
    step_->setSingleStep(0.005);
    step_->setSuffix(tr(" m"));
    step_->setSpecialValueText(tr("auto"));
    step_->setValue(0.0);
    step_->setToolTip(tr("Spacing of the grid that clicks snap to; auto follows the zoom"));
    toolBar_->addWidget(step_);
    cursor_ = new QLabel;
    cursor_->setObjectName("sketchCursor");
    cursor_->setMinimumWidth(cursor_->fontMetrics().horizontalAdvance(QStringLiteral("  x −0.0000  y −0.0000  z −0.0000 m ")));
    cursor_->setToolTip(tr("Where a click at the pointer places a point (snapped to a pivot or to the grid)"));
    toolBar_->addWidget(cursor_);

    overlay_ = std::make_unique<SketchOverlay>(viewport_->renderer());
    grid_ = std::make_unique<SketchGrid>(viewport_->renderer());
    connect(step_, qOverload<double>(&QDoubleSpinBox::valueChanged), this, [this] { refreshOverlay(); });

    connect(sketchAction_, &QAction::toggled, this, &SketchFeature::setActive);
    connect(groundAction_, &QAction::triggered, this, [this] { setTool(Tool::GroundPivot); });
    connect(linkAction_, &QAction::triggered, this, [this] { setTool(Tool::Link); });
    connect(sliderAction_, &QAction::triggered, this, [this] { setTool(Tool::Slider); });
    connect(gearAction_, &QAction::triggered, this, [this] { setTool(Tool::GearPair); });
    connect(camAction_, &QAction::triggered, this, [this] { setTool(Tool::Cam); });
    connect(planeBox_, qOverload<int>(&QComboBox::currentIndexChanged), this,
            [this](int i) { setWorkPlane(static_cast<WorkPlane::Kind>(i)); });
    connect(document_, &WorkbenchDocument::documentChanged, this, [this] { refreshOverlay(); });
    connect(document_, &WorkbenchDocument::documentReset, this, [this] {
        pending_.reset();
        secondPivot_.reset();
        refreshOverlay();
    });
}

SketchFeature::~SketchFeature()
{
    if (QWindow* s = viewport_->renderSurface()) s->removeEventFilter(this);
}

QAction* SketchFeature::toolAction(Tool tool) const
{
    switch (tool) {
    case Tool::GroundPivot: return groundAction_;
    case Tool::Link: return linkAction_;
    case Tool::Slider: return sliderAction_;
    case Tool::GearPair: return gearAction_;
    case Tool::Cam: return camAction_;
    }
    return groundAction_;
}

bool SketchFeature::isActive() const { return sketchAction_->isChecked(); }

void SketchFeature::setActive(bool on)
{
    if (sketchAction_->isChecked() != on) {
        sketchAction_->setChecked(on);  // comes back here through toggled
        return;
    }
    for (QAction* a : {groundAction_, linkAction_, sliderAction_, gearAction_, camAction_}) a->setEnabled(on);
    pending_.reset();
    secondPivot_.reset();
    QWindow* surface = viewport_->renderSurface();
    if (on) {
        if (surface) surface->installEventFilter(this);
        viewport_->setAutoFit(false);
        groundGridWasVisible_ = viewport_->isGridVisible();
        viewport_->setGridVisible(false);
        lookAtPlane();
        emit message(tr("Sketch on the %1 plane: click to place ground pivots, then choose Link")
                         .arg(workPlaneName(plane_.kind)));
    } else {
        if (surface) surface->removeEventFilter(this);
        viewport_->setAutoFit(true);
        viewport_->setGridVisible(groundGridWasVisible_);
        cursor_->clear();
        viewport_->renderer()->GetActiveCamera()->ParallelProjectionOff();
        // In perspective from where the plane was seen: the mechanism fills the view again.
        if (!document_->document().bodies.empty())
            viewport_->fitToView();
        viewport_->requestRender();
    }
    refreshOverlay();
}

void SketchFeature::setTool(Tool tool)
{
    tool_ = tool;
    toolAction(tool)->setChecked(true);
    pending_.reset();
    secondPivot_.reset();
    refreshOverlay();
}

void SketchFeature::setWorkPlane(WorkPlane::Kind kind)
{
    plane_.kind = kind;
    if (planeBox_->currentIndex() != static_cast<int>(kind)) planeBox_->setCurrentIndex(static_cast<int>(kind));
    pending_.reset();
    secondPivot_.reset();
    if (isActive()) lookAtPlane();
    refreshOverlay();
}

BarStyle SketchFeature::barStyle() const
{
    BarStyle s;
    s.density = density_->value();
    return s;
}

// Orthographic, looking along −normal with the plane's v axis up; an empty model shows
// a metre around the origin, otherwise the mechanism fills the view.
void SketchFeature::lookAtPlane()
{
    const Vec3 n = plane_.normal();
    viewport_->setCamera(5.0 * n, Vec3::Zero(), plane_.v(), true, 0.6);
    if (!document_->document().bodies.empty() || !document_->document().markers.empty())
        viewport_->fitToView();
    viewport_->requestRender();
}

std::optional<Vec3> SketchFeature::planePointAt(const QPoint& pos) const
{
    vtkRenderer* ren = viewport_->renderer();
    vtkRenderWindow* win = ren->GetRenderWindow();
    QWindow* surface = viewport_->renderSurface();
    if (!win || !surface) return std::nullopt;
    const double dpr = surface->devicePixelRatio();
    const int* size = win->GetSize();
    const double x = pos.x() * dpr, y = size[1] - 1 - pos.y() * dpr;
    Vec3 ends[2];
    for (int k = 0; k < 2; ++k) {
        ren->SetDisplayPoint(x, y, k);
        ren->DisplayToWorld();
        double w[4];
        ren->GetWorldPoint(w);
        if (w[3] == 0.0) return std::nullopt;
        ends[k] = Vec3(w[0], w[1], w[2]) / w[3];
    }
    Vec3 p;
    if (!plane_.intersect(ends[0], ends[1] - ends[0], p)) return std::nullopt;
    return p;
}

double SketchFeature::pixelsToMetres(double pixels) const
{
    vtkRenderer* ren = viewport_->renderer();
    vtkCamera* camera = ren->GetActiveCamera();
    const int* size = ren->GetRenderWindow() ? ren->GetRenderWindow()->GetSize() : nullptr;
    const double dpr = viewport_->renderSurface() ? viewport_->renderSurface()->devicePixelRatio() : 1.0;
    if (!size || size[1] <= 0 || !camera->GetParallelProjection()) return 0.02;
    return pixels * dpr * 2.0 * camera->GetParallelScale() / size[1];
}

double SketchFeature::viewHeight() const
{
    const QWindow* surface = viewport_->renderSurface();
    return surface ? pixelsToMetres(1.0) * surface->height() : 0.0;
}

double SketchFeature::viewWidth() const
{
    const QWindow* surface = viewport_->renderSurface();
    return surface ? pixelsToMetres(1.0) * surface->width() : 0.0;
}

double SketchFeature::gridStep() const
{
    return step_->value() > 0.0 ? step_->value() : automaticSketchStep(viewHeight());
}

void SketchFeature::refreshGrid()
{
    const double height = viewHeight(), width = viewWidth();
    if (!isActive() || !(height > 0.0)) {
        grid_->hide();
        return;
    }
    double f[3];
    viewport_->renderer()->GetActiveCamera()->GetFocalPoint(f);
    const double bar = sketchScaleBarLength(width);
    const QWindow* surface = viewport_->renderSurface();
    const double metresPerDevicePixel = pixelsToMetres(1.0) / (surface ? surface->devicePixelRatio() : 1.0);
    grid_->show(plane_, plane_.project(Vec3(f[0], f[1], f[2])), 0.75 * std::max(width, height), gridStep(),
                0.08 * height, bar, bar / metresPerDevicePixel);
}

void SketchFeature::showCursorAt(const QPoint& pos)
{
    const std::optional<Vec3> at = planePointAt(pos);
    if (!at) {
        cursor_->clear();
        return;
    }
    const SnapResult snap =
        snapSketchPoint(sketchPivots(document_->document()), plane_, *at, pixelsToMetres(kSnapPixels), gridStep());
    // Rounded to the step's digits, and no "−0".
    const int digits = std::clamp(int(std::ceil(-std::log10(gridStep()) - 1e-9)), 0, 6);
    auto coordinate = [digits](double v) {
        const double r = std::abs(v) < 0.5 * std::pow(10.0, -digits) ? 0.0 : v;
        return QString::number(r, 'f', digits);
    };
    cursor_->setText(QStringLiteral("  x %1  y %2  z %3 m")
                         .arg(coordinate(snap.point.x()), coordinate(snap.point.y()), coordinate(snap.point.z())));
}

bool SketchFeature::applyEdit(const QString& text, const ModelDocument& changed)
{
    // New solids make the window turn the view against gravity; the sketch keeps looking
    // at its plane, where the user is drawing.
    vtkCamera* c = viewport_->renderer()->GetActiveCamera();
    double p[3], f[3], u[3];
    c->GetPosition(p);
    c->GetFocalPoint(f);
    c->GetViewUp(u);
    const double scale = c->GetParallelScale();
    document_->edit(text, [&changed](ModelDocument& d) { d = changed; });
    viewport_->setCamera(Vec3(p[0], p[1], p[2]), Vec3(f[0], f[1], f[2]), Vec3(u[0], u[1], u[2]), true, scale);
    return true;
}

void SketchFeature::clickAt(const Vec3& point)
{
    const ModelDocument& doc = document_->document();
    const std::vector<SketchPivot> pivots = sketchPivots(doc);
    const SnapResult snap = snapSketchPoint(pivots, plane_, point, pixelsToMetres(kSnapPixels), gridStep());
    SketchEnd end;
    end.point = snap.point;
    if (snap.pivot >= 0) end.pivot = pivots[static_cast<size_t>(snap.pivot)].marker;
    const bool onGround = snap.pivot >= 0 && pivots[static_cast<size_t>(snap.pivot)].ground();

    ModelDocument changed = doc;
    switch (tool_) {
    case Tool::GroundPivot: {
        if (onGround) {
            emit message(tr("There is a ground pivot here already"));
            return;
        }
        const SketchEditResult r = addGroundPivot(changed, plane_, end.point);
        if (!r.ok) {
            emit message(QString::fromStdString(r.message));
            return;
        }
        applyEdit(tr("Sketch ground pivot"), changed);
        emit message(tr("Ground pivot %1 placed").arg(QString::fromStdString(r.markers.front())));
        break;
    }
    case Tool::Link: {
        if (!pending_) {
            pending_ = end;
            emit message(tr("Click where the link ends"));
            break;
        }
        const SketchEditResult r = addLink(changed, plane_, *pending_, end, barStyle());
        if (!r.ok) {
            emit message(QString::fromStdString(r.message));
            return;
        }
        applyEdit(tr("Sketch link"), changed);
        // The chain goes on from the new link's far end, unless it closed on the ground.
        if (onGround) {
            pending_.reset();
            emit message(tr("%1 added; the chain is closed").arg(QString::fromStdString(r.body)));
        } else {
            SketchEnd next;
            next.point = end.point;
            next.pivot = r.markers.back();
            pending_ = next;
            emit message(tr("%1 added; click to continue the chain, Esc to end it").arg(QString::fromStdString(r.body)));
        }
        break;
    }
    case Tool::Slider: {
        if (!pending_) {
            pending_ = end;
            emit message(tr("Click a point along the slider's guide"));
            break;
        }
        const SketchEditResult r = addSlider(changed, plane_, *pending_, end.point - pending_->point, barStyle());
        pending_.reset();
        if (!r.ok) {
            emit message(QString::fromStdString(r.message));
            refreshOverlay();
            return;
        }
        applyEdit(tr("Sketch slider"), changed);
        emit message(tr("%1 added").arg(QString::fromStdString(r.body)));
        break;
    }
    case Tool::GearPair: {
        if (!secondPivot_ && !onGround) {
            emit message(tr("Click a ground pivot: a gear turns about a pivot fixed to the ground"));
            return;
        }
        if (!pending_) {
            pending_ = end;
            emit message(tr("Click the other wheel's ground pivot"));
            break;
        }
        if (!secondPivot_) {
            if (end.pivot == pending_->pivot) {
                emit message(tr("Click another ground pivot for the second wheel"));
                return;
            }
            secondPivot_ = end;
            emit message(tr("Click between the pivots where the wheels should touch"));
            break;
        }
        const SketchEditResult r = addGearPair(changed, plane_, *pending_, *secondPivot_, end.point, barStyle());
        if (!r.ok) {
            emit message(QString::fromStdString(r.message));
            return;
        }
        pending_.reset();
        secondPivot_.reset();
        applyEdit(tr("Sketch gear pair"), changed);
        const CouplerDoc& gear = document_->document().couplers.back();
        emit message(tr("%1 added: %2 and %3 teeth")
                         .arg(QString::fromStdString(gear.name))
                         .arg(gear.teeth1.value_or(0))
                         .arg(gear.teeth2.value_or(0)));
        break;
    }
    case Tool::Cam: {
        if (!pending_) {
            if (!onGround) {
                emit message(tr("Click a ground pivot: the cam turns about a pivot fixed to the ground"));
                return;
            }
            pending_ = end;
            emit message(tr("Click where the centre of the follower's roller should be"));
            break;
        }
        const SketchEditResult r = addCam(changed, plane_, *pending_, end.point, barStyle());
        if (!r.ok) {
            emit message(QString::fromStdString(r.message));
            return;
        }
        pending_.reset();
        applyEdit(tr("Sketch cam"), changed);
        emit message(tr("%1 added: a cycloidal rise, dwell, return and dwell; edit its law in the properties")
                         .arg(QString::fromStdString(document_->document().couplers.back().name)));
        break;
    }
    }
    refreshOverlay();
}

void SketchFeature::cancelPending()
{
    pending_.reset();
    secondPivot_.reset();
    refreshOverlay();
}

void SketchFeature::refreshOverlay()
{
    overlay_->clear();
    if (isActive()) {
        const double r = 0.6 * BarStyle{}.height;
        for (const SketchPivot& p : sketchPivots(document_->document())) overlay_->addPivot(p.point, p.ground(), r);
        if (pending_) overlay_->addPending(pending_->point, 1.6 * r);
        if (secondPivot_) overlay_->addPending(secondPivot_->point, 1.6 * r);
    }
    refreshGrid();
    viewport_->requestRender();
}

bool SketchFeature::eventFilter(QObject* watched, QEvent* event)
{
    if (watched != viewport_->renderSurface() || !isActive()) return QObject::eventFilter(watched, event);
    switch (event->type()) {
    case QEvent::MouseButtonPress: {
        auto* e = static_cast<QMouseEvent*>(event);
        if (e->button() != Qt::LeftButton) return false;
        pressAt_ = e->position().toPoint();
        pressed_ = true;
        return true;
    }
    case QEvent::MouseMove: {
        auto* e = static_cast<QMouseEvent*>(event);
        if (e->buttons() == Qt::NoButton) showCursorAt(e->position().toPoint());
        // A pan moves the plane under the grid: it follows once the view has moved.
        if (e->buttons() & Qt::MiddleButton) QTimer::singleShot(0, this, [this] { refreshGrid(); });
        return pressed_ || (e->buttons() & Qt::LeftButton);
    }
    case QEvent::Wheel:
    case QEvent::Resize:
        // After the view has zoomed or resized: the step and the grid's extent follow.
        QTimer::singleShot(0, this, [this] {
            refreshGrid();
            viewport_->requestRender();
        });
        return false;
    case QEvent::Leave: cursor_->clear(); return false;
    case QEvent::MouseButtonRelease: {
        auto* e = static_cast<QMouseEvent*>(event);
        if (e->button() != Qt::LeftButton || !pressed_) return false;
        pressed_ = false;
        if ((e->position().toPoint() - pressAt_).manhattanLength() <= kClickSlopPixels)
            if (const std::optional<Vec3> p = planePointAt(e->position().toPoint())) clickAt(*p);
        return true;
    }
    case QEvent::MouseButtonDblClick:
        return static_cast<QMouseEvent*>(event)->button() == Qt::LeftButton;
    case QEvent::KeyPress:
        if (static_cast<QKeyEvent*>(event)->key() == Qt::Key_Escape && pending_) {
            cancelPending();
            emit message(tr("Chain ended"));
            return true;
        }
        return false;
    default: return QObject::eventFilter(watched, event);
    }
}

}  // namespace looplab::ui
