#include "workbench/MainWindow.h"

#include "looplab/exchange/ModelImport.h"
#include "looplab/kinematics/JointCoordinates.h"
#include "looplab/kinematics/PointTrace.h"
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
#include "document/DocumentJournal.h"
#include "workbench/ExamplesDirectory.h"
#include "workbench/HelpMenu.h"
#include "panels/PanelDock.h"
#include "workbench/ProjectorMode.h"
#include "recording/JointQuantity.h"
#include "recording/ModeShapeAnimation.h"
#include "workbench/ModelSavePath.h"
#include "workbench/ModelTreeModel.h"
#include "workbench/ModesPanel.h"
#include "comparison/ComparisonPanel.h"
#include "workbench/PlaybackBar.h"
#include "workbench/PropertyEditor.h"
#include "run/RunPanel.h"
#include "run/SimulationRunner.h"
#include "panels/WarningsPanel.h"
#include "document/WorkbenchDocument.h"
#include "workbench/WorkbenchExports.h"

#include <vtkCamera.h>
#include <vtkRenderer.h>

#include <QAction>
#include <QPlainTextEdit>
#include <QApplication>
#include <QCloseEvent>
#include <QDateTime>
#include <QDir>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QHeaderView>
#include <QKeySequence>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QPainter>
#include <QPushButton>
#include <QSettings>
#include <QStatusBar>
#include <QTreeView>
#include <QUndoStack>
#include <QVBoxLayout>

#include <algorithm>

