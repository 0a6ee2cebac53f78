#pragma once
// Static equilibrium of a constrained model: a configuration q on Φ(q, t) = 0 and
// multipliers λ with
//
//   F(q, λ) = Q(q, v = 0, t) − Φ_qᵀλ = 0,
//
// Q = generalizedForces() (Dynamics.h). Drivers are constraint equations like the joints',
// so a driven joint is locked at its law's value at state.t.
//
// Newton's method in (q, λ) with the analytic tangent of Linearization.h: each step solves
//
//   [ K     βΦ_Iᵀ ] [ δq    ]   [  F    ]
//   [ βΦ_I   0    ] [ δλ_I/β] = [ −βΦ_I ]
//
// (sparse LU), Φ_I the independent rows chosen by ConstraintSpaces (redundant equations
// keep their multipliers, so the system stays regular), β the largest |K_ij| so that the
// constraint block has the magnitude of the stiffness (the scaling of Modes.h), and moves
// q by the retraction. A backtracking line search on the merit
// ½(‖D_c F‖²/f₀² + ‖D_r Φ‖²/L²) keeps every accepted step downhill. Dynamic relaxation
// (pseudo-dynamics on the constraint manifold with kinetic damping) is the fallback when
// Newton fails and can be chosen alone. docs/methods.md, "Static equilibrium".

#include "looplab/linalg/ConstraintSpaces.h"
#include "looplab/model/Model.h"
#include "looplab/model/State.h"
#include "looplab/model/Status.h"

#include <string>
#include <vector>

namespace looplab {

enum class StaticsMethod {
    Automatic,   ///< Newton; on failure, dynamic relaxation and then Newton again
    Newton,      ///< Newton only
    Relaxation,  ///< dynamic relaxation only
};
/// "automatic", "newton", "relaxation". Inline, so that readers of files (a study's
/// analysis) name the methods without the solver.
inline const char* staticsMethodName(StaticsMethod m) {
    switch (m) {
    case StaticsMethod::Automatic: return "automatic";
    case StaticsMethod::Newton: return "newton";
    case StaticsMethod::Relaxation: return "relaxation";
    }
    return "automatic";
}
inline bool parseStaticsMethod(const std::string& name, StaticsMethod& m) {
    for (StaticsMethod c : {StaticsMethod::Automatic, StaticsMethod::Newton, StaticsMethod::Relaxation})
        if (name == staticsMethodName(c)) {
            m = c;
            return true;
        }
    return false;
}

/// What the search ended with. Only Converged is ok; Mechanism and Unstable are
/// equilibria (the force residual met the tolerance) that a caller may still analyse.
enum class StaticsOutcome {
    Converged,       ///< a stable equilibrium
    Mechanism,       ///< an equilibrium with a direction of no stiffness (ω² = 0)
    Unstable,        ///< an equilibrium with a direction of negative stiffness (ω² < 0)
    NoConvergence,   ///< the residual did not reach the tolerance
    AssemblyFailed,  ///< the constraints could not be closed
    /// The loads have a resultant along a free direction (a rigid motion of a free structure
    /// that no constraint or stiffness holds, FreeDirections.h): no equilibrium exists.
    Unbalanced,
};
/// "converged", "mechanism", "unstable", "no_convergence", "assembly_failed", "unbalanced".
const char* staticsOutcomeName(StaticsOutcome o);

struct StaticsOptions {
    StaticsMethod method = StaticsMethod::Automatic;
    /// Converged when ‖D_c F‖∞ ≤ forceTolerance · f₀, f₀ = ‖D_c Q‖∞ at the start (the
    /// largest applied generalised force, moments divided by the length scale) [-].
    double forceTolerance = 1e-10;
    int maxNewtonIterations = 50;
    int maxRelaxationSteps = 200000;
    double rankTolerance = kDefaultRankTolerance;
    LinearAlgebra linearAlgebra = LinearAlgebra::Automatic;
    /// Classify the equilibrium (stable, mechanism, unstable) from the eigenvalues of the
    /// stiffness projected on the tangent space (dense, up to denseStabilityLimit
    /// coordinates) or from the sign of the determinant of the augmented matrix above.
    bool checkStability = true;
    int denseStabilityLimit = 600;
    /// A projected eigenvalue ω² with |ω²| ≤ this × the largest |ω²| counts as zero.
    double zeroStiffnessTolerance = 1e-9;
    /// An equilibrium is accepted only if its force residual is at most this × the applied
    /// loads (loadScale): where the elastic forces of a stiff mesh are resolved more
    /// coarsely than that in double precision, the result is no convergence, with the
    /// residual and why, never an "equilibrium" whose reactions miss part of the load [-].
    double loadResidualTolerance = 1e-3;
    /// Wall-clock limit [s], 0 for none: checked between Newton iterations and relaxation
    /// steps; reaching it ends the search without an equilibrium ("wall-time limit
    /// reached", no fallback to relaxation).
    double maxWallTime = 0.0;
};

/// ok: outcome == Converged; message: why not.
struct StaticsResult : Status {
    StaticsResult() : Status(false) {}
    StaticsOutcome outcome = StaticsOutcome::NoConvergence;
    std::string method;   ///< what ran: "newton", "relaxation", "relaxation+newton"
    int newtonIterations = 0;
    int relaxationSteps = 0;
    double forceScale = 0.0;          ///< f₀ [N] (moments / length scale)
    /// ‖D_c Q_applied‖∞ at the start: Q without the elastic forces of beams and solids
    /// (gravity, springs, body forces and torques) [N]
    double loadScale = 0.0;
    double forceResidual = 0.0;       ///< ‖D_c F‖∞ at the end, minimum-norm λ [N]
    double constraintResidual = 0.0;  ///< ‖D_r Φ‖∞ at the end [m]
    VecX lambda;                      ///< minimum-norm multipliers at the end, one per equation
    int rank = 0;                     ///< rank of Φ_q at the end
    int degreesOfFreedom = 0;
    /// Free directions (FreeDirections.h) found at the start: with balanced loads they are
    /// held where they started (each Newton step M-orthogonal to them) and do not count as
    /// directions without stiffness in the classification.
    int freeDirections = 0;
    /// Eigenvalues ω² [rad²/s²] of (TᵀMT)⁻¹TᵀKT at the end, ascending (dense check only;
    /// empty when not computed).
    VecX squaredFrequencies;
    /// Newton ended where the residual stopped falling at a level the rounding of the
    /// positions explains (10 ε L max|K_ij|, or 1e3 × the force tolerance), not at the
    /// tolerance itself: converged to rounding.
    bool convergedToRounding = false;
    /// Merit (force residual / f₀) per Newton iteration, for diagnostics.
    std::vector<double> history;
};

/// Moves state to a static equilibrium (v set to 0, t kept). On failure the state holds
/// the last configuration reached (assembled when assembly succeeded).
StaticsResult findEquilibrium(const Model& model, State& state, const StaticsOptions& options = {});

/// The net force Q(q, 0, t) − Φ_qᵀλ (velocity coordinates) at state s.
VecX staticNetForce(const Model& model, const State& s, const VecX& lambda);

}  // namespace looplab
