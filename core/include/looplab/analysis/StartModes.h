#pragma once
// The modes that an initial velocity jump sets ringing.
//
// The jump is δv = v − v_r, v_r the rigid mechanism's velocities at the same positions
// (startVelocities with StartMotion::Consistent). Both satisfy Φ_q v = −Φ_t, so δv lies in
// the tangent space of the constraints with the drivers held, and its kinetic energy
// ½ δvᵀMδv splits over the model's modes there (shapes φ_i with φ_iᵀMφ_j = δ_ij) as
// ½ (φ_iᵀMδv)². The modes are those of the whole model with its drivers held, about the
// start configuration (not a static equilibrium: the multipliers are the least-squares
// balance of the static forces there): a member rings with the boundary its joints give it
// (the slider-crank's rod with the slider's mass at its end), which the free-free modes of
// the member alone would miss. docs/methods.md, "The start of a flexible mechanism".

#include "looplab/linalg/ConstraintSpaces.h"
#include "looplab/model/Model.h"
#include "looplab/model/State.h"
#include "looplab/model/Status.h"

#include <vector>

namespace looplab {

struct ExcitedMode {
    double frequencyHz = 0.0;
    double energy = 0.0;  ///< ½ (φᵀMδv)² [J]
    double share = 0.0;   ///< of the jump's energy [-]
};

/// ok: the modes were computed (or there was no jump); message: why not.
struct StartModes : Status {
    StartModes() : Status(false) {}
    double jumpEnergy = 0.0;          ///< ½ δvᵀMδv [J]
    std::vector<ExcitedMode> modes;   ///< the computed modes carrying most of it, most first
    double covered = 0.0;             ///< share of the jump's energy in all the modes computed [-]
    int computed = 0;                 ///< modes computed (the lowest)
};

/// The modes the jump of `start` (assembled, velocities set) excites: the `count` lowest
/// modes are computed, the `reported` carrying most energy returned. No modes when the jump
/// carries less than 1e-12 of the start's kinetic energy.
StartModes excitedModes(const Model& model, const State& start, int count = 12, int reported = 3,
                        double rankTolerance = kDefaultRankTolerance);

}  // namespace looplab
