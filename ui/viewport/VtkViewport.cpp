// No GLEW here: the few GL enums this file needs come with Qt's <qopengl.h>, and all GL
// calls go through VTK's vtkOpenGLState, which keeps VTK's state cache true. Including
// vtk_glew.h would have to come before every Qt OpenGL header, and <QOpenGLContext>
// (needed for make-current) then warns that it undefines GLEW's macros. Nor does this
// file use <QOpenGLFunctions>: GL calls made behind VTK's back would leave its state
// cache stale.
#include "viewport/VtkViewport.h"

#include "viewport/GroundGrid.h"
#include "viewport/SceneActors.h"

#include <vtkAxesActor.h>
#include <cmath>
#include <vtkCamera.h>
#include <vtkCellPicker.h>
#include <vtkCommand.h>
#include <vtkGenericOpenGLRenderWindow.h>
#include <vtkGenericRenderWindowInteractor.h>
#include <vtkInteractorStyleTrackballCamera.h>
#include <vtkLightKit.h>
#include <vtkNew.h>
#include <vtkOpenGLState.h>
#include <vtkOrientationMarkerWidget.h>
#include <vtkRenderer.h>

#include <QCoreApplication>
#include <QImage>
#include <QMouseEvent>
#include <QOpenGLContext>
#include <QOpenGLWindow>
#include <QVBoxLayout>
#include <QPointer>
#include <QSaveFile>
#include <QTimer>
#include <QWheelEvent>

#include <map>
#include <utility>

namespace looplab::ui {
namespace {

// A press and release closer than this (logical pixels) count as a click, not a drag.
constexpr int kClickSlop = 4;
// One notch of a classic mouse wheel, in QWheelEvent::angleDelta() units.
constexpr int kWheelNotch = 120;

struct ViewDirection {
    Eigen::Vector3d towardsCamera;
    Eigen::Vector3d up;
};

ViewDirection viewDirection(VtkViewport::StandardView view, VtkViewport::UpAxis upAxis)
{
    using V = Eigen::Vector3d;
    const bool zUp = upAxis == VtkViewport::UpAxis::Z;
    switch (view) {
    case VtkViewport::StandardView::Front:
        return zUp ? ViewDirection{-V::UnitY(), V::UnitZ()} : ViewDirection{V::UnitZ(), V::UnitY()};
    case VtkViewport::StandardView::Top:
        return zUp ? ViewDirection{V::UnitZ(), V::UnitY()} : ViewDirection{V::UnitY(), -V::UnitZ()};
    case VtkViewport::StandardView::Side:
        return zUp ? ViewDirection{V::UnitX(), V::UnitZ()} : ViewDirection{V::UnitX(), V::UnitY()};
    case VtkViewport::StandardView::Isometric:
        break;
    }
    return zUp ? ViewDirection{V(1, -1, 1).normalized(), V::UnitZ()}
               : ViewDirection{V(1, 1, 1).normalized(), V::UnitY()};
}

}  // namespace

// The native OpenGL window VTK draws into. It sits in the widget tree through a window
// container, so the rest of the main window keeps Qt's raster backing store: with a
// QOpenGLWidget anywhere in it, every repaint of any widget (a progress bar, a chart)
// would be composed through OpenGL, which costs tens of milliseconds under software
// rendering. Each paint redraws the whole window from VTK's own framebuffer
// (NoPartialUpdate: no extra copy through an FBO of Qt's).
class VtkViewport::Surface : public QOpenGLWindow {
public:
    explicit Surface(VtkViewport::Private* d) : QOpenGLWindow(QOpenGLWindow::NoPartialUpdate), d_(d)
    {
        setFormat(VtkViewport::defaultFormat());
    }

protected:
    bool event(QEvent* event) override;
    void initializeGL() override;
    void resizeGL(int w, int h) override;
    void paintGL() override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;

private:
    VtkViewport::Private* d_;
};

struct VtkViewport::Private {
    explicit Private(VtkViewport* owner) : q(owner) {}