namespace looplab::ui {

namespace {

constexpr int kMaxRecentFiles = 8;
const char* kRecentKey = "recentFiles";

QString modelPathOf(const QMimeData* mime)
{
    if (!mime || !mime->hasUrls())
        return {};
    for (const QUrl& url : mime->urls())
        if (url.isLocalFile() && (url.toLocalFile().endsWith(".json", Qt::CaseInsensitive) ||
                                  isImportable(url.toLocalFile().toStdString())))
            return url.toLocalFile();
    return {};
}

}  // namespace

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent)
{
    setObjectName("LoopLabMainWindow");
    document_ = new WorkbenchDocument(this);
    journal_ = std::make_unique<DocumentJournal>();
    treeModel_ = new ModelTreeModel(document_, this);
    runner_ = new SimulationRunner(this);
    modesRunner_ = new ModesRunner(this);
    plotFlush_.setSingleShot(true);
    plotFlush_.setInterval(150);
    connect(&plotFlush_, &QTimer::timeout, this, &MainWindow::flushPlotFrames);

    viewport_ = new VtkViewport;
    trails_ = new Trails(viewport_, this);
    playback_ = new PlaybackBar;
    playback_->setSource(&recording_);
    auto* centre = new QWidget;
    auto* centreLayout = new QVBoxLayout(centre);
    centreLayout->setContentsMargins(0, 0, 0, 0);
    centreLayout->setSpacing(0);
    centreLayout->addWidget(viewport_, 1);
    centreLayout->addWidget(playback_);
    setCentralWidget(centre);

    createDocks();
    plots_->setRecording(&recording_);
    exports_ = new WorkbenchExports(*this);
    createMenus();
    setAcceptDrops(true);
    resize(1500, 950);

    connect(document_, &WorkbenchDocument::modelRebuilt, this, &MainWindow::onModelRebuilt);
    connect(document_, &WorkbenchDocument::documentReset, this, &MainWindow::onDocumentReset);
    connect(document_, &WorkbenchDocument::modifiedChanged, this, &MainWindow::updateTitle);
    connect(document_, &WorkbenchDocument::filePathChanged, this, &MainWindow::updateTitle);
    // Every change of the document, of its file or of its saved state reaches the
    // journal before the next user input is handled.
    connect(document_, &WorkbenchDocument::documentChanged, this, &MainWindow::updateJournal);
    connect(document_, &WorkbenchDocument::modifiedChanged, this, &MainWindow::updateJournal);
    connect(document_, &WorkbenchDocument::filePathChanged, this, &MainWindow::updateJournal);
    connect(treeModel_, &QAbstractItemModel::modelReset, this, [this] { treeView_->expandAll(); });
    connect(treeView_->selectionModel(), &QItemSelectionModel::currentChanged, this, &MainWindow::onTreeSelection);
    connect(viewport_, &VtkViewport::bodyPicked, this, &MainWindow::onBodyPicked);
    connect(viewport_, &VtkViewport::jointPicked, this, &MainWindow::onJointPicked);
    connect(viewport_, &VtkViewport::emptySpacePicked, this, [this] { selectItem({}); });
    connect(playback_, &PlaybackBar::frameChanged, this, &MainWindow::showFrame);
    connect(playback_, &PlaybackBar::frameChanged, traces_, &TracePanel::showFrame);
    connect(runPanel_, &RunPanel::runRequested, this, [this] { startRun(); });
    connect(runPanel_, &RunPanel::pauseRequested, this, &MainWindow::pauseRun);
    connect(runPanel_, &RunPanel::resumeRequested, this, &MainWindow::resumeRun);
    connect(runPanel_, &RunPanel::stopRequested, this, &MainWindow::stopRun);
    connect(runPanel_, &RunPanel::resetRequested, this, &MainWindow::resetRun);
    connect(runner_, &SimulationRunner::framesReceived, this, &MainWindow::onFrames);
    connect(runner_, &SimulationRunner::finished, this, &MainWindow::onRunFinished);
    connect(runner_, &SimulationRunner::pausedChanged, this, &MainWindow::updateRunState);
    connect(warnings_, &WarningsPanel::entryActivated, this, &MainWindow::onWarningActivated);
    // A stiff model's remedy: the run in progress is of no further use.
    connect(warnings_, &WarningsPanel::methodSwitchRequested, this, [this](const QString& method) {
        if (isRunning())
            stopRun();
        runPanel_->setMethodWithDefaults(method.toStdString());
        statusBar()->showMessage(tr("Run settings switched to %1 with its defaults: press Run").arg(method), 8000);
    });
    connect(modesPanel_, &ModesPanel::computeRequested, this, [this] { computeModes(); });
    connect(modesPanel_, &ModesPanel::cancelRequested, modesRunner_, &ModesRunner::cancel);
    connect(modesPanel_, &ModesPanel::alongMotionRequested, this, [this] { computeModesAlongRecording(); });
    connect(modesPanel_, &ModesPanel::modeSelected, this, &MainWindow::animateMode);
    connect(modesPanel_, &ModesPanel::showRecordingRequested, this, &MainWindow::showRecording);
    connect(modesPanel_, &ModesPanel::amplitudeChanged, this, [this](double fraction) {
        if (!animation_)
            return;
        animation_->setAmplitudeFraction(fraction);
        showFrame(playback_->currentFrame());
        keepModeSwingInView();
    });
    connect(modesRunner_, &ModesRunner::progress, modesPanel_,
            [this](int, const QString& stage, int done, int total) { modesPanel_->setProgress(stage, done, total); });
    connect(modesRunner_, &ModesRunner::modesFinished, this, &MainWindow::onModesFinished);
    connect(modesRunner_, &ModesRunner::alongMotionFinished, this, &MainWindow::onAlongMotionFinished);
    // Modes of an earlier version of the model would be shown as if they were this one's.
    connect(document_, &WorkbenchDocument::documentChanged, this, &MainWindow::dropModes);

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
    runner_->stop();
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
    connect(treeView_, &QTreeView::customContextMenuRequested, this, &MainWindow::onTreeContextMenu);
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
    traces_->setSource(&recording_);
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
        [this](const Scene& scene, const std::shared_ptr<const Model>& model) {
            drawScene(scene, *model);
            sceneModel_ = model;
        },
        this);
    auto* poseDock = panelDock(tr("Pose"), "poseDock", posing_->panel(), this);
    addDockWidget(Qt::RightDockWidgetArea, poseDock);
    tabifyDockWidget(runDock, poseDock);
    runDock->raise();
    watch_ = new WatchFeature(this, viewport_, &recording_, [this] { return selectedBody_; }, runDock);
    // The camera frames what is drawn: flexible members exaggerated as the Flexible Bodies view says.
    watch_->camera()->setSceneAsDrawn(
        [this](const Scene& scene) { return withExaggeratedDeformation(scene, flexibleView_->exaggeration()); });
    connect(flexibleView_, &FlexibleView::settingsChanged, this, &MainWindow::keepModeSwingInView);
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
        if (maybeSave())
            newModel();
    });
    file->addAction(tr("&Open…"), QKeySequence::Open, this, &MainWindow::openWithDialog);
    recentMenu_ = file->addMenu(tr("Open &Recent"));
    file->addAction(tr("&Import URDF or MJCF…"), this, &MainWindow::importWithDialog);
    file->addAction(tr("Import &Notes"), this, &MainWindow::showImportNotes);
    examplesMenu_ = menuBar()->addMenu(tr("E&xamples"));
    file->addAction(tr("&Save"), QKeySequence::Save, this, [this] { save(); });
    file->addAction(tr("Save &As…"), QKeySequence::SaveAs, this, [this] { saveAsWithDialog(); });
    file->addSeparator();
    exports_->addActions(file);
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);
    updateRecentMenu();
    populateExamplesMenu();

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
                        [this, kind] { addItem(kind); });

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
    connect(trails_->addAction(viewMenu_), &QAction::toggled, this, &MainWindow::updateTrail);
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

// --- Files ------------------------------------------------------------------------------

bool MainWindow::openFile(const QString& path, QString* error)
{
    QString why;
    if (isImportable(path.toStdString()))
        return importFile(path, error);
    // Load first: a file that cannot be read must not cost the current run or model.
    DocumentResult probe = readModelDocument(path.toStdString());
    if (!probe.document) {
        if (error)
            *error = QString::fromStdString(formatDiagnostics(probe.diagnostics));
        return false;
    }
    stopRun();
    if (!document_->open(path, &why)) {
        if (error)
            *error = why;
        return false;
    }
    addRecentFile(QFileInfo(path).absoluteFilePath());
    // A model that does not assemble keeps the explanation the posing feature gave.
    if (!posing_->explanation() || posing_->explanation()->closed)
        statusBar()->showMessage(document_->statusText());
    return true;
}

