#pragma once
// A mechanism's frequencies against its posture: a driver is locked at N values of its
// coordinate (its law replaced by a constant), the static equilibrium found at each
// (continuing from the previous one), and the lowest modes computed there. Modes are
// followed from one posture to the next by their shapes (the mass-weighted modal assurance
// criterion, Modes.h), so that a curve stays with its mode where frequencies cross.

#include "looplab/analysis/Modes.h"
#include "looplab/analysis/Statics.h"
#include "looplab/model/Status.h"

#include <functional>
#include <string>
#include <vector>

namespace looplab {

struct AlongMotionOptions {
    std::string driver;   ///< name of the driver to lock
    double from = 0.0;    ///< first value of its coordinate [rad or m]
    double to = 0.0;      ///< last value [rad or m]
    int steps = 2;        ///< number of postures (≥ 1; from and to both included when ≥ 2)
    /// The postures themselves, in the order visited; when not empty they replace from, to
    /// and steps (e.g. the driver's values at the times of a recorded motion).
    std::vector<double> coordinates;
    StaticsOptions statics;
    ModesOptions modes;
};

struct AlongMotionStep {
    double coordinate = 0.0;  ///< the driver's locked value [rad or m]
    bool ok = false;          ///< equilibrium and modes found
    std::string message;      ///< why not
    StaticsOutcome equilibrium = StaticsOutcome::NoConvergence;
    /// Per track (the same physical mode along the motion): frequency [Hz] and damping
    /// ratio [-]; −1 where the track has no mode at this step.
    std::vector<double> frequenciesHz, dampingRatios;
    /// MAC of each track's shape with its shape at the previous step (1 at the first).
    std::vector<double> correlation;
    double conditionScaled = 0.0;
    State state;  ///< the equilibrium
};

/// ok: every step ok.
struct AlongMotionResult : Status {
    AlongMotionResult() : Status(false) {}
    std::vector<AlongMotionStep> steps;
};

/// Runs the sweep from `start` (its configuration is the first guess). `onStep` is called
/// after every step (for progress and streaming output). When `cancelled` returns true
/// before a step, the sweep ends there with ok = false and the message "cancelled".
AlongMotionResult modesAlongMotion(const Model& model, const State& start, const AlongMotionOptions& options,
                                   const std::function<void(const AlongMotionStep&)>& onStep = {},
                                   const std::function<bool()>& cancelled = {});

}  // namespace looplab
