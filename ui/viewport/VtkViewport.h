#pragma once
// The workbench's 3D view: VTK renders into a Qt 6 QOpenGLWindow, embedded in the widget
// tree by a window container, through a vtkGenericOpenGLRenderWindow that borrows the
// window's OpenGL context. VTK's own Qt module is built for Qt 5 on Debian, hence this
// adapter.
//
// This header deliberately includes no VTK and no OpenGL headers, so users need only Qt
// and Eigen. It draws the core's looplab::Scene and needs only its header, not the core
// library.

#include "looplab/scene/Scene.h"
#include "viewport/FlexibleField.h"

#include <Eigen/Geometry>
#include <QImage>
#include <QSurfaceFormat>
#include <QWidget>

#include <memory>
#include <string>
#include <vector>

class QString;
class QWindow;
class vtkGenericOpenGLRenderWindow;
class vtkRenderer;

namespace looplab::ui {

/// Interactive 3D view of a mechanism.
///
/// Mouse: left drag rotates (trackball), middle drag or shift + left drag pans, right
/// drag or the wheel zooms, ctrl + left drag spins about the view axis. A left click
/// without dragging picks: it emits bodyPicked(), jointPicked() or emptySpacePicked().
/// With posing on (setPoseDragEnabled), a left drag that starts on a body drags that body
/// instead (poseDrag* signals); alt + left drag, or a left drag from empty space, still
/// rotates the camera.
///
/// VTK renders only after something changed (scene, pose, camera, size); other repaints
/// reuse the last picture. All calls must come from the GUI thread.
class VtkViewport : public QWidget {
    Q_OBJECT

public:
    enum class StandardView {
        Front,     ///< looking along +y (z up) or −z (y up)
        Top,       ///< looking down the up axis
        Side,      ///< looking along −x, from the right
        Isometric  ///< from the front-right-top octant
    };
    /// World axis that points up on screen in the standard views; the grid lies
    /// perpendicular to it.
    enum class UpAxis { Y, Z };
    /// The up axis that points against `gravity` (any units): Y if gravity is mostly
    /// along y, else Z (also for no gravity).
    static UpAxis upAxisAgainst(const Eigen::Vector3d& gravity);

    /// The OpenGL format VTK needs: 3.2 core profile, 24-bit depth, 8-bit alpha, no
    /// multisampling. Pass it to QSurfaceFormat::setDefaultFormat() before the
    /// QApplication is created; each viewport also requests it for its own context.
    static QSurfaceFormat defaultFormat();

    explicit VtkViewport(QWidget* parent = nullptr);
    ~VtkViewport() override;

    // --- Scene ---------------------------------------------------------------------
    /// Draws `scene`. Body i (for picking, highlight and trails) is scene.bodies[i] and
    /// joint j is scene.joints[j]. If the scene's solids differ from the ones drawn (their
    /// number or a shape), they are rebuilt: trails and a highlight that no longer exists
    /// are dropped, the next frame refits grid and camera, and this returns true.
    /// Otherwise bodies, joint glyphs and springs only move, which is cheap: call it once
    /// per animation frame. An active trail gains a point at every call.
    bool setScene(const looplab::Scene& scene);
    /// Draws body `index` brighter with an outline; -1 clears the highlight.
    void setHighlightedBody(int index);
    /// Draws the listed joints in the highlight colour; an empty list clears it.
    void setHighlightedJoints(std::vector<int> indices);
    /// Starts or removes a trail of the world positions of `localPoint` on `body`
    /// (body frame); it gains a point at each setScene().
    void setTrail(int body, const Eigen::Vector3d& localPoint, bool on);
    /// Starts or removes a trail of a beam's or solid's node (SceneActors::setNodeTrail);
    /// false if the scene drawn last does not draw it.
    bool setNodeTrail(int body, int node, bool on);
    /// The points of every trail, oldest first, in the order they were started.
    std::vector<std::vector<Eigen::Vector3d>> trailPoints() const;
    /// Removes every trail.
    void clearTrails();
    /// Number of recent positions a trail keeps (default 500).
    void setTrailLength(int points);
    /// Diameter of joint glyphs [m]; 0 (default) sizes them from the bodies.
    void setJointGlyphSize(double size);
    /// Pose of body `index` as drawn (body frame to world); identity for invalid indices.
    Eigen::Isometry3d bodyPose(int index) const;
    /// Number of translucent reference copies drawn (Scene::ghosts with a solid, and the
    /// flexible ghosts), and the pose of one of the rigid ones.
    int ghostCount() const;
    Eigen::Isometry3d ghostPose(int index) const;