bool MainWindow::importFile(const QString& path, QString* error)
{
    const ImportResult imported = importModel(path.toStdString());
    if (!imported.ok()) {
        if (error)
            *error = QString::fromStdString(formatDiagnostics(imported.diagnostics));
        return false;
    }
    stopRun();
    // A new, unsaved model: Save asks where to write it in the model format.
    document_->restore(*imported.document, QString());
    importReport_.clear();
    for (const std::string& line : imported.report)
        importReport_ << QString::fromStdString(line);
    statusBar()->showMessage(tr("Imported %1: %2 bodies, %3 joints%4")
                                 .arg(QFileInfo(path).fileName())
                                 .arg(imported.document->bodies.size())
                                 .arg(imported.document->joints.size())
                                 .arg(importReport_.isEmpty() ? QString() : tr("; %n note(s) in File → Import Notes", "", int(importReport_.size()))));
    return true;
}

void MainWindow::showImportNotes()
{
    QMessageBox* box = new QMessageBox(QMessageBox::Information, tr("What the import left out"),
                                       importReport_.isEmpty() ? tr("The last import took over everything.")
                                                               : QStringLiteral("• ") + importReport_.join(QStringLiteral("\n• ")),
                                       QMessageBox::Close, this);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

void MainWindow::importWithDialog()
{
    if (!maybeSave())
        return;
    const QString path = QFileDialog::getOpenFileName(this, tr("Import URDF or MJCF"), examplesDirectory(),
                                                      tr("Robot descriptions (*.urdf *.xml *.mjcf)"));
    if (path.isEmpty())
        return;
    QString error;
    if (!importFile(path, &error))
        QMessageBox::critical(this, tr("Cannot import"), error);
}

bool MainWindow::saveFile(const QString& path, QString* error)
{
    if (!document_->saveAs(path, error))
        return false;
    addRecentFile(QFileInfo(path).absoluteFilePath());
    statusBar()->showMessage(tr("Saved %1").arg(QFileInfo(path).fileName()), 4000);
    return true;
}

bool MainWindow::maybeSave()
{
    if (!document_->isModified() || !confirm_)
        return true;
    const auto answer = QMessageBox::warning(this, tr("Unsaved changes"),
                                             tr("The model has unsaved changes. Save them?"),
                                             QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel);
    if (answer == QMessageBox::Save)
        return save();
    return answer == QMessageBox::Discard;
}

void MainWindow::newModel()
{
    stopRun();
    document_->newDocument();
}

void MainWindow::openWithDialog()
{
    if (!maybeSave())
        return;
    const QString start = document_->filePath().isEmpty() ? examplesDirectory() : QFileInfo(document_->filePath()).path();
    const QString path = QFileDialog::getOpenFileName(this, tr("Open model"), start, tr("LoopLab models (*.json)"));
    if (!path.isEmpty())
        openInteractively(path);
}

void MainWindow::openInteractively(const QString& path)
{
    QString error;
    if (!openFile(path, &error))
        QMessageBox::critical(this, tr("Cannot open model"), error);
}

bool MainWindow::save()
{
    if (document_->filePath().isEmpty())
        return saveAsWithDialog();
    QString error;
    if (!saveFile(document_->filePath(), &error)) {
        QMessageBox::critical(this, tr("Cannot save model"), error);
        return false;
    }
    return true;
}

bool MainWindow::saveAsWithDialog()
{
    QString path =
        QFileDialog::getSaveFileName(this, tr("Save model"), document_->filePath(), tr("LoopLab models (*.json)"));
    if (path.isEmpty())
        return false;
    path = modelSavePath(path);
    QString error;
    if (!saveFile(path, &error)) {
        QMessageBox::critical(this, tr("Cannot save model"), error);
        return false;
    }
    return true;
}

void MainWindow::addRecentFile(const QString& path)
{
    QSettings settings;
    QStringList files = settings.value(kRecentKey).toStringList();
    files.removeAll(path);
    files.prepend(path);
    while (files.size() > kMaxRecentFiles)
        files.removeLast();
    settings.setValue(kRecentKey, files);
    updateRecentMenu();
}

void MainWindow::updateRecentMenu()
{
    recentMenu_->clear();
    const QStringList files = QSettings().value(kRecentKey).toStringList();
    for (const QString& f : files) {
        recentMenu_->addAction(QFileInfo(f).fileName(), this, [this, f] {
            if (maybeSave())
                openInteractively(f);
        })->setToolTip(f);
    }
    recentMenu_->setEnabled(!files.isEmpty());
}

void MainWindow::populateExamplesMenu()
{
    examplesMenu_->clear();
    const QStringList files = exampleFiles();
    for (const QString& f : files)
        examplesMenu_->addAction(QFileInfo(f).completeBaseName(), this, [this, f] {
            if (maybeSave())
                openInteractively(f);
        });
    examplesMenu_->setEnabled(!files.isEmpty());
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
    if (!maybeSave()) {
        event->ignore();
        return;
    }
    stopRun();
    // Saved or discarded: nothing left to restore.
    journal_->discard();
    event->accept();
}

void MainWindow::updateJournal()
{
    if (!document_->isModified()) {
        journal_->discard();
        return;
    }
    JournalEntry entry;
    entry.modelJson = QString::fromStdString(serializeModelDocument(document_->document()));
    entry.filePath = document_->filePath();
    QString error;
    if (!journal_->write(entry, &error)) {
        if (!journalFailed_)
            statusBar()->showMessage(tr("Unsaved changes cannot be journaled: %1").arg(error), 8000);
        journalFailed_ = true;
        return;
    }
    journalFailed_ = false;
}

bool MainWindow::restoreFromJournal(JournalRestore how)
{
    const std::vector<JournalEntry> orphans = journal_->orphans();
    if (orphans.empty())
        return false;
    const JournalEntry& newest = orphans.front();
    const QString name = newest.untitled() ? tr("an untitled model") : QFileInfo(newest.filePath).fileName();
    bool restore = how == JournalRestore::Restore;
    if (how == JournalRestore::Ask) {
        QMessageBox box(QMessageBox::Question, tr("Restore unsaved changes"),
                        tr("LoopLab did not close properly while %1 had unsaved changes (last change %2).\n"
                           "Restore them?")
                            .arg(name, QDateTime::fromSecsSinceEpoch(newest.writtenAt).toString()),
                        QMessageBox::NoButton, this);
        QPushButton* yes = box.addButton(tr("Restore"), QMessageBox::AcceptRole);
        box.addButton(tr("Discard"), QMessageBox::DestructiveRole);
        box.setDefaultButton(yes);
        box.exec();
        restore = box.clickedButton() == yes;
    }
    if (!restore) {
        journal_->discardOrphan(newest);
        return false;
    }
    const DocumentResult read = parseModelDocument(newest.modelJson.toStdString(), newest.filePath.toStdString());
    if (!read.document) {
        // Kept, not discarded: the user may still want to recover it by hand.
        QMessageBox::warning(this, tr("Cannot restore"),
                             tr("The journal %1 does not hold a readable model:\n%2")
                                 .arg(newest.journalFile, QString::fromStdString(formatDiagnostics(read.diagnostics))));
        return false;
    }
    stopRun();
    document_->restore(*read.document, newest.filePath);
    // This window journals the restored document (it is modified) before the old
    // journal goes.
    if (journal_->hasJournal())
        journal_->discardOrphan(newest);
    statusBar()->showMessage(tr("Restored unsaved changes of %1").arg(name), 8000);
    return true;
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event)
{
    if (!modelPathOf(event->mimeData()).isEmpty())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event)
{
    const QString path = modelPathOf(event->mimeData());
    if (path.isEmpty())
        return;
    event->acceptProposedAction();
    if (maybeSave())
        openInteractively(path);
}

// --- Model and scene --------------------------------------------------------------------

void MainWindow::onDocumentReset()
{
    dropModes();
    recording_.reset();
    playback_->sourceChanged();
    traces_->documentOpened();
    posing_->recordedFrameShown(-1);
    // A run of another model cannot be compared with the next ones.
    plots_->clearComparison();
    plots_->clear();
    watch_->recordingChanged();
    pendingPlotFrames_.clear();
    warnings_->clear();
    // How the previous model's last run ended is not this one's.
    runPanel_->setMessage({});
    runPanel_->setProgress(0.0, 1.0, 0.0);
    properties_->setItem({});
    sceneModel_.reset();
    // Another model: its solids are new even where they look like the old ones, so the
    // view starts over (camera, trails), looking against its gravity.
    viewport_->setScene(flexibleView_->prepare({}));
    viewport_->setUpAxis(VtkViewport::upAxisAgainst(document_->document().gravity));
    trails_->forgetAll();
    refreshScene();
    // Drawn and framed: the model's own camera, if it has one, replaces the framing.
    presentation_->applyCamera();
    updateRunState();
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
        refreshScene();
        // A model that no longer assembles keeps the posing's message: its cause first.
        if (!recording_.isEmpty() && document_->loaded().ok())
            statusBar()->showMessage(tr("%1 — the view shows the edited model; the recording is of the model "
                                        "before the edit (Run to record the edited one)")
                                         .arg(document_->statusText()));
    }
    updateRunState();
}

