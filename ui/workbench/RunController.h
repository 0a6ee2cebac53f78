#pragma once
// A simulation run from the window: started with the run panel's settings, paused,
// resumed, stopped and reset; its frames recorded and handed to the playback bar, the view
// and (gathered, at a slower pace) the charts; its events to the warnings; how it ended to
// the run panel and the status bar.

#include "recording/RecordedFrame.h"

#include <QObject>
#include <QString>
#include <QStringList>
#include <QTimer>

#include <vector>

class QMainWindow;

namespace looplab::ui {

class ModesController;
class ModesPanel;
class PlaybackBar;
class PlotPanel;
class PosingFeature;
class RunPanel;
class SceneDisplay;
class SimulationRecording;
class SimulationRunner;
class TracePanel;
class WarningsPanel;
class WatchFeature;
class WorkbenchDocument;

class RunController : public QObject {
    Q_OBJECT

public:
    RunController(QMainWindow* window, WorkbenchDocument* document, SimulationRunner* runner, RunPanel* runPanel,
                  SimulationRecording* recording, PlaybackBar* playback, TracePanel* traces, PlotPanel* plots,
                  WarningsPanel* warnings, WatchFeature* watch, PosingFeature* posing, ModesPanel* modesPanel,
                  SceneDisplay* scene, ModesController* modes);

    /// As MainWindow::startRun.
    bool startRun();
    void pauseRun();
    void resumeRun();
    void stopRun();
    /// Forgets the recording and shows the initial state.
    void resetRun();
    bool isRunning() const;

    /// Another document: the recording, the charts, the warnings and how the last run
    /// ended were of the previous one.
    void forgetRecordingOfPreviousModel();
    /// The run panel's buttons, the playback bar, posing and the Modes panel follow the
    /// document, the run and the recording.
    void updateRunState();

signals:
    /// A run ended (success, failure or stop) and its last frames were received.
    void runFinished(const looplab::ui::RunSummary& summary);

private:
    void onFrames(const FrameBatch& batch);
    void flushPlotFrames();
    void onRunFinished(const RunSummary& summary);
    void onWarningActivated(const QString& kind, double t, const QStringList& joints);

    QMainWindow* window_;
    WorkbenchDocument* document_;
    SimulationRunner* runner_;
    RunPanel* runPanel_;
    SimulationRecording* recording_;
    PlaybackBar* playback_;
    TracePanel* traces_;
    PlotPanel* plots_;
    WarningsPanel* warnings_;
    WatchFeature* watch_;
    PosingFeature* posing_;
    ModesPanel* modesPanel_;
    SceneDisplay* scene_;
    ModesController* modes_;
    // Frames received but not yet drawn on the charts (see onFrames).
    std::vector<RecordedFrame> pendingPlotFrames_;
    QTimer plotFlush_;
    double runEnd_ = 0.0;
};

}  // namespace looplab::ui
