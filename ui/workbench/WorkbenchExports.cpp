#include "workbench/WorkbenchExports.h"

#include "export/AnimationExportDialog.h"
#include "export/AnimationExportJob.h"
#include "export/AnimationExportProgress.h"
#include "export/AnimationTimeline.h"
#include "export/ExportDoneMessage.h"
#include "export/ExportFolder.h"
#include "export/ModeOscillationFrames.h"
#include "export/PlotsPicture.h"
#include "overlays/ArrowFeature.h"
#include "overlays/TracePanel.h"
#include "viewport/VtkViewport.h"
#include "watch/WatchFeature.h"
#include "workbench/FlexibleView.h"
#include "workbench/MainWindow.h"
#include "recording/ModeShapeAnimation.h"
#include "workbench/ModeTableCsv.h"
#include "workbench/ModesPanel.h"
#include "workbench/PlaybackBar.h"
#include "document/WorkbenchDocument.h"

#include <vtkCamera.h>
#include <vtkRenderer.h>

#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>
#include <QStatusBar>

#include <algorithm>
#include <functional>

namespace looplab::ui {

namespace {

int upAxisIndex(const VtkViewport& view) { return view.upAxis() == VtkViewport::UpAxis::Z ? 2 : 1; }

}  // namespace

WorkbenchExports::WorkbenchExports(MainWindow& window) : QObject(&window), window_(window)
{
    connect(window.plotPanel(), &PlotPanel::imageExportRequested, this, &WorkbenchExports::exportPlotImageWithDialog);
    connect(window.modesPanel(), &ModesPanel::exportRequested, this, &WorkbenchExports::exportModeTableWithDialog);
    connect(window.modesPanel(), &ModesPanel::videoExportRequested, this,
            &WorkbenchExports::exportModeAnimationWithDialog);
    connect(window.tracePanel(), &TracePanel::exportRequested, this, [this] {
        TracePanel* traces = window_.tracePanel();
        writeWithDialog(tr("Export Traces"), modelBaseName(tr("model")) + "-traces.csv", tr("CSV files (*.csv)"),
                        [traces](const QString& path, QString* error) { return traces->exportCsv(path, error); },
                        traces->traceCount() == 1 ? tr("1 trace") : tr("%1 traces").arg(traces->traceCount()));
    });
}

void WorkbenchExports::addActions(QMenu* file)
{
    file->addAction(tr("Export Plot Data (CSV)…"), this, &WorkbenchExports::exportPlotDataWithDialog);
    QMenu* plotImages = file->addMenu(tr("Export Plot Image (PNG)"));
    for (PlotPanel::Chart chart :
         {PlotPanel::Chart::Violation, PlotPanel::Chart::Energy, PlotPanel::Chart::JointQuantity})
        plotImages->addAction(tr("%1…").arg(PlotPanel::chartName(chart)), this,
                              [this, chart] { exportPlotImageWithDialog(chart); });
    file->addAction(tr("Export Mode Table (CSV)…"), this, &WorkbenchExports::exportModeTableWithDialog);
    file->addAction(tr("Save 3D View Image…"), this, &WorkbenchExports::saveViewImageWithDialog);
    file->addAction(tr("Export &Animation…"), this, &WorkbenchExports::exportAnimationWithDialog);
    file->addAction(tr("Export Traces (CSV)…"), window_.tracePanel(), &TracePanel::exportRequested);
}

QString WorkbenchExports::modelBaseName(const QString& fallback) const
{
    const QString path = window_.document()->filePath();
    return path.isEmpty() ? fallback : QFileInfo(path).completeBaseName();
}

QString WorkbenchExports::askForPath(const QString& title, const QString& fileName, const QString& filter)
{
    return QFileDialog::getSaveFileName(&window_, title, defaultExportPath(window_.document()->filePath(), fileName),
                                        filter);
}

void WorkbenchExports::writeWithDialog(const QString& title, const QString& fileName, const QString& filter,
                                       const std::function<bool(const QString&, QString*)>& write, const QString& what)
{
    const QString path = askForPath(title, fileName, filter);
    if (path.isEmpty())
        return;
    QString error;
    if (!write(path, &error))
        QMessageBox::critical(&window_, title, error);
    else
        showExportDone(&window_, path, what);
}

void WorkbenchExports::exportPlotDataWithDialog()
{
    PlotPanel* plots = window_.plotPanel();
    writeWithDialog(tr("Export Plot Data"), modelBaseName(tr("run")) + "-plots.csv", tr("CSV files (*.csv)"),
                    [plots](const QString& path, QString* error) { return plots->exportCsv(path, error); },
                    tr("the plots' series"));
}

void WorkbenchExports::exportPlotImageWithDialog(PlotPanel::Chart chart)
{
    const QString name = PlotPanel::chartName(chart);
    PlotPanel* plots = window_.plotPanel();
    writeWithDialog(tr("Save %1 Plot").arg(name),
                    QStringLiteral("%1-%2.png").arg(modelBaseName(tr("run")), name.toLower().replace(' ', '-')),
                    tr("PNG images (*.png)"),
                    [plots, chart](const QString& path, QString* error) { return plots->exportPng(chart, path, error); },
                    tr("the %1 plot").arg(name));
}

void WorkbenchExports::saveViewImageWithDialog()
{
    VtkViewport* view = window_.viewport();
    writeWithDialog(tr("Save 3D View"), modelBaseName(tr("model")) + "-view.png", tr("PNG images (*.png)"),
                    [view](const QString& path, QString* error) { return view->saveScreenshot(path, error); },
                    tr("the 3D view"));
}

bool WorkbenchExports::exportModeTable(const QString& path, QString* error)
{
    const ModesComputation& modes = window_.lastModes();
    if (!modes.ok || !modes.model) {
        if (error)
            *error = tr("There is no mode table to export: compute the modes first.");
        return false;
    }
    return writeModeTableCsv(path, *modes.model, modes.modes, error);
}

void WorkbenchExports::exportModeTableWithDialog()
{
    if (!window_.lastModes().ok) {
        QMessageBox::information(&window_, tr("Export mode table"), tr("Compute the modes first."));
        return;
    }
    writeWithDialog(tr("Export Mode Table"), modelBaseName(tr("model")) + "-modes.csv", tr("CSV files (*.csv)"),
                    [this](const QString& path, QString* error) { return exportModeTable(path, error); },
                    tr("%1 modes").arg(window_.lastModes().modes.modes.size()));
}

AnimationExportSettings WorkbenchExports::asTheViewShows(AnimationExportSettings settings) const
{
    if (const FlexibleView* flexible = window_.flexibleView()) {
        settings.flexibleField = flexible->field();
        settings.deformationScale = flexible->exaggeration();
    }
    settings.withGrid = window_.viewport()->isGridVisible();
    return settings;
}

bool WorkbenchExports::exportAnimation(const AnimationExportSettings& settings, QString* error)
{
    const SimulationRecording& recording = window_.recording();
    AnimationExportJob job(recording, asTheViewShows(settings));
    // The view's camera when it shows the recording's model; otherwise the job fits one.
    VtkViewport* view = window_.viewport();
    if (recording.frameModel() && recording.frameModel() == window_.drawnModel())
        job.setCamera(view->renderer()->GetActiveCamera(), upAxisIndex(*view));
    std::vector<std::vector<Eigen::Vector3d>> paths;
    for (const PointTrace& trace : window_.tracePanel()->traces())
        if (int(trace.positions.size()) == recording.frameCount())
            paths.push_back(trace.positions);
    job.setTraces(paths);
    const ArrowFeature* arrows = window_.watch()->arrows();
    job.setArrows(arrows->request(), arrows->scale());
    PlotPanel* plots = window_.plotPanel();
    const double cursor =
        recording.isEmpty() ? 0.0 : recording.frameTime(std::max(0, window_.playbackBar()->currentFrame()));
    job.setPlotPicture([plots](double t) { return plotsPicture(*plots, t); });
    const bool ok = runAnimationExport(job, &window_, error);
    plots->setCursorTime(cursor);
    if (ok)
        window_.statusBar()->showMessage(
            tr("Exported %1 frames to %2 (%3)").arg(job.framesDone()).arg(settings.path, job.codecName()), 8000);
    return ok;
}

void WorkbenchExports::exportAnimationWithDialog()
{
    // What playback shows is what gets exported.
    if (window_.modeAnimation()) {
        exportModeAnimationWithDialog();
        return;
    }
    const SimulationRecording& recording = window_.recording();
    if (recording.isEmpty()) {
        QMessageBox::information(&window_, tr("Export Animation"),
                                 tr("There is no recording to export: run the model first."));
        return;
    }
    AnimationExportSettings initial;
    initial.path = defaultExportPath(window_.document()->filePath(), modelBaseName(tr("animation")) + ".mp4");
    AnimationExportDialog dialog(initial, recording.endTime() - recording.startTime(), &window_);
    if (dialog.exec() != QDialog::Accepted)
        return;
    const AnimationExportSettings settings = dialog.settings();
    QString error;
    if (exportAnimation(settings, &error))
        showExportDone(&window_, settings.path,
                       tr("%1 frames of the run")
                           .arg(videoFrameCount(recording.startTime(), recording.endTime(), settings.fps)));
    else if (!error.isEmpty())
        QMessageBox::warning(&window_, tr("Export Animation"), error);
}

bool WorkbenchExports::exportModeAnimation(const AnimationExportSettings& settings, const ModeVideoCycles& cycles,
                                           QString* error)
{
    const ModeShapeAnimation* animation = window_.modeAnimation();
    if (!animation) {
        if (error)
            *error = tr("There is no mode shape to export: compute the modes and select one.");
        return false;
    }
    if (const QString why = ModeOscillationFrames::checkCycles(cycles, settings.fps); !why.isEmpty()) {
        if (error)
            *error = why;
        return false;
    }
    const ModeOscillationFrames frames(*animation, cycles, settings.fps);
    AnimationExportSettings modeSettings = asTheViewShows(settings);
    modeSettings.withPlots = false;
    AnimationExportJob job(frames, modeSettings);
    VtkViewport* view = window_.viewport();
    if (frames.frameModel() == window_.drawnModel())
        job.setCamera(view->renderer()->GetActiveCamera(), upAxisIndex(*view));
    const ArrowFeature* arrows = window_.watch()->arrows();
    job.setArrows(arrows->request(), arrows->scale());
    const int row = window_.animatedModeRow();
    const std::vector<Mode>& modes = window_.lastModes().modes.modes;
    const QString caption = row >= 0 && row < int(modes.size())
                                ? tr("Mode %1, %2 Hz").arg(row + 1).arg(modes[size_t(row)].frequencyHz, 0, 'g', 5)
                                : QString();
    // A swing's time is the video's, not the structure's: the mode and its frequency say more.
    job.setCaption([caption](double) { return caption; });
    // The view would compete with the export for the GUI thread; it resumes afterwards.
    PlaybackBar* playback = window_.playbackBar();
    const bool wasPlaying = playback->isPlaying();
    playback->pause();
    const bool ok = runAnimationExport(job, &window_, error);
    if (wasPlaying && window_.modeAnimation())
        playback->play();
    if (ok)
        window_.statusBar()->showMessage(tr("Exported %1 frames of mode %2 to %3 (%4)")
                                             .arg(job.framesDone())
                                             .arg(row + 1)
                                             .arg(settings.path, job.codecName()),
                                         8000);
    return ok;
}

void WorkbenchExports::exportModeAnimationWithDialog()
{
    const int row = window_.animatedModeRow();
    const std::vector<Mode>& modes = window_.lastModes().modes.modes;
    if (!window_.modeAnimation() || row < 0 || row >= int(modes.size())) {
        QMessageBox::information(&window_, tr("Export Mode Animation"),
                                 tr("There is no mode shape to export: compute the modes and select one."));
        return;
    }
    AnimationExportSettings initial;
    initial.path = defaultExportPath(window_.document()->filePath(),
                                     QStringLiteral("%1-mode-%2.mp4").arg(modelBaseName(tr("model"))).arg(row + 1));
    // The panel's own playback: one period every two seconds.
    initial.fps = ModeShapeAnimation::kFramesPerCycle * ModeShapeAnimation::kVisualFrequency;
    ModeVideoCycles cycles;
    cycles.framesPerPeriod = ModeShapeAnimation::kFramesPerCycle;
    const double hz = modes[size_t(row)].frequencyHz;
    AnimationExportDialog dialog(initial, cycles, tr("mode %1 (%2 Hz)").arg(row + 1).arg(hz, 0, 'g', 5), &window_);
    if (dialog.exec() != QDialog::Accepted)
        return;
    const AnimationExportSettings settings = dialog.settings();
    const ModeVideoCycles chosen = dialog.cycles();
    QString error;
    if (exportModeAnimation(settings, chosen, &error))
        showExportDone(&window_, settings.path,
                       tr("%1 frames, %2 periods of mode %3")
                           .arg(chosen.periods * chosen.framesPerPeriod)
                           .arg(chosen.periods)
                           .arg(row + 1));
    else if (!error.isEmpty())
        QMessageBox::warning(&window_, tr("Export Mode Animation"), error);
}

}  // namespace looplab::ui