void MainWindow::refreshScene()
{
    // A pose being made, or the best pose of a document that does not assemble.
    if (posing_->showDocument()) {
        onTreeSelection();
        return;
    }
    const LoadedModel& good = document_->lastGoodModel();
    if (!good.ok()) {
        if (sceneModel_ || document_->document().bodies.empty()) {
            viewport_->setScene(flexibleView_->prepare({}));
            sceneModel_.reset();
            trails_->forgetDrawn();
        }
        return;
    }
    drawScene(buildScene(*good.model, good.initial), *good.model);
    sceneModel_ = good.model;
    onTreeSelection();
}

void MainWindow::drawScene(const Scene& scene, const Model& model)
{
    if (viewport_->setScene(flexibleView_ ? flexibleView_->prepare(scene) : scene)) {
        // New solids: look at them against gravity. Their trails went with the old ones;
        // the selection starts the trail again.
        viewport_->setUpAxis(VtkViewport::upAxisAgainst(model.gravity));
        trails_->forgetDrawn();
    }
}

void MainWindow::showFrame(int frame)
{
    const FrameSource* source = playback_->source();
    if (!source || frame < 0 || frame >= source->frameCount())
        return;
    // A jump back would join the trail's end to an earlier place: the trail starts again
    // at the frame shown.
    const bool jumpedBack = frame < lastShownFrame_;
    lastShownFrame_ = frame;
    if (posing_)
        posing_->recordedFrameShown(source == &recording_ ? frame : -1);
    // The view shows the frames only while it shows their model (a document opened
    // since has its own scene).
    const std::shared_ptr<const Model> model = source->frameModel();
    if (model && model == sceneModel_)
        drawScene(source->frameScene(frame), *model);
    if (jumpedBack)
        trails_->restart();
    // A mode animation's time is the animation's, not the run's.
    if (source == &recording_)
        plots_->setCursorTime(source->frameTime(frame));
    watch_->frameShown(source, frame);
}

