#pragma once
// Where, inside the last accepted step, a scalar function of the state first reaches zero
// from above: the one root finder of every event a run locates on a stepper's dense output
// (a stop's gap closing, an engaged stop's contact force turning to a pull; the same for a
// stick–slip transition or a cam follower's lift-off). It reads the stepper's interpolant
// (TimeStepper::interpolate), so the event's time is as accurate as the integrator's
// tolerance makes the motion, and the root itself is found to rounding in time.

#include "looplab/integrate/TimeStepper.h"

#include <functional>
#include <optional>

namespace looplab {

/// A function of the state whose sign change is the event: positive before it. It may
/// change the state it is given (a projecting evaluation) and returns NaN where the state
/// cannot be evaluated.
using SwitchingFunction = std::function<double(State&)>;

struct LocatedEvent {
    double t = 0.0;   ///< [s]
    State state;      ///< interpolated at t (as the switching function left it)
    double value = 0.0;  ///< the switching function there (zero to the root's rounding)
};

/// The first τ in [t0, t1] (the last accepted step, f(t1) ≤ 0 known) where f turns ≤ 0:
/// the step is scanned at `panels` equal parts for the first sign change, then that panel
/// is narrowed by the Illinois variant of regula falsi (bisection if it stalls) until the
/// bracket is a few units of rounding in t. A function already ≤ 0 at t0 gives t0. A root
/// that closes and opens again within one panel is not seen (a grazing touch).
std::optional<LocatedEvent> locateFirstCrossing(const TimeStepper& stepper, double t0, double t1,
                                                const SwitchingFunction& f, int panels = 8);

}  // namespace looplab
