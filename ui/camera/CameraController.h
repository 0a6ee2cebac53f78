#pragma once
// Camera commands beyond the view's own navigation: fit to the mechanism, fit to the
// space a whole recorded run sweeps (so playback never leaves the picture), follow a
// body (the camera moves with it, keeping its direction and distance), and orthographic
// (parallel-projection) front, top and side views for planar mechanisms and sketching.

#include "viewport/VtkViewport.h"

#include "looplab/scene/Scene.h"

#include <QObject>

#include <array>
#include <functional>

namespace looplab::ui {

class FrameSource;

class CameraController : public QObject {
    Q_OBJECT

public:
    explicit CameraController(VtkViewport* viewport, QObject* parent = nullptr);

    /// Frames the mechanism as drawn now.
    void fitToMechanism();
    /// Frames every place the mechanism takes in `source` (at most ~500 frames sampled
    /// evenly, the first and last always), keeping the view direction. False if the
    /// source has no frames.
    bool fitToRun(const FrameSource& source);
    /// Whether every corner of runBounds(source) is inside the picture now; true for a
    /// source without frames.
    bool showsWholeRun(const FrameSource& source) const;
    /// Axis-aligned box [xmin, xmax, ymin, ymax, zmin, zmax] (global, m) holding every
    /// body's solid (by its bounding sphere), joint point, beam and mesh point and spring
    /// end over the frames of `source`.
    /// `drawn` turns a frame's scene into the one the view draws (the flexible members'
    /// deformation exaggerated); none: as the source gives it.
    static bool runBounds(const FrameSource& source, std::array<double, 6>& bounds,
                          const std::function<Scene(const Scene&)>& drawn = {});
    /// How the view draws a source's scenes, for fitToRun() and showsWholeRun().
    void setSceneAsDrawn(std::function<Scene(const Scene&)> drawn) { drawn_ = std::move(drawn); }

    /// Parallel projection on or off, keeping the view.
    void setOrthographic(bool on);
    bool isOrthographic() const;
    /// A standard view in parallel projection.
    void orthographicView(VtkViewport::StandardView view);

    /// Follows scene body `index` (Scene::bodies) from the next sceneShown(); −1 stops.
    void followBody(int index);
    int followedBody() const { return followed_; }
    /// Moves the camera with the followed body; call with every scene drawn.
    void sceneShown(const Scene& scene);

private:
    VtkViewport* viewport_;
    int followed_ = -1;
    bool haveLast_ = false;
    Vec3 last_ = Vec3::Zero();
    std::function<Scene(const Scene&)> drawn_;
};

}  // namespace looplab::ui
