// The events of the OpenGL window VTK draws into (VtkViewportPrivate.h): paints, and the
// mouse turned into VTK's interactor events, clicks, picks and the pose drag.
#include "viewport/VtkViewportPrivate.h"

#include <QMouseEvent>
#include <QOpenGLContext>
#include <QWheelEvent>

namespace looplab::ui {
namespace {

// A press and release closer than this (logical pixels) count as a click, not a drag.
constexpr int kClickSlop = 4;
// One notch of a classic mouse wheel, in QWheelEvent::angleDelta() units.
constexpr int kWheelNotch = 120;

}  // namespace

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
