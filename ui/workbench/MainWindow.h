#pragma once
// The workbench's main window: model tree and property editor on the left, the 3D view
// with the playback bar in the centre, run settings on the right, plots and warnings
// at the bottom. It makes the docks and menus and connects the controllers that do the
// work: files (FileController), the journal (JournalKeeper), the tree's items
// (ItemActions), what the view shows (SceneDisplay), runs (the RunSession, with the
// panels subscribed to it by RunController) and modes (ModesController).

#include "overlays/Trails.h"
#include "document/DocumentOperations.h"
#include "document/JournalKeeper.h"
#include "run/ModesRunner.h"
#include "plotting/PlotPanel.h"
#include "recording/RecordedFrame.h"
#include "recording/SimulationRecording.h"
#include "run/RunSession.h"

#include <QMainWindow>

#include <memory>

class QAction;
class QMenu;
class QTreeView;

class QImage;

namespace looplab {
struct Model;
struct Scene;
}

namespace looplab::ui {

class FileController;
class FlexibleView;
class ItemActions;
class ModesController;
class ModeShapeAnimation;
class ModesPanel;
class ModelTreeModel;
class PlaybackBar;
class MarkerPanel;
class ModelPresentation;
class PosingFeature;
class ProjectorMode;
class StudyPanel;
class WatchFeature;
class SketchFeature;
class PropertyEditor;
class RunController;
class RunPanel;
class ComparisonPanel;
class SceneDisplay;
class SimulationRunner;
class TracePanel;
class VtkViewport;
class WarningsPanel;
class WorkbenchDocument;
class WorkbenchExports;

class MainWindow : public QMainWindow {
    Q_OBJECT

public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    /// Opens a model file without asking about unsaved changes; stops a run in
    /// progress. On failure shows nothing and returns false with the reason in `error`.
    bool openFile(const QString& path, QString* error = nullptr);
    /// Imports a URDF or MJCF file (ModelImport.h) as a new, unsaved model; what it left
    /// out is in File → Import Notes. openFile() comes here for .urdf, .xml and .mjcf.
    bool importFile(const QString& path, QString* error = nullptr);
    /// Saves to `path` atomically; it becomes the document's file.
    bool saveFile(const QString& path, QString* error = nullptr);

    /// Starts a run with the run panel's settings; false if the model does not build.
    bool startRun();
    void pauseRun();
    void resumeRun();
    void stopRun();
    /// Forgets the recording and shows the initial state.
    void resetRun();
    bool isRunning() const;

    /// Starts the equilibrium and modes of the current model with the Modes panel's
    /// settings in the modes thread; false (reason in the panel) if it cannot start.
    bool computeModes();
    /// Starts the modes along the recording with the panel's driver and postures.
    bool computeModesAlongRecording();
    /// Animates mode `row` of the last modes computed in the view and the playback bar
    /// (−1: back to the recording, as showRecording()).
    void animateMode(int row);
    /// Playback and the view show the recording (or the model at rest) again.
    void showRecording();
    /// The last modes computed (ok false when there are none).
    const ModesComputation& lastModes() const;
    /// The animation being played, or null when playback shows the recording.
    const ModeShapeAnimation* modeAnimation() const;
    /// Row of the mode table that modeAnimation() shows, or −1.
    int animatedModeRow() const;
    /// The model the view draws (the recording's own is in the recording), or null.
    const std::shared_ptr<const Model>& drawnModel() const;

    /// Selects an item in the tree (and so in the property editor and the view).
    void selectItem(ItemRef item);
    ItemRef selectedItem() const;

    /// What to do with a journal left by a workbench that did not close properly: Ask (a
    /// dialog asks the user), Restore or Discard it without asking (scripted use, tests).
    using JournalRestore = JournalKeeper::RestoreChoice;
    /// Looks for the newest journal of a document with unsaved changes left by a
    /// workbench that crashed or was killed and, as `how` says, restores it as the open
    /// document (modified, with its original file) or discards it. True if a document
    /// was restored. Older journals stay for the next start.
    bool restoreFromJournal(JournalRestore how = JournalRestore::Ask);
    /// The journal of the open document (DocumentJournal.h).
    const DocumentJournal& journal() const { return journal_->journal(); }

    /// When false, discarding unsaved changes and deleting items with dependants happen
    /// without asking (for scripted use).
    void setConfirmationsEnabled(bool on) { confirm_ = on; }

    /// A picture of the whole window as on screen, the 3D view included (QWidget::grab()
    /// alone leaves the view's native window out).
    QImage screenshot();

