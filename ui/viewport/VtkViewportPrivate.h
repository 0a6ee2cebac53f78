#pragma once
// The parts of VtkViewport that its two files share: the OpenGL window VTK draws into
// (its events in ViewportSurface.cpp) and the view's state (VtkViewport.cpp). No GLEW
// and no QOpenGLFunctions, for the reasons at the top of VtkViewport.cpp.

#include "viewport/VtkViewport.h"
#include "viewport/GroundGrid.h"
#include "viewport/SceneActors.h"

#include <vtkAxesActor.h>
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
#include <QMouseEvent>
#include <QOpenGLContext>
#include <QOpenGLWindow>
#include <QPointer>
#include <QTimer>
#include <QWheelEvent>

#include <map>
#include <utility>

namespace looplab::ui {

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

    void applyView(StandardView view);

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

}  // namespace looplab::ui
