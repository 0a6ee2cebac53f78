#pragma once
// The compact part of a simulation frame that the workbench keeps: enough to animate,
// plot and report, small enough to store thousands of frames and to pass between
// threads by value.

#include "looplab/simulation/Simulation.h"
#include "looplab/common/Types.h"

#include <QMetaType>

#include <string>
#include <vector>

namespace looplab::ui {

struct RecordedFrame {
    double t = 0.0;  ///< [s]
    /// Positions and velocities at t, in the layout of the run's model (State::q, State::v):
    /// the scene of the frame is built from them when it is shown, not for every frame.
    VecX q, v;
    /// v̇ at t (SimulationFrame::acceleration): for acceleration plots and arrows.
    VecX acceleration;
    Violations violation;
    double energy = 0.0;   ///< total mechanical energy [J]
    double kinetic = 0.0;  ///< kinetic energy [J]; the rest is potential (gravity, springs)
    double work = 0.0;     ///< work of drivers and loads since the start [J] (SimulationFrame::work)
    double smallestSingularValue = 0.0;
    int rank = 0;
    /// Joint coordinates in the order of JointCoordinateTracker::coordinates().
    std::vector<double> jointValues;
    /// Reaction on each joint (model order), six values per joint: force x, y, z [N] and
    /// torque x, y, z [N·m], global axes (SimulationFrame::reactions).
    std::vector<double> reactions;
    /// Effort of each driver (model order): torque [N·m] or force [N].
    std::vector<double> driverEfforts;
    /// Four values per coupler (model order), as CouplerEffort has them: its effort on its
    /// first joint [N·m or N]; that effort at the first wheel's pitch circle [N]; the contact
    /// force (a cam's, or a gear's tooth force) [N] and its pressure angle [rad]; NaN where a
    /// coupler has none (SimulationFrame::couplers).
    std::vector<double> couplerEfforts;
};

/// What the worker hands to the GUI thread in one queued signal.
struct FrameBatch {
    int runId = 0;
    double wallTime = 0.0;  ///< seconds since the run started, when the batch was sent
    std::vector<RecordedFrame> frames;
    std::vector<SimulationEvent> events;
};

/// Summary of a finished run.
struct RunSummary {
    int runId = 0;
    bool ok = false;
    bool stopped = false;  ///< ended by Stop rather than by success or failure
    QString message;
    double tFinal = 0.0;
    double wallTime = 0.0;
    long steps = 0;
};

}  // namespace looplab::ui

Q_DECLARE_METATYPE(looplab::ui::FrameBatch)
Q_DECLARE_METATYPE(looplab::ui::RunSummary)
