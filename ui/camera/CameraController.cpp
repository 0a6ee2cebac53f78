#include "camera/CameraController.h"

#include "recording/FrameSource.h"

#include <QWindow>

#include <vtkCamera.h>
#include <vtkRenderer.h>

#include "looplab/model/TriangleMesh.h"

#include <algorithm>
#include <cmath>

namespace looplab::ui {

namespace {

// Radius of a sphere about the shape's centre that holds the whole shape [m].
double boundingRadius(const VisualShape& shape)
{
    switch (shape.kind) {
    case VisualShape::Kind::Box: return 0.5 * shape.size.norm();
    case VisualShape::Kind::Cylinder: return std::hypot(shape.radius, 0.5 * shape.length);
    case VisualShape::Kind::Sphere: return shape.radius;
    case VisualShape::Kind::Mesh: {
        Vec3 lower, upper;
        if (!meshBounds(shape.file, shape.scale, lower, upper)) return 0.0;
        return lower.cwiseAbs().cwiseMax(upper.cwiseAbs()).norm();
    }
    case VisualShape::Kind::None: return 0.0;
    }
    return 0.0;
}

void include(std::array<double, 6>& b, const Vec3& centre, double radius, bool& first)
{
    for (int i = 0; i < 3; ++i) {
        const double lo = centre[i] - radius, hi = centre[i] + radius;
        b[2 * i] = first ? lo : std::min(b[2 * i], lo);
        b[2 * i + 1] = first ? hi : std::max(b[2 * i + 1], hi);
    }
    first = false;
}

}  // namespace

CameraController::CameraController(VtkViewport* viewport, QObject* parent) : QObject(parent), viewport_(viewport) {}

void CameraController::fitToMechanism()
{
    viewport_->fitToView();
}

bool CameraController::runBounds(const FrameSource& source, std::array<double, 6>& bounds,
                                 const std::function<Scene(const Scene&)>& drawn)
{
    const int n = source.frameCount();
    if (n == 0 || !source.frameModel())
        return false;
    const int stride = std::max(1, n / 500);
    bool first = true;
    for (int i = 0;; i += stride) {
        const int frame = std::min(i, n - 1);
        const Scene scene = drawn ? drawn(source.frameScene(frame)) : source.frameScene(frame);
        for (const SceneBody& b : scene.bodies)
            include(bounds, b.position + b.orientation * b.shape.offset, boundingRadius(b.shape), first);
        for (const SceneJoint& j : scene.joints)
            include(bounds, j.point, 0.0, first);
        // Beams and solid meshes by their points (a beam's section is small beside its bending).
        for (const SceneBeam& beam : scene.beams)
            for (const Vec3& p : beam.points)
                include(bounds, p, 0.0, first);
        for (const SceneSurface& surface : scene.surfaces)
            for (const Vec3& p : surface.points)
                include(bounds, p, 0.0, first);
        // A spring's anchor on the ground is as much of the picture as its body.
        for (const SceneSpring& s : scene.springs) {
            include(bounds, s.end1, 0.0, first);
            include(bounds, s.end2, 0.0, first);
        }
        if (frame == n - 1)
            break;
    }
    return !first;
}

bool CameraController::fitToRun(const FrameSource& source)
{
    std::array<double, 6> b{};
    if (!runBounds(source, b, drawn_))
        return false;
    // A planar mechanism's box has no depth: give it a little so the camera's clipping
    // range is not degenerate.
    double size = 0.0;
    for (int i = 0; i < 3; ++i)
        size = std::max(size, b[2 * i + 1] - b[2 * i]);
    for (int i = 0; i < 3; ++i)
        if (b[2 * i + 1] - b[2 * i] < 1e-3 * size) {
            b[2 * i] -= 5e-4 * size;
            b[2 * i + 1] += 5e-4 * size;
        }
    viewport_->renderer()->ResetCamera(b.data());
    viewport_->requestRender();
    return true;
}

bool CameraController::showsWholeRun(const FrameSource& source) const
{
    std::array<double, 6> b{};
    if (!runBounds(source, b, drawn_))
        return true;
    const QSize size = viewport_->renderSurface()->size();
    for (int corner = 0; corner < 8; ++corner) {
        const Vec3 p(b[corner & 1 ? 1 : 0], b[corner & 2 ? 3 : 2], b[corner & 4 ? 5 : 4]);
        const QPointF at = viewport_->worldToView(p);
        if (at.x() < 0 || at.y() < 0 || at.x() > size.width() || at.y() > size.height())
            return false;
    }
    return true;
}

void CameraController::setOrthographic(bool on)
{
    vtkCamera* camera = viewport_->renderer()->GetActiveCamera();
    if (on == isOrthographic())
        return;
    camera->SetParallelProjection(on);
    // The parallel scale that shows what the perspective view showed at the focal point.
    if (on)
        camera->SetParallelScale(camera->GetDistance() * std::tan(0.5 * camera->GetViewAngle() * M_PI / 180.0));
    viewport_->requestRender();
}

bool CameraController::isOrthographic() const
{
    return viewport_->renderer()->GetActiveCamera()->GetParallelProjection() != 0;
}

void CameraController::orthographicView(VtkViewport::StandardView view)
{
    // Parallel first: the view's fit then sets the parallel scale to the scene.
    viewport_->renderer()->GetActiveCamera()->ParallelProjectionOn();
    viewport_->setStandardView(view);
    viewport_->requestRender();
}

void CameraController::followBody(int index)
{
    followed_ = index;
    haveLast_ = false;
}

void CameraController::sceneShown(const Scene& scene)
{
    if (followed_ < 0 || followed_ >= static_cast<int>(scene.bodies.size())) {
        haveLast_ = false;
        return;
    }
    const Vec3 p = scene.bodies[static_cast<size_t>(followed_)].position;
    if (haveLast_) {
        const Vec3 d = p - last_;
        vtkCamera* camera = viewport_->renderer()->GetActiveCamera();
        double f[3], c[3];
        camera->GetFocalPoint(f);
        camera->GetPosition(c);
        camera->SetFocalPoint(f[0] + d.x(), f[1] + d.y(), f[2] + d.z());
        camera->SetPosition(c[0] + d.x(), c[1] + d.y(), c[2] + d.z());
        viewport_->renderer()->ResetCameraClippingRange();
        viewport_->requestRender();
    } else {
        // Start by looking at the body.
        vtkCamera* camera = viewport_->renderer()->GetActiveCamera();
        double f[3], c[3];
        camera->GetFocalPoint(f);
        camera->GetPosition(c);
        const Vec3 d = p - Vec3(f[0], f[1], f[2]);
        camera->SetFocalPoint(p.x(), p.y(), p.z());
        camera->SetPosition(c[0] + d.x(), c[1] + d.y(), c[2] + d.z());
        viewport_->renderer()->ResetCameraClippingRange();
        viewport_->requestRender();
    }
    last_ = p;
    haveLast_ = true;
}

}  // namespace looplab::ui
