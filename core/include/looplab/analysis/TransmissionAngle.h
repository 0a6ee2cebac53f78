#pragma once
// The transmission angle of a planar four-bar: the angle μ at the coupler–rocker pin C
// between the coupler (C→B) and the rocker (C→D). Force passes best from coupler to
// rocker at μ = 90°; designs keep μ within about 40°–140° (Norton, Design of Machinery,
// 5th ed., §4.10), and μ = 0 or 180° is a toggle (dead-centre) position.

#include "looplab/model/Status.h"
#include "looplab/common/Types.h"

#include <optional>

namespace looplab {

struct Model;
struct State;

/// The pins of a recognised four-bar, found once and then read at any number of states.
class FourBarTransmission {
public:
    /// The four-bar that findPlanarFourBar() recognises in `model`, or nothing.
    static std::optional<FourBarTransmission> find(const Model& model);
    /// μ [rad] in [0, π] at s (a state of the model it was found in).
    double angle(const Model& model, const State& s) const;

private:
    JointIndex b_, c_, d_;  // crank–coupler, coupler–rocker, rocker–ground
};

/// μ [rad] in [0, π] of the four-bar that findPlanarFourBar() recognises in `model`, at
/// state s. Fails with a sentence if the model is not a planar four-bar.
Status transmissionAngle(const Model& model, const State& s, double* angle);

}  // namespace looplab
