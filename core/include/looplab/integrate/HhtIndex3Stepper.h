#pragma once
// HHT-α on the full augmented index-3 DAE, for comparison with the two-loop method
// (TlismniStepper.h): the unknowns of a step are all accelerations and the multipliers,
// the equations of motion are weighted as in Hilber, Hughes & Taylor (1977) and the
// position constraints are imposed at the end of the step (the HHT-I3 form of Negrut,
// Rampalli, Ottarsson & Sajdak, J. Comput. Nonlinear Dynam. 2, 2007):
//
//   M a_{n+1} + (1 + α)(Φ_qᵀλ − Q)_{n+1} − α(Φ_qᵀλ − Q)_n = 0,   Φ(q_{n+1}, t_{n+1}) = 0,
//
// with Newmark's q_{n+1} = q_n ⊕ (h v_n + h²((½ − β)a_n + βa_{n+1})) and
// v_{n+1} = v_n + h((1 − γ)a_n + γa_{n+1}). Positions meet Φ = 0 to the Newton
// tolerance; velocities are not projected, so Φ_q v + Φ_t drifts by the integration error:
// what the comparison shows.

#include "looplab/linalg/AugmentedSystem.h"
#include "looplab/linalg/ConstraintSpaces.h"
#include "looplab/kinematics/ConstraintSpacesAtState.h"
#include "looplab/model/Model.h"
#include "looplab/integrate/ErrorScales.h"
#include "looplab/integrate/GeneralizedAlpha.h"
#include "looplab/integrate/ModifiedNewton.h"
#include "looplab/integrate/StepHermite.h"
#include "looplab/integrate/StepSizeController.h"
#include "looplab/integrate/TimeStepper.h"
#include "looplab/integrate/TlismniStepper.h"

#include <memory>
#include <string>
#include <vector>

namespace looplab {

class HhtIndex3Stepper final : public TimeStepper {
public:
    /// Reads α (or Newmark's β, γ), the tolerances and the step from `settings`.
    HhtIndex3Stepper(std::shared_ptr<const Model> model, const TlismniSettings& settings, std::string integrator);

    std::string name() const override { return "hht-index3/" + integrator_; }
    bool projects() const override { return false; }
    Status evaluate(State& state, MotionEvaluation& out) override;
    Status initialize(const State& start) override;
    Status step(double tStop) override;
    double time() const override { return t_; }
    State state() const override { return State{t_, q_, v_}; }
    double lastStepSize() const override { return lastStep_; }
    void interpolate(double t, State& out) const override;
    const StepStatistics& statistics() const override { return stats_; }
    const ConstraintSpaces* factorizationAt(const State& state) const override;

private:
    struct Trial {
        VecX q, v, a, lambdaI, increment;
        double error = 0.0;
    };
    Status chooseRows(const State& s);
    Status accelerations(const State& s, VecX& a, VecX& lambdaI);
    // Constraint force minus applied force, Φ_Iᵀλ_I − Q, at s.
    VecX netForce(const State& s, const SparseMatrix& jacobian, const VecX& lambdaI) const;
    Status attempt(double h, Trial& trial);
    // Forms M̂ = M + (1 + α)(γhC + βh²K) at s with the multipliers lambdaI and factorises
    // the scaled iteration matrix [M̂ Φ_Iᵀ; Φ_I 0] with the Jacobian given (modified Newton).
    Status formIterationMatrix(const State& s, const VecX& lambdaI, const SparseMatrix& jacobian, double h);

    std::shared_ptr<const Model> model_;
    TlismniSettings settings_;
    std::string integrator_;
    GeneralizedAlpha scheme_;
    double alpha_, beta_, gamma_;
    VecX rowScales_, colScales_;
    ErrorScales errorScales_;
    SparseColMatrix mass_;
    std::vector<int> rows_;
    // The rank-revealing spaces at the last state asked for (the accepted step's end: also
    // the run's, through factorizationAt()).
    ConstraintSpacesAtState spaces_;
    AugmentedSolver accelerationSolver_, iterationSolver_;
    ModifiedNewton newton_;

    StepSizeController steps_;
    double t_ = 0.0, lastStep_ = 0.0;
    VecX q_, v_, a_, lambdaI_, force_;
    // a_ less the step start's predecessor, over the last step (lastStep_), for the
    // rescaling of a_ when the step changes (attempt()).
    VecX lastIncrementA_;
    StepHermite last_;  // the last accepted step, for dense output
    StepStatistics stats_;
};

}  // namespace looplab
