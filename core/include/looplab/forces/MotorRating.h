#pragma once
// What a motor can do at the joint it drives, as `check` reports it (methods.md, "Motors"):
// the joint rate at which it gives no effort and the effort it gives held still.
// DC motor at voltage V: no-load rate ẋ₀ = V/(k n), stall effort τ_s = n η k V/R, stall
// current V/R. Table motor: the first rate at which the curve's torque reaches zero (none
// if it never does) and n η T(0).

#include "looplab/model/Model.h"

#include <optional>

namespace looplab {

struct MotorRating {
    std::optional<double> noLoadRate;  ///< joint rate [rad/s or m/s]; none if the torque never falls to zero
    double stallEffort = 0.0;          ///< joint torque [N·m] or force [N]
    std::optional<double> stallCurrent;  ///< DC motors [A]
};

/// The rating of a motor element at time t (its voltage law's value there); none for an
/// element that is no motor.
std::optional<MotorRating> motorRating(const ForceElement& e, double t);

}  // namespace looplab