    VtkViewport* q;
    Surface* gl = nullptr;  // owned by its window container, a child of q
    vtkNew<vtkGenericOpenGLRenderWindow> window;
    vtkNew<vtkRenderer> renderer;
    vtkNew<vtkGenericRenderWindowInteractor> interactor;
    vtkNew<vtkInteractorStyleTrackballCamera> style;
    vtkNew<vtkCellPicker> picker;
    vtkNew<vtkAxesActor> axes;
    vtkNew<vtkOrientationMarkerWidget> axesWidget;
    GroundGrid grid;
    std::unique_ptr<SceneActors> scene;

    std::vector<unsigned long> windowObservers;
    std::vector<unsigned long> interactorObservers;
    // VTK timer platform id -> the Qt timer standing in for it.
    std::map<int, QPointer<QTimer>> timers;
    QMetaObject::Connection contextConnection;

    bool glReady = false;
    bool dirty = true;
    bool inPaint = false;
    bool fitPending = false;
    bool autoFit = true;
    UpAxis up = UpAxis::Z;
    StandardView lastView = StandardView::Isometric;
    bool gridVisible = true;
    bool projectorStyle = false;

    void applyBackground()
    {
        if (projectorStyle) {
            renderer->GradientBackgroundOff();
            renderer->SetBackground(1.0, 1.0, 1.0);
            return;
        }
        renderer->GradientBackgroundOn();
        renderer->SetBackground(0.62, 0.66, 0.73);   // bottom
        renderer->SetBackground2(0.92, 0.93, 0.95);  // top
    }

    QPoint pressPos;
    Qt::MouseButton pressButton = Qt::NoButton;
    bool dragged = false;
    int wheelRemainder = 0;
    bool poseEnabled = false;
    bool posing = false;  // a pose drag is under way
    Eigen::Vector3d grabPoint = Eigen::Vector3d::Zero(), grabNormal = Eigen::Vector3d::UnitZ();

    // The body under a widget position and the picked point on it; −1 if none.
    int pickBody(const QPointF& pos, Eigen::Vector3d* point)
    {
        const qreal dpr = gl->devicePixelRatio();
        picker->Pick(pos.x() * dpr, window->GetSize()[1] - 1 - pos.y() * dpr, 0.0, renderer);
        const int body = scene->bodyOf(picker->GetViewProp());
        if (body >= 0) {
            double p[3];
            picker->GetPickPosition(p);
            *point = Eigen::Vector3d(p[0], p[1], p[2]);
        }
        return body;
    }

    // The point under a widget position in the plane through grabPoint normal to grabNormal.
    Eigen::Vector3d onGrabPlane(const QPointF& pos)
    {
        const qreal dpr = gl->devicePixelRatio();
        const double x = pos.x() * dpr, y = window->GetSize()[1] - 1 - pos.y() * dpr;
        Eigen::Vector3d ends[2];
        for (int k = 0; k < 2; ++k) {
            renderer->SetDisplayPoint(x, y, k);
            renderer->DisplayToWorld();
            const double* w = renderer->GetWorldPoint();
            ends[k] = Eigen::Vector3d(w[0], w[1], w[2]) / (w[3] != 0.0 ? w[3] : 1.0);
        }
        const Eigen::Vector3d ray = ends[1] - ends[0];
        const double denom = grabNormal.dot(ray);
        if (std::abs(denom) < 1e-12 * ray.norm())
            return grabPoint;
        return ends[0] + ray * (grabNormal.dot(grabPoint - ends[0]) / denom);
    }

    void markDirty()
    {
        dirty = true;
        gl->update();
    }

    void onWindowEvent(vtkObject*, unsigned long event, void* callData)
    {
        switch (event) {
        case vtkCommand::WindowMakeCurrentEvent:
            // Not QOpenGLWindow::makeCurrent(): that also binds Qt's framebuffer, which
            // VTK does not know about when it asks for this from inside its own
            // framebuffer and texture code; the picture then comes out black.
            if (QOpenGLContext* ctx = gl->context())
                ctx->makeCurrent(gl);
            break;
        case vtkCommand::WindowIsCurrentEvent:
            *static_cast<bool*>(callData) =
                gl->context() && QOpenGLContext::currentContext() == gl->context();
            break;
        case vtkCommand::WindowFrameEvent:
            // A render requested outside paintGL() (e.g. by code holding the render
            // window) left a new picture in VTK's display buffer: show it.
            if (!inPaint)
                gl->update();
            break;
        default:
            break;
        }
    }

