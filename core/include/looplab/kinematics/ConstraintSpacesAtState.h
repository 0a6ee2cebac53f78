#pragma once
// The rank-revealing factorisation of Φ_q kept with the configuration it was made at, so
// that a stepper's choice of independent rows and the run's rank and σ_min watch at the
// same step end share one QR instead of making two.

#include "looplab/kinematics/Mobility.h"

namespace looplab {

class ConstraintSpacesAtState {
public:
    ConstraintSpacesAtState(double rankTolerance, LinearAlgebra linearAlgebra)
        : rankTolerance_(rankTolerance), linearAlgebra_(linearAlgebra) {}

    /// The factorisation at `state`: the kept one if it was made at exactly this time and
    /// these positions, else a new one, kept in its place.
    const ConstraintSpaces& at(const Model& model, const State& state);

    /// The kept factorisation if it was made at exactly this state, else nullptr.
    const ConstraintSpaces* ifAt(const State& state) const;

private:
    bool holds(const State& state) const;

    double rankTolerance_;
    LinearAlgebra linearAlgebra_;
    ConstraintSpaces spaces_;
    VecX q_;
    double t_ = 0.0;
    bool valid_ = false;
};

}  // namespace looplab
