#pragma once
// Sparse Cholesky factorisation of a symmetric positive definite matrix that is
// factorised again and again with the same sparsity pattern (the normal matrix and the
// Schur complement of the constraint Jacobian during a simulation): the fill-reducing
// ordering and symbolic analysis are redone only when the pattern changes.

#include "looplab/common/Types.h"

#include <Eigen/SparseCholesky>
#include <Eigen/SparseCore>

#include <vector>

namespace looplab {

using ColMajorMatrix = Eigen::SparseMatrix<double, Eigen::ColMajor>;

class SparseCholesky {
public:
    /// Factorises A (only its lower triangle is read). False if A is not numerically
    /// positive definite.
    bool factorize(const ColMajorMatrix& a);
    /// A⁻¹ b with the last successful factorisation.
    VecX solve(const VecX& b) const { return llt_.solve(b); }
    /// Diagonal of the Cholesky factor L (in the factorisation's order).
    VecX factorDiagonal() const { return llt_.matrixL().nestedExpression().diagonal(); }

private:
    Eigen::SimplicialLLT<ColMajorMatrix, Eigen::Lower, Eigen::AMDOrdering<int>> llt_;
    std::vector<int> outer_, inner_;
    bool analysed_ = false;
};

}  // namespace looplab
