#pragma once
// The power put into a mechanism by its drivers and applied loads: what the work W of the
// energy balance E − E₀ − W = 0 integrates (WorkCounter.h). Springs,
// gravity and dampers are not in it: springs and gravity are in E, and a damper's loss
// shows as a negative balance.

#include "looplab/common/Types.h"

#include <vector>

namespace looplab {

struct Model;
struct State;

/// Power [W] of the body forces and body torques at s (their laws evaluated at s.t), on
/// rigid bodies and on beam and solid nodes (node sets are one force per node).
double appliedLoadPower(const Model& model, const State& s);

/// Power [W] of drivers and applied loads at s from the multipliers λ (one per equation):
/// a driver's effort is −λ of its equation (Reactions.h).
double inputPower(const Model& model, const State& s, const VecX& multipliers);

/// True when something puts work into the model (a driver, a body force or torque), so
/// that E − E₀ is that work plus the run's error rather than a drift.
bool hasWorkInput(const Model& model);

}  // namespace looplab
