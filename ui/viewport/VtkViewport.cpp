// No GLEW here: the few GL enums this file needs come with Qt's <qopengl.h>, and all GL
// calls go through VTK's vtkOpenGLState, which keeps VTK's state cache true. Including
// vtk_glew.h would have to come before every Qt OpenGL header, and <QOpenGLContext>
// (needed for make-current) then warns that it undefines GLEW's macros. Nor does this
// file use <QOpenGLFunctions>: GL calls made behind VTK's back would leave its state
// cache stale.
#include "viewport/VtkViewport.h"
#include "viewport/VtkViewportPrivate.h"
#include "export/PngFile.h"

#include <QImage>
#include <QVBoxLayout>

#include <cmath>

namespace looplab::ui {
namespace {

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

void VtkViewport::Private::applyView(StandardView view)
{
    lastView = view;
    const ViewDirection dir = viewDirection(view, up);
    vtkCamera* camera = renderer->GetActiveCamera();
    camera->SetFocalPoint(0.0, 0.0, 0.0);
    camera->SetPosition(dir.towardsCamera.data());
    camera->SetViewUp(dir.up.data());
    fit();
}

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
    // Drop the alpha channel: the picture is opaque, and viewers would show any stray
    // transparency as a checkerboard.
    return writePngFile(image.convertToFormat(QImage::Format_RGB32), path, error);
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

}  // namespace looplab::ui
