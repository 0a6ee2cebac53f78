#pragma once
// The independent rows of the scaled constraint Jacobian, J = (D_r Φ_q D_c) restricted to
// a set of equations chosen by a rank-revealing factorisation, with the two sparse
// systems a large model's projection method solves at every evaluation:
//   J Jᵀ       (minimum-norm corrections of positions and velocities), and
//   J M̃⁻¹ Jᵀ  (accelerations; M̃ = D_c M D_c),
// each by a sparse Cholesky factorisation whose symbolic analysis is kept while the set
// and the Jacobian's pattern stay the same. Both matrices have the pattern of the pairs of
// equations that share a body; it is found once per pattern of J, and each evaluation
// only fills in the values (dot products of sparse rows), where a general sparse product
// would sort and allocate every time. The set is decided elsewhere (ConstraintSpaces);
// this class tells when it no longer serves: a Cholesky factorisation that fails, or
// pivots spread as far as the rank tolerance.

#include "looplab/kinematics/Constraints.h"
#include "looplab/model/Model.h"
#include "looplab/linalg/SparseCholesky.h"

#include <vector>

namespace looplab {

class IndependentRows {
public:
    /// Chooses the equations (rows of Φ) and the scales D_r, D_c.
    void select(const std::vector<int>& rows, const VecX& rowScales, const VecX& colScales);

    /// Takes the rows of a freshly evaluated Jacobian (all m rows) and factorises J Jᵀ.
    /// False if J Jᵀ is not numerically positive definite.
    bool setJacobian(const SparseMatrix& jacobian);
    /// min/max of the Cholesky factor's diagonal of J Jᵀ: the spread of |R_kk| of a QR of
    /// Jᵀ in the factorisation's order, compared with the rank tolerance.
    double pivotSpread() const { return pivotSpread_; }

    /// The minimum-norm dv (scaled metric) with (Φ_q dv)_i = rhs_i on the selected rows;
    /// rhs has all m rows.
    VecX minimumNormSolve(const VecX& rhs) const;

    /// Constrained accelerations for generalised forces f with Φ_q v̇ = γ on the selected
    /// rows: (J M̃⁻¹ Jᵀ) μ = J M̃⁻¹ D_c f − D_r γ, v̇ = M⁻¹ f − D_c M̃⁻¹ Jᵀ μ.
    /// False if J M̃⁻¹ Jᵀ is not numerically positive definite.
    bool accelerations(const Model& model, const VecX& f, const VecX& gamma, VecX& acceleration);
    /// The same for other f and γ with the J M̃⁻¹ Jᵀ factorised by the last accelerations()
    /// (an iterative refinement's corrections: a solve each, no factorisation).
    bool accelerationsAgain(const Model& model, const VecX& f, const VecX& gamma, VecX& acceleration) const;

private:
    /// Finds the pattern of J Jᵀ (lower triangle; also that of J M̃⁻¹ Jᵀ) for J's pattern.
    void findProductPattern();
    /// Finds W = J M̃⁻¹'s pattern: each row of J widened to the whole velocity slice of
    /// every body it touches.
    void findWidenedPattern(const Model& model);

    std::vector<int> rows_;
    VecX rowScales_, colScales_;
    SparseMatrix J_;       // scaled selected rows, r × n
    SparseMatrix W_;       // J M̃⁻¹: each row of J widened to whole body blocks
    ColMajorMatrix N_;     // lower triangle of J Jᵀ; also the pattern of J M̃⁻¹ Jᵀ
    ColMajorMatrix S_;
    std::vector<int> patternOuter_, patternInner_;  // J_'s pattern when N_ was found
    bool widened_ = false;                          // W_'s pattern found for J_'s
    VecX scratch_;
    SparseCholesky normal_, schur_;
    double pivotSpread_ = 0.0;
};

}  // namespace looplab
