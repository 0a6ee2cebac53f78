#include "workbench/MainWindow.h"
#include "workbench/WindowPlacement.h"

#include "looplab/scene/FlexibleScene.h"
#include "looplab/scene/Scene.h"
#include "overlays/ArrowFeature.h"
#include "overlays/TracePanel.h"
#include "overlays/Trails.h"
#include "workbench/FlexibleView.h"
#include "posing/PosePanel.h"
#include "posing/PosingFeature.h"
#include "study/StudyPanel.h"
#include "markers/MarkerPanel.h"
#include "presentation/ModelPresentation.h"
#include "sketch/SketchFeature.h"
#include "viewport/VtkViewport.h"
#include "camera/CameraController.h"
#include "watch/WatchFeature.h"
#include "workbench/FileController.h"
#include "workbench/HelpMenu.h"
#include "workbench/ItemActions.h"
#include "panels/PanelDock.h"
#include "workbench/ProjectorMode.h"
#include "workbench/ModelTreeModel.h"
#include "workbench/ModesController.h"
#include "workbench/ModesPanel.h"
#include "comparison/ComparisonPanel.h"
#include "workbench/PlaybackBar.h"
#include "workbench/PropertyEditor.h"
#include "run/RunPanel.h"
#include "run/RunSession.h"
#include "panels/WarningsPanel.h"
#include "workbench/RunController.h"
#include "workbench/SceneDisplay.h"
#include "document/WorkbenchDocument.h"
#include "workbench/WorkbenchExports.h"

#include <QAction>
#include <QPlainTextEdit>
#include <QCloseEvent>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileInfo>
#include <QKeySequence>
#include <QMenu>
#include <QMenuBar>
#include <QPainter>
#include <QStatusBar>
#include <QTreeView>
#include <QUndoStack>
#include <QVBoxLayout>

namespace looplab::ui {

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent)
{
    setObjectName("LoopLabMainWindow");
    document_ = new WorkbenchDocument(this);
    journal_ = std::make_unique<JournalKeeper>(this, document_, [this] { stopRun(); });
    treeModel_ = new ModelTreeModel(document_, this);
    session_ = new RunSession(this);
    modesRunner_ = new ModesRunner(this);

    viewport_ = new VtkViewport;
    trails_ = new Trails(viewport_, this);
    playback_ = new PlaybackBar;
    playback_->setSource(&recording());
    auto* centre = new QWidget;
    auto* centreLayout = new QVBoxLayout(centre);
    centreLayout->setContentsMargins(0, 0, 0, 0);
    centreLayout->setSpacing(0);
    centreLayout->addWidget(viewport_, 1);
    centreLayout->addWidget(playback_);
    setCentralWidget(centre);

    createDocks();
    plots_->setRecording(&recording());
    exports_ = new WorkbenchExports(*this);
    scene_ = std::make_unique<SceneDisplay>(document_, treeModel_, treeView_, properties_, viewport_, flexibleView_,
                                            playback_, &recording(), trails_, posing_, plots_, watch_);
    modes_ = std::make_unique<ModesController>(this, document_, modesPanel_, modesRunner_, session_, playback_,
                                               viewport_, flexibleView_, watch_, scene_.get());
    run_ = std::make_unique<RunController>(this, document_, session_, runPanel_, playback_, traces_, plots_, warnings_,
                                           watch_, posing_, modesPanel_, scene_.get(), modes_.get());
    files_ = std::make_unique<FileController>(this, document_, session_, posing_, confirm_);
    items_ = std::make_unique<ItemActions>(this, document_, treeModel_, treeView_, traces_, scene_.get(), confirm_);
    connect(session_, &RunSession::runFinished, this, &MainWindow::runFinished);
    connect(modes_.get(), &ModesController::modesFinished, this, &MainWindow::modesFinished);
    connect(modes_.get(), &ModesController::modesAlongMotionFinished, this, &MainWindow::modesAlongMotionFinished);
    createMenus();
    setAcceptDrops(true);
    placeOnScreen(*this);
    keepDockTabsWhole(*this);

    connect(document_, &WorkbenchDocument::modelRebuilt, this, &MainWindow::onModelRebuilt);
    connect(document_, &WorkbenchDocument::documentReset, this, &MainWindow::onDocumentReset);
    connect(document_, &WorkbenchDocument::modifiedChanged, this, &MainWindow::updateTitle);
    connect(document_, &WorkbenchDocument::filePathChanged, this, &MainWindow::updateTitle);
    // Every change of the document, of its file or of its saved state reaches the
    // journal before the next user input is handled.
    connect(document_, &WorkbenchDocument::documentChanged, journal_.get(), &JournalKeeper::update);
    connect(document_, &WorkbenchDocument::modifiedChanged, journal_.get(), &JournalKeeper::update);
    connect(document_, &WorkbenchDocument::filePathChanged, journal_.get(), &JournalKeeper::update);
    connect(treeModel_, &QAbstractItemModel::modelReset, this, [this] { treeView_->expandAll(); });
    connect(playback_, &PlaybackBar::frameChanged, scene_.get(), &SceneDisplay::showFrame);
    connect(playback_, &PlaybackBar::frameChanged, traces_, &TracePanel::showFrame);
    // Modes of an earlier version of the model would be shown as if they were this one's.
    connect(document_, &WorkbenchDocument::documentChanged, modes_.get(), &ModesController::dropModes);

    treeView_->expandAll();
    onModelRebuilt();
    updateTitle();
}

