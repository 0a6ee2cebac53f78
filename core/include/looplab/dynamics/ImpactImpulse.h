#pragma once
// The impulse of an impact on a stop, through the constraint space (methods.md, "Stops and
// impacts"): the velocity jump Δv = v⁺ − v⁻ solves
//   M Δv = Φ_qᵀ μ + Gᵀ Λ,   Φ_q v⁺ + Φ_t = 0,   G v⁺ = target,
// with Φ_q every equation of the model that steps (joints, drivers, couplers and the stops
// held engaged), G the striking stop's gap gradient and target = −e G v⁻ (Newton's law;
// 0 for a plastic impact). Of all velocities that close every loop and meet Newton's law it
// is the one nearest v⁻ in the kinetic-energy metric, so the impact loses the least energy
// the law allows (for e = 1 none).

#include "looplab/model/Model.h"
#include "looplab/model/State.h"
#include "looplab/model/Status.h"

namespace looplab {

struct ImpactImpulse : Status {
    VecX velocity;              ///< v⁺
    double impulse = 0.0;       ///< Λ [N·s or N·m·s]: positive pushes the gap open
    double energyLoss = 0.0;    ///< T(v⁻) − T(v⁺) [J]
    double closureRate = 0.0;   ///< ‖Φ_q v⁺ + Φ_t‖∞ after the impulse [m/s or 1/s]
};

/// The impact at `s` (its q, t and v⁻ = s.v) on the stop whose gap gradient is `gradient`,
/// which leaves the gap's rate at `target`. Fails, saying why, if no velocity closes the loops
/// and meets the law (a stop the joints hold still).
ImpactImpulse impactImpulse(const Model& model, const State& s, const VecX& gradient, double target);

}  // namespace looplab
