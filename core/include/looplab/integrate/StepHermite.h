#pragma once
// Dense output over the last step of a one-step method on the configuration manifold: a
// cubic Hermite in the velocity-space increment from the step's start (value 0 and slope
// v₀ at its start, the step's increment Δ and slope v₁ at its end), mapped back through the
// body kinds' retraction so that interpolated rotations stay rotations.

#include "looplab/model/Model.h"
#include "looplab/model/State.h"
#include "looplab/common/Types.h"

namespace looplab {

struct StepHermite {
    double t0 = 0.0;
    VecX q0, v0;
    VecX increment;  ///< Δ with q₁ = q₀ ⊕ Δ

    /// Starts with a step of zero length at `s`.
    void reset(const State& s);
    /// Records the start (t, q, v) of a step and its increment.
    void begin(double t, const VecX& q, const VecX& v, const VecX& stepIncrement);
    /// The state at t in [t0, t1] of the step that ended at (t1, v1).
    void interpolate(const Model& model, double t1, const VecX& q1, const VecX& v1, double t, State& out) const;
};

}  // namespace looplab