// --- Selection ------------------------------------------------------------------------

void MainWindow::selectItem(ItemRef item)
{
    const QModelIndex index = item.valid() ? treeModel_->itemIndex(item) : QModelIndex();
    if (index.isValid()) {
        treeView_->setCurrentIndex(index);
        treeView_->scrollTo(index);
    } else {
        treeView_->selectionModel()->clearSelection();
        treeView_->setCurrentIndex({});
    }
}

ItemRef MainWindow::selectedItem() const { return treeModel_->itemAt(treeView_->currentIndex()); }

void MainWindow::onTreeSelection()
{
    const ItemRef item = selectedItem();
    if (properties_->item() != item)
        properties_->setItem(item);
    int body = -1;
    std::vector<int> joints;
    if (sceneModel_ && item.valid()) {
        const std::string name = itemName(document_->document(), item);
        if (item.kind == ItemKind::Body || item.kind == ItemKind::Beam || item.kind == ItemKind::Solid) {
            if (auto b = sceneModel_->findBody(name))
                body = sceneBodyIndex(*b);
        } else if (item.kind == ItemKind::Joint) {
            if (auto j = sceneModel_->findJoint(name))
                joints.push_back(j->value());
        }
    }
    viewport_->setHighlightedBody(body);
    viewport_->setHighlightedJoints(joints);
    // A trail follows a rigid body's centre of mass; a mesh has no such point.
    selectedBody_ = item.kind == ItemKind::Body ? body : -1;
    updateTrail();
}

void MainWindow::updateTrail() { trails_->update(sceneModel_.get(), selectedBody_); }

bool MainWindow::setTrailNode(const QString& name, QString* error)
{
    return trails_->setNode(name, sceneModel_.get(), error);
}

void MainWindow::onBodyPicked(int index)
{
    if (!sceneModel_ || index < 0)
        return;
    std::string name;
    for (int b = 0; b < sceneModel_->bodyCount(); ++b)
        if (sceneBodyIndex(BodyIndex(b)) == index)
            name = sceneModel_->body(BodyIndex(b)).name;
    if (name.empty())
        return;
    const ModelDocument& doc = document_->document();
    for (ItemKind kind : {ItemKind::Body, ItemKind::Beam, ItemKind::Solid})
        for (int i = 0; i < itemCount(doc, kind); ++i)
            if (itemName(doc, {kind, i}) == name)
                selectItem({kind, i});
}

void MainWindow::onJointPicked(int index)
{
    if (!sceneModel_ || index < 0 || index >= static_cast<int>(sceneModel_->joints.size()))
        return;
    const std::string& name = sceneModel_->joints[static_cast<size_t>(index)].name;
    const auto& joints = document_->document().joints;
    for (size_t i = 0; i < joints.size(); ++i)
        if (joints[i].name == name)
            selectItem({ItemKind::Joint, static_cast<int>(i)});
}

// --- Tree editing -----------------------------------------------------------------------