    /// Colours the flexible members by a field and shows its legend (FlexibleActors.h).
    void setFlexibleField(FlexibleField field);
    FlexibleField flexibleField() const;
    /// Whether the field's legend is shown, and its range (min, max).
    bool fieldLegendVisible() const;
    void fieldRange(double range[2]) const;
    /// The legend's title, and whether the field is drawn in one colour (FlexibleActors.h).
    std::string fieldLegendTitle() const;
    bool fieldUniform() const;
    /// World bounds of the flexible members as drawn; false when there are none.
    bool flexibleBounds(double out[6]) const;

    // --- Posing --------------------------------------------------------------------
    /// Lets a left-button drag that starts on a body (without alt) grab the picked point:
    /// poseDragStarted(), then poseDragMoved() with the point under the cursor in the
    /// plane through the grabbed point facing the camera, then poseDragFinished().
    void setPoseDragEnabled(bool on);
    bool isPoseDragEnabled() const;
    /// Where a world point appears in the view, in widget (logical pixel) coordinates of
    /// renderSurface(); for scripted mouse input.
    QPointF worldToView(const Eigen::Vector3d& point) const;

    // --- View ----------------------------------------------------------------------
    /// Frames the whole scene (bodies, joints, springs) keeping the view direction and
    /// refits the grid to it.
    void fitToView();
    /// Whether a scene with new solids reframes the camera at the next paint (default on;
    /// sketching turns it off so the view holds still while links are added).
    void setAutoFit(bool on);
    bool autoFit() const;
    /// Places the camera (a model's saved view); a framing pending from a new scene is
    /// dropped. parallelScale ≤ 0 keeps the current one.
    void setCamera(const Eigen::Vector3d& position, const Eigen::Vector3d& focalPoint,
                   const Eigen::Vector3d& viewUp, bool parallel, double parallelScale);
    /// Looks at the scene from a standard direction and frames it.
    void setStandardView(StandardView view);
    /// Changes which world axis is up, then re-applies the last standard view.
    void setUpAxis(UpAxis axis);
    UpAxis upAxis() const;
    /// Shows or hides the ground grid.
    void setGridVisible(bool visible);
    bool isGridVisible() const;
    /// Shows or hides the axes triad in the lower-left corner.
    void setAxesVisible(bool visible);
    bool isAxesVisible() const;
    /// Turns FXAA anti-aliasing on or off (off by default: it costs a full-screen pass,
    /// noticeable with software OpenGL).
    void setAntiAliasing(bool on);
    bool antiAliasing() const;

    /// Projector style: a plain white background and lines `lineScale` times as thick, for
    /// a picture that carries to the back of a room; off restores the shaded background
    /// and the normal widths.
    void setProjectorStyle(bool on, double lineScale);
    bool projectorStyle() const;

    /// The current picture (pending changes rendered first) at device resolution; a null
    /// image if the view has no OpenGL context yet (never shown).
    QImage grabFramebuffer();
    /// Writes grabFramebuffer() to `path` as PNG, replacing an existing file only once the
    /// new one is complete. Returns false and sets `error` if there is no picture yet or
    /// the file cannot be written.
    bool saveScreenshot(const QString& path, QString* error = nullptr);
    /// The native window the view draws into; mouse input arrives there, not at this
    /// widget. QWidget::grab() does not see its picture: use grabFramebuffer().
    QWindow* renderSurface() const;

    /// Asks for a new VTK render at the next paint; for code that changes VTK objects
    /// through renderer() or renderWindow() directly.
    void requestRender();

    /// The renderer that holds the scene, for adding extra props.
    vtkRenderer* renderer() const;
    /// The render window bound to this widget's OpenGL context.
    vtkGenericOpenGLRenderWindow* renderWindow() const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

signals:
    /// A click without dragging hit the solid of body `index`.
    void bodyPicked(int index);
    /// A click without dragging hit the glyph of joint `index`.
    void jointPicked(int index);
    /// A click without dragging hit neither a body nor a joint.
    void emptySpacePicked();
    /// A pose drag grabbed `point` (global [m]) on body `index`.
    void poseDragStarted(int index, const Eigen::Vector3d& point);
    /// The grabbed point should follow the cursor to `target` (global [m]).
    void poseDragMoved(const Eigen::Vector3d& target);
    /// The button was released.
    void poseDragFinished();
    /// VTK produced a new picture (not emitted for repaints that reuse the last one).
    void frameRendered();

private:
    class Surface;
    struct Private;
    std::unique_ptr<Private> d_;
};

}  // namespace looplab::ui
