#pragma once
// Kinematic simulation of a fully driven mechanism: at each output time the positions
// are assembled, then velocities and accelerations follow from the constraint equations
// alone (no masses or forces).

#include "looplab/kinematics/Assembly.h"
#include "looplab/model/Model.h"
#include "looplab/model/State.h"
#include "looplab/model/Status.h"

#include <atomic>
#include <functional>
#include <string>

namespace looplab {

/// One output time of a kinematic simulation.
struct KinematicSample {
    State state;
    VecX acceleration;
    double positionViolation = 0.0;      ///< ‖Φ‖∞
    double velocityViolation = 0.0;      ///< ‖Φ_q v + Φ_t‖∞
    double accelerationViolation = 0.0;  ///< ‖Φ_q v̇ − γ‖∞
};

struct KinematicResult : Status {
    KinematicResult() : Status(false) {}
    int steps = 0;
};

/// Bounds on a kinematic run, so that a long run ends as a failure instead of running on.
/// The number of steps is known before the run starts, so callers refuse too many up front.
struct KinematicLimits {
    /// Wall-clock seconds, checked between samples; 0 = no limit. Reaching it ends the
    /// run with "wall-time limit reached", in the words of a dynamic run.
    double maxWallTime = 0.0;
    /// Becoming true ends the run after the current sample with "stopped", as a dynamic
    /// run's stop does.
    const std::atomic<bool>* stop = nullptr;
};

/// Runs from `start` (assembled first) to tEnd with output every `step`. The mechanism
/// must have no degrees of freedom left once the drivers are counted; otherwise the
/// result names how many remain. `onSample` receives every output, the first at start.t,
/// the last at tEnd (also when tEnd is not a whole number of steps after start.t).
KinematicResult runKinematics(const Model& model, const State& start, double tEnd, double step,
                              const std::function<void(const KinematicSample&)>& onSample,
                              const AssemblyOptions& options = {}, const KinematicLimits& limits = {});

/// Fills the violation norms and acceleration of a sample whose state is set.
void analyzeKinematicSample(const Model& model, KinematicSample& sample,
                            double rankTolerance = kDefaultRankTolerance);

}  // namespace looplab
