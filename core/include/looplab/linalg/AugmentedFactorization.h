#pragma once
// The factorisation of a shifted augmented matrix for the many solves of a shift-invert
// iteration, with the cheapest method that applies:
//
//   [ A    βBᵀ ]   symmetric, A positive definite:  Cholesky of A and the Schur complement
//   [ βB   0   ]                                     of the constraint rows (AugmentedCholesky)
//   anything else (A indefinite or unsymmetric, the state-space matrix of a damped model):
//                                                    LU of the whole matrix (UMFPACK)
//
// On the clamped solid block of bench_solid_modes (30 927 coordinates, 507 constraint rows)
// the first factorises in about 60 % of the LU's time and solves in about 45 % of it, with a
// factor of 14 million entries; the answers agree to rounding (tst_augmentedfactorization).

#include "looplab/linalg/AugmentedCholesky.h"
#include "looplab/linalg/AugmentedMatrix.h"

#include <string>
#include <vector>

namespace looplab {

class AugmentedFactorization {
public:
    enum class Method { None, Cholesky, LU };

    /// Factorises [A βBᵀ; βB 0], B the rows `rows` of `jacobian`. With `symmetric` (A is)
    /// the Cholesky path is tried first. A repeated call with the same patterns keeps the
    /// ordering and symbolic analysis. False if the matrix is singular.
    bool factorizeAugmented(const SparseColMatrix& A, const SparseMatrix& jacobian, const std::vector<int>& rows,
                            double beta, bool symmetric);
    /// Factorises any square matrix by LU (keeping the symbolic analysis of the last one
    /// when the pattern repeats). False if it is singular.
    bool factorizeGeneral(const SparseColMatrix& S);

    bool ok() const { return method_ != Method::None; }
    Method method() const { return method_; }
    /// "cholesky" or "lu" (empty when not factorised): for reports.
    std::string methodName() const;
    int size() const;
    VecX solve(const VecX& b) const;
    /// Estimates of κ₁ of the matrix and of D S D (AugmentedMatrix.h); infinity when not
    /// factorised.
    double conditionEstimate() const;
    double conditionEstimate(const VecX& d) const;

private:
    AugmentedCholesky cholesky_;
    SparseLUFactorization lu_;
    bool luFactorized_ = false;  // lu_ holds a symbolic analysis worth keeping
    Method method_ = Method::None;
};

}  // namespace looplab
