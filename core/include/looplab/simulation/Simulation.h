#pragma once
// Forward dynamics from start to end: a time stepper (MethodRegistry.h) moves the
// mechanism, and at every output time the simulator reports the state, the constraint
// violations, energy, rank and conditioning of the constraint Jacobian, joint reactions
// and events (rank changes, singular configurations, drift beyond the method's bound).

#include "looplab/model/Model.h"
#include "looplab/integrate/SimulationEvent.h"
#include "looplab/simulation/SimulationFrame.h"
#include "looplab/simulation/SimulationSettings.h"
#include "looplab/model/State.h"
#include "looplab/integrate/TimeStepper.h"
#include "looplab/simulation/ViolationMonitor.h"

#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace looplab {

struct SimulationResult : Status {
    SimulationResult() { ok = false; }
    // ok: true only if the run reached tEnd without a failure; message: why it stopped
    // early; joints: those the failure is about.
    double tFinal = 0.0;         ///< [s] where the run ended
    StepStatistics statistics;   ///< the stepper's work over the run
    double wallTime = 0.0;       ///< [s]
    Violations maxViolation;     ///< largest of each violation norm over the frames
    /// Mechanical energy [J] at the first and last frames, and the largest |E(t) − E(t0)|
    /// over the frames.
    double energyInitial = 0.0, energyFinal = 0.0, energyMaxDrift = 0.0;
    std::vector<SimulationEvent> events;  ///< every event, in the order raised
};

class Simulator {
public:
    /// Throws std::invalid_argument for an unknown or unsupported method/integrator pair.
    Simulator(std::shared_ptr<const Model> model, SimulationSettings settings);
    ~Simulator();

    /// Runs from `start` to settings.tEnd. onFrame receives the frame at start.t and every
    /// outputStep after it, and the end time; onEvent each event as it happens. If `stop`
    /// becomes true the run ends after the current step with ok = false and message
    /// "stopped". Never throws for numerical trouble: failures come back in the result,
    /// with the frames up to the failure already delivered.
    SimulationResult run(const State& start,
                         const std::function<void(const SimulationFrame&)>& onFrame,
                         const std::function<void(const SimulationEvent&)>& onEvent = {},
                         const std::atomic<bool>* stop = nullptr);

    /// Evaluates a frame (accelerations, multipliers, diagnostics) at a state; for a
    /// stepper that projects, the state is projected first.
    bool evaluateFrame(State state, SimulationFrame& frame, std::string* error = nullptr);

    const SimulationSettings& settings() const { return settings_; }

private:
    std::shared_ptr<const Model> model_;
    SimulationSettings settings_;
    std::unique_ptr<TimeStepper> stepper_;
    /// A stop event replaced the stepper by one on a copy of the model holding engaged
    /// stops (StopSupervisor.h): the next run starts with a new one on the model.
    bool stepperReplaced_ = false;
};

}  // namespace looplab
