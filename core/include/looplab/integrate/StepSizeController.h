#pragma once
// Step-size control shared by the implicit second-order steppers (tlismni, hht-index3).
// Their local error estimate is O(h³), so a trial with weighted error e (accepted when
// e ≤ 1) is followed by h·clamp(0.9·e^(−1/3), 0.2, 2) after an accepted step and by
// h·clamp(0.9·e^(−1/3), 0.2, 0.9) after a rejected one; a trial whose Newton iterations
// failed quarters the step. A fixed-step run takes settings.step and never retries.

#include "looplab/integrate/OdeSolver.h"
#include "looplab/model/Status.h"

#include <string>

namespace looplab {

class StepSizeController {
public:
    /// Starts with settings.step, or without one with min(10 ms, 0.05·rtol^(1/3)), the step
    /// whose O(h³) error is about rtol on a motion of unit time scale.
    void start(const OdeSettings& settings, bool fixedStep);

    bool fixed() const { return fixed_; }
    /// The step to try first.
    double proposed() const { return fixed_ ? settings_.step : next_; }
    /// `h` limited by the largest step, not passing `remaining` and leaving no sliver
    /// (under a tenth of a step) before it.
    double limited(double h, double remaining) const;
    /// Whether a trial that returned `trial` with weighted error `error` is kept.
    bool accepts(const Status& trial, double error) const { return trial.ok && (fixed_ || error <= 1.0); }
    /// Records an accepted step of size h; a step cut short by the stop time does not
    /// set the next one.
    void accepted(double h, double remaining, double error);
    /// Shrinks h after a rejected trial; a failure, naming the last trial's, when it falls
    /// below the smallest allowed step. `where` names the time of the step.
    Status rejected(double& h, const Status& trial, double error, const std::string& where) const;

private:
    OdeSettings settings_;
    bool fixed_ = false;
    double next_ = 0.0;
};

}  // namespace looplab
