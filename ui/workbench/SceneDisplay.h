#pragma once
// What the 3D view shows: the model at rest (or the pose being made, or the best pose of a
// document that does not assemble), the frame playback is at, and the item selected in the
// model tree, highlighted and followed by the trail. A click on the view selects in the tree.

#include "document/DocumentOperations.h"

#include <QObject>
#include <QString>

#include <memory>
#include <vector>

class QTreeView;

namespace looplab {
struct Model;
struct Scene;
struct State;
}

namespace looplab::ui {

struct FrameBatch;
class FlexibleView;
class ModelTreeModel;
class PlaybackBar;
class PlotPanel;
class PosingFeature;
class PropertyEditor;
class SimulationRecording;
class Trails;
class VtkViewport;
class WatchFeature;
class WorkbenchDocument;

class SceneDisplay : public QObject {
    Q_OBJECT

public:
    SceneDisplay(WorkbenchDocument* document, ModelTreeModel* treeModel, QTreeView* treeView,
                 PropertyEditor* properties, VtkViewport* viewport, FlexibleView* flexibleView, PlaybackBar* playback,
                 const SimulationRecording* recording, Trails* trails, PosingFeature* posing, PlotPanel* plots,
                 WatchFeature* watch);

    /// Draws the document's model at rest (or its pose) and shows the selection in it.
    void refreshScene();
    /// Draws a scene of `model`; when its solids are new, resets the up axis and trail.
    void drawScene(const Scene& scene, const Model& model);
    /// Draws a scene of `model`, which becomes the model drawn.
    void drawModel(const Scene& scene, const std::shared_ptr<const Model>& model);
    /// Shows frame `frame` of the playback bar's source.
    void showFrame(int frame);
    /// The trails start again at the next frame shown.
    void restartTrail();
    /// Another document: the view starts over (camera, trails), looking against its gravity.
    void startOver();
    /// A run of `model` from `initial` started: the view shows that model, its trails anew.
    void showRunStart(const std::shared_ptr<const Model>& model, const State& initial);
    /// A batch was recorded: the trails pass through its frames before the last, which
    /// playback shows.
    void traceRecordedFrames(const FrameBatch& batch);

    /// Selects an item in the tree (and so in the property editor and the view).
    void selectItem(ItemRef item);
    ItemRef selectedItem() const;
    /// The tree's selection in the property editor and the view.
    void showSelection();
    /// Highlights the joints of the model drawn at these indices (a warning's).
    void highlightJoints(const std::vector<int>& joints);

    /// The trails follow the model drawn and the selected body.
    void updateTrail();
    /// As MainWindow::setTrailNode.
    bool setTrailNode(const QString& name, QString* error = nullptr);
    Trails* trails() const { return trails_; }

    /// The model the view draws (the recording's own is in the recording), or null.
    const std::shared_ptr<const Model>& drawnModel() const { return sceneModel_; }
    /// Viewport index of the selected rigid body (−1: none).
    int selectedBody() const { return selectedBody_; }

private:
    void onBodyPicked(int index);
    void onJointPicked(int index);

    WorkbenchDocument* document_;
    ModelTreeModel* treeModel_;
    QTreeView* treeView_;
    PropertyEditor* properties_;
    VtkViewport* viewport_;
    FlexibleView* flexibleView_;
    PlaybackBar* playback_;
    const SimulationRecording* recording_;
    Trails* trails_;
    PosingFeature* posing_;
    PlotPanel* plots_;
    WatchFeature* watch_;
    std::shared_ptr<const Model> sceneModel_;
    int selectedBody_ = -1;
    /// Frame shown last, so that a jump back in playback restarts the trail.
    int lastShownFrame_ = -1;
};

}  // namespace looplab::ui