    void onInteractorEvent(vtkObject*, unsigned long event, void* callData)
    {
        switch (event) {
        case vtkCommand::RenderEvent:
            // The interactor has rendering disabled: a camera change only schedules a
            // repaint, so a burst of mouse moves costs one render per frame.
            markDirty();
            break;
        case vtkCommand::CreateTimerEvent:
            startTimer(interactor->GetTimerEventPlatformId(),
                       static_cast<int>(interactor->GetTimerEventDuration()));
            break;
        case vtkCommand::DestroyTimerEvent: {
            const int id = *static_cast<int*>(callData);
            auto it = timers.find(id);
            if (it != timers.end()) {
                delete it->second.data();
                timers.erase(it);
            }
            break;
        }
        default:
            break;
        }
    }

    // Each VTK timer becomes a single-shot Qt timer; the generic interactor re-creates
    // repeating timers itself after each firing (TimerEventResetsTimer).
    void startTimer(int platformId, int milliseconds)
    {
        QPointer<QTimer>& timer = timers[platformId];
        if (!timer) {
            timer = new QTimer(q);
            timer->setSingleShot(true);
            QObject::connect(timer, &QTimer::timeout, q, [this, platformId] {
                interactor->SetTimerEventPlatformId(platformId);
                interactor->TimerEvent();
            });
        }
        timer->start(milliseconds);
    }

    void releaseGL()
    {
        if (!glReady)
            return;
        gl->makeCurrent();
        window->Finalize();
        window->SetReadyForRendering(false);
        gl->doneCurrent();
        glReady = false;
    }

    /// Renders if something changed and copies VTK's picture into the surface's
    /// framebuffer; the surface's context must be current.
    void paint();

    int upIndex() const { return up == UpAxis::Z ? 2 : 1; }

    void fit()
    {
        double b[6] = {-0.5, 0.5, -0.5, 0.5, -0.5, 0.5};
        scene->bounds(b);
        grid.fit(b, upIndex());
        renderer->ResetCamera(b);
        fitPending = false;
        markDirty();
    }

    void applyView(StandardView view)
    {
        lastView = view;
        const ViewDirection dir = viewDirection(view, up);
        vtkCamera* camera = renderer->GetActiveCamera();
        camera->SetFocalPoint(0.0, 0.0, 0.0);
        camera->SetPosition(dir.towardsCamera.data());
        camera->SetViewUp(dir.up.data());
        fit();
    }

    // VTK's display coordinates are device pixels with the origin at the bottom left.
    void setEventPosition(const QMouseEvent* event, int repeat)
    {
        const QPointF p = event->position() * gl->devicePixelRatio();
        const Qt::KeyboardModifiers mods = event->modifiers();
        interactor->SetEventInformationFlipY(static_cast<int>(p.x()), static_cast<int>(p.y()),
                                             (mods & Qt::ControlModifier) ? 1 : 0,
                                             (mods & Qt::ShiftModifier) ? 1 : 0, 0, repeat);
        interactor->SetAltKey((mods & Qt::AltModifier) ? 1 : 0);
    }

    void forwardPress(const QMouseEvent* event, int repeat)
    {
        setEventPosition(event, repeat);
        switch (event->button()) {
        case Qt::LeftButton: interactor->LeftButtonPressEvent(); break;
        case Qt::MiddleButton: interactor->MiddleButtonPressEvent(); break;
        case Qt::RightButton: interactor->RightButtonPressEvent(); break;
        default: break;
        }
    }