void MainWindow::onTreeContextMenu(const QPoint& pos)
{
    const QModelIndex index = treeView_->indexAt(pos);
    const ItemKind kind = treeModel_->kindAt(index);
    const ItemRef item = treeModel_->itemAt(index);
    QMenu menu(this);
    menu.addAction(tr("Add %1").arg(ModelTreeModel::kindName(kind)), this, [this, kind] { addItem(kind); });
    if (item.valid()) {
        menu.addAction(tr("Duplicate"), this, [this, item] { duplicateItem(item); });
        menu.addAction(tr("Rename"), this, [this, index] { treeView_->edit(index); });
        menu.addAction(tr("Delete"), this, [this, item] { deleteItem(item); });
        if (item.kind == ItemKind::Beam || item.kind == ItemKind::Solid) {
            const QString member = QString::fromStdString(itemName(document_->document(), item));
            menu.addAction(tr("Trail of a Node…"), this, [this, member] {
                trails_->chooseNode(member, document_->document(), sceneModel_.get());
            });
        }
        if (!trails_->node().isEmpty())
            menu.addAction(tr("Remove the Trail of %1").arg(trails_->node()), this, [this] { setTrailNode({}); });
        if (item.kind == ItemKind::Body) {
            const QString body = QString::fromStdString(itemName(document_->document(), item));
            menu.addAction(tr("Trace a Point of This Body…"), this, [this, body] {
                traces_->addTraceInteractively(body);
                if (auto* dock = qobject_cast<QDockWidget*>(traces_->parentWidget()))
                    dock->raise();
            });
        }
    }
    menu.exec(treeView_->viewport()->mapToGlobal(pos));
}

void MainWindow::addItem(ItemKind kind)
{
    ItemRef added;
    const LoadedModel loaded = document_->loaded();
    document_->edit(tr("Add %1").arg(ModelTreeModel::kindName(kind)), [kind, &added, &loaded](ModelDocument& doc) {
        added = looplab::ui::addItem(doc, kind, &loaded);
    });
    if (added.valid())
        selectItem(added);
    else if (kind == ItemKind::NodeSet)
        statusBar()->showMessage(tr("A node set lists nodes of beams and solids: add a beam or solid first"));
}

void MainWindow::duplicateItem(ItemRef item)
{
    ItemRef copy;
    document_->edit(tr("Duplicate %1").arg(QString::fromStdString(itemName(document_->document(), item))),
                    [item, &copy](ModelDocument& doc) { copy = looplab::ui::duplicateItem(doc, item); });
    if (copy.valid())
        selectItem(copy);
}

void MainWindow::deleteItem(ItemRef item)
{
    const QString name = QString::fromStdString(itemName(document_->document(), item));
    const Dependants deps = dependantsOf(document_->document(), item);
    if (!deps.empty() && confirm_) {
        QStringList names;
        for (const auto* list : {&deps.joints, &deps.drivers, &deps.couplers, &deps.forces, &deps.markers})
            for (const std::string& n : *list)
                names << QString::fromStdString(n);
        const auto answer = QMessageBox::question(
            this, tr("Delete %1").arg(name),
            tr("%1 is used by: %2.\nDelete it together with these items?").arg(name, names.join(", ")),
            QMessageBox::Yes | QMessageBox::Cancel, QMessageBox::Cancel);
        if (answer != QMessageBox::Yes)
            return;
    }
    selectItem({});
    document_->edit(tr("Delete %1").arg(name), [item](ModelDocument& doc) { removeItem(doc, item); });
}

// --- Simulation ---------------------------------------------------------------------------

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

bool MainWindow::isRunning() const { return runner_->isRunning(); }

bool MainWindow::startRun()
{
    const LoadedModel& loaded = document_->loaded();
    if (!loaded.ok()) {
        statusBar()->showMessage(tr("Cannot run: %1").arg(document_->statusText()));
        return false;
    }
    const SimulationSettings settings = runPanel_->settings();
    const std::shared_ptr<const Model> runModel = loaded.model;
    // The run's frames take over playback and the view.
    showRecording();
    QStringList coordinates;
    const JointCoordinateTracker tracker(*runModel);
    for (const JointCoordinate& c : tracker.coordinates())
        coordinates << QString::fromStdString(c.name);
    // The label names the run when it is kept for comparison with another method.
    const QString label =
        QString("%1 / %2").arg(QString::fromStdString(settings.method), QString::fromStdString(settings.integrator));
    recording_.reset(runModel, coordinates, jointQuantities(*runModel), label);
    playback_->sourceChanged();
    traces_->sourceChanged();
    playback_->setInteractive(false);
    plots_->clear();
    watch_->recordingChanged();
    pendingPlotFrames_.clear();
    warnings_->clear();
    runPanel_->setMessage({});
    // The view must show the model being simulated, even if an earlier version was shown;
    // if it already does, rebuilding its actors would only delay the first frame.
    if (sceneModel_ != runModel)
        refreshScene();
    else
        drawScene(buildScene(*runModel, loaded.initial), *runModel);
    lastShownFrame_ = -1;
    trails_->restart();
    runEnd_ = settings.tEnd;
    runner_->start(runModel, loaded.initial, settings, runPanel_->pace());
    runPanel_->setProgress(loaded.initial.t, runEnd_, 0.0);
    updateRunState();
    return true;
}

void MainWindow::pauseRun()
{
    runner_->pause();
    updateRunState();
}

void MainWindow::resumeRun()
{
    runner_->resume();
    updateRunState();
}

void MainWindow::stopRun()
{
    runner_->stop();
}

void MainWindow::resetRun()
{
    if (isRunning())
        return;
    showRecording();
    recording_.reset();
    playback_->sourceChanged();
    traces_->sourceChanged();
    plots_->clear();
    watch_->recordingChanged();
    pendingPlotFrames_.clear();
    warnings_->clear();
    runPanel_->setProgress(0.0, 1.0, 0.0);
    runPanel_->setMessage({});
    refreshScene();
    lastShownFrame_ = -1;
    trails_->restart();
    updateRunState();
}

