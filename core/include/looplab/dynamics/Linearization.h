#pragma once
// The equations of motion linearised at a state (q, v, t) with given multipliers λ:
//
//   M δv̇ + C δv + K δq = 0,
//   M = mass matrix,  C = −∂Q/∂v,  K = −∂(Q − Φ_qᵀλ)/∂q,
//
// where Q = generalizedForces() and −Φ_qᵀλ is the constraint force. Increments δq live in
// the velocity coordinates (size n = Model::velocitySize()) and mean q ⊕ δq (retract()):
// column k of K is −d/dε of (Q − Φ_qᵀλ) at (retract(q, ε e_k), v, t), with v (the body-
// frame angular velocity included) and t held fixed, so K is not symmetric away from
// equilibrium (docs/methods.md, "Linearisation"). The eigenanalysis, implicit
// integrators' Newton iterations and the ODE solver's Jacobian use these matrices.
//
// All three are n × n, sparse and column-major (SparseColMatrix in Constraints.h): the
// storage that sparse LU (UMFPACK, Eigen's SparseLU), CHOLMOD and SUNDIALS' sparse
// matrices take without a copy. Rows are generalised forces (N for translational, N·m for
// rotational velocity coordinates); columns of M are accelerations (m/s², rad/s²), of C
// velocities (m/s, rad/s), of K displacements (m, rad).

#include "looplab/kinematics/Constraints.h"
#include "looplab/dynamics/ForceDerivatives.h"
#include "looplab/model/Model.h"
#include "looplab/model/State.h"

namespace looplab {

struct Linearization {
    SparseColMatrix mass;       ///< M, block diagonal, constant
    SparseColMatrix damping;    ///< C = −∂Q/∂v
    SparseColMatrix stiffness;  ///< K = −∂Q/∂q + ∂(Φ_qᵀλ)/∂q (constraintCurvature())
};

/// The mass matrix M (m·I₃ and the body-frame inertia of each rigid body).
SparseColMatrix massMatrix(const Model& model);

/// M, C and K at state s with the multipliers lambda (one per equation of the model, in
/// the sign convention of the constraint force −Φ_qᵀλ). Time-dependent driver laws and
/// force laws are taken at s.t.
void linearize(const Model& model, const State& s, const VecX& lambda, Linearization& out);

}  // namespace looplab
