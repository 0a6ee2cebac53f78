#pragma once
// The work W of drivers and applied loads along a run, counted over the integrator's own
// accepted steps. On each step the input power (InputPower.h) is taken at its end (from
// the stepper's own multipliers where it has them: TimeStepper::multipliersAtStepEnd);
// the parabola through the sample before the step, its start and its end gives the step's
// work where it agrees with the trapezoidal rule to the run's relative tolerance of the
// energy the motion exchanges (what each step may change the energy by, EnergyMonitor.h).
// Elsewhere (long steps) the power is also taken, through the stepper's interpolation, at
// the middles of 1, 2, 4, … equal panels until composite Simpson on the panels agrees with
// the rule on half as many (at most 16 panels). The same parabolas give W at output
// frames inside a step, and nothing depends on the output step. Counted between output
// frames instead, by the trapezoidal rule, the balance E − E₀ − W grew with the output
// step: on the flexible slider-crank it reached 1.3e-3 J at an output step of 1 ms and
// 8.8e-3 J at 10 ms, against 0.17 J exchanged; the trapezoidal rule on the steps alone
// left 3.5e-4 J on the crank-rocker, whose dopri5 steps at rtol 1e-11 are long.

#include "looplab/model/Model.h"

#include <array>
#include <functional>
#include <vector>

namespace looplab {

class WorkCounter {
public:
    /// Counts only where something does work (hasWorkInput); otherwise W stays 0.
    explicit WorkCounter(const Model& model);
    bool active() const { return active_; }

    /// The run's start at time t with input power `power` [W]: W = 0.
    void start(double t, double power);
    /// Goes on from time t with input power `power` after a jump of the velocities (an
    /// impact): W is kept, and no parabola reaches back across the jump.
    void restart(double t, double power);
    /// The step from the end of the last one to t1: `power(τ)` gives the input power [W]
    /// at a time τ in it (τ = t1 at its end). Rules agree when they differ by at most
    /// `rtol` of the larger of |P|·h and `energyScale` [J], the energy the run exchanges.
    void countStep(double t1, const std::function<double(double)>& power, double rtol, double energyScale);
    /// W [J] at time t within the step counted last.
    double workAt(double t) const;
    /// Moves to the end of the step counted last.
    void endStep();
    /// W [J] at the end of the last step ended, and the power there [W].
    double work() const { return work_; }
    double power() const { return p0_; }

private:
    // A parabola through three samples, integrated over [from, to] (a part of a step).
    struct Panel {
        std::array<double, 3> t, p;
        double from, to;
        double integral(double upTo) const;
    };
    bool active_ = false;
    double work_ = 0.0, t0_ = 0.0, p0_ = 0.0;
    bool havePrevious_ = false;
    double tPrevious_ = 0.0, pPrevious_ = 0.0;  ///< the last sample before t0_
    std::vector<Panel> panels_;  ///< the step counted last
    std::vector<double> before_;  ///< W at each panel's start, and at the step's end
};

}  // namespace looplab