MainWindow::~MainWindow()
{
    // Closing (closeEvent) settles unsaved changes; a window destroyed without that keeps
    // a journal with unsaved changes, as a crash would.
    if (!document_->isModified())
        journal_->discard();
    // The runner's destructor joins the thread; stop first so that takes one step.
    session_->stop();
    // Children are deleted after this destructor, when this object is only a QWidget any
    // more; some still signal while they go (the undo stack reports "clean"). Their
    // connections to this window must not call its slots then.
    for (QObject* child : findChildren<QObject*>())
        QObject::disconnect(child, nullptr, this, nullptr);
}

void MainWindow::createDocks()
{
    treeView_ = new QTreeView;
    treeView_->setObjectName("modelTree");
    treeView_->setModel(treeModel_);
    treeView_->setHeaderHidden(true);
    treeView_->setContextMenuPolicy(Qt::CustomContextMenu);
    treeView_->setEditTriggers(QAbstractItemView::EditKeyPressed | QAbstractItemView::SelectedClicked);
    auto* treeDock = panelDock(tr("Model"), "modelDock", treeView_, this, PanelScrolling::ScrollsItself);
    addDockWidget(Qt::LeftDockWidgetArea, treeDock);

    properties_ = new PropertyEditor(document_);
    auto* propertyDock = panelDock(tr("Properties"), "propertyDock", properties_, this, PanelScrolling::ScrollsItself);
    addDockWidget(Qt::LeftDockWidgetArea, propertyDock);

    runPanel_ = new RunPanel;
    auto* runDock = panelDock(tr("Simulation"), "runDock", runPanel_, this);
    addDockWidget(Qt::RightDockWidgetArea, runDock);

    plots_ = new PlotPanel;
    auto* plotDock = panelDock(tr("Plots"), "plotDock", plots_, this);
    addDockWidget(Qt::BottomDockWidgetArea, plotDock);

    warnings_ = new WarningsPanel;
    auto* warningsDock = panelDock(tr("Warnings"), "warningsDock", warnings_, this);
    addDockWidget(Qt::RightDockWidgetArea, warningsDock);

    modesPanel_ = new ModesPanel;
    auto* modesDock = panelDock(tr("Modes"), "modesDock", modesPanel_, this);
    addDockWidget(Qt::RightDockWidgetArea, modesDock);
    // Beside the run settings, where the column is tallest: table and chart need room.
    tabifyDockWidget(runDock, modesDock);
    runDock->raise();

    // Several methods at once on the current model, with the run panel's settings.
    comparison_ = new ComparisonPanel;
    auto* comparisonDock = panelDock(tr("Compare methods"), "comparisonDock", comparison_, this);
    addDockWidget(Qt::BottomDockWidgetArea, comparisonDock);
    tabifyDockWidget(plotDock, comparisonDock);
    plotDock->raise();
    connect(comparison_, &ComparisonPanel::compareRequested, this, [this] {
        const LoadedModel& loaded = document_->loaded();
        comparison_->compare(loaded.ok() ? loaded.model : nullptr, loaded.initial, runPanel_->settings());
    });

    traces_ = new TracePanel(viewport_);
    traces_->setDocument(&document_->document());
    traces_->setSource(&recording());
    auto* traceDock = panelDock(tr("Traces"), "traceDock", traces_, this);
    addDockWidget(Qt::RightDockWidgetArea, traceDock);
    tabifyDockWidget(warningsDock, traceDock);
    warningsDock->raise();

    flexibleView_ = new FlexibleView(viewport_);
    auto* flexibleDock = panelDock(tr("Flexible Bodies"), "flexibleDock", flexibleView_, this);
    addDockWidget(Qt::RightDockWidgetArea, flexibleDock);
    tabifyDockWidget(warningsDock, flexibleDock);
    warningsDock->raise();

    posing_ = new PosingFeature(
        document_, viewport_, warnings_,
        [this](const Scene& scene, const std::shared_ptr<const Model>& model) { scene_->drawModel(scene, model); },
        this);
    auto* poseDock = panelDock(tr("Pose"), "poseDock", posing_->panel(), this);
    addDockWidget(Qt::RightDockWidgetArea, poseDock);
    tabifyDockWidget(runDock, poseDock);
    runDock->raise();
    watch_ = new WatchFeature(this, viewport_, &recording(), [this] { return scene_->selectedBody(); }, runDock);
    // The camera frames what is drawn: flexible members exaggerated as the Flexible Bodies view says.
    watch_->camera()->setSceneAsDrawn(
        [this](const Scene& scene) { return withExaggeratedDeformation(scene, flexibleView_->exaggeration()); });
    runDock->raise();
    connect(posing_, &PosingFeature::message, this, [this](const QString& text) { statusBar()->showMessage(text, 15000); });

    studyPanel_ = new StudyPanel(document_);
    auto* studyDock = panelDock(tr("Study"), "studyDock", studyPanel_, this);
    addDockWidget(Qt::BottomDockWidgetArea, studyDock);
    tabifyDockWidget(plotDock, studyDock);
    plotDock->raise();
    connect(studyPanel_, &StudyPanel::message, this, [this](const QString& text) { statusBar()->showMessage(text, 15000); });
    sketch_ = new SketchFeature(document_, viewport_, this);
    addToolBar(Qt::TopToolBarArea, sketch_->toolBar());
    connect(sketch_, &SketchFeature::message, this, [this](const QString& text) { statusBar()->showMessage(text, 15000); });

    presentation_ = new ModelPresentation(document_, runPanel_, viewport_, this);
    auto* notesDock = panelDock(tr("Notes"), "notesDock", presentation_->notesPane(), this, PanelScrolling::ScrollsItself);
    addDockWidget(Qt::RightDockWidgetArea, notesDock);
    tabifyDockWidget(warningsDock, notesDock);
    warningsDock->raise();

    markers_ = new MarkerPanel(document_);
    auto* markersDock = panelDock(tr("Markers"), "markersDock", markers_, this);
    addDockWidget(Qt::RightDockWidgetArea, markersDock);
    tabifyDockWidget(runDock, markersDock);
    runDock->raise();

    resizeDocks({treeDock, propertyDock}, {300, 450}, Qt::Vertical);
    resizeDocks({treeDock, runDock}, {330, 330}, Qt::Horizontal);
    resizeDocks({plotDock}, {300}, Qt::Vertical);
}