    void pick(const QPoint& pos)
    {
        const qreal dpr = gl->devicePixelRatio();
        const double x = pos.x() * dpr;
        const double y = window->GetSize()[1] - 1 - pos.y() * dpr;
        picker->Pick(x, y, 0.0, renderer);
        vtkProp* prop = picker->GetViewProp();
        // Glyphs sit on bodies; the picker already returns the nearest prop, so a glyph
        // is only reported when it is in front.
        if (const int joint = scene->jointOf(prop); joint >= 0)
            emit q->jointPicked(joint);
        else if (const int body = scene->bodyOf(prop); body >= 0)
            emit q->bodyPicked(body);
        else
            emit q->emptySpacePicked();
    }
};

void VtkViewport::setPoseDragEnabled(bool on)
{
    d_->poseEnabled = on;
    if (!on && d_->posing) {
        d_->posing = false;
        emit poseDragFinished();
    }
}

bool VtkViewport::isPoseDragEnabled() const { return d_->poseEnabled; }

QPointF VtkViewport::worldToView(const Eigen::Vector3d& point) const
{
    d_->renderer->SetWorldPoint(point.x(), point.y(), point.z(), 1.0);
    d_->renderer->WorldToDisplay();
    const double* p = d_->renderer->GetDisplayPoint();
    const qreal dpr = d_->gl->devicePixelRatio();
    return QPointF(p[0] / dpr, (d_->window->GetSize()[1] - 1 - p[1]) / dpr);
}

VtkViewport::UpAxis VtkViewport::upAxisAgainst(const Eigen::Vector3d& gravity)
{
    if (gravity.norm() == 0.0)
        return UpAxis::Z;
    const Eigen::Vector3d g = gravity.cwiseAbs();
    return g.y() >= g.z() && g.y() >= g.x() ? UpAxis::Y : UpAxis::Z;
}

QSurfaceFormat VtkViewport::defaultFormat()
{
    QSurfaceFormat format;
    format.setRenderableType(QSurfaceFormat::OpenGL);
    format.setVersion(3, 2);
    format.setProfile(QSurfaceFormat::CoreProfile);
    format.setSwapBehavior(QSurfaceFormat::DoubleBuffer);
    format.setRedBufferSize(8);
    format.setGreenBufferSize(8);
    format.setBlueBufferSize(8);
    format.setAlphaBufferSize(8);
    format.setDepthBufferSize(24);
    format.setStencilBufferSize(0);
    // VTK renders into its own framebuffers; samples here would only slow Qt's blit.
    format.setSamples(0);
    return format;
}

VtkViewport::VtkViewport(QWidget* parent) : QWidget(parent), d_(std::make_unique<Private>(this))
{
    d_->gl = new Surface(d_.get());
    QWidget* container = QWidget::createWindowContainer(d_->gl, this);
    container->setObjectName("viewportSurface");
    container->setFocusPolicy(Qt::StrongFocus);
    setFocusProxy(container);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(container);

    vtkGenericOpenGLRenderWindow* window = d_->window;
    // The context belongs to Qt: VTK must neither create nor destroy it, nor swap or
    // blit on its own; paintGL() copies VTK's picture into the widget's framebuffer.
    window->SetOwnContext(false);
    window->SetFrameBlitModeToNoBlit();
    // VTK's default 8× multisampling is several times slower under software OpenGL.
    window->SetMultiSamples(0);
    window->SetReadyForRendering(false);
    window->AddRenderer(d_->renderer);
    for (unsigned long event : {vtkCommand::WindowMakeCurrentEvent, vtkCommand::WindowIsCurrentEvent,
                                vtkCommand::WindowFrameEvent}) {
        d_->windowObservers.push_back(window->AddObserver(event, d_.get(), &Private::onWindowEvent));
    }

    vtkRenderer* renderer = d_->renderer;
    d_->applyBackground();
    // A light kit shades the faces of a box differently from any angle; a single
    // headlight would light the faces facing the camera all alike.
    renderer->AutomaticLightCreationOff();
    vtkNew<vtkLightKit> lights;
    lights->AddLightsToRenderer(renderer);
    d_->scene = std::make_unique<SceneActors>(renderer);
    renderer->AddActor(d_->grid.actor());

    vtkGenericRenderWindowInteractor* interactor = d_->interactor;
    interactor->SetRenderWindow(window);
    interactor->SetInteractorStyle(d_->style);
    interactor->EnableRenderOff();
    for (unsigned long event : {vtkCommand::RenderEvent, vtkCommand::CreateTimerEvent,
                                vtkCommand::DestroyTimerEvent}) {
        d_->interactorObservers.push_back(
            interactor->AddObserver(event, d_.get(), &Private::onInteractorEvent));
    }
    interactor->Initialize();

    // Only the solids and glyphs are pickable; a small tolerance still lets a click on
    // a thin edge count.
    d_->picker->SetTolerance(0.0005);

    d_->axesWidget->SetOrientationMarker(d_->axes);
    d_->axesWidget->SetInteractor(interactor);
    d_->axesWidget->SetCurrentRenderer(renderer);
    d_->axesWidget->SetViewport(0.0, 0.0, 0.16, 0.22);
    d_->axesWidget->SetEnabled(1);
    d_->axesWidget->InteractiveOff();

    double empty[6] = {-0.5, 0.5, -0.5, 0.5, -0.5, 0.5};
    d_->grid.fit(empty, d_->upIndex());
    d_->applyView(StandardView::Isometric);
}

VtkViewport::~VtkViewport()
{
    // The context outlives this destructor (the surface, a child, frees it later) and
    // would call back into a half-destroyed object.
    QObject::disconnect(d_->contextConnection);
    d_->releaseGL();
    // From here on VTK must not call back: the widget is going away and there is no
    // context left to make current.
    for (unsigned long id : d_->interactorObservers)
        d_->interactor->RemoveObserver(id);
    for (unsigned long id : d_->windowObservers)
        d_->window->RemoveObserver(id);
    d_->axesWidget->SetEnabled(0);
    d_->scene.reset();
}

bool VtkViewport::setScene(const looplab::Scene& scene)
{
    const bool rebuilt = d_->scene->setScene(scene);
    // Deferred to the next paint, so that the framing sees the placement of this scene
    // rather than the identity poses of freshly built solids.
    if (rebuilt && d_->autoFit)
        d_->fitPending = true;
    d_->markDirty();
    return rebuilt;
}

void VtkViewport::setAutoFit(bool on)
{
    d_->autoFit = on;
    if (!on)
        d_->fitPending = false;
}

bool VtkViewport::autoFit() const { return d_->autoFit; }

void VtkViewport::setCamera(const Eigen::Vector3d& position, const Eigen::Vector3d& focalPoint,
                            const Eigen::Vector3d& viewUp, bool parallel, double parallelScale)
{
    vtkCamera* camera = d_->renderer->GetActiveCamera();
    camera->SetPosition(position.data());
    camera->SetFocalPoint(focalPoint.data());
    camera->SetViewUp(viewUp.data());
    camera->SetParallelProjection(parallel ? 1 : 0);
    if (parallelScale > 0.0)
        camera->SetParallelScale(parallelScale);
    camera->OrthogonalizeViewUp();
    d_->fitPending = false;
    d_->markDirty();
}

Eigen::Isometry3d VtkViewport::bodyPose(int index) const { return d_->scene->bodyPose(index); }

int VtkViewport::ghostCount() const { return d_->scene->ghostCount() + d_->scene->flexible().ghostCount(); }

void VtkViewport::setFlexibleField(FlexibleField field)
{
    d_->scene->setFlexibleField(field);
    d_->markDirty();
}

FlexibleField VtkViewport::flexibleField() const { return d_->scene->flexible().field(); }

bool VtkViewport::fieldLegendVisible() const { return d_->scene->flexible().legendVisible(); }

void VtkViewport::fieldRange(double range[2]) const { d_->scene->flexible().fieldRange(range); }

std::string VtkViewport::fieldLegendTitle() const { return d_->scene->flexible().legendTitle(); }

bool VtkViewport::fieldUniform() const { return d_->scene->flexible().fieldUniform(); }

bool VtkViewport::flexibleBounds(double out[6]) const
{
    bool any = false;
    d_->scene->flexible().mergeBounds(out, any);
    return any;
}

Eigen::Isometry3d VtkViewport::ghostPose(int index) const { return d_->scene->ghostPose(index); }

void VtkViewport::setHighlightedBody(int index)
{
    d_->scene->setHighlightedBody(index);
    d_->markDirty();
}

void VtkViewport::setHighlightedJoints(std::vector<int> indices)
{
    d_->scene->setHighlightedJoints(std::move(indices));
    d_->markDirty();
}

void VtkViewport::setTrail(int body, const Eigen::Vector3d& localPoint, bool on)
{
    d_->scene->setTrail(body, localPoint, on);
    d_->markDirty();
}

bool VtkViewport::setNodeTrail(int body, int node, bool on)
{
    const bool done = d_->scene->setNodeTrail(body, node, on);
    d_->markDirty();
    return done;
}

std::vector<std::vector<Eigen::Vector3d>> VtkViewport::trailPoints() const { return d_->scene->trailPoints(); }

void VtkViewport::clearTrails()
{
    d_->scene->clearTrails();
    d_->markDirty();
}

void VtkViewport::setTrailLength(int points)
{
    d_->scene->setTrailLength(points);
    d_->markDirty();
}

void VtkViewport::setJointGlyphSize(double size)
{
    d_->scene->setJointGlyphSize(size);
    d_->markDirty();
}

void VtkViewport::fitToView()
{
    d_->fit();
}

void VtkViewport::setStandardView(StandardView view)
{
    d_->applyView(view);
}

void VtkViewport::setUpAxis(UpAxis axis)
{
    d_->up = axis;
    d_->applyView(d_->lastView);
}

VtkViewport::UpAxis VtkViewport::upAxis() const
{
    return d_->up;
}

void VtkViewport::setProjectorStyle(bool on, double lineScale)
{
    d_->projectorStyle = on;
    d_->applyBackground();
    if (d_->scene)
        d_->scene->setLineScale(on ? static_cast<float>(lineScale) : 1.0f);
    d_->markDirty();
}

bool VtkViewport::projectorStyle() const
{
    return d_->projectorStyle;
}

void VtkViewport::setGridVisible(bool visible)
{
    d_->gridVisible = visible;
    d_->grid.actor()->SetVisibility(visible);
    d_->markDirty();
}

bool VtkViewport::isGridVisible() const
{
    return d_->gridVisible;
}

void VtkViewport::setAxesVisible(bool visible)
{
    d_->axesWidget->SetEnabled(visible ? 1 : 0);
    if (visible)
        d_->axesWidget->InteractiveOff();
    d_->markDirty();
}

bool VtkViewport::isAxesVisible() const
{
    return d_->axesWidget->GetEnabled() != 0;
}

void VtkViewport::setAntiAliasing(bool on)
{
    d_->renderer->SetUseFXAA(on);
    d_->markDirty();
}

bool VtkViewport::antiAliasing() const
{
    return d_->renderer->GetUseFXAA();
}

QImage VtkViewport::grabFramebuffer()
{
    if (!d_->glReady || !d_->gl->isValid())
        return {};
    // Paint now, so that a change not yet on screen is in the picture: the back buffer,
    // which grabFramebuffer() reads, then holds exactly that picture.
    d_->gl->makeCurrent();
    d_->paint();
    return d_->gl->grabFramebuffer();
}

QWindow* VtkViewport::renderSurface() const
{
    return d_->gl;
}

bool VtkViewport::saveScreenshot(const QString& path, QString* error)
{
    const QImage image = grabFramebuffer();
    if (image.isNull()) {
        if (error)
            *error = tr("The 3D view has no picture yet.");
        return false;
    }
    // Through a temporary file renamed into place: a failed save keeps the old picture.
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        if (error)
            *error = tr("Cannot write %1: %2").arg(path, file.errorString());
        return false;
    }
    // Drop the alpha channel: the picture is opaque, and viewers would show any stray
    // transparency as a checkerboard.
    if (!image.convertToFormat(QImage::Format_RGB32).save(&file, "PNG")) {
        file.cancelWriting();
        if (error)
            *error = tr("Cannot write %1: the PNG encoder failed.").arg(path);
        return false;
    }
    if (!file.commit()) {
        if (error)
            *error = tr("Cannot write %1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

void VtkViewport::requestRender()
{
    d_->markDirty();
}

vtkRenderer* VtkViewport::renderer() const
{
    return d_->renderer;
}

vtkGenericOpenGLRenderWindow* VtkViewport::renderWindow() const
{
    return d_->window;
}

QSize VtkViewport::sizeHint() const
{
    return {800, 600};
}

QSize VtkViewport::minimumSizeHint() const
{
    return {160, 120};
}

void VtkViewport::Surface::initializeGL()
{
    // Re-creating the native window (re-parenting) gives the surface a new context: VTK
    // must drop the resources of the old one (while it still exists) and start over.
    QObject::disconnect(d_->contextConnection);
    d_->contextConnection = connect(context(), &QOpenGLContext::aboutToBeDestroyed, this,
                                    [d = d_] { d->releaseGL(); }, Qt::DirectConnection);
    d_->window->SetReadyForRendering(true);
    d_->window->OpenGLInitContext();
    d_->glReady = true;
    d_->dirty = true;
}

void VtkViewport::Surface::resizeGL(int, int)
{
    // Qt passes logical pixels; VTK works in device pixels (the framebuffer's size).
    const qreal dpr = devicePixelRatio();
    const QSize device = size() * dpr;
    d_->interactor->UpdateSize(device.width(), device.height());
    // Text (the triad's labels) is sized in points; keep it legible on HiDPI screens.
    d_->window->SetDPI(qRound(72 * dpr));
    d_->dirty = true;
}

void VtkViewport::Surface::paintGL() { d_->paint(); }

void VtkViewport::Private::paint()
{
    if (!glReady)
        return;
    inPaint = true;
    vtkOpenGLState* state = window->GetState();
    // Qt changed GL state behind VTK's cache: re-read it, and save it for Qt.
    state->Reset();
    state->Push();
    // Qt leaves depth testing off; VTK assumes its usual defaults.
    state->vtkglDepthFunc(GL_LEQUAL);
    state->vtkglEnable(GL_DEPTH_TEST);

    bool rendered = false;
    if (dirty) {
        if (fitPending)
            fit();
        // Moving bodies can leave the near/far planes computed for the old poses.
        renderer->ResetCameraClippingRange();
        window->Render();
        dirty = false;
        rendered = true;
    }

    // The surface draws straight into the window's back buffer (framebuffer 0).
    const int* size = window->GetSize();
    const GLuint target = gl->defaultFramebufferObject();
    state->vtkglBindFramebuffer(GL_DRAW_FRAMEBUFFER, target);
    state->vtkglDrawBuffer(target == 0 ? GL_BACK : GL_COLOR_ATTACHMENT0);
    state->vtkglDisable(GL_SCISSOR_TEST);
    window->BlitDisplayFramebuffer(0, 0, 0, size[0], size[1], 0, 0, size[0], size[1],
                                   GL_COLOR_BUFFER_BIT, GL_NEAREST);

    // VTK leaves background alpha at 0; Qt would compose that as transparent (black).
    state->vtkglViewport(0, 0, size[0], size[1]);
    state->vtkglColorMask(GL_FALSE, GL_FALSE, GL_FALSE, GL_TRUE);
    state->vtkglClearColor(0.0f, 0.0f, 0.0f, 1.0f);
    state->vtkglClear(GL_COLOR_BUFFER_BIT);

    state->Pop();
    inPaint = false;
    if (rendered)
        emit q->frameRendered();
}

void VtkViewport::Surface::mousePressEvent(QMouseEvent* event)
{
    if (d_->poseEnabled && event->button() == Qt::LeftButton && !(event->modifiers() & Qt::AltModifier)) {
        Eigen::Vector3d point;
        const int body = d_->pickBody(event->position(), &point);
        if (body >= 0) {
            d_->posing = true;
            d_->pressPos = event->position().toPoint();
            d_->dragged = false;
            d_->grabPoint = point;
            double n[3];
            d_->renderer->GetActiveCamera()->GetDirectionOfProjection(n);
            d_->grabNormal = Eigen::Vector3d(n[0], n[1], n[2]).normalized();
            emit d_->q->poseDragStarted(body, point);
            event->accept();
            return;
        }
    }
    d_->pressPos = event->position().toPoint();
    d_->pressButton = event->button();
    d_->dragged = false;
    d_->forwardPress(event, 0);
    event->accept();
}

void VtkViewport::Surface::mouseDoubleClickEvent(QMouseEvent* event)
{
    // Qt replaces the second press by this event; VTK expects a press with repeat 1.
    d_->pressPos = event->position().toPoint();
    d_->pressButton = event->button();
    d_->dragged = false;
    d_->forwardPress(event, 1);
    event->accept();
}

void VtkViewport::Surface::mouseMoveEvent(QMouseEvent* event)
{
    if (d_->posing) {
        if ((event->position().toPoint() - d_->pressPos).manhattanLength() > kClickSlop)
            d_->dragged = true;
        if (d_->dragged)
            emit d_->q->poseDragMoved(d_->onGrabPlane(event->position()));
        event->accept();
        return;
    }
    if ((event->position().toPoint() - d_->pressPos).manhattanLength() > kClickSlop)
        d_->dragged = true;
    d_->setEventPosition(event, 0);
    d_->interactor->MouseMoveEvent();
    event->accept();
}

void VtkViewport::Surface::mouseReleaseEvent(QMouseEvent* event)
{
    if (d_->posing) {
        if (event->button() == Qt::LeftButton) {
            d_->posing = false;
            emit d_->q->poseDragFinished();
            // A click on a body without dragging still selects it.
            if (!d_->dragged)
                d_->pick(event->position().toPoint());
        }
        event->accept();
        return;
    }
    d_->setEventPosition(event, 0);
    switch (event->button()) {
    case Qt::LeftButton: d_->interactor->LeftButtonReleaseEvent(); break;
    case Qt::MiddleButton: d_->interactor->MiddleButtonReleaseEvent(); break;
    case Qt::RightButton: d_->interactor->RightButtonReleaseEvent(); break;
    default: break;
    }
    if (event->button() == Qt::LeftButton && d_->pressButton == Qt::LeftButton && !d_->dragged)
        d_->pick(event->position().toPoint());
    d_->pressButton = Qt::NoButton;
    event->accept();
}

// The OpenGL window is a native window of its own, so files dragged onto the 3D view come to
// it and would be refused here: the window the view is in decides, as for a drop anywhere
// else on it.
bool VtkViewport::Surface::event(QEvent* event)
{
    switch (event->type()) {
    case QEvent::DragEnter:
    case QEvent::DragMove:
    case QEvent::DragLeave:
    case QEvent::Drop:
        if (QWidget* top = d_->q->window()) {
            QCoreApplication::sendEvent(top, event);
            return true;
        }
        break;
    default: break;
    }
    return QOpenGLWindow::event(event);
}

void VtkViewport::Surface::wheelEvent(QWheelEvent* event)
{
    // Touchpads send many small deltas; VTK zooms a fixed step per event, so deltas are
    // summed into whole notches.
    d_->wheelRemainder += event->angleDelta().y();
    const QPointF p = event->position() * devicePixelRatio();
    const Qt::KeyboardModifiers mods = event->modifiers();
    d_->interactor->SetEventInformationFlipY(static_cast<int>(p.x()), static_cast<int>(p.y()),
                                             (mods & Qt::ControlModifier) ? 1 : 0,
                                             (mods & Qt::ShiftModifier) ? 1 : 0);
    while (d_->wheelRemainder >= kWheelNotch) {
        d_->interactor->MouseWheelForwardEvent();
        d_->wheelRemainder -= kWheelNotch;
    }
    while (d_->wheelRemainder <= -kWheelNotch) {
        d_->interactor->MouseWheelBackwardEvent();
        d_->wheelRemainder += kWheelNotch;
    }
    event->accept();
}

}  // namespace looplab::ui
