#pragma once
// The energy balance of a driven or loaded mechanism: the work W done on it by its
// drivers and applied loads since the start, and the balance E − E₀ − W that a correct
// run keeps near zero (to its tolerances), as the mechanical energy E alone does for a
// conservative one (EnergyMonitor.h). Springs, gravity and dampers are not in W: springs
// and gravity are in E, and a damper's loss shows as a negative balance.

#include "looplab/common/Types.h"

#include <vector>

namespace looplab {

struct Model;
struct State;
struct DriverEffort;

/// Power [W] put in by the drivers at s: Σ effort · ṡ(t), ṡ the driver law's rate (the
/// driven coordinate's rate while the constraint holds). `efforts` are the run's driver
/// efforts at s (model order, Reactions.h).
double driverPower(const Model& model, const State& s, const std::vector<DriverEffort>& efforts);

/// Power [W] of the body forces and body torques at s (their laws evaluated at s.t), on
/// rigid bodies and on beam and solid nodes (node sets are one force per node).
double appliedLoadPower(const Model& model, const State& s);

/// True when something puts work into the model (a driver, a body force or torque), so
/// that E − E₀ is that work plus the run's error rather than a drift.
bool hasWorkInput(const Model& model);

/// Work and balance along a run, one sample per output frame, integrated by the
/// trapezoidal rule between frames. The rule's error is O(h²) in the output step, so the
/// balance is as small as the run's tolerance only for output steps fine enough for the
/// power to be nearly linear between frames.
class EnergyBalance {
public:
    /// Adds the frame at time t with mechanical energy `energy` [J] and input power
    /// `power` [W] (drivers and applied loads). Frames must come in increasing time.
    void add(double t, double energy, double power);
    void clear() { *this = EnergyBalance{}; }

    bool empty() const { return !started_; }
    double initialEnergy() const { return e0_; }
    /// W so far [J].
    double work() const { return work_; }
    /// E − E₀ − W at the last frame [J].
    double balance() const { return lastEnergy_ - e0_ - work_; }

private:
    bool started_ = false;
    double e0_ = 0.0, work_ = 0.0, lastT_ = 0.0, lastPower_ = 0.0, lastEnergy_ = 0.0;
};

}  // namespace looplab
