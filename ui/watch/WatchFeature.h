#pragma once
// Watching and measuring in the workbench, as one unit the main window hands a few
// events to: plot windows and display units (ui/plotting), arrows over the mechanism
// (ui/overlays/ArrowFeature.h) and the camera commands (ui/camera). The main window
// tells it when the recording changed, which frame is shown and which body is selected.

#include <QObject>

#include <functional>

class QDockWidget;
class QMainWindow;
class QMenu;
class QAction;

namespace looplab::ui {

class ArrowFeature;
class CameraController;
class FrameSource;
class PlotWindows;
class SimulationRecording;
class VtkViewport;

class WatchFeature : public QObject {
    Q_OBJECT

public:
    /// `selectedBody` gives the scene index of the body selected in the main window (−1
    /// if none). The arrows' panel becomes a dock tabbed with `tabWith`.
    WatchFeature(QMainWindow* mainWindow, VtkViewport* viewport, const SimulationRecording* recording,
                 std::function<int()> selectedBody, QDockWidget* tabWith);

    /// Adds the plot, units and camera entries to the View menu.
    void addMenuEntries(QMenu* view);

    /// The recording was reset or gained frames.
    void recordingChanged();
    /// A run ended: where part of its motion lies outside the picture (a pendulum swinging
    /// out of a view framed on its start), the camera frames the whole run; a picture that
    /// holds it all, or a followed body, stays as it is.
    void runFinished();
    /// Frame `frame` of `source` is shown (playback, or the live run).
    void frameShown(const FrameSource* source, int frame);

    PlotWindows* plotWindows() const { return plots_; }
    ArrowFeature* arrows() const { return arrows_; }
    CameraController* camera() const { return camera_; }
    QDockWidget* arrowDock() const { return arrowDock_; }
    QAction* followAction() const { return follow_; }

private:
    QMainWindow* mainWindow_;
    VtkViewport* viewport_;
    const SimulationRecording* recording_;
    std::function<int()> selectedBody_;
    PlotWindows* plots_;
    ArrowFeature* arrows_;
    CameraController* camera_;
    QDockWidget* arrowDock_;
    QAction* follow_ = nullptr;
};

}  // namespace looplab::ui
