#pragma once
// Constraint equations of joints and drivers, with analytic derivatives:
//   Φ(q, t) = 0,  Φ_q v + Φ_t = 0,  Φ_q v̇ = γ,
// where Φ_q is the Jacobian with respect to the velocity coordinates v (see Model).

#include "looplab/model/Model.h"
#include "looplab/model/State.h"
#include "looplab/linalg/SparseMatrix.h"

namespace looplab {

/// What evaluateConstraints() should compute.
enum ConstraintPart : unsigned {
    kPhi = 1u,
    kJacobian = 2u,
    kPhiT = 4u,
    kGamma = 8u,
    kAllParts = 15u
};

/// Φ, Φ_q (sparse, m × n for n velocity coordinates), Φ_t and γ at one state.
struct ConstraintValues {
    VecX phi;
    SparseMatrix jacobian;
    VecX phiT;
    VecX gamma;

    /// Dense copy of the Jacobian.
    MatX denseJacobian() const { return MatX(jacobian); }
};

/// Evaluates the requested parts at state s. γ uses s.v; Φ_t and γ use s.t.
void evaluateConstraints(const Model& model, const State& s, ConstraintValues& out,
                         unsigned parts = kAllParts);

/// Largest |Φ_i| at s: how far the loops are from closed, in the equations' own units.
double largestConstraintResidual(const Model& model, const State& s);

/// The curvature of the constraints weighted by the multipliers, ∂(Φ_qᵀλ)/∂q (n × n, n
/// velocity coordinates): column k is d/dε of Φ_q(q ⊕ ε e_k)ᵀλ at ε = 0, with ⊕ the
/// retraction (retract()) and t fixed. Its rows are generalised forces per multiplier
/// unit (N for translational rows, N·m for rotational ones, times the units of λ), its
/// columns velocity-coordinate increments. Not symmetric in general: body-frame rotation
/// increments do not commute (methods.md, "Linearisation"). One multiplier per equation.
SparseColMatrix constraintCurvature(const Model& model, const State& s, const VecX& lambda);

/// Rotational drivers whose joint is half a turn from the law: Φ = sin(θ_joint − θ(t))
/// vanishes there too, so a solver that converged must check that it converged to the
/// right root (cos(θ_joint − θ(t)) > 0).
std::vector<std::string> driversOnWrongRoot(const Model& model, const State& s);

/// Largest absolute residual of each joint and driver, in model order (joints first).
std::vector<std::pair<std::string, double>> residualsByOwner(const Model& model,
                                                             const VecX& phi);

/// Scale that makes each row of Φ a length: 1 for length rows, the model's length
/// scale for dimensionless orientation rows.
VecX equationScales(const Model& model);
/// Column scales D_c with v = D_c ṽ, where the scaled coordinates ṽ are all speeds:
/// 1 for translations, 1/lengthScale for angular velocities (so that a minimum-norm step
/// weighs a rotation of 1 rad like a translation of lengthScale metres).
VecX coordinateScales(const Model& model);

}  // namespace looplab