    WorkbenchDocument* document() const { return document_; }
    ModelTreeModel* treeModel() const { return treeModel_; }
    QTreeView* treeView() const { return treeView_; }
    PropertyEditor* propertyEditor() const { return properties_; }
    VtkViewport* viewport() const { return viewport_; }
    RunPanel* runPanel() const { return runPanel_; }
    ComparisonPanel* comparisonPanel() const { return comparison_; }
    PlotPanel* plotPanel() const { return plots_; }
    WarningsPanel* warningsPanel() const { return warnings_; }
    /// Traces of body points over the recording (overlays/TracePanel.h).
    TracePanel* tracePanel() const { return traces_; }
    FlexibleView* flexibleView() const { return flexibleView_; }
    /// File → Export: plot data and pictures, mode table, videos (WorkbenchExports.h).
    WorkbenchExports* exports() const { return exports_; }
    PlaybackBar* playbackBar() const { return playback_; }
    ModesPanel* modesPanel() const { return modesPanel_; }
    ModesRunner* modesRunner() const { return modesRunner_; }
    /// The run and its recording (run/RunSession.h).
    RunSession* runSession() const { return session_; }
    SimulationRunner* runner() const { return session_->runner(); }
    /// Drag to pose, typed joint coordinates, and assembly failures drawn (ui/posing).
    PosingFeature* posing() const { return posing_; }
    /// Parameter sweeps and Monte Carlo studies of the model (ui/study).
    StudyPanel* studyPanel() const { return studyPanel_; }
    /// Plot windows, units, arrows and camera (watch/WatchFeature.h).
    WatchFeature* watch() const { return watch_; }
    ProjectorMode* projectorMode() const { return projector_; }
    /// Sketch mode for planar linkages (ui/sketch).
    SketchFeature* sketch() const { return sketch_; }
    /// The model's run settings, camera and notes (ui/presentation).
    ModelPresentation* presentation() const { return presentation_; }
    /// Markers created, moved and deleted (ui/markers).
    MarkerPanel* markerPanel() const { return markers_; }
    const SimulationRecording& recording() const { return session_->recording(); }
    /// The checkable "Trail of Selected Body" action.
    QAction* trailAction() const { return trails_->action(); }
    /// Viewport index of the body whose centre of mass leaves a trail, or −1.
    int trailBody() const { return trails_->body(); }
    /// Makes the node `name` of a beam or solid ("beam.tip", "box.node2_0_1", as the model
    /// file names it) leave a trail during runs and playback, besides the selected body's;
    /// an empty name removes it. The name is kept across edits and followed while the
    /// model has such a node. False, with the reason in `error`, for a name that is no
    /// node of the model drawn, or an inner node of a solid (not drawn).
    bool setTrailNode(const QString& name, QString* error = nullptr);
    /// The node that leaves a trail, or empty.
    QString trailNode() const { return trails_->node(); }

signals:
    /// A run ended (success, failure or stop) and its last frames were received; the panels
    /// show it already (this is the session's signal, connected after RunController's).
    void runFinished(const looplab::ui::RunSummary& summary);
    /// A modes computation ended (also when it failed or was cancelled) and is shown.
    void modesFinished(const looplab::ui::ModesComputation& result);
    void modesAlongMotionFinished(const looplab::ui::AlongMotionComputation& result);

protected:
    void closeEvent(QCloseEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void createDocks();
    void createMenus();
    void updateTitle();
    void onModelRebuilt();
    void onDocumentReset();

    WorkbenchDocument* document_;
    ModelTreeModel* treeModel_;
    QTreeView* treeView_;
    PropertyEditor* properties_;
    VtkViewport* viewport_;
    PlaybackBar* playback_;
    RunPanel* runPanel_;
    PlotPanel* plots_;
    WarningsPanel* warnings_;
    TracePanel* traces_;
    FlexibleView* flexibleView_ = nullptr;
    RunSession* session_;
    PosingFeature* posing_ = nullptr;
    StudyPanel* studyPanel_ = nullptr;
    WatchFeature* watch_ = nullptr;
    ProjectorMode* projector_ = nullptr;
    SketchFeature* sketch_ = nullptr;
    ModelPresentation* presentation_ = nullptr;
    MarkerPanel* markers_ = nullptr;
    WorkbenchExports* exports_ = nullptr;
    ModesPanel* modesPanel_;
    ComparisonPanel* comparison_;
    ModesRunner* modesRunner_;
    QMenu* viewMenu_ = nullptr;
    Trails* trails_ = nullptr;
    /// Asked before unsaved changes are discarded or items with dependants deleted.
    bool confirm_ = true;
    // Members rather than children: they go before the children, whose last signals
    // (the undo stack reports "clean" as it goes) must not reach them.
    std::unique_ptr<JournalKeeper> journal_;
    std::unique_ptr<SceneDisplay> scene_;
    std::unique_ptr<ModesController> modes_;
    std::unique_ptr<RunController> run_;
    std::unique_ptr<FileController> files_;
    std::unique_ptr<ItemActions> items_;
};

}  // namespace looplab::ui
