#pragma once
// Householder QR with column pivoting, A P = Q R (Businger & Golub 1965; norm downdating
// as in LAPACK's xLAQP2). The rank-revealing factorisation behind ConstraintSpaces.
// Written out rather than taken from Eigen's ColPivHouseholderQR because a mechanism's
// Jacobian is small and factorised at every evaluation: column by column, with vector
// operations on the column segments, the arithmetic dominates, where the generic
// implementation spends most of its time on bookkeeping.

#include "looplab/common/Types.h"

#include <vector>

namespace looplab {

class PivotedQR {
public:
    /// Factorises A (rows × cols). Reflector k is H_k = I − τ_k v_k v_kᵀ with v_k(k) = 1
    /// and v_k below the diagonal of column k of factors(); Q = H_0 H_1 … H_{p−1},
    /// p = min(rows, cols). R is the upper triangle of factors().
    void compute(const MatX& a);

    const MatX& factors() const { return qr_; }
    /// Column j of A P is column permutation()[j] of A.
    const std::vector<int>& permutation() const { return perm_; }
    int reflectorCount() const { return static_cast<int>(tau_.size()); }
    double diagonal(int k) const { return qr_(k, k); }

    /// x ← Q₁ x with Q₁ = H_0 … H_{count−1}.
    void applyQ(VecX& x, int count) const;
    /// x ← Q₁ᵀ x with Q₁ = H_0 … H_{count−1}.
    void applyQTransposed(VecX& x, int count) const;
    /// Columns first … first + count − 1 of Q (rows × rows).
    MatX columnsOfQ(int first, int count) const;

private:
    /// x ← H_k x.
    void reflect(VecX& x, int k) const;

    MatX qr_;
    VecX tau_;
    std::vector<int> perm_;
    // Scratch of compute(), kept so that factorising at every evaluation does not allocate.
    VecX norms_, exactNorms_, work_;
};

}  // namespace looplab