void MainWindow::createMenus()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&New"), QKeySequence::New, this, [this] {
        if (files_->maybeSave())
            files_->newModel();
    });
    file->addAction(tr("&Open…"), QKeySequence::Open, files_.get(), &FileController::openWithDialog);
    QMenu* recent = file->addMenu(tr("Open &Recent"));
    file->addAction(tr("&Import URDF or MJCF…"), files_.get(), &FileController::importWithDialog);
    file->addAction(tr("Import &Notes"), files_.get(), &FileController::showImportNotes);
    QMenu* examples = menuBar()->addMenu(tr("E&xamples"));
    file->addAction(tr("&Save"), QKeySequence::Save, this, [this] { files_->save(); });
    file->addAction(tr("Save &As…"), QKeySequence::SaveAs, this, [this] { files_->saveAsWithDialog(); });
    file->addSeparator();
    exports_->addActions(file);
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);
    files_->setMenus(recent, examples);

    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    QAction* undo = document_->undoStack()->createUndoAction(this, tr("&Undo"));
    undo->setShortcut(QKeySequence::Undo);
    QAction* redo = document_->undoStack()->createRedoAction(this, tr("&Redo"));
    redo->setShortcut(QKeySequence::Redo);
    edit->addAction(undo);
    edit->addAction(redo);
    edit->addSeparator();
    for (ItemKind kind : {ItemKind::Body, ItemKind::Joint, ItemKind::Driver, ItemKind::Coupler, ItemKind::Force,
                          ItemKind::Beam, ItemKind::Solid, ItemKind::NodeSet})
        edit->addAction(tr("Add %1").arg(ModelTreeModel::kindName(kind)), this,
                        [this, kind] { items_->addItem(kind); });

    QMenu* sim = menuBar()->addMenu(tr("&Simulation"));
    sim->addAction(tr("&Run"), QKeySequence(Qt::Key_F5), this, [this] { startRun(); });
    sim->addAction(tr("&Pause"), this, &MainWindow::pauseRun);
    sim->addAction(tr("Res&ume"), this, &MainWindow::resumeRun);
    sim->addAction(tr("&Stop"), QKeySequence(Qt::SHIFT | Qt::Key_F5), this, &MainWindow::stopRun);
    sim->addAction(tr("Rese&t"), this, &MainWindow::resetRun);
    sim->addSeparator();
    sim->addAction(tr("&Keep for Comparison"), this, [this] { plots_->keepForComparison(); });
    sim->addAction(tr("&Clear Comparison"), plots_, &PlotPanel::clearComparison);
    sim->addSeparator();
    sim->addAction(presentation_->storeAction());

    viewMenu_ = menuBar()->addMenu(tr("&View"));
    viewMenu_->addAction(tr("&Fit to View"), QKeySequence(Qt::Key_F), viewport_, &VtkViewport::fitToView);
    viewMenu_->addAction(tr("Front"), this, [this] { viewport_->setStandardView(VtkViewport::StandardView::Front); });
    viewMenu_->addAction(tr("Top"), this, [this] { viewport_->setStandardView(VtkViewport::StandardView::Top); });
    viewMenu_->addAction(tr("Side"), this, [this] { viewport_->setStandardView(VtkViewport::StandardView::Side); });
    viewMenu_->addAction(tr("Isometric"), this,
                         [this] { viewport_->setStandardView(VtkViewport::StandardView::Isometric); });
    viewMenu_->addSeparator();
    connect(trails_->addAction(viewMenu_), &QAction::toggled, scene_.get(), &SceneDisplay::updateTrail);
    viewMenu_->addAction(tr("Reset Plot &Zoom"), plots_, &PlotPanel::resetZoom);
    viewMenu_->addSeparator();
    // Made after the docks and their charts, which it scales when it starts switched on.
    projector_ = new ProjectorMode(this, viewport_);
    viewMenu_->addAction(projector_->action());
    viewMenu_->addSeparator();
    watch_->addMenuEntries(viewMenu_);
    viewMenu_->addSeparator();
    for (QDockWidget* dock : findChildren<QDockWidget*>())
        viewMenu_->addAction(dock->toggleViewAction());
    addHelpMenu(*this);
}

