#pragma once
// Sketch mode for planar linkages. On a work plane seen orthographically, a click with
// the Ground Pivot tool places a ground pivot; with the Link tool each click adds a link
// from the previous click (a chain), snapping to existing pivots, and a chain ends on a
// ground pivot or with Esc; with the Slider tool a click on a pivot and a click along
// the guide add a slider block; with the Gear Pair tool a click on each of two ground
// pivots and a click where the wheels should touch add a gear pair (on the bodies pinned
// there, or on new wheels); with the Cam tool a click on a ground pivot and a click where
// the roller should be add a disc cam and a roller follower on a guide. Every click that
// completes something is one undoable
// document edit made by the core (sketch/SketchEdits.h); links weigh what their bar shape
// and density say.
//
// While on, the feature takes the view's left-button clicks (an event filter on the
// view's surface); the middle button pans and the wheel zooms as usual. The plane shows
// its grid at the snapping step (automatic with the zoom, or set on the toolbar), the
// origin and a scale bar (SketchGrid), and the toolbar the coordinates a click at the
// pointer would place.

#include "looplab/sketch/SketchEdits.h"
#include "looplab/sketch/WorkPlane.h"

#include <QObject>
#include <QPoint>

#include <memory>
#include <optional>

class QAction;
class QActionGroup;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QToolBar;

namespace looplab::ui {

class VtkViewport;
class WorkbenchDocument;
class SketchGrid;
class SketchOverlay;

class SketchFeature : public QObject {
    Q_OBJECT

public:
    enum class Tool { GroundPivot, Link, Slider, GearPair, Cam };

    SketchFeature(WorkbenchDocument* document, VtkViewport* viewport, QObject* parent = nullptr);
    ~SketchFeature() override;

    /// The Sketch toolbar: mode on/off, work plane, tools, density.
    QToolBar* toolBar() const { return toolBar_; }
    QAction* sketchAction() const { return sketchAction_; }
    QAction* toolAction(Tool tool) const;

    bool isActive() const;
    void setActive(bool on);
    void setTool(Tool tool);
    Tool tool() const { return tool_; }
    void setWorkPlane(WorkPlane::Kind kind);
    WorkPlane workPlane() const { return plane_; }
    BarStyle barStyle() const;
    /// The step clicks snap to and the grid is drawn at [m]: the toolbar's, or with it at
    /// "auto" a round fraction of the view's height.
    double gridStep() const;
    /// The toolbar's grid step box (0 = auto) and the pointer's coordinates.
    QDoubleSpinBox* gridStepBox() const { return step_; }
    QLabel* cursorLabel() const { return cursor_; }
    /// The plane's grid, origin mark and scale bar.
    const SketchGrid& grid() const { return *grid_; }

    /// A click of the active tool at `point` (global, projected onto the plane), as the
    /// view's clicks arrive; for scripted use.
    void clickAt(const Vec3& point);
    /// Ends a link chain or a half-placed slider.
    void cancelPending();

    /// The point of the work plane under widget position `pos` of the view's surface.
    std::optional<Vec3> planePointAt(const QPoint& pos) const;

signals:
    /// A sentence for the status bar.
    void message(const QString& text);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void lookAtPlane();
    double pixelsToMetres(double pixels) const;
    /// The view's height and width at the plane [m] (0 without a parallel view).
    double viewHeight() const;
    double viewWidth() const;
    void refreshGrid();
    void showCursorAt(const QPoint& pos);
    void refreshOverlay();
    bool applyEdit(const QString& text, const ModelDocument& changed);

    WorkbenchDocument* document_;
    VtkViewport* viewport_;
    QToolBar* toolBar_;
    QAction* sketchAction_;
    QActionGroup* tools_;
    QAction* groundAction_;
    QAction* linkAction_;
    QAction* sliderAction_;
    QAction* gearAction_;
    QAction* camAction_;
    QComboBox* planeBox_;
    QDoubleSpinBox* density_;
    QDoubleSpinBox* step_;
    QLabel* cursor_;
    std::unique_ptr<SketchOverlay> overlay_;
    std::unique_ptr<SketchGrid> grid_;
    /// Whether the view's ground grid was shown before sketching (it is hidden meanwhile).
    bool groundGridWasVisible_ = true;
    WorkPlane plane_;
    Tool tool_ = Tool::GroundPivot;
    /// The end the next link starts from, the slider's place awaiting its direction, or a
    /// gear pair's first pivot.
    std::optional<SketchEnd> pending_;
    /// A gear pair's second pivot, awaiting the point where the wheels touch.
    std::optional<SketchEnd> secondPivot_;
    QPoint pressAt_;
    bool pressed_ = false;
};

}  // namespace looplab::ui
