#pragma once
// The workbench's plot windows (PlotWindow.h), as many as the user opens, each a floating
// dock of the main window, all redrawn when the recording grows or the units change; and
// the Units menu (DisplayUnits.h).

#include <QObject>
#include <QPointer>

#include <vector>

class QMainWindow;
class QMenu;

namespace looplab::ui {

class PlotWindow;
class SimulationRecording;

class PlotWindows : public QObject {
    Q_OBJECT

public:
    PlotWindows(QMainWindow* mainWindow, const SimulationRecording* recording);

    /// Opens a new plot window (floating beside the main window).
    PlotWindow* addWindow();
    /// The open windows, oldest first.
    std::vector<PlotWindow*> windows() const;
    /// Redraws every window from the recording (call when it grew or was reset).
    void refreshAll();
    /// Marks recorded frame `frame` in every window (−1: none).
    void setCursorFrame(int frame);

    /// Adds "New Plot Window" and the Units submenu to `menu`.
    void addMenuEntries(QMenu* menu);

private:
    QMainWindow* mainWindow_;
    const SimulationRecording* recording_;
    std::vector<QPointer<PlotWindow>> windows_;
    int opened_ = 0;
    int cursorFrame_ = -1;
};

}  // namespace looplab::ui
