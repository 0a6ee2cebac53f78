#pragma once
// Position analysis: bring a configuration onto the constraint manifold Φ(q, t) = 0 from
// a rough guess, by Gauss–Newton iterations with minimum-norm steps.

#include "looplab/linalg/ConstraintSpaces.h"
#include "looplab/model/Model.h"
#include "looplab/model/State.h"
#include "looplab/model/Status.h"

#include <string>
#include <utility>
#include <vector>

namespace looplab {

struct AssemblyOptions {
    /// Converged when every scaled residual |D_r Φ| ≤ tolerance · lengthScale.
    double tolerance = 1e-10;
    int maxIterations = 60;
    /// Largest rotation of any body in one iteration [rad]; keeps the iteration from
    /// spinning a joint onto another assembly branch near toggle positions.
    double maxRotationStep = 0.35;
    /// Largest translation of any body in one iteration, in units of lengthScale.
    double maxTranslationStep = 0.35;
    double rankTolerance = kDefaultRankTolerance;
    LinearAlgebra linearAlgebra = LinearAlgebra::Automatic;
};

/// ok: the equations are met to the tolerance; message: why not, naming the joints.
struct AssemblyResult : Status {
    AssemblyResult() : Status(false) {}
    int iterations = 0;
    double residual = 0.0;  ///< max |Φ_i| (lengths in m, orientation rows dimensionless)
    /// Joints and drivers whose equations are not met, with their largest residual,
    /// largest first; empty when converged.
    std::vector<std::pair<std::string, double>> openJoints;
};

/// Moves state.q onto Φ(q, state.t) = 0. Each step is the minimum-norm solution of the
/// linearised equations (QR with column pivoting, rotations weighed by lengthScale), so
/// the result is the closest assembled configuration to the guess; steps are clamped and
/// backtracked so that ‖Φ‖ never grows. On failure the state holds the best configuration
/// found. An already assembled state is left unchanged.
AssemblyResult assemble(const Model& model, State& state, const AssemblyOptions& options = {});

/// Velocity analysis: replaces state.v by the velocity nearest to it (scaled metric) that
/// satisfies Φ_q v = −Φ_t. Returns the residual of the redundant equations (nonzero when
/// the velocity equations are inconsistent).
double projectVelocities(const Model& model, State& state,
                         double rankTolerance = kDefaultRankTolerance,
                         LinearAlgebra linearAlgebra = LinearAlgebra::Automatic);

/// Acceleration analysis for a state whose velocities are consistent: the minimum-norm
/// v̇ with Φ_q v̇ = γ. For a fully driven mechanism (no degrees of freedom) it is unique.
VecX solveAccelerations(const Model& model, const State& state,
                        double rankTolerance = kDefaultRankTolerance,
                        LinearAlgebra linearAlgebra = LinearAlgebra::Automatic);

}  // namespace looplab
