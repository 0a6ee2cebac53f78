#pragma once
// Small vibrations about a static equilibrium, computed directly from the linearised
// equations with the multipliers kept (sparse), after the direct eigenanalysis procedure
// for constrained multibody systems in equilibrium with preconditioning by scaling and a
// frequency shift (the paper cited in docs/methods.md, "Eigenanalysis"):
//
//   M δq̈ + C δq̇ + K δq + Φ_Iᵀ δλ = 0,   Φ_I δq = 0,
//
// Φ_I the independent rows of Φ_q (ConstraintSpaces). The multipliers and the constraint
// rows are scaled by β (μ = δλ/β), the pencil is shifted by σ and the eigenvalues nearest
// σ are found by shift-invert Lanczos (undamped, symmetric stiffness on the tangent space)
// or Arnoldi (damped: the state-space form; or a stiffness that is not symmetric on the
// tangent space) with Spectra, on a sparse LU of the shifted augmented matrix. No dense
// factorisation on this path. A dense check on the tangent space (null space of Φ_q)
// is available for small models.

#include "looplab/linalg/ConstraintSpaces.h"
#include "looplab/kinematics/Constraints.h"
#include "looplab/model/Model.h"
#include "looplab/model/State.h"
#include "looplab/model/Status.h"

#include <complex>
#include <optional>
#include <string>
#include <vector>

