#pragma once
// GUI-side owner of the modal analysis thread: the static equilibrium and the modes about
// it (Statics.h, Modes.h), or the modes along a recorded motion (ModesAlongMotion.h), run
// on a BackgroundJob of their own so the window stays responsive. Like SimulationRunner,
// it forgets whatever belongs to a computation it has given up on: cancel() answers at
// once (the GUI never waits), a sweep also stops at its next posture, and a single
// equilibrium-and-modes computation that is already running is left to end and ignored.

#include "run/BackgroundJob.h"

#include "looplab/model/Model.h"
#include "looplab/analysis/Modes.h"
#include "looplab/analysis/ModesAlongMotion.h"
#include "looplab/model/State.h"
#include "looplab/analysis/Statics.h"

#include <QMetaType>
#include <QObject>
#include <QString>

#include <memory>
#include <vector>

namespace looplab::ui {

/// What one equilibrium-and-modes computation found.
struct ModesComputation {
    int id = 0;
    bool ok = false;        ///< an equilibrium was found and the modes about it
    bool cancelled = false;
    QString message;        ///< why not ok (the solver's reason), or a remark when ok
    std::shared_ptr<const Model> model;
    StaticsResult statics;
    State equilibrium;      ///< the configuration the modes are about
    ModesResult modes;
    /// Per mode, the share of its motion along x, y and z (ModeMotion.h).
    std::vector<Vec3> motionShares;
    double wallTime = 0.0;  ///< [s]
};

/// What one sweep of the modes along a recorded motion found.
struct AlongMotionComputation {
    int id = 0;
    bool ok = false;  ///< every posture gave an equilibrium and modes
    bool cancelled = false;
    QString message;
    QString driver;
    /// The recording's time of each posture [s], with the sweep's step there.
    std::vector<double> times;
    std::vector<AlongMotionStep> steps;
    double wallTime = 0.0;  ///< [s]
};

class ModesRunner : public QObject {
    Q_OBJECT

public:
    explicit ModesRunner(QObject* parent = nullptr);
    /// Cancels what runs and joins the thread; a single modes computation in progress is
    /// waited for (it has no point to stop at).
    ~ModesRunner() override;

    /// Finds the equilibrium from `start` and the modes about it; returns the id that
    /// progress() and modesFinished() carry. Cancels anything running first.
    int computeModes(std::shared_ptr<const Model> model, const State& start, const StaticsOptions& statics,
                     const ModesOptions& modes);
    /// Locks driver `driver` at its law's value at each of `times`, starting from
    /// `start` (the recording's state at the first time), and follows the modes.
    int computeAlongMotion(std::shared_ptr<const Model> model, const State& start, const QString& driver,
                           const std::vector<double>& times, const StaticsOptions& statics,
                           const ModesOptions& modes);
    /// Gives up on the current computation: finished signals with `cancelled` set follow
    /// at once, and whatever it still produces is dropped.
    void cancel();

    bool isBusy() const { return busy_; }

signals:
    /// A stage of computation `id` began: `done` of `total` steps (total 0: unknown).
    void progress(int id, const QString& stage, int done, int total);
    void modesFinished(const looplab::ui::ModesComputation& result);
    void alongMotionFinished(const looplab::ui::AlongMotionComputation& result);

private:
    int begin();

    int id_ = 0;
    bool busy_ = false;
    bool alongRunning_ = false;
    BackgroundJob job_;  ///< last: its thread ends before the rest of the runner goes
};

}  // namespace looplab::ui

Q_DECLARE_METATYPE(looplab::ui::ModesComputation)
Q_DECLARE_METATYPE(looplab::ui::AlongMotionComputation)
