#pragma once
// One interface for every ODE solver: a solver advances y' = f(t, y) one accepted step at
// a time, offers dense output inside the last step, and applies the system's projection
// (if any) after each accepted step. Solvers are chosen by name:
//   rk4     classic Runge–Kutta, fixed step
//   dopri5  Dormand–Prince 5(4) with step control and 4th-order dense output
//   verner6, fehlberg8  Verner 6(5) and Fehlberg 7(8) from ARKODE's Butcher tables
//           (EmbeddedRungeKutta.h)
//   bdf     SUNDIALS CVODE, variable-order BDF with Newton iterations, for stiff models

#include "looplab/integrate/StiffnessDetector.h"
#include "looplab/model/Status.h"
#include "looplab/common/Types.h"

#include <algorithm>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace looplab {

/// The ODE to integrate.
struct OdeSystem {
    int size = 0;
    /// ydot = f(t, y); returns false if f cannot be evaluated there (the reason is
    /// kept by the caller).
    std::function<bool(double t, const VecX& y, VecX& ydot)> rhs;
    /// Optional: moves y onto the invariant manifold after an accepted step; returns
    /// false if that fails.
    std::function<bool(double t, VecX& y)> project;
    /// Optional: the time of a singular configuration expected ahead of t
    /// (SingularCrossing.h), which a solver that chooses its steps puts midway between two
    /// stages; false if none is expected.
    std::function<bool(double t, double& crossingTime)> singularAhead;
};

struct OdeSettings {
    double step = 1e-3;           ///< rk4: the step; others: initial step (0 = automatic)
    double rtol = 1e-8;
    double atol = 1e-10;
    double maxStep = 0.0;         ///< 0 = no limit
    double minStep = 1e-14;       ///< below this a step-size controller gives up
    long maxSteps = 50'000'000;
    /// [s] between the outputs of the run (0: unknown): the stiffness test's time scale.
    double outputInterval = 0.0;
};

/// Work done by a time stepper so far.
struct StepStatistics {
    long steps = 0;                ///< accepted steps
    long rejectedSteps = 0;        ///< steps tried and rejected (error test or a failed solve)
    long rhsEvaluations = 0;       ///< evaluations of the accelerations
    long jacobianEvaluations = 0;  ///< evaluations of an iteration matrix (implicit methods)
    // Implicit steppers on the constrained equations (tlismni, hht-index3); 0 for the others.
    long outerIterations = 0;      ///< Newton iterations on the accelerations, summed over all tried steps
    long innerIterations = 0;      ///< Newton–Raphson iterations on Φ = 0 for the dependent positions, summed
    long repartitions = 0;         ///< changes of the independent coordinates after the first choice
    long factorizations = 0;       ///< numeric factorisations of the iteration matrix (modified Newton)
    // dopri5 near a forecast singular configuration (SingularCrossingPassage): steps kept
    // although their error estimate exceeded the tolerance, rounding dominating it there.
    long roundingBoundSteps = 0;
    double largestRoundingBoundEstimate = 0.0;  ///< the largest such estimate, in units of the tolerance

    /// The work of `other` added to this (a run whose stepper an event replaced counts both).
    StepStatistics& operator+=(const StepStatistics& other) {
        steps += other.steps;
        rejectedSteps += other.rejectedSteps;
        rhsEvaluations += other.rhsEvaluations;
        jacobianEvaluations += other.jacobianEvaluations;
        outerIterations += other.outerIterations;
        innerIterations += other.innerIterations;
        repartitions += other.repartitions;
        factorizations += other.factorizations;
        roundingBoundSteps += other.roundingBoundSteps;
        largestRoundingBoundEstimate = std::max(largestRoundingBoundEstimate, other.largestRoundingBoundEstimate);
        return *this;
    }
};

class OdeSolver {
public:
    virtual ~OdeSolver() = default;
    virtual const char* name() const = 0;
    /// Starts at (t0, y0).
    virtual Status initialize(const OdeSystem& system, double t0, const VecX& y0,
                                 const OdeSettings& settings) = 0;
    /// Takes one accepted step that does not pass tStop.
    virtual Status step(double tStop) = 0;
    /// Current time and state (after projection).
    virtual double time() const = 0;
    virtual const VecX& state() const = 0;
    /// Size of the last accepted step.
    virtual double lastStepSize() const = 0;
    /// Dense output: y(t) for t within the last accepted step.
    virtual void interpolate(double t, VecX& y) const = 0;
    const StepStatistics& statistics() const { return stats_; }
    /// What Hairer's stiffness test found (StiffnessDetector.h), or nullptr: the explicit
    /// pairs make it at every accepted step; the other solvers never find stiffness.
    const StiffnessFinding* stiffness() const { return stiffness_.found() ? &stiffness_.finding() : nullptr; }

protected:
    StiffnessDetector stiffness_;
    // Mutable: a solver's dense output may evaluate the right-hand side (EmbeddedRungeKutta),
    // and those evaluations count as well.
    mutable StepStatistics stats_;
};

}  // namespace looplab
