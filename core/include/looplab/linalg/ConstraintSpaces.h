#pragma once
// Rank-revealing factorisation of the constraint Jacobian: QR with column pivoting of
// Φ_qᵀ (after scaling rows and columns to common units). It yields the numerical rank,
// the independent and redundant equations, orthonormal bases of the constraint space
// (range of Φ_qᵀ) and of the tangent space (null space of Φ_q), and minimum-norm solves.
// Everything that needs rank decisions (mobility, assembly, the projection method)
// goes through this one class so that they all agree.
//
// Two factorisations stand behind the same interface: a dense QR with max-norm column
// pivoting (PivotedQR) for small models, and SuiteSparseQR's multifrontal QR with its rank
// detection for large ones, where the dense one costs O(n³) and its memory O(n²). The
// choice is automatic at kSparseCoordinateThreshold coordinates and can be forced.

#include "looplab/linalg/SparseMatrix.h"
#include "looplab/model/Model.h"

#include "looplab/linalg/PivotedQR.h"

#include <memory>
#include <string>
#include <vector>

namespace looplab {

/// Which linear algebra factorises and solves with the constraint Jacobian.
enum class LinearAlgebra {
    Automatic,  ///< dense up to kSparseCoordinateThreshold coordinates, sparse above
    Dense,
    Sparse
};
/// Above this many velocity coordinates Automatic picks the sparse path. Measured on
/// chains of loops the paths cost the same at 66 coordinates and the sparse one is 6.5×
/// faster at 126; below 120 the shipped small examples keep the dense path's results.
inline constexpr int kSparseCoordinateThreshold = 120;
/// Whether `choice` means the sparse path for a model with `coordinates` coordinates.
bool usesSparse(LinearAlgebra choice, int coordinates);
/// "automatic", "dense", "sparse".
const char* linearAlgebraName(LinearAlgebra choice);
/// Parses a name given by linearAlgebraName(); false if unknown.
bool parseLinearAlgebra(const std::string& name, LinearAlgebra& choice);

/// Default relative rank tolerance: a pivot |R_kk| ≤ tol·|R_00| of the scaled Φ_qᵀ
/// counts as zero. Scaling makes all entries O(1), so this is a relative threshold on
/// singular values to within the conditioning of R.
inline constexpr double kDefaultRankTolerance = 1e-9;
/// Pivots within this factor of the first one below the rank tolerance (and below this
/// factor times the tolerance) count as zero with it: the rank is decided at a gap.
inline constexpr double kRankClusterFactor = 10.0;
/// Rank tolerance used in forward dynamics (see ConstraintMethodSettings::rankTolerance):
/// about ε^(1/3) for double precision. Near a bifurcation (two assembly branches
/// crossing) a projected state meets Φ only to rounding, Φ ≈ ε, and the index-1
/// equations follow that level set, whose curvature near the crossing grows like ε/σ³:
/// the accelerations err by a relative (σ₁/σ)³ (σ₁ ≈ 1e-5 measured on the double
/// parallelogram). Rows dropped below τ lose their curvature terms for a window of width
/// ∝ τ. The velocity error of one crossing, ∝ τ + σ₁³/τ², is least near τ ≈ ε^(1/3); see
/// docs/methods.md, "Passing a singular configuration".
inline constexpr double kDynamicsRankTolerance = 6e-6;

class ConstraintSpaces {
public:
    ConstraintSpaces();
    ~ConstraintSpaces();
    ConstraintSpaces(ConstraintSpaces&&) noexcept;
    ConstraintSpaces& operator=(ConstraintSpaces&&) noexcept;

    /// Factorises Φ_q (m × n) with row scales (length per equation) and column scales
    /// (speed per coordinate). Scaled Jacobian J̃ = D_r Φ_q D_c. Dense path.
    void factorize(const MatX& jacobian, const VecX& rowScales, const VecX& colScales,
                   double rankTolerance = kDefaultRankTolerance);
    /// The same from the sparse Jacobian, on the path `choice` selects for its size.
    void factorize(const SparseMatrix& jacobian, const VecX& rowScales, const VecX& colScales,
                   double rankTolerance, LinearAlgebra choice);
    /// True if the last factorisation was the sparse one.
    bool isSparse() const { return sparse_ != nullptr && sparseActive_; }

