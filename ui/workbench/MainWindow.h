#pragma once
// The workbench's main window: model tree and property editor on the left, the 3D view
// with the playback bar in the centre, run settings on the right, plots and warnings
// at the bottom. It wires the document, the simulation runner and the views together;
// the pieces themselves live in their own classes.

#include "overlays/Trails.h"
#include "document/DocumentOperations.h"
#include "run/ModesRunner.h"
#include "plotting/PlotPanel.h"
#include "recording/RecordedFrame.h"
#include "recording/SimulationRecording.h"

#include <QMainWindow>
#include <QTimer>

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

class DocumentJournal;
class FlexibleView;
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
class RunPanel;
class ComparisonPanel;
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
    const ModesComputation& lastModes() const { return lastModes_; }
    /// The animation being played, or null when playback shows the recording.
    const ModeShapeAnimation* modeAnimation() const { return animation_.get(); }
    /// Row of the mode table that modeAnimation() shows, or −1.
    int animatedModeRow() const { return animatedMode_; }
    /// The model the view draws (the recording's own is in the recording), or null.
    const std::shared_ptr<const Model>& drawnModel() const { return sceneModel_; }

    /// Selects an item in the tree (and so in the property editor and the view).
    void selectItem(ItemRef item);
    ItemRef selectedItem() const;

    /// What to do with a journal left by a workbench that did not close properly.
    enum class JournalRestore {
        Ask,      ///< a dialog asks the user
        Restore,  ///< restore it without asking (scripted use, tests)
        Discard   ///< discard it without asking
    };
    /// Looks for the newest journal of a document with unsaved changes left by a
    /// workbench that crashed or was killed and, as `how` says, restores it as the open
    /// document (modified, with its original file) or discards it. True if a document
    /// was restored. Older journals stay for the next start.
    bool restoreFromJournal(JournalRestore how = JournalRestore::Ask);
    /// The journal of the open document (DocumentJournal.h).
    const DocumentJournal& journal() const { return *journal_; }

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
    SimulationRunner* runner() const { return runner_; }
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
    const SimulationRecording& recording() const { return recording_; }
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
    /// A run ended (success, failure or stop) and its last frames were received.
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
    void updateJournal();
    void updateRunState();
    void refreshScene();
    /// Draws a scene of `model`; when its solids are new, resets the up axis and trail.
    void drawScene(const Scene& scene, const Model& model);
    /// Shows frame `frame` of the playback bar's source.
    void showFrame(int frame);
    void onModelRebuilt();
    void onDocumentReset();
    void onTreeSelection();
    void onTreeContextMenu(const QPoint& pos);
    void onFrames(const FrameBatch& batch);
    void onRunFinished(const RunSummary& summary);
    void onWarningActivated(const QString& kind, double t, const QStringList& joints);
    void onBodyPicked(int index);
    void onJointPicked(int index);
    /// The trails follow the model drawn and the selected body.
    void updateTrail();

    bool maybeSave();
    void newModel();
    void openWithDialog();
    void importWithDialog();
    void showImportNotes();
    bool save();
    bool saveAsWithDialog();
    void openInteractively(const QString& path);
    void addRecentFile(const QString& path);
    void updateRecentMenu();
    void populateExamplesMenu();
    void onModesFinished(const ModesComputation& result);
    void onAlongMotionFinished(const AlongMotionComputation& result);
    /// The modes no longer describe the document: forget them and their animation.
    void dropModes();
    /// Refits the camera when the animated mode's swing, as drawn, leaves the picture.
    void keepModeSwingInView();

    void addItem(ItemKind kind);
    void duplicateItem(ItemRef item);
    void deleteItem(ItemRef item);

    WorkbenchDocument* document_;
    std::unique_ptr<DocumentJournal> journal_;
    /// The last journal write failed (reported once until one succeeds).
    bool journalFailed_ = false;
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
    SimulationRunner* runner_;
    PosingFeature* posing_ = nullptr;
    StudyPanel* studyPanel_ = nullptr;
    WatchFeature* watch_ = nullptr;
    ProjectorMode* projector_ = nullptr;
    SketchFeature* sketch_ = nullptr;
    ModelPresentation* presentation_ = nullptr;
    MarkerPanel* markers_ = nullptr;
    WorkbenchExports* exports_ = nullptr;
    SimulationRecording recording_;
    ModesPanel* modesPanel_;
    ComparisonPanel* comparison_;
    ModesRunner* modesRunner_;
    ModesComputation lastModes_;
    std::unique_ptr<ModeShapeAnimation> animation_;
    /// Row of the mode table that animation_ shows.
    int animatedMode_ = -1;
    /// Recording frame shown when a mode animation took over playback.
    int recordingFrame_ = -1;
    // Frames received but not yet drawn on the charts (see onFrames).
    std::vector<RecordedFrame> pendingPlotFrames_;
    QTimer plotFlush_;
    void flushPlotFrames();
    /// The model the viewport currently draws (the recording's own is in the recording).
    std::shared_ptr<const Model> sceneModel_;
    QMenu* recentMenu_ = nullptr;
    QMenu* examplesMenu_ = nullptr;
    QMenu* viewMenu_ = nullptr;
    Trails* trails_ = nullptr;
    /// Viewport index of the selected rigid body (−1: none).
    int selectedBody_ = -1;
    /// Frame shown last, so that a jump back in playback restarts the trail.
    int lastShownFrame_ = -1;
    double runEnd_ = 0.0;
    bool confirm_ = true;
    /// What the last import left out, a sentence each (File → Import Notes).
    QStringList importReport_;
};

}  // namespace looplab::ui