void MainWindow::onFrames(const FrameBatch& batch)
{
    const int first = recording_.frameCount();
    recording_.append(batch);
    // Only the batch's last frame is shown; a trail needs the ones before it too.
    if (trails_->any() && sceneModel_ && recording_.frameModel() == sceneModel_ &&
        playback_->source() == &recording_)
        for (int i = first; i + 1 < recording_.frameCount(); ++i)
            drawScene(recording_.frameScene(i), *sceneModel_);
    // Charts redraw slowly (Qt Charts recomputes every series when an axis grows), so
    // their frames are gathered and handed over at most every plotInterval_ ms, in an
    // event-loop iteration of their own rather than together with the 3D view.
    pendingPlotFrames_.insert(pendingPlotFrames_.end(), batch.frames.begin(), batch.frames.end());
    if (!plotFlush_.isActive())
        plotFlush_.start();
    for (const SimulationEvent& e : batch.events) {
        warnings_->addEvent(e);
        if (e.kind == RunEventKind::SingularConfiguration)
            plots_->addSingularMarker(e.t);
    }
    if (playback_->source() != &recording_)
        return;
    playback_->sourceChanged();
    if (!recording_.isEmpty()) {
        playback_->setCurrentFrame(recording_.frameCount() - 1);
        const double t = recording_.endTime();
        // The worker's clock, so queueing and painting delays do not count.
        const double wall = batch.wallTime;
        runPanel_->setProgress(t, runEnd_, wall > 0.0 ? (t - recording_.startTime()) / wall : 0.0);
    }
}

void MainWindow::flushPlotFrames()
{
    plotFlush_.stop();
    if (pendingPlotFrames_.empty())
        return;
    plots_->appendFrames(pendingPlotFrames_);
    watch_->recordingChanged();
    pendingPlotFrames_.clear();
}

void MainWindow::onRunFinished(const RunSummary& summary)
{
    flushPlotFrames();
    playback_->setInteractive(true);
    bool failureReported = false;
    for (const SimulationEvent& e : recording_.events())
        failureReported = failureReported || e.kind == RunEventKind::Failure;
    QString text;
    if (summary.ok)
        text = tr("Finished at t = %1 s in %2 s (%3 steps)")
                   .arg(summary.tFinal, 0, 'f', 3)
                   .arg(summary.wallTime, 0, 'f', 2)
                   .arg(summary.steps);
    else if (summary.stopped)
        text = tr("Stopped at t = %1 s").arg(summary.tFinal, 0, 'f', 3);
    else {
        text = tr("Failed at t = %1 s: %2").arg(summary.tFinal, 0, 'f', 3).arg(summary.message);
        if (!failureReported)
            warnings_->addMessage("failure", summary.message, summary.tFinal);
    }
    runPanel_->setMessage(text);
    statusBar()->showMessage(text, 8000);
    watch_->runFinished();
    updateRunState();
    emit runFinished(summary);
}

void MainWindow::onWarningActivated(const QString& kind, double t, const QStringList& joints)
{
    if (t >= 0.0 && !isRunning())
        playback_->seekTime(t);
    // Where a run passed a singular configuration, the direction it could not move in is
    // drawn at that frame (the warning says it only in words).
    const int frame = playback_->currentFrame();
    if (kind == "singular_configuration" && t >= 0.0 && !isRunning() && playback_->source() == &recording_ &&
        frame >= 0 && recording_.frameModel() == sceneModel_ && sceneModel_)
        posing_->showRecordedSingularity(*sceneModel_, recording_.frameState(frame),
                                         recording_.frameState(std::min(frame + 1, recording_.frameCount() - 1)), t,
                                         frame);
    std::vector<int> indices;
    if (sceneModel_)
        for (const QString& name : joints)
            if (auto j = sceneModel_->findJoint(name.toStdString()))
                indices.push_back(j->value());
    viewport_->setHighlightedJoints(indices);
}

void MainWindow::updateRunState()
{
    runPanel_->setState(document_->loaded().ok(), runner_->isRunning(), runner_->isPaused(), !recording_.isEmpty());
    // Every edit rebuilds the model, so a recording of another model object is of the
    // document before an edit (an undo back to it included: its frames are not drawn).
    playback_->setRecordingOfPreviousModel(!recording_.isEmpty() && recording_.frameModel() != document_->loaded().model);
    posing_->setPosingEnabled(!runner_->isRunning() && recording_.isEmpty());
    QStringList drivers;
    if (const std::shared_ptr<const Model> model = recording_.frameModel())
        for (const Driver& d : model->drivers)
            drivers << QString::fromStdString(d.name);
    modesPanel_->setAvailability(document_->loaded().ok(), drivers, !recording_.isEmpty() && !isRunning());
}

// --- Modes ------------------------------------------------------------------------------