    int rank() const { return rank_; }
    int equations() const { return equations_; }
    int coordinates() const { return coordinates_; }
    int degreesOfFreedom() const { return coordinates() - rank_; }

    /// Indices (rows of Φ) of a maximal independent set, in pivot order.
    const std::vector<int>& independentEquations() const { return independent_; }
    /// Rows of Φ that depend on the independent ones.
    const std::vector<int>& redundantEquations() const { return redundant_; }

    /// Orthonormal basis (n × r) of the scaled constraint space range(J̃ᵀ).
    MatX constraintBasis() const;
    /// Orthonormal basis (n × (n−r)) of the scaled tangent space null(J̃).
    MatX tangentBasis() const;

    /// Smallest and largest |R_kk| among the independent pivots (estimates of the
    /// extreme singular values of the scaled Jacobian restricted to independent rows).
    double smallestPivot() const { return sigmaMin_; }
    double largestPivot() const { return sigmaMax_; }
    /// Smallest singular value of the independent rows of the scaled Jacobian, by inverse
    /// iteration on the r × r triangular factor (exact to rounding where σ_min is well
    /// separated, as near a singular configuration; an upper bound otherwise).
    double smallestSingularValue() const;

    /// A cheap lower bound of smallestSingularValue(): 1/‖R₁₁⁻¹‖_F, within a factor √r
    /// (dense path). The sparse path has no cheap bound and returns 0.
    double smallestSingularValueLowerBound() const;

    /// Minimum-norm (in the scaled metric) dv with Φ_q dv = rhs, using the independent
    /// equations only. Returns the residual ‖D_r(Φ_q dv − rhs)‖∞ through residual, which
    /// is nonzero when rhs is inconsistent on the redundant rows.
    VecX solveMinimumNorm(const VecX& rhs, double* residual = nullptr) const;

    /// Minimum-norm λ with Φ_qᵀ λ = g in the least-squares sense on the constraint space
    /// (g is a generalised force, units of the coordinates). Where equations are redundant
    /// λ is not unique; this is the solution of least (scaled) norm over all equations.
    VecX solveTransposed(const VecX& g) const;

    /// For each equation, whether it takes part in a dependent set (a nonzero entry in
    /// some vector of the left null space of Φ_q): the multipliers of such equations are
    /// not unique, so the reactions of their joints are statically indeterminate.
    std::vector<bool> indeterminateEquations() const;

    /// Weights over the equations (zero on redundant rows) of the combination of
    /// independent rows closest to dependence: the left singular vector of the smallest
    /// singular value. Large entries name the joints that lose a direction near a
    /// singular configuration.
    VecX singularDirection() const;

    /// |R_rr| of the first pivot past the rank (0 at full rank): how far from
    /// independence the nearest dropped row is. The sparse path drops such rows whole
    /// during the factorisation and returns 0.
    double firstRejectedPivot() const;
    const VecX& rowScales() const { return rowScales_; }
    const VecX& colScales() const { return colScales_; }

private:
    struct Sparse;
    void clear(int m, int n, const VecX& rowScales, const VecX& colScales);
    /// Upper-triangular solves with R₁₁ and R₁₁ᵀ on either path.
    VecX solveR11(const VecX& b) const;
    VecX solveR11Transposed(const VecX& b) const;
    /// K = R₁₁⁻¹R₁₂ (r × (m−r)), the coefficients of the redundant rows.
    MatX redundancyCoefficients() const;
    double smallestSingularPair(VecX* vOut) const;

    int equations_ = 0, coordinates_ = 0;
    std::unique_ptr<Sparse> sparse_;
    bool sparseActive_ = false;
    std::vector<int> perm_;
    VecX rowScales_, colScales_;
    /// The rank moved down to a gap in the pivots (dense path).
    int atGap(int rank, double rankTolerance) const;
    /// Sets the rank and the independent and redundant equations from the dense factors.
    void setDenseRank(int rank);

    PivotedQR qr_;
    int rank_ = 0;
    std::vector<int> independent_, redundant_;
    double sigmaMin_ = 0.0, sigmaMax_ = 0.0;
};

}  // namespace looplab
