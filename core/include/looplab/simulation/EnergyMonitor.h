#pragma once
// A conservative mechanism (no drivers, no dampers, no applied forces whose work the
// energy does not count) keeps its mechanical energy, and a driven or loaded one without
// dampers keeps its balance E − E₀ − W (W the work of its drivers and body loads, counted
// over the steps: WorkCounter.h): a run whose energy or balance drifts beyond what its
// tolerances explain says so with an "energy_drift" event, once. A method that
// jumps to another assembly branch at a singular posture, or dissipates through its
// constraint stabilisation, shows up here even when its constraints look closed.

#include "looplab/model/Model.h"
#include "looplab/integrate/SimulationEvent.h"
#include "looplab/simulation/SimulationFrame.h"
#include "looplab/simulation/SimulationSettings.h"

#include <functional>

namespace looplab {

/// True if the model's mechanical energy (Energy: kinetic, gravity, springs) is a
/// constant of its motion: no drivers, no damping, no body forces or torques.
bool isConservative(const Model& model);

class EnergyMonitor {
public:
    using EventSink = std::function<void(SimulationEvent)>;
    EnergyMonitor(const Model& model, const SimulationSettings& settings, EventSink emit);

    /// Checks a frame; `steps` is the number of accepted steps so far.
    void check(const SimulationFrame& frame, long steps);

    /// Relative drift allowed after `steps` accepted steps: each step may change the
    /// energy by its local error, rtol of the energy in motion, and the changes may add
    /// up; a margin of ten, and never below 1e-6 (the rounding of the energy sums and of
    /// the projections over a long run).
    double allowedRelativeDrift(long steps) const;

private:
    bool active_;
    bool driven_;  ///< drivers or body loads do work: the balance is checked
    double rtol_;
    EventSink emit_;
    bool started_ = false, warned_ = false;
    double initial_ = 0.0;
    // The energy the motion can exchange [J]: the largest kinetic energy so far, and at
    // least what gravity and the springs hold over the model's length scale (so that a
    // start from rest, or a model at rest, is not judged against almost nothing).
    double scale_ = 0.0;
};

}  // namespace looplab
