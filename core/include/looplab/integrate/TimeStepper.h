#pragma once
// One interface for everything that moves a mechanism forward in time, so that the run
// loop (Simulator), the command-line tool and the workbench treat them alike: a constraint
// method paired with an ODE solver (ConstraintMethodStepper) is one stepper, and an
// implicit stepper with its own Newton iterations on the constrained equations plugs in
// beside it. Which steppers exist and what they take is in MethodRegistry.h.

#include "looplab/linalg/ConstraintSpaces.h"
#include "looplab/dynamics/MotionEvaluation.h"
#include "looplab/integrate/OdeSolver.h"
#include "looplab/integrate/SimulationEvent.h"
#include "looplab/model/State.h"
#include "looplab/model/Status.h"

#include <string>
#include <vector>

namespace looplab {

class TimeStepper {
public:
    virtual ~TimeStepper() = default;

    /// "method/integrator", as the registry and the output name it.
    virtual std::string name() const = 0;

    /// True if every state this stepper produces lies on the position and velocity
    /// constraint manifolds to the rounding floor (the projection method); false if the
    /// constraints are only stabilised and drift within the method's bound.
    virtual bool projects() const = 0;

    /// Accelerations and multipliers at `state`. A stepper that projects moves `state`
    /// onto the constraint manifolds first, so that the caller reports the state the
    /// evaluation belongs to.
    virtual Status evaluate(State& state, MotionEvaluation& out) = 0;

    /// Starts at `start`, which must be assembled (Φ = 0, Φ_q v + Φ_t = 0).
    virtual Status initialize(const State& start) = 0;

    /// Takes one accepted step that does not pass tStop. On failure the reason names the
    /// joints involved where it can; the stepper then stays at its last accepted state.
    virtual Status step(double tStop) = 0;

    /// Time [s] at the end of the last accepted step.
    virtual double time() const = 0;

    /// State at the end of the last accepted step, as the integrator holds it: rotation
    /// parameters are not re-normalised (normalizePositions() does that).
    virtual State state() const = 0;

    /// Size [s] of the last accepted step (0 before the first).
    virtual double lastStepSize() const = 0;

    /// Dense output: the state at t within the last accepted step, not re-normalised.
    virtual void interpolate(double t, State& out) const = 0;

    /// Work done since initialize().
    virtual const StepStatistics& statistics() const = 0;

    /// The rank-revealing factorisation of Φ_q at exactly this configuration, if the
    /// stepper has it at hand (diagnostics then need not factorise again); else nullptr.
    virtual const ConstraintSpaces* factorizationAt(const State& /*state*/) const { return nullptr; }
    /// Multipliers at state() (one per equation; any set that gives the constraint forces)
    /// where the last step already computed them; false where only evaluate() can.
    virtual bool multipliersAtStepEnd(VecX& /*out*/) const { return false; }

    /// Events the stepper raised since the last call (a coordinate re-partitioning of the
    /// two-loop method), handed over once; the run loop reports them with its own.
    virtual std::vector<SimulationEvent> takeEvents() { return {}; }
};

}  // namespace looplab