namespace looplab {

enum class ModeScaling {
    Automatic,  ///< β = largest |K_ij| (the paper's choice)
    None,       ///< β = 1: the naive augmented matrix, kept to show its conditioning
    Value,      ///< β = ModesOptions::scalingValue
};

enum class ShiftedFactorization { Automatic, LU };

struct ModesOptions {
    /// Modes wanted from the iteration (the lowest, i.e. nearest a shift below them); the
    /// rigid-body modes of free structures are reported on top of them.
    int count = 6;
    /// Shift σ on the eigenvalue ω² [rad²/s²]; automatic when empty: −0.01 β / max M_ii,
    /// a small negative value below every ω² ≥ 0, so that rigid-body and mechanism modes
    /// (ω² = 0) leave the shifted matrix regular and the lowest modes are the nearest.
    /// Damped (state-space) problems shift s by s₀ = −√|σ| [1/s].
    std::optional<double> shift;
    ModeScaling scaling = ModeScaling::Automatic;
    double scalingValue = 1.0;  ///< β for ModeScaling::Value [N/m-like: units of K]
    double rankTolerance = kDefaultRankTolerance;
    LinearAlgebra linearAlgebra = LinearAlgebra::Automatic;
    /// How the shifted matrix is factorised for the iteration: Automatic takes the Cholesky
    /// factorisation of the shifted stiffness with the Schur complement of the constraint
    /// rows where that block is positive definite (undamped, symmetric), LU otherwise; LU
    /// always factorises the whole augmented matrix (to compare the two).
    ShiftedFactorization factorization = ShiftedFactorization::Automatic;
    /// Solve the undamped problem even when C ≠ 0.
    bool ignoreDamping = false;
    /// A mode whose shape violates the constraints, ‖D_r Φ_q x‖∞ > spuriousTolerance ·
    /// ‖D_c⁻¹ x‖∞, or whose eigenvalue is "infinite" (|ν| below 1e-10 of the largest
    /// shift-inverted value), is a constraint mode, not physical, and is not reported; so is
    /// an undamped pair whose residual against its distance from the shift,
    /// ‖(K − ω²M)x + Φ_Iᵀδλ‖ |ν| / ‖Mx‖, exceeds spuriousTolerance (no eigenpair of the
    /// shift-inverted operator: a mixture of values crowded far from the shift).
    double spuriousTolerance = 1e-6;
    /// A reported mode whose relative residual ‖(K − ω²M)x + Φ_Iᵀδλ‖/(‖K‖‖x‖) exceeds this
    /// is flagged as inaccurate.
    double residualTolerance = 1e-8;
    /// The shifted matrix counts as ill-conditioned when κ₁ · ε > this: about
    /// −log10(this) of the 16 digits left in the solves.
    double conditionLimit = 1e-6;
    int maxIterations = 1000;     ///< restarts of the Lanczos/Arnoldi iteration
    double tolerance = 1e-12;     ///< Spectra's relative convergence tolerance
    /// Run the dense tangent-space check when the model has at most this many coordinates.
    int denseCheckLimit = 600;
};

struct Mode {
    /// Eigenvalue of the linearised motion, δq ∝ e^{st} [1/s]; undamped: s = iω, or
    /// s = ±√(−ω²) real when unstable.
    std::complex<double> s;
    double squaredFrequency = 0.0;  ///< undamped: ω² [rad²/s²]; damped: |s|²
    double frequencyHz = 0.0;       ///< natural frequency |s|/2π [Hz] (of the divergence rate if unstable)
    double dampingRatio = 0.0;      ///< −Re s / |s| (0 undamped; 1 at critical damping)
    bool unstable = false;          ///< ω² < 0 (undamped) or Re s > 0
    /// Shape in velocity coordinates (δq, increments applied by retract()): real part of the
    /// eigenvector after turning its largest entry real, normalised to unit modal mass
    /// xᵀMx = 1 [m, rad per √kg·m units of modal amplitude].
    VecX shape;
    /// Multiplier increments δλ per unit modal amplitude, one per equation (β undone;
    /// zero on the redundant equations).
    VecX multipliers;
    double constraintResidual = 0.0;  ///< ‖D_r Φ_q x‖∞ / ‖D_c⁻¹ x‖∞ [-]
    double residual = 0.0;            ///< relative residual of the eigen-equation [-]
    bool accurate = true;             ///< residual ≤ residualTolerance
    /// A rigid-body mode: a free direction of the model (FreeDirections.h), ω = 0 exactly,
    /// the shape a rigid motion of a free structure.
    bool rigidBody = false;
};

struct ModesResult : Status {
    ModesResult() : Status(false) {}
    std::vector<std::string> warnings;  ///< flagged results (ill-conditioning, inaccuracy)
    double scaling = 1.0;               ///< β used [units of K]
    double stiffnessScale = 0.0;        ///< largest |K_ij| (the automatic β)
    double shift = 0.0;                 ///< σ used [rad²/s²]
    /// The reference shift −0.01 max|K_ij| / max M_ii [rad²/s²]: the automatic one unless it
    /// was moved near the lowest frequency. With the automatic shift the condition numbers
    /// are those of the matrix at this one (they measure the scaling).
    double referenceShift = 0.0;
    /// The estimate of ω₁² (from above) that placed the automatic shift, 0 if none was made.
    double lowestEstimate = 0.0;
    int shiftEstimateSolves = 0;        ///< solves of that estimate (counted in `operations`)
    double shiftEstimateSeconds = 0.0;  ///< its time and the second factorisation's
    bool damped = false;                ///< state-space form (C ≠ 0)
    bool symmetric = true;              ///< symmetric (Lanczos) path
    /// ‖Tᵀ(K − Kᵀ)T‖ / ‖Tᵀ(K + Kᵀ)T‖ on a few tangent vectors: how far the stiffness on the
    /// tangent space is from symmetric (decides whether K may be symmetrised).
    double stiffnessAsymmetry = 0.0;
    double conditionUnscaled = 0.0;  ///< κ₁ estimate of the shifted augmented matrix, β = 1
    double conditionScaled = 0.0;    ///< the same with the β used
    bool illConditioned = false;     ///< the matrix factorised has κ₁ ε > conditionLimit
    /// How the shifted matrix was factorised: "cholesky" (its stiffness block positive
    /// definite: Cholesky and the constraint rows' Schur complement) or "lu".
    std::string factorization;
    bool flagged = false;            ///< ill-conditioned, or a reported mode is inaccurate
    /// Ascending natural frequency: the rigidBodyModes rigid-body modes first (all of them),
    /// then up to `count` modes found by the shift-invert iteration.
    std::vector<Mode> modes;
    /// Free directions of the model (rigid motions of free structures that no constraint and
    /// no stiffness holds), reported as rigid-body modes and removed from the iteration.
    int rigidBodyModes = 0;
    /// The bodies of each structure with a free direction (FreeDirections::structures).
    std::vector<std::vector<std::string>> freeStructures;
    int spuriousRejected = 0;        ///< constraint modes found and not reported
    int coordinates = 0, independentEquations = 0, degreesOfFreedom = 0;
    int iterations = 0, operations = 0;  ///< Spectra restarts and operator applications
    bool denseChecked = false;
    /// Largest relative difference between a reported eigenvalue and the nearest one of the
    /// dense tangent-space problem: undamped |ω² − ω_d²| / max(|ω_d²|, f), the floor f =
    /// max(1e-9 max|ω_d²|, 1e-12 |σ|) only for zero frequencies; damped |s − s_d| /
    /// max(|s_d|, √(1e-9) max|s_d|, 1e-6 |s₀|).
    double denseDifference = 0.0;
    std::vector<std::complex<double>> denseEigenvalues;  ///< s of the dense check, by |s|
    double factorizationSeconds = 0.0, iterationSeconds = 0.0, denseSeconds = 0.0;
};

/// The modes about the equilibrium `state` (velocities ignored: taken as 0) with the static
/// multipliers `lambda` (one per equation, e.g. StaticsResult::lambda).
ModesResult computeModes(const Model& model, const State& state, const VecX& lambda,
                         const ModesOptions& options = {});

/// Modal assurance criterion weighted by M: (aᵀMb)² / ((aᵀMa)(bᵀMb)), 1 for the same shape,
/// 0 for M-orthogonal ones; 0 when either is zero.
double modalAssurance(const Model& model, const VecX& a, const VecX& b);

}  // namespace looplab