void MainWindow::updateTitle()
{
    const QString path = document_->filePath();
    const QString name = path.isEmpty() ? tr("Untitled") : QFileInfo(path).fileName();
    setWindowTitle(QString("%1[*] — LoopLab").arg(name));
    setWindowModified(document_->isModified());
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    if (!files_->maybeSave()) {
        event->ignore();
        return;
    }
    stopRun();
    // Saved or discarded: nothing left to restore.
    journal_->discard();
    event->accept();
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event)
{
    if (!FileController::droppedModelPath(event->mimeData()).isEmpty())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event)
{
    const QString path = FileController::droppedModelPath(event->mimeData());
    if (path.isEmpty())
        return;
    event->acceptProposedAction();
    files_->openAfterAsking(path);
}

void MainWindow::onDocumentReset()
{
    modes_->dropModes();
    run_->forgetRecordingOfPreviousModel();
    scene_->startOver();
    // Drawn and framed: the model's own camera, if it has one, replaces the framing.
    presentation_->applyCamera();
    run_->updateRunState();
}

void MainWindow::onModelRebuilt()
{
    statusBar()->showMessage(document_->statusText());
    // An edit shows at once, even over a recording; the recording stays for playback,
    // and the status bar says it is of the model before the edit.
    if (!isRunning()) {
        // The recording's arrows were of its frame, not of the edited model now drawn;
        // playback brings them back.
        watch_->arrows()->clear();
        scene_->refreshScene();
        // A model that no longer assembles keeps the posing's message: its cause first.
        if (!recording().isEmpty() && document_->loaded().ok())
            statusBar()->showMessage(tr("%1 — the view shows the edited model; the recording is of the model "
                                        "before the edit (Run to record the edited one)")
                                         .arg(document_->statusText()));
    }
    run_->updateRunState();
}

