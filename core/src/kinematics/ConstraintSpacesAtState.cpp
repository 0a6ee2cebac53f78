#include "looplab/kinematics/ConstraintSpacesAtState.h"

namespace looplab {

bool ConstraintSpacesAtState::holds(const State& state) const {
    return valid_ && t_ == state.t && q_.size() == state.q.size() && q_ == state.q;
}

const ConstraintSpaces& ConstraintSpacesAtState::at(const Model& model, const State& state) {
    if (holds(state)) return spaces_;
    valid_ = false;
    factorizeConstraints(model, state, spaces_, rankTolerance_, linearAlgebra_);
    q_ = state.q;
    t_ = state.t;
    valid_ = true;
    return spaces_;
}

const ConstraintSpaces* ConstraintSpacesAtState::ifAt(const State& state) const {
    return holds(state) ? &spaces_ : nullptr;
}

}  // namespace looplab
