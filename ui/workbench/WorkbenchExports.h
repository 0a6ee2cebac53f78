#pragma once
// The workbench's File → Export entries: plot data and pictures, the 3D view's picture,
// the mode table, and videos of the recording or of a mode's swing. A video looks like
// the view (camera, grid, traces, arrows, colour map, exaggeration) and has the time in
// its corner. Files go beside the model's file by default (ExportFolder.h), and an export
// from a dialog ends by naming the file with a button that opens its folder.

#include "plotting/PlotPanel.h"

#include <QObject>
#include <QString>

#include <functional>

class QMenu;

namespace looplab::ui {

class MainWindow;
struct AnimationExportSettings;
struct ModeVideoCycles;

class WorkbenchExports : public QObject {
    Q_OBJECT

public:
    explicit WorkbenchExports(MainWindow& window);

    /// Adds the export entries to `file` (the File menu).
    void addActions(QMenu* file);

    /// Writes the recording as a video (export/AnimationExportJob.h) as the view shows
    /// it, behind a progress dialog that can cancel; false with *error (empty if cancelled).
    bool exportAnimation(const AnimationExportSettings& settings, QString* error = nullptr);
    /// Writes the mode animated in the view as a video of `cycles` whole periods of its
    /// swing, at the amplitude shown and over the equilibrium's ghost, as the view shows
    /// it; false with *error (empty if cancelled).
    bool exportModeAnimation(const AnimationExportSettings& settings, const ModeVideoCycles& cycles,
                             QString* error = nullptr);
    /// Writes the last mode table as CSV to `path` (atomically); false with the reason.
    bool exportModeTable(const QString& path, QString* error = nullptr);

    /// The dialogs' ways to the same: each asks for a file, starting beside the model.
    void exportAnimationWithDialog();
    void exportModeAnimationWithDialog();
    void exportModeTableWithDialog();
    void exportPlotDataWithDialog();
    void exportPlotImageWithDialog(PlotPanel::Chart chart);
    void saveViewImageWithDialog();

private:
    /// `settings` with what the view shows besides the mechanism: the Flexible Bodies
    /// view's field and exaggeration, and the grid.
    AnimationExportSettings asTheViewShows(AnimationExportSettings settings) const;
    /// A save dialog titled `title` starting at `fileName` beside the model; empty if cancelled.
    QString askForPath(const QString& title, const QString& fileName, const QString& filter);
    /// The open model's file name without its extension, or `fallback`.
    QString modelBaseName(const QString& fallback) const;
    /// Asks for a file (askForPath), writes it with `write`, and names the file written
    /// (`what` it holds) or shows why not.
    void writeWithDialog(const QString& title, const QString& fileName, const QString& filter,
                         const std::function<bool(const QString&, QString*)>& write, const QString& what);

    MainWindow& window_;
};

}  // namespace looplab::ui
