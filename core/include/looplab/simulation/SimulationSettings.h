#pragma once
// What a forward-dynamics run is asked to do: which stepper (MethodRegistry.h), how
// long, how often to report, and the limits past which it gives up.

#include "looplab/dynamics/ConstraintMethod.h"
#include "looplab/integrate/OdeSolver.h"

#include <string>

namespace looplab {

struct SimulationSettings {
    std::string method = "projection";  ///< a registered constraint method (constraintMethods())
    std::string integrator = "dopri5";  ///< a registered integrator (integrators())
    double tEnd = 1.0;                  ///< s, absolute end time
    double outputStep = 0.01;           ///< s between reported frames
    OdeSettings ode;
    ConstraintMethodSettings constraints;
    /// A singular-configuration event is raised while the smallest singular value σ_min of
    /// the scaled independent constraint rows is below this fraction of its regular value:
    /// σ_min < threshold · min(1, σ̂), σ̂ the largest σ_min met so far in the run
    /// (dimensionless; the scaled Jacobian has entries of order one). Relative, so that
    /// it means the same for four joints and for four hundred.
    double singularThreshold = 1e-2;
    /// The run fails (ok = false, a "failure" event naming the limit) when the stepper has
    /// taken this many accepted steps without reaching tEnd; 0 = no limit.
    long maxSteps = 10'000'000;
    /// The run fails when it has taken longer than this wall-clock time [s], checked
    /// between steps; 0 = no limit.
    double maxWallTime = 0.0;
    /// The run is refused (at its start, as a failure) if it would report more frames.
    long maxFrames = 1'000'000'000'000L;
    /// What the run does when an explicit integrator finds the model stiff (Hairer's test,
    /// StiffnessDetector.h): false, a "stiffness" event naming the stiff bodies and the
    /// methods to use instead, and the run goes on; true, the run fails with that message.
    bool stopWhenStiff = false;
};

}  // namespace looplab