bool MainWindow::computeModes()
{
    const LoadedModel& loaded = document_->loaded();
    if (!loaded.ok()) {
        ModesComputation refused;
        refused.message = tr("the model does not build: %1").arg(document_->statusText());
        onModesFinished(refused);
        return false;
    }
    ModesOptions options;
    QString error;
    if (!modesPanel_->modesOptions(options, &error)) {
        ModesComputation refused;
        refused.message = error;
        onModesFinished(refused);
        return false;
    }
    // The old table's animation would outlive the table.
    showRecording();
    lastModes_ = {};
    modesPanel_->clearResults();
    // Started first: starting cancels what still runs, whose end would clear the busy state.
    modesRunner_->computeModes(loaded.model, loaded.initial, StaticsOptions{}, options);
    modesPanel_->setBusy(true);
    return true;
}

bool MainWindow::computeModesAlongRecording()
{
    const std::shared_ptr<const Model> model = recording_.frameModel();
    const QString driver = modesPanel_->alongDriver();
    if (!model || recording_.isEmpty() || isRunning() || driver.isEmpty())
        return false;
    ModesOptions options;
    QString error;
    if (!modesPanel_->modesOptions(options, &error)) {
        AlongMotionComputation refused;
        refused.message = error;
        onAlongMotionFinished(refused);
        return false;
    }
    // Postures evenly spread over the recorded time; the sweep starts from the recorded
    // configuration at the first one.
    const int n = modesPanel_->alongSteps();
    const double t0 = recording_.startTime(), t1 = recording_.endTime();
    std::vector<double> times;
    for (int i = 0; i < n; ++i)
        times.push_back(n == 1 ? t0 : t0 + (t1 - t0) * i / (n - 1));
    State start = recording_.frameState(recording_.frameAt(t0));
    start.t = t0;
    modesRunner_->computeAlongMotion(model, start, driver, times, StaticsOptions{}, options);
    modesPanel_->setBusy(true);
    return true;
}

void MainWindow::onModesFinished(const ModesComputation& result)
{
    modesPanel_->setBusy(false);
    if (!result.cancelled)
        lastModes_ = result;
    modesPanel_->showModes(result);
    if (!result.ok && !result.cancelled)
        statusBar()->showMessage(tr("Modes: %1").arg(result.message), 8000);
    emit modesFinished(result);
}

void MainWindow::onAlongMotionFinished(const AlongMotionComputation& result)
{
    modesPanel_->setBusy(false);
    modesPanel_->showAlongMotion(result);
    emit modesAlongMotionFinished(result);
}

void MainWindow::animateMode(int row)
{
    if (row < 0 || !lastModes_.ok || row >= static_cast<int>(lastModes_.modes.modes.size())) {
        showRecording();
        return;
    }
    const bool first = !animation_;
    if (first)
        recordingFrame_ = playback_->currentFrame();
    playback_->pause();
    animation_ = std::make_unique<ModeShapeAnimation>(lastModes_.model, lastModes_.equilibrium,
                                                      lastModes_.modes.modes[static_cast<size_t>(row)].shape);
    animatedMode_ = row;
    animation_->setAmplitudeFraction(modesPanel_->amplitudeFraction());
    // The view draws the frames of the model the modes belong to.
    if (sceneModel_ != lastModes_.model) {
        drawScene(animation_->frameScene(0), *lastModes_.model);
        sceneModel_ = lastModes_.model;
    }
    playback_->setSource(animation_.get());
    playback_->sourceChanged();
    playback_->setInteractive(true);
    playback_->setLoop(true);
    lastShownFrame_ = -1;
    trails_->restart();
    playback_->setCurrentFrame(0);
    // The equilibrium may lie far from where the view was framed (a pendulum released
    // from above hangs below its pivot).
    if (first)
        viewport_->fitToView();
    keepModeSwingInView();
    playback_->play();
}

void MainWindow::keepModeSwingInView()
{
    // Amplitude and exaggeration multiply: the whole swing as drawn stays in the picture.
    if (animation_ && !watch_->camera()->showsWholeRun(*animation_))
        watch_->camera()->fitToRun(*animation_);
}

void MainWindow::showRecording()
{
    if (!animation_)
        return;
    playback_->pause();
    playback_->setSource(&recording_);
    playback_->sourceChanged();
    playback_->setInteractive(!isRunning());
    animation_.reset();
    animatedMode_ = -1;
    // The model at rest, without ghosts; then the recorded frame that was shown.
    refreshScene();
    lastShownFrame_ = -1;
    trails_->restart();
    if (!recording_.isEmpty())
        playback_->setCurrentFrame(recordingFrame_ >= 0 ? recordingFrame_ : recording_.frameCount() - 1);
    recordingFrame_ = -1;
    if (modesPanel_->selectedMode() >= 0)
        modesPanel_->selectMode(-1);
}

void MainWindow::dropModes()
{
    if (!lastModes_.ok && !animation_ && !modesRunner_->isBusy())
        return;
    modesRunner_->cancel();
    showRecording();
    lastModes_ = {};
    modesPanel_->clearResults();
}

}  // namespace looplab::ui
