#pragma once
// The null-space projection method (Zhao, Qi, Wang & Xu, Applied Mathematics and
// Mechanics 47(8), 2026). Before the equations of motion are formed, positions are
// projected onto Φ = 0 by minimum-norm Gauss–Newton steps and velocities onto
// Φ_q v + Φ_t = 0. QR with column pivoting of Φ_qᵀ, redone at every evaluation, gives the
// rank, the independent equations and orthonormal bases Q₁ (constraint space) and Q₂
// (tangent space). The acceleration is v̇ = Φ_q⁺γ + Q₂a with (Q₂ᵀMQ₂)a = Q₂ᵀ(f − MΦ_q⁺γ):
// its constraint-space part is fixed by the constraints and its tangent part by the
// projected equations of motion, so v̇ meets Φ_q v̇ = γ exactly, with as many equations
// as coordinates and no assumption that the constraints are independent. The multipliers
// are the minimum-norm solution of Φ_qᵀλ = f − Mv̇.
//
// On the sparse path (large models, see LinearAlgebra) the rank-revealing factorisation is
// not redone at every evaluation: the independent equations it chose are kept, and the
// corrections and accelerations are solved on them with sparse Cholesky factorisations
// (IndependentRows). The choice is made again whenever it no longer serves: when those
// rows come near dependence (a singular configuration) or when an equation left out is no
// longer met by the solution (a dependent row became independent again).

#include "looplab/dynamics/ConstraintMethod.h"
#include "looplab/kinematics/Constraints.h"
#include "looplab/dynamics/IndependentRows.h"

namespace looplab {

class ProjectionMethod final : public ConstraintMethod {
public:
    ProjectionMethod(std::shared_ptr<const Model> model, const ConstraintMethodSettings& settings);
    const char* name() const override { return "projection"; }
    bool projects() const override { return true; }
    Status correct(State& state) override;
    Status evaluate(const State& state, MotionEvaluation& out) override;
    const ConstraintSpaces* factorizationAt(const State& state) const override;

    /// Factorisation of Φ_q at the last corrected or evaluated configuration.
    const ConstraintSpaces& spaces() const { return spaces_; }

private:
    Status project(State& s);
    Status projectSparse(State& s);
    Status evaluateSparse(const State& s, const VecX& f, const VecX& gamma, MotionEvaluation& out);
    /// Chooses the independent equations anew by the rank-revealing factorisation at s
    /// (cv holds the Jacobian at s).
    void chooseIndependentRows(const State& s, const ConstraintValues& cv);
    /// Whether a position projection ended where it may: converged (else naming the
    /// joints that do not close) and on the drivers' prescribed roots.
    Status positionOutcome(const State& s, double residual, const VecX& phi) const;
    void factorizeAt(const State& s);
    /// Factorises the Jacobian in cv, evaluated at s, unless s is already factorised.
    void factorizeFrom(const State& s, const ConstraintValues& cv);

    std::shared_ptr<const Model> model_;
    ConstraintMethodSettings settings_;
    VecX rowScales_, colScales_;
    ConstraintSpaces spaces_;
    // Sparse path: the independent rows in use, and the configuration whose Jacobian they
    // hold (set by the last projection).
    bool sparse_ = false;
    IndependentRows rows_;
    bool rowsChosen_ = false;
    VecX rowsQ_;
    double rowsT_ = 0.0;
    // Configuration (q, t) at which spaces_ was computed, to avoid factorising twice.
    VecX factoredQ_;
    double factoredT_ = 0.0;
    // Last input and result of correct().
    State cachedIn_, cachedOut_;
    bool cacheValid_ = false;
};

}  // namespace looplab
