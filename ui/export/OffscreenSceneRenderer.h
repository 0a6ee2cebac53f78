#pragma once
// Renders mechanism scenes (looplab::Scene) into pictures of a chosen size, off the
// screen, with the workbench's actors (SceneActors, GroundGrid, TracePolyline) and look
// (gradient background, light kit). Plain VTK, no Qt: the command-line tool's `animate`
// and the workbench's export use it alike.
//
// Debian's VTK 9.1 creates its OpenGL contexts through GLX (no EGL or OSMesa build), so
// off-screen rendering still needs an X server: a real display or Xvfb (xvfb-run).

#include "looplab/scene/Scene.h"

#include <Eigen/Core>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

class vtkCamera;
class vtkRenderer;

namespace looplab::ui {

class SceneActors;

class OffscreenSceneRenderer {
public:
    /// Why no picture can be rendered here (no X display to open), or an empty string.
    /// Call it before constructing a renderer: it opens the process's connection to the
    /// X server, which stays open for every renderer after.
    static std::string displayProblem();

    OffscreenSceneRenderer(int width, int height);
    ~OffscreenSceneRenderer();
    OffscreenSceneRenderer(const OffscreenSceneRenderer&) = delete;
    OffscreenSceneRenderer& operator=(const OffscreenSceneRenderer&) = delete;

    int width() const;
    int height() const;
    vtkRenderer* renderer();
    SceneActors& actors();

    /// Places the camera to show `bounds` (xmin, xmax, ymin, ymax, zmin, zmax; world [m])
    /// looking along the bounds' thinnest axis (a planar mechanism is seen square on),
    /// with `up` the world axis (0, 1, 2) nearest to up on the picture, and fits the grid.
    void fitCamera(const double bounds[6], int up);
    /// Uses a copy of `camera` (the workbench's view) instead, with the grid under the
    /// mechanism normal to world axis `up` as the view has it.
    void copyCamera(vtkCamera* camera, int up);
    /// Shows or hides the ground grid (shown by default).
    void setGridVisible(bool visible);
    /// Where the grid lies (xmin, xmax, ymin, ymax, zmin, zmax); false before it is fitted.
    bool gridBounds(double bounds[6]) const;
    /// A line of text in the picture's top left corner, dark on a pale box (the time of
    /// the frame, the mode shown); none if empty.
    void setCaption(const std::string& text);

    /// Draws `scene` and, for each trace, its points up to `traceCounts[i]` (all if the
    /// list is shorter).
    void setScene(const Scene& scene);
    /// Traces drawn over the mechanism: replaces the previous ones.
    void setTraces(const std::vector<std::vector<Eigen::Vector3d>>& traces);
    void setTraceCounts(const std::vector<int>& counts);

    /// Renders and returns the picture: height() rows of width() RGB triplets, top row
    /// first (stride 3 · width()).
    const std::vector<std::uint8_t>& render();

private:
    struct Private;
    std::unique_ptr<Private> d_;
};

}  // namespace looplab::ui
