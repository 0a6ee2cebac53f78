#pragma once
// One interface for every way of enforcing the constraints in forward dynamics, so that
// a comparison changes one thing at a time: the ODE solver, the model and the output are
// the same whichever method computes the accelerations.
//
//   projection            null-space projection (Zhao, Qi, Wang & Xu 2026)
//   baumgarte             augmented multiplier formulation with Baumgarte stabilisation
//   penalty               Bayo's penalty formulation
//   augmented-lagrangian  penalty with iterated multipliers (Bayo & Ledesma)

#include "looplab/linalg/ConstraintSpaces.h"
#include "looplab/model/Model.h"
#include "looplab/dynamics/MotionEvaluation.h"
#include "looplab/model/State.h"
#include "looplab/model/Status.h"

#include <cmath>
#include <memory>
#include <string>
#include <vector>

namespace looplab {

/// The values a parameter accepts: [low, high], or (low, high] where the low end itself
/// would make the scheme degenerate (Newmark β = 0 is explicit).
struct ParameterRange {
    double low;
    double high;
    bool lowInclusive;
    const char* text;  ///< as messages write it, e.g. "[-1/3, 0]"
    bool contains(double x) const {
        return std::isfinite(x) && (lowInclusive ? x >= low : x > low) && x <= high;
    }
};

/// One definition of the implicit integrators' ranges, so that the command line, the
/// model-file reader and the workbench refuse the same values.
inline constexpr ParameterRange kHhtAlphaRange{-1.0 / 3.0, 0.0, true, "[-1/3, 0]"};
inline constexpr ParameterRange kNewmarkBetaRange{0.0, 0.5, false, "(0, 1/2]"};
inline constexpr ParameterRange kNewmarkGammaRange{0.5, 1.0, true, "[1/2, 1]"};

/// Parameters of all methods; each method reads its own.
struct ConstraintMethodSettings {
    /// Relative rank tolerance of the factorisations during dynamics. Looser than the
    /// mobility analysis' kDefaultRankTolerance on purpose: near a singular configuration
    /// a minimum-norm correction is amplified by 1/σ_min, so a direction whose singular
    /// value falls below this is treated as lost (the rank drops) rather than used to
    /// kick the velocity onto another assembly branch.
    double rankTolerance = kDynamicsRankTolerance;
    /// Dense or sparse factorisations of the constraint Jacobian (automatic by size).
    LinearAlgebra linearAlgebra = LinearAlgebra::Automatic;
    /// projection: Gauss–Newton iterations allowed per position projection.
    int projectionIterations = 8;
    /// baumgarte: Φ̈ + 2αΦ̇ + β²Φ = 0 [1/s].
    double baumgarteAlpha = 10.0;
    double baumgarteBeta = 10.0;
    /// penalty and augmented-lagrangian: penalty α = factor × mean generalised mass,
    /// with the constraint dynamics Φ̈ + 2ξωΦ̇ + ω²Φ.
    double penaltyFactor = 1e7;
    double penaltyDamping = 1.0;     ///< ξ
    double penaltyFrequency = 10.0;  ///< ω [rad/s]
    /// augmented-lagrangian: penalty factor and multiplier iterations.
    double augmentedFactor = 1e4;
    int augmentedIterations = 30;
    double augmentedTolerance = 1e-12;

    /// tlismni and hht-index3 with the hht integrator: HHT α in [−1/3, 0] (0: trapezoidal, no
    /// damping; hht-index3 with an adaptive step needs α < 0).
    double hhtAlpha = -0.05;
    /// tlismni with the newmark integrator: β and γ (second order only for γ = 1/2).
    double newmarkBeta = 0.25;
    double newmarkGamma = 0.5;
};

class ConstraintMethod {
public:
    virtual ~ConstraintMethod() = default;
    /// Name as used by files, the command line and the workbench.
    virtual const char* name() const = 0;
    /// True if the method moves (q, v) onto the constraint manifold before each
    /// evaluation (and after each step): then correct() must be called first.
    virtual bool projects() const { return false; }
    /// Projects the state onto the position and velocity constraint manifolds.
    virtual Status correct(State& /*state*/) { return {}; }
    /// Computes accelerations and multipliers at `state`.
    virtual Status evaluate(const State& state, MotionEvaluation& out) = 0;
    /// The factorisation of Φ_q at exactly this configuration, if the method has it at
    /// hand (the simulator's diagnostics then need not factorise again); else nullptr.
    virtual const ConstraintSpaces* factorizationAt(const State& /*state*/) const { return nullptr; }
};

}  // namespace looplab
