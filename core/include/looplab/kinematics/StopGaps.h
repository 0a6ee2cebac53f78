#pragma once
// The gap function of a stop's bound (methods.md, "Stops and impacts"): g(q) ≥ 0 while the
// bound holds, with its velocity-space gradient G (so that ġ = G v) and the part of g̈
// that is not G v̇. A joint limit's g is the joint's angle or slide less its lower bound (or
// its upper bound less it); a distance stop's the distance |p₂ − p₁| less its min (or its
// max less it). The same function gives the row of an engaged stop (Constraints.cpp
// writes it after the couplers' rows), the impacts' impulse directions and the events'
// switching functions, so that they all agree.

#include "looplab/model/Model.h"
#include "looplab/model/State.h"

#include <cmath>

namespace looplab {

struct StopGap {
    double value = 0.0;  ///< g [rad or m]
    double rate = 0.0;   ///< ġ = G v
    double bias = 0.0;   ///< g̈ − G v̇
    VecX gradient;       ///< G, one entry per velocity coordinate
};

/// The gap of `stop`'s bound `side` at `s`; with full == false the value alone. An angle's
/// gap is measured within the turn centred on the middle of the limits, so it is continuous
/// over the whole allowed range.
StopGap stopGap(const Model& model, const Stop& stop, StopSide side, const State& s, bool full = true);

/// Whether the stop has the bound `side` (a rope has no lower, a ball contact no upper).
inline bool stopHasSide(const Stop& stop, StopSide side) {
    return side == StopSide::Lower ? std::isfinite(stop.lower) : std::isfinite(stop.upper);
}

}  // namespace looplab
