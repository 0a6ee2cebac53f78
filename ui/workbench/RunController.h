#pragma once
// The window's side of the run session (run/RunSession.h): the run panel's and the
// Simulation menu's requests turned into the session's operations, and the window's panels
// subscribed to the session's signals, each to what it shows: the recording to the playback
// bar, the view and (gathered, at a slower pace) the charts; events to the warnings; how a
// run ended to the run panel and the status bar.

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
class RunSession;
class SceneDisplay;
class TracePanel;
class WarningsPanel;
class WatchFeature;
class WorkbenchDocument;

class RunController : public QObject {
    Q_OBJECT

public:
    RunController(QMainWindow* window, WorkbenchDocument* document, RunSession* session, RunPanel* runPanel,
                  PlaybackBar* playback, TracePanel* traces, PlotPanel* plots, WarningsPanel* warnings,
                  WatchFeature* watch, PosingFeature* posing, ModesPanel* modesPanel, SceneDisplay* scene,
                  ModesController* modes);

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

private:
    void subscribeToSession();
    /// Playback follows the recording to its last frame, the run panel its time.
    void followRecording(const FrameBatch& batch);
    void queueForCharts(const FrameBatch& batch);
    void flushPlotFrames();
    /// How the run ended, in the run panel, the status bar and (a failure the run did not
    /// report itself) the warnings.
    void reportEnd(const RunSummary& summary);
    void onWarningActivated(const QString& kind, double t, const QStringList& joints);

    QMainWindow* window_;
    WorkbenchDocument* document_;
    RunSession* session_;
    RunPanel* runPanel_;
    PlaybackBar* playback_;
    TracePanel* traces_;
    PlotPanel* plots_;
    WarningsPanel* warnings_;
    WatchFeature* watch_;
    PosingFeature* posing_;
    ModesPanel* modesPanel_;
    SceneDisplay* scene_;
    ModesController* modes_;
    // Frames received but not yet drawn on the charts (see queueForCharts).
    std::vector<RecordedFrame> pendingPlotFrames_;
    QTimer plotFlush_;
    double runEnd_ = 0.0;
};

}  // namespace looplab::ui