QImage MainWindow::screenshot()
{
    QImage image = grab().toImage();
    const QImage view = viewport_->grabFramebuffer();
    if (!view.isNull() && viewport_->isVisible()) {
        QPainter painter(&image);
        painter.drawImage(QRect(viewport_->mapTo(this, QPoint(0, 0)), viewport_->size()), view);
    }
    return image;
}

// --- The controllers' work, as the tests and the command line ask for it -----------------

bool MainWindow::openFile(const QString& path, QString* error) { return files_->openFile(path, error); }
bool MainWindow::importFile(const QString& path, QString* error) { return files_->importFile(path, error); }
bool MainWindow::saveFile(const QString& path, QString* error) { return files_->saveFile(path, error); }
bool MainWindow::restoreFromJournal(JournalRestore how) { return journal_->restoreFromJournal(how); }

bool MainWindow::startRun() { return run_->startRun(); }
void MainWindow::pauseRun() { run_->pauseRun(); }
void MainWindow::resumeRun() { run_->resumeRun(); }
void MainWindow::stopRun() { run_->stopRun(); }
void MainWindow::resetRun() { run_->resetRun(); }
bool MainWindow::isRunning() const { return run_->isRunning(); }

bool MainWindow::computeModes() { return modes_->computeModes(); }
bool MainWindow::computeModesAlongRecording() { return modes_->computeModesAlongRecording(); }
void MainWindow::animateMode(int row) { modes_->animateMode(row); }
void MainWindow::showRecording() { modes_->showRecording(); }
const ModesComputation& MainWindow::lastModes() const { return modes_->lastModes(); }
const ModeShapeAnimation* MainWindow::modeAnimation() const { return modes_->modeAnimation(); }
int MainWindow::animatedModeRow() const { return modes_->animatedModeRow(); }

const std::shared_ptr<const Model>& MainWindow::drawnModel() const { return scene_->drawnModel(); }
void MainWindow::selectItem(ItemRef item) { scene_->selectItem(item); }
ItemRef MainWindow::selectedItem() const { return scene_->selectedItem(); }
bool MainWindow::setTrailNode(const QString& name, QString* error) { return scene_->setTrailNode(name, error); }

}  // namespace looplab::ui
