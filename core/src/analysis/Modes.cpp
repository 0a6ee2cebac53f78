#include "looplab/analysis/Modes.h"

#include "looplab/analysis/FreeDirections.h"

#include "looplab/linalg/AugmentedFactorization.h"
#include "looplab/dynamics/Dynamics.h"
#include "looplab/dynamics/Linearization.h"

#include "MessageText.h"

#include <Eigen/Eigenvalues>
#include <Eigen/QR>
#include <Eigen/SparseCholesky>
#include <Spectra/GenEigsSolver.h>
#include <Spectra/SymEigsSolver.h>
#include <Spectra/SymGEigsShiftSolver.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>
#include <random>

namespace looplab {
namespace {

using Clock = std::chrono::steady_clock;
using Complex = std::complex<double>;
using VecC = Eigen::VectorXcd;

double seconds(Clock::time_point since) {
    return std::chrono::duration<double>(Clock::now() - since).count();
}

using message::format;

// ‖x‖∞, 0 for an empty vector (a model without constraint equations).
template <class V>
double largestMagnitude(const V& x) {
    return x.size() ? x.cwiseAbs().maxCoeff() : 0.0;
}

// x ← x − R (MRᵀ x): the part of x M-orthogonal to the free directions R (RᵀMR = I). The
// shift-inverted operators leave span R invariant, so removing it before and after each
// application leaves the elastic spectrum alone.
void removeFreePart(const MatX& R, const MatX& MR, double* x, int n) {
    if (R.cols() == 0) return;
    Eigen::Map<VecX> v(x, n);
    v -= R * (MR.transpose() * v);
}

// A linear operator for Spectra given by a function (x ↦ y, both of size n).
struct FunctionOp {
    using Scalar = double;
    Eigen::Index n = 0;
    std::function<void(const double*, double*)> apply;
    Eigen::Index rows() const { return n; }
    Eigen::Index cols() const { return n; }
    void perform_op(const double* x, double* y) const { apply(x, y); }
    // Spectra's shift-invert mode tells the solve its shift; ours is factorised already.
    void set_shift(double) {}
};

// Thrown by MassProduct when the M inner product of a Lanczos vector is not positive: M is
// then not positive definite and the M-self-adjoint iteration has no meaning.
struct MassNotPositive {};

// y = M x for Spectra's generalized solvers, which take ⟨x, y⟩ = xᵀMy as their inner product
// and pass every vector they normalise or orthogonalise through here: a non-positive xᵀMx
// of a non-zero x ends the iteration rather than letting it run on square roots of negatives.
struct MassProduct {
    using Scalar = double;
    const SparseColMatrix* mass = nullptr;
    Eigen::Index rows() const { return mass->rows(); }
    Eigen::Index cols() const { return mass->cols(); }
    void perform_op(const double* x, double* y) const {
        Eigen::Map<const VecX> xv(x, mass->cols());
        Eigen::Map<VecX> yv(y, mass->rows());
        yv.noalias() = *mass * xv;
        const double xMx = xv.dot(yv);
        if (!(xMx > 0.0) && xv.squaredNorm() > 0.0) throw MassNotPositive{};
    }
};

// The state-space pencil (A' + s E) y = 0 in y = (x, v, μ) shifted by s₀:
//   [ K       C + s₀M   βBᵀ ]
//   [ s₀κI    −κI        0  ]
//   [ βB      0          0  ]
SparseColMatrix stateSpaceMatrix(const Linearization& lin, const SparseMatrix& J, const std::vector<int>& rows,
                                 double beta, double s0, double kappa) {
    const int n = static_cast<int>(lin.mass.rows()), r = static_cast<int>(rows.size());
    std::vector<Eigen::Triplet<double>> t;
    const SparseColMatrix CM = lin.damping + s0 * lin.mass;
    for (int c = 0; c < n; ++c) {
        for (SparseColMatrix::InnerIterator it(lin.stiffness, c); it; ++it)
            t.emplace_back(static_cast<int>(it.row()), c, it.value());
        for (SparseColMatrix::InnerIterator it(CM, c); it; ++it)
            t.emplace_back(static_cast<int>(it.row()), n + c, it.value());
        t.emplace_back(n + c, c, s0 * kappa);
        t.emplace_back(n + c, n + c, -kappa);
    }
    for (int k = 0; k < r; ++k)
        for (SparseMatrix::InnerIterator it(J, rows[static_cast<size_t>(k)]); it; ++it) {
            t.emplace_back(2 * n + k, static_cast<int>(it.col()), beta * it.value());
            t.emplace_back(static_cast<int>(it.col()), 2 * n + k, beta * it.value());
        }
    SparseColMatrix S(2 * n + r, 2 * n + r);
    S.setFromTriplets(t.begin(), t.end());
    S.makeCompressed();
    return S;
}

// The Lanczos basis of each deflated run that looks for a missing copy of a repeated
// eigenvalue (one value wanted): on the 30 927-coordinate block a run that finds nothing
// costs 16 solves with 10 vectors, 21 with 20, 17 with 8, 19 with 6 or 12.
constexpr int kDeflationBasis = 10;

// Above this ratio |σ_ref| / ω̂₁² the automatic shift is moved to −ω̂₁².
constexpr double kShiftRefinementFactor = 10.0;

// An estimate of the lowest ω² from above: m steps of Lanczos in the M inner product on
// A x = [I 0] S⁻¹ [Mx; 0] (S factorised at σ), which is M-self-adjoint with the eigenvalues
// ν = 1/(ω² − σ) on the tangent space and 0 off it; the largest Ritz value θ ≤ ν₁ gives
// σ + 1/θ ≥ ω₁². With the low modes crowded near ν = 1/|σ| the Ritz value moves in steps
// that shrink like 1/m²: the run stops when a step (after the fifth) lowers the estimate by
// less than 10 %, or after 60 steps; full reorthogonalisation, the steps being few. Returns
// 0 when the estimate is not positive (a mode at or below zero).
double estimateLowestSquaredFrequency(const SparseColMatrix& M, const AugmentedFactorization& lu, int n, int r,
                                      double sigma, const MatX& R, const MatX& MR, int& solves) {
    solves = 0;
    const int maxSteps = std::min(60, n);
    auto apply = [&](const VecX& x) {
        VecX rhs = VecX::Zero(n + r);
        rhs.head(n) = M * x;
        ++solves;
        VecX y = lu.solve(rhs).head(n);
        removeFreePart(R, MR, y.data(), n);
        return y;
    };
    std::mt19937 g(271828);
    std::normal_distribution<double> nd;
    VecX x(n);
    for (int i = 0; i < n; ++i) x[i] = nd(g);
    VecX q = apply(x);  // in the range of A: on the tangent space
    double norm = std::sqrt(q.dot(M * q));
    if (!(norm > 0.0) || !std::isfinite(norm)) return 0.0;
    // The basis grows a column a step: the run usually stops long before maxSteps.
    std::vector<VecX> Q, MQ;
    std::vector<double> alpha, betas;
    double estimate = std::numeric_limits<double>::infinity();
    for (int j = 0; j < maxSteps; ++j) {
        Q.push_back(q / norm);
        MQ.push_back(M * Q.back());
        VecX w = apply(Q.back());
        alpha.push_back(MQ.back().dot(w));
        for (int pass = 0; pass < 2; ++pass)  // twice is enough (Kahan–Parlett)
            for (size_t i = 0; i < Q.size(); ++i) w -= MQ[i].dot(w) * Q[i];
        const int m = j + 1;
        MatX T = MatX::Zero(m, m);
        for (int i = 0; i < m; ++i) {
            T(i, i) = alpha[static_cast<size_t>(i)];
            if (i + 1 < m) T(i, i + 1) = T(i + 1, i) = betas[static_cast<size_t>(i)];
        }
        const double theta = Eigen::SelfAdjointEigenSolver<MatX>(T, Eigen::EigenvaluesOnly).eigenvalues().maxCoeff();
        if (!(theta > 0.0) || !std::isfinite(theta)) return 0.0;
        const double next = sigma + 1.0 / theta;
        if (!(next > 0.0)) return 0.0;
        const bool settled = j >= 4 && next > 0.9 * estimate;
        estimate = next;
        if (settled) break;
        norm = std::sqrt(std::max(0.0, w.dot(M * w)));
        if (!(norm > 1e-14 * std::abs(alpha.back()))) break;  // an invariant subspace: nothing more to learn
        betas.push_back(norm);
        q = w;
    }
    return std::isfinite(estimate) ? estimate : 0.0;
}

}  // namespace

double modalAssurance(const Model& model, const VecX& a, const VecX& b) {
    const VecX Ma = applyMass(model, a), Mb = applyMass(model, b);
    const double aa = a.dot(Ma), bb = b.dot(Mb);
    if (!(aa > 0.0) || !(bb > 0.0)) return 0.0;
    const double ab = a.dot(Mb);
    return ab * ab / (aa * bb);
}

namespace {

ModesResult computeModesUnguarded(const Model& model, const State& state, const VecX& lambda, const ModesOptions& o) {
    ModesResult res;
    State s = state;
    s.v.setZero();
    const int n = model.velocitySize();
    res.coordinates = n;
    if (o.count < 1) {
        res.message = "the number of modes must be at least 1";
        return res;
    }
    if (lambda.size() != model.equationCount()) {
        res.message = "one multiplier per constraint equation is needed";
        return res;
    }
    const VecX rowScales = equationScales(model), colScales = coordinateScales(model);
    ConstraintValues cv;
    evaluateConstraints(model, s, cv, kPhi | kJacobian);
    ConstraintSpaces spaces;
    spaces.factorize(cv.jacobian, rowScales, colScales, o.rankTolerance, o.linearAlgebra);
    const std::vector<int>& rows = spaces.independentEquations();
    const int r = static_cast<int>(rows.size());
    const int d = n - r;
    res.independentEquations = r;
    res.degreesOfFreedom = d;
    if (d == 0) {
        res.message = "the model has no degree of freedom: nothing can vibrate";
        return res;
    }

    Linearization lin;
    linearize(model, s, lambda, lin);
    const double kMax = largestAbsEntry(lin.stiffness);
    const double mMax = largestAbsEntry(lin.mass);
    res.stiffnessScale = kMax;
    switch (o.scaling) {
    case ModeScaling::Automatic: res.scaling = kMax > 0 ? kMax : 1.0; break;
    case ModeScaling::None: res.scaling = 1.0; break;
    case ModeScaling::Value: res.scaling = o.scalingValue; break;
    }
    if (!(res.scaling > 0.0) || !std::isfinite(res.scaling)) {
        res.message = "the scaling factor must be a finite positive number";
        return res;
    }
    if (kMax == 0.0 && o.scaling == ModeScaling::Automatic)
        res.warnings.push_back("the stiffness matrix is zero: scaling factor 1");
    const double beta = res.scaling;
    // The reference shift depends on the stiffness, not on β, so that the scaled and the
    // unscaled problem are shifted alike: a stiffness of the smallest elements, below every
    // ω² ≥ 0 and far enough from 0 that rigid-body and mechanism modes leave the matrix
    // well conditioned. With the automatic shift the condition numbers are those of the
    // matrix at this one, even when the shift is then moved (below).
    res.referenceShift = kMax > 0 && mMax > 0 ? -0.01 * kMax / mMax : -1.0;
    if (!std::isfinite(res.referenceShift) || !std::isfinite(kMax) || !std::isfinite(mMax)) {
        res.message = format("the stiffness and the mass differ by more than double precision holds (largest "
                             "|K_ij| %.3g, largest M_ii %.3g): the frequencies of this mesh, up to their ratio "
                             "in rad^2/s^2, are beyond it; a material or a mass is out of range",
                             kMax, mMax);
        return res;
    }
    res.shift = o.shift ? *o.shift : res.referenceShift;
    double sigma = res.shift;
    res.damped = !o.ignoreDamping && largestAbsEntry(lin.damping) > 0.0;

    // Symmetry of the stiffness on the tangent space, probed with a few tangent vectors.
    // The finite eigenvalues depend on K only through TᵀKT; where that is symmetric, K may
    // be replaced by its symmetric part without changing them (methods.md, "Eigenanalysis").
    {
        std::mt19937 g(12345);
        std::normal_distribution<double> nd;
        const int probes = std::min(4, d);
        MatX Tp(n, probes);
        for (int k = 0; k < probes; ++k) {
            VecX w(n);
            for (int i = 0; i < n; ++i) w[i] = nd(g) * colScales[i];
            Tp.col(k) = w - spaces.solveMinimumNorm(cv.jacobian * w);
        }
        const MatX KT = lin.stiffness * Tp;
        const MatX P = Tp.transpose() * KT;
        const double sym = (P + P.transpose()).cwiseAbs().maxCoeff();
        const double asym = (P - P.transpose()).cwiseAbs().maxCoeff();
        res.stiffnessAsymmetry = sym > 0 ? asym / sym : (asym > 0 ? 1.0 : 0.0);
    }
    res.symmetric = !res.damped && res.stiffnessAsymmetry <= 1e-8;
    // The residuals, the multipliers and the dense check use K as it is: the symmetric part
    // plus the antisymmetric one, kept apart without its entries below ε max|K_ij|, which
    // no residual measured against max|K_ij| ‖x‖ can see. A stiffness assembled
    // symmetrically leaves only rounding there (a third of the entries of the clamped
    // block): no second K beside the factors.
    SparseColMatrix stiffnessSkew;
    if (res.symmetric) {
        const SparseColMatrix Kt = lin.stiffness.transpose();
        stiffnessSkew = 0.5 * (lin.stiffness - Kt);
        const double invisible = std::numeric_limits<double>::epsilon() * kMax;
        stiffnessSkew.prune([&](Eigen::Index, Eigen::Index, const double& v) { return std::abs(v) > invisible; });
        stiffnessSkew.data().squeeze();  // prune keeps the memory of the entries it drops
        lin.stiffness = 0.5 * (lin.stiffness + Kt);
    }

    // The free directions (rigid motions of free structures that nothing holds) are rigid-body
    // modes, ω = 0 exactly: reported from their construction and removed from the iteration,
    // which otherwise spends its basis on a cluster of equal eigenvalues (1200 of them on 200
    // free beams) before it reaches an elastic mode. With damping a free direction may still
    // be damped (a dashpot to the ground): the state-space iteration then finds it as before.
    FreeDirections free;
    if (!res.damped) free = findFreeDirections(model, s, lin.stiffness, cv.jacobian);
    const int freeCount = free.count();
    MatX freeM(n, freeCount);
    for (int j = 0; j < freeCount; ++j) freeM.col(j) = applyMass(model, free.basis.col(j));
    res.rigidBodyModes = freeCount;
    res.freeStructures = free.structures;
    std::vector<Mode> rigidModes;
    for (int j = 0; j < freeCount; ++j) {
        Mode m;
        m.shape = free.basis.col(j);
        m.s = Complex(0.0, 0.0);
        m.rigidBody = true;
        const VecX Kx = lin.stiffness * m.shape;
        m.multipliers = spaces.solveTransposed(-Kx);
        const double xs = largestMagnitude(VecX(m.shape.cwiseQuotient(colScales)));
        m.constraintResidual = xs > 0 ? largestMagnitude(VecX(rowScales.cwiseProduct(cv.jacobian * m.shape))) / xs : 0.0;
        const double scale = std::max(kMax, std::abs(sigma) * mMax) * m.shape.norm();
        m.residual = scale > 0 ? (Kx + cv.jacobian.transpose() * m.multipliers).norm() / scale : 0.0;
        m.accurate = m.residual <= o.residualTolerance;
        rigidModes.push_back(std::move(m));
    }
    const int elastic = d - freeCount;  // degrees of freedom left to the iteration
    if (elastic == 0) {
        res.modes = std::move(rigidModes);
        res.ok = true;
        return res;
    }

    // The shifted matrices, unscaled (β = 1) and with β; their condition estimates.
    const double s0 = -std::sqrt(std::abs(sigma));  // state-space shift [1/s]
    const double kappa = mMax * std::max(std::abs(s0), 1e-3);
    // The symmetric one by the Cholesky factorisation of its stiffness block where that is
    // positive definite (as below every ω² of a stable structure), else by LU.
    AugmentedFactorization lu;
    auto factorizeShifted = [&]() {
        if (res.damped) return lu.factorizeGeneral(stateSpaceMatrix(lin, cv.jacobian, rows, beta, s0, kappa));
        return lu.factorizeAugmented(SparseColMatrix(lin.stiffness - sigma * lin.mass), cv.jacobian, rows, beta,
                                     res.symmetric && o.factorization == ShiftedFactorization::Automatic);
    };
    const auto tf = Clock::now();
    const bool factored = factorizeShifted();
    res.factorizationSeconds = seconds(tf);
    res.factorization = lu.methodName();
    res.conditionScaled = lu.conditionEstimate();
    // The unscaled matrix is D⁻¹ S_β D⁻¹ with D = diag(1, …, 1, β, …, β) over the
    // multiplier rows and columns: its estimate comes from the same factors.
    if (beta == 1.0 || !factored) {
        res.conditionUnscaled = res.conditionScaled;
    } else {
        VecX d = VecX::Ones(lu.size());
        d.tail(static_cast<Eigen::Index>(rows.size())).setConstant(1.0 / beta);
        res.conditionUnscaled = lu.conditionEstimate(d);
    }
    if (!factored) {
        res.message = "the shifted augmented matrix is singular: the shift " + format("%.6g", sigma) +
                      " rad^2/s^2 is an eigenvalue, or the independent constraint rows are dependent; "
                      "choose another --shift";
        return res;
    }
    res.illConditioned = !(res.conditionScaled * std::numeric_limits<double>::epsilon() <= o.conditionLimit);
    if (res.illConditioned) {
        char buf[400];
        std::snprintf(buf, sizeof buf,
                      "the shifted augmented matrix is ill-conditioned (condition number about %.3g): about %.0f of "
                      "the 16 digits are lost in every solve and the eigenvalues may be wrong; %s",
                      res.conditionScaled, std::log10(std::max(1.0, res.conditionScaled)),
                      o.scaling == ModeScaling::Automatic
                          ? "the spread is the model's own (stiffness and mass): check each mode's residual"
                          : "use the automatic scaling");
        res.warnings.push_back(buf);
    }

    // The automatic shift, moved near the lowest frequency. At the reference shift a flexible
    // body's low modes, thousands of times below |σ|, all map to nearly the same ν = 1/(ω² − σ)
    // and the iteration needs many restarts to separate them (29 on a solid block of 30 927
    // coordinates). A short Lanczos run with the factors at hand estimates ω₁² from above, and
    // the matrix is factorised again (same pattern: the symbolic analysis is kept) at σ = −ω̂₁².
    // Only for the symmetric undamped path, and only when the lowest modes are wanted: when
    // more than half of the spectrum is asked for, its top is as far from a low shift as its
    // bottom is from the reference one (methods.md, "Eigenanalysis", step 3).
    const auto te = Clock::now();
    if (!o.shift && res.symmetric && 2 * o.count <= elastic && elastic >= 2) {
        const double w2 =
            estimateLowestSquaredFrequency(lin.mass, lu, n, r, sigma, free.basis, freeM, res.shiftEstimateSolves);
        res.lowestEstimate = w2;
        // An estimate at the rounding level of the reference shift is a rigid-body or
        // mechanism mode (ω² = 0): a shift that near zero would make the matrix nearly
        // singular, so the reference shift stays.
        if (w2 > 1e-6 * -sigma && -sigma > kShiftRefinementFactor * w2) {
            const auto tr = Clock::now();
            sigma = -w2;
            if (factorizeShifted()) {
                res.shift = sigma;
            } else {
                // Singular at the estimate (a mode below zero the estimate did not see): back
                // to the reference shift, where the matrix was regular.
                sigma = res.shift;
                factorizeShifted();
            }
            res.factorizationSeconds += seconds(tr);
        }
    }
    res.shiftEstimateSeconds = seconds(te);

    // Shift-invert iteration.
    const auto ti = Clock::now();
    FunctionOp op;
    std::vector<Complex> nu;   // eigenvalues of the shift-inverted operator
    std::vector<VecC> vecs;    // x (velocity coordinates) of each
    int nconv = 0;
    bool converged = false;
    // Lanczos in the M inner product (below) keeps every vector in the tangent space, the
    // range of its operator: a basis larger than that space (a mechanism's few degrees of
    // freedom, or nearly all modes asked for) runs out of directions, and Spectra's restart
    // then broke down ("TridiagEigen: eigen decomposition failed" on the Grashof four-bar
    // and the chain of 20 loops, one degree of freedom each; the Bricard linkage's mode
    // lost). There the problem is small on the tangent space and the Euclidean Lanczos on
    // H = Lᵀ Pᵀ S⁻¹ P L with the Cholesky factor of the mass, M = LLᵀ, is kept.
    const int symmetricNev = std::min({o.count, elastic, n - 1});
    const int symmetricNcv = std::min(std::max(2 * symmetricNev + 1, 20), n);
    const bool basisFitsTangentSpace = symmetricNcv <= elastic && symmetricNev + kDeflationBasis <= elastic;
    if (res.symmetric && !basisFitsTangentSpace) {
        // H = Bᵀ Pᵀ S⁻¹ P B with M = BBᵀ: symmetric, with the eigenvalues ν = 1/(ω² − σ)
        // for z = Bᵀx, and 0 for the r constraint directions. B = Qᵀ L from the Cholesky
        // factor of the permuted mass Q M Qᵀ = LLᵀ: rigid bodies' blocks are diagonal, but the
        // consistent mass of a solid mesh couples neighbouring nodes, and without a
        // fill-reducing ordering its factor fills the whole band.
        Eigen::SimplicialLLT<SparseColMatrix, Eigen::Lower, Eigen::AMDOrdering<int>> chol(lin.mass);
        if (chol.info() != Eigen::Success) {
            res.message = "the mass matrix is not positive definite";
            return res;
        }
        const SparseColMatrix L = chol.matrixL();
        const Eigen::PermutationMatrix<Eigen::Dynamic, Eigen::Dynamic, int> Q = chol.permutationP();
        op.n = n;
        op.apply = [&](const double* x, double* y) {
            VecX rhs = VecX::Zero(n + r);
            rhs.head(n) = Q.transpose() * VecX(L * Eigen::Map<const VecX>(x, n));
            const VecX sol = lu.solve(rhs);
            Eigen::Map<VecX>(y, n) = L.transpose() * VecX(Q * sol.head(n));
        };
        if (freeCount > 0) {
            // In z = Bᵀx the free directions are the orthonormal columns Y = BᵀR.
            MatX Y(n, freeCount);
            for (int j = 0; j < freeCount; ++j) Y.col(j) = L.transpose() * VecX(Q * free.basis.col(j));
            op.apply = [&, Y, inner = op.apply](const double* x, double* y) {
                VecX u = Eigen::Map<const VecX>(x, n);
                u -= Y * (Y.transpose() * u);
                inner(u.data(), y);
                removeFreePart(Y, Y, y, n);
            };
        }
        const int nev = std::min({o.count, elastic, n - 1});
        const int ncv = std::min(std::max(2 * nev + 1, 20), n);
        Spectra::SymEigsSolver<FunctionOp> eig(op, nev, ncv);
        eig.init();
        nconv = static_cast<int>(eig.compute(Spectra::SortRule::LargestMagn, o.maxIterations, o.tolerance));
        converged = eig.info() == Spectra::CompInfo::Successful;
        res.iterations = static_cast<int>(eig.num_iterations());
        res.operations = static_cast<int>(eig.num_operations());
        VecX ev = eig.eigenvalues();
        MatX Z = eig.eigenvectors();
        // Lanczos from one start vector holds one vector of each eigenspace; a second copy
        // of a repeated eigenvalue (the two bending planes of a square section) enters only
        // through rounding, and was missed on the 32-element cantilever: 16.7, 104.7, 293,
        // 575 Hz instead of 16.7, 16.7, 104.7, 104.7. So the operator is deflated by the
        // vectors found, (I − ZZᵀ) H (I − ZZᵀ), and its largest |ν| taken in place of the
        // smallest kept while larger, until none is.
        if (converged && nev < elastic) {
            FunctionOp deflated;
            deflated.n = n;
            deflated.apply = [&](const double* x, double* y) {
                VecX u = Eigen::Map<const VecX>(x, n);
                u -= Z * (Z.transpose() * u);
                VecX w(n);
                op.apply(u.data(), w.data());
                Eigen::Map<VecX>(y, n) = w - Z * (Z.transpose() * w);
            };
            // A start vector of its own each time: Spectra's default one is the same in every
            // run, and the deflation has just removed its component in the eigenspace that
            // the first run found from it.
            std::mt19937 g(54321);
            std::normal_distribution<double> nd;
            VecX start(n);
            for (int round = 0; round < nev; ++round) {
                Spectra::SymEigsSolver<FunctionOp> extra(deflated, 1, std::min(20, n));
                for (int i = 0; i < n; ++i) start[i] = nd(g);
                extra.init(start.data());
                extra.compute(Spectra::SortRule::LargestMagn, o.maxIterations, o.tolerance);
                res.iterations += static_cast<int>(extra.num_iterations());
                res.operations += static_cast<int>(extra.num_operations());
                if (extra.info() != Spectra::CompInfo::Successful) break;
                Eigen::Index smallest = 0;
                ev.cwiseAbs().minCoeff(&smallest);
                // A copy of the smallest kept value itself changes nothing: strictly larger.
                if (!(std::abs(extra.eigenvalues()[0]) > std::abs(ev[smallest]) * (1.0 + 1e-9))) break;
                ev[smallest] = extra.eigenvalues()[0];
                Z.col(smallest) = extra.eigenvectors().col(0);
            }
        }
        const auto Lt = L.transpose().triangularView<Eigen::Upper>();
        for (int k = 0; k < ev.size(); ++k) {
            nu.emplace_back(ev[k], 0.0);
            vecs.push_back(VecX(Q.transpose() * Lt.solve(VecX(Z.col(k)))).cast<Complex>());
        }
    } else if (res.symmetric) {
        // Lanczos in the M inner product ⟨x, y⟩ = xᵀMy on A x = [I 0] S⁻¹ [Mx; 0] = G M x,
        // G = [I 0] S⁻¹ [I 0]ᵀ symmetric with S: M A = M G M is symmetric, so A is
        // M-self-adjoint, with the eigenvalues ν = 1/(ω² − σ) on the tangent space and 0 for
        // the r constraint directions, which the iteration therefore never returns. Its
        // eigenvectors come out M-orthonormal in x itself: no factor of M is needed (the
        // consistent mass of a solid mesh couples neighbouring nodes, and its Cholesky
        // factor cost a third of the Lanczos time on the 30 927-coordinate block).
        // Spectra's shift-invert mode hands the solve M x, not x.
        const int nev = symmetricNev, ncv = symmetricNcv;
        MassProduct massOp{&lin.mass};
        op.n = n;
        op.apply = [&](const double* w, double* y) {
            VecX rhs = VecX::Zero(n + r);
            rhs.head(n) = Eigen::Map<const VecX>(w, n);
            Eigen::Map<VecX>(y, n) = lu.solve(rhs).head(n);
            removeFreePart(free.basis, freeM, y, n);
        };
        if (freeCount > 0) {
            // The operator takes w = Mx: its free part is removed as MR Rᵀ w.
            op.apply = [&, inner = op.apply](const double* w, double* y) {
                VecX u = Eigen::Map<const VecX>(w, n);
                removeFreePart(freeM, free.basis, u.data(), n);
                inner(u.data(), y);
            };
        }
        using ShiftInvertLanczos = Spectra::SymGEigsShiftSolver<FunctionOp, MassProduct, Spectra::GEigsMode::ShiftInvert>;
        // Spectra returns λ = σ + 1/ν; the rest of the procedure works with ν, as on the other paths.
        auto toNu = [&](const VecX& lam) { return VecX((lam.array() - sigma).inverse()); };
        VecX ev;
        MatX Z;  // M-orthonormal: ZᵀMZ = I
        try {
            ShiftInvertLanczos eig(op, massOp, nev, ncv, sigma);
            eig.init();
            nconv = static_cast<int>(eig.compute(Spectra::SortRule::LargestMagn, o.maxIterations, o.tolerance));
            converged = eig.info() == Spectra::CompInfo::Successful;
            res.iterations = static_cast<int>(eig.num_iterations());
            res.operations = static_cast<int>(eig.num_operations());
            ev = toNu(eig.eigenvalues());
            Z = eig.eigenvectors();
        } catch (const MassNotPositive&) {
            res.message = "the mass matrix is not positive definite";
            return res;
        }
        // Lanczos from one start vector holds one vector of each eigenspace; a second copy
        // of a repeated eigenvalue (the two bending planes of a square section) enters only
        // through rounding, and was missed on the 32-element cantilever: 16.7, 104.7, 293,
        // 575 Hz instead of 16.7, 16.7, 104.7, 104.7. So the operator is deflated by the
        // vectors found, P A P with the M-orthogonal projector P = I − Z ZᵀM (M-self-adjoint
        // like A), and its largest |ν| taken in place of the smallest kept while larger,
        // until none is. Given w = Mx it returns P G M P x = P G (w − MZ Zᵀw).
        if (converged && nev < elastic) {
            MatX MZ(n, Z.cols());
            for (Eigen::Index c = 0; c < Z.cols(); ++c) MZ.col(c) = lin.mass * Z.col(c);
            FunctionOp deflated;
            deflated.n = n;
            deflated.apply = [&](const double* w, double* y) {
                VecX u = Eigen::Map<const VecX>(w, n);
                u -= MZ * (Z.transpose() * u);
                VecX g(n);
                op.apply(u.data(), g.data());
                Eigen::Map<VecX>(y, n) = g - Z * (MZ.transpose() * g);
            };
            // A start vector of its own each time: Spectra's default one is the same in every
            // run, and the deflation has just removed its component in the eigenspace that
            // the first run found from it.
            std::mt19937 g(54321);
            std::normal_distribution<double> nd;
            VecX start(n);
            try {
                for (int round = 0; round < nev; ++round) {
                    ShiftInvertLanczos extra(deflated, massOp, 1, std::min(kDeflationBasis, n), sigma);
                    for (int i = 0; i < n; ++i) start[i] = nd(g);
                    extra.init(start.data());
                    extra.compute(Spectra::SortRule::LargestMagn, o.maxIterations, o.tolerance);
                    res.iterations += static_cast<int>(extra.num_iterations());
                    res.operations += static_cast<int>(extra.num_operations());
                    if (extra.info() != Spectra::CompInfo::Successful) break;
                    const double found = toNu(extra.eigenvalues())[0];
                    Eigen::Index smallest = 0;
                    ev.cwiseAbs().minCoeff(&smallest);
                    // A copy of the smallest kept value itself changes nothing: strictly larger.
                    if (!(std::abs(found) > std::abs(ev[smallest]) * (1.0 + 1e-9))) break;
                    ev[smallest] = found;
                    Z.col(smallest) = extra.eigenvectors().col(0);
                    MZ.col(smallest) = lin.mass * Z.col(smallest);
                }
            } catch (const MassNotPositive&) {
                res.message = "the mass matrix is not positive definite";
                return res;
            }
        }
        for (int k = 0; k < ev.size(); ++k) {
            nu.emplace_back(ev[k], 0.0);
            vecs.push_back(VecX(Z.col(k)).cast<Complex>());
        }
    } else {
        const int N = res.damped ? 2 * n : n;
        op.n = N;
        if (res.damped) {
            op.apply = [&](const double* x, double* y) {
                VecX rhs = VecX::Zero(2 * n + r);
                Eigen::Map<const VecX> u(x, 2 * n);
                rhs.head(n) = applyMass(model, u.tail(n));
                rhs.segment(n, n) = kappa * u.head(n);
                Eigen::Map<VecX>(y, 2 * n) = lu.solve(rhs).head(2 * n);
            };
        } else {
            op.apply = [&](const double* x, double* y) {
                VecX rhs = VecX::Zero(n + r);
                VecX u = Eigen::Map<const VecX>(x, n);
                removeFreePart(free.basis, freeM, u.data(), n);
                rhs.head(n) = applyMass(model, u);
                Eigen::Map<VecX>(y, n) = lu.solve(rhs).head(n);
                removeFreePart(free.basis, freeM, y, n);
            };
        }
        const int want = res.damped ? 2 * std::min(o.count, d) : std::min(o.count, elastic);
        const int nev = std::max(1, std::min(want, N - 2));
        const int ncv = std::min(std::max(2 * nev + 1, 20), N);
        Spectra::GenEigsSolver<FunctionOp> eig(op, nev, ncv);
        eig.init();
        nconv = static_cast<int>(eig.compute(Spectra::SortRule::LargestMagn, o.maxIterations, o.tolerance));
        converged = eig.info() == Spectra::CompInfo::Successful;
        res.iterations = static_cast<int>(eig.num_iterations());
        res.operations = static_cast<int>(eig.num_operations());
        VecC ev = eig.eigenvalues();
        Eigen::MatrixXcd Z = eig.eigenvectors();
        // Repeated eigenvalues, as on the symmetric path: deflate by a real orthonormal
        // basis Q of the invariant subspace found, look for the largest |ν| of
        // (I − QQᵀ) A (I − QQᵀ) (a conjugate pair on the damped path), and take it in place of
        // the smallest kept while larger. A is not symmetric, so an eigenvector v of the
        // deflated operator is completed to one of A by Q y, (QᵀAQ − νI) y = −QᵀAv.
        const int finite = res.damped ? 2 * d : elastic;
        const int extraNev = res.damped ? 2 : 1;
        if (converged && nev < finite && N >= 2 * extraNev + 2) {
            MatX Qb, AQ;
            auto span = [&]() {
                MatX R(N, 2 * Z.cols());
                R << Z.real(), Z.imag();
                Eigen::ColPivHouseholderQR<MatX> qr(R);
                qr.setThreshold(1e-10);
                Qb = qr.householderQ() * MatX::Identity(N, qr.rank());
                AQ.resize(N, Qb.cols());
                for (Eigen::Index c = 0; c < Qb.cols(); ++c) op.apply(Qb.col(c).data(), AQ.col(c).data());
                res.operations += static_cast<int>(Qb.cols());
            };
            span();
            FunctionOp deflated;
            deflated.n = N;
            deflated.apply = [&](const double* x, double* y) {
                VecX u = Eigen::Map<const VecX>(x, N);
                u -= Qb * (Qb.transpose() * u);
                VecX w(N);
                op.apply(u.data(), w.data());
                Eigen::Map<VecX>(y, N) = w - Qb * (Qb.transpose() * w);
            };
            std::mt19937 g(54321);
            std::normal_distribution<double> nd;
            VecX start(N);
            for (int round = 0; round < nev; ++round) {
                Spectra::GenEigsSolver<FunctionOp> extra(deflated, extraNev, std::min(20, N));
                for (int i = 0; i < N; ++i) start[i] = nd(g);
                extra.init(start.data());
                extra.compute(Spectra::SortRule::LargestMagn, o.maxIterations, o.tolerance);
                res.iterations += static_cast<int>(extra.num_iterations());
                res.operations += static_cast<int>(extra.num_operations());
                if (extra.info() != Spectra::CompInfo::Successful) break;
                const VecC found = extra.eigenvalues();
                if (!(std::abs(found[0]) > ev.cwiseAbs().minCoeff() * (1.0 + 1e-9))) break;
                const Eigen::MatrixXcd T = (Qb.transpose() * AQ).cast<Complex>();
                const Eigen::Index k = Qb.cols();
                VecC evAll(ev.size() + found.size());
                Eigen::MatrixXcd Zall(N, Z.cols() + found.size());
                evAll << ev, found;
                Zall.leftCols(Z.cols()) = Z;
                for (Eigen::Index j = 0; j < found.size(); ++j) {
                    const VecC v = extra.eigenvectors().col(j);
                    VecX Avr(N), Avi(N);
                    const VecX vr = v.real(), vi = v.imag();
                    op.apply(vr.data(), Avr.data());
                    op.apply(vi.data(), Avi.data());
                    res.operations += 2;
                    const VecC Av = Avr.cast<Complex>() + Complex(0.0, 1.0) * Avi.cast<Complex>();
                    const VecC y = (T - found[j] * Eigen::MatrixXcd::Identity(k, k))
                                       .partialPivLu()
                                       .solve(-(Qb.transpose().cast<Complex>() * Av));
                    Zall.col(Z.cols() + j) = v + Qb.cast<Complex>() * y;
                }
                // Keep the nev largest |ν| (a conjugate pair has one |ν|: it stays together).
                std::vector<Eigen::Index> order(static_cast<size_t>(evAll.size()));
                for (size_t i = 0; i < order.size(); ++i) order[i] = static_cast<Eigen::Index>(i);
                std::stable_sort(order.begin(), order.end(), [&](Eigen::Index a, Eigen::Index b) {
                    return std::abs(evAll[a]) > std::abs(evAll[b]);
                });
                for (Eigen::Index i = 0; i < ev.size(); ++i) {
                    ev[i] = evAll[order[static_cast<size_t>(i)]];
                    Z.col(i) = Zall.col(order[static_cast<size_t>(i)]);
                }
                span();
            }
        }
        for (int k = 0; k < ev.size(); ++k) {
            nu.push_back(ev[k]);
            vecs.push_back(VecC(Z.col(k).head(n)));
        }
    }
    res.iterationSeconds = seconds(ti);
    res.operations += res.shiftEstimateSolves;
    if (!converged && nconv == 0) {
        res.message = "the shift-invert iteration did not converge in " + std::to_string(o.maxIterations) +
                      " restarts";
        return res;
    }
    if (!converged)
        res.warnings.push_back("only " + std::to_string(nconv) + " eigenvalues converged");

    // Undo shift and scaling; recognise constraint modes; residuals and multipliers.
    double nuMax = 0.0;
    for (const Complex& v : nu) nuMax = std::max(nuMax, std::abs(v));
    auto stiffnessTimes = [&](const VecC& x) {  // K x, K as it is (not symmetrised)
        VecC y = lin.stiffness.cast<Complex>() * x;
        if (stiffnessSkew.nonZeros() > 0) y += stiffnessSkew.cast<Complex>() * x;
        return y;
    };
    std::vector<VecC> complexShapes;  // x of each mode kept, for the repeated damped ones
    double rejectedW2 = 0.0, rejectedResidual = 0.0;  // the lowest pair rejected by its residual
    for (size_t k = 0; k < nu.size(); ++k) {
        if (!(std::abs(nu[k]) > 1e-10 * nuMax)) {  // an infinite eigenvalue
            res.spuriousRejected++;
            continue;
        }
        Complex sk;
        double w2;
        if (res.damped) {
            sk = s0 - 1.0 / nu[k];
            w2 = std::norm(sk);
        } else {
            const Complex lam = sigma + 1.0 / nu[k];
            w2 = lam.real();
            sk = w2 >= 0 ? Complex(0.0, std::sqrt(w2)) : Complex(std::sqrt(-w2), 0.0);
        }
        if (res.damped && sk.imag() < -1e-12 * std::abs(sk)) continue;  // the conjugate of a kept mode
        VecC x = vecs[k];
        Eigen::Index big = 0;
        x.cwiseAbs().maxCoeff(&big);
        if (std::abs(x[big]) == 0.0) {
            res.spuriousRejected++;
            continue;
        }
        x *= std::conj(x[big]) / std::abs(x[big]);
        // Constraint residual of the shape (scaled: lengths against lengths).
        const VecC Bx = cv.jacobian.cast<Complex>() * x;
        const double cres = largestMagnitude(VecC(rowScales.cast<Complex>().cwiseProduct(Bx))) /
                            largestMagnitude(VecC(x.cwiseQuotient(colScales.cast<Complex>())));
        if (!(cres <= o.spuriousTolerance)) {
            if (rejectedW2 == 0.0 || std::abs(w2) < std::abs(rejectedW2)) {
                rejectedW2 = w2;
                rejectedResidual = cres;
            }
            res.spuriousRejected++;
            continue;
        }
        // Eigen-equation residual on the tangent space, with the least-squares multipliers.
        const Complex s2 = res.damped ? sk * sk : Complex(-w2, 0.0);
        const VecC g = (stiffnessTimes(x) + s2 * (lin.mass.cast<Complex>() * x) +
                        (res.damped ? VecC(sk * (lin.damping.cast<Complex>() * x)) : VecC::Zero(n)));
        const VecX lre = spaces.solveTransposed(-g.real()), lim = spaces.solveTransposed(-g.imag());
        const VecC rvec = g + cv.jacobian.transpose().cast<Complex>() *
                                  (lre.cast<Complex>() + Complex(0.0, 1.0) * lim.cast<Complex>());
        // Undamped: the residual against the distance from the shift, ‖g‖ |ν| / ‖Mx‖, is the
        // relative error of the pair as an eigenpair of the shift-inverted operator; at most
        // 1e-11 for every converged pair measured. Far from the shift the values ν crowd
        // together and the solves' rounding mixes their vectors into pairs of no eigenvalue
        // (1e-6 to 3e-4 measured with σ at twice the largest ω² of a cantilever): rejected
        // with the spurious tolerance, like a shape off the constraints (methods.md,
        // "Spurious modes").
        if (!res.damped) {
            const double shifted = rvec.norm() * std::abs(nu[k]) / (lin.mass.cast<Complex>() * x).norm();
            if (!(shifted <= o.spuriousTolerance)) {
                if (rejectedW2 == 0.0 || std::abs(w2) < std::abs(rejectedW2)) {
                    rejectedW2 = w2;
                    rejectedResidual = shifted;
                }
                res.spuriousRejected++;
                continue;
            }
        }
        // Relative to the size of the shifted matrix, so that a zero-frequency mode of a
        // model without stiffness is measured against something.
        const double scale = std::max(kMax, (std::abs(s2) + std::abs(sigma)) * mMax) * x.norm();
        Mode m;
        m.s = sk;
        m.squaredFrequency = w2;
        m.frequencyHz = std::abs(sk) / (2.0 * M_PI);
        m.dampingRatio = std::abs(sk) > 0 ? (0.0 - sk.real()) / std::abs(sk) : 0.0;  // never −0
        m.unstable = res.damped ? sk.real() > 0 : w2 < 0;
        m.constraintResidual = cres;
        m.residual = scale > 0 ? rvec.norm() / scale : 0.0;
        m.accurate = m.residual <= o.residualTolerance;
        VecX shape = x.real();
        const double mm = shape.dot(applyMass(model, shape));
        const double norm = mm > 0 ? 1.0 / std::sqrt(mm) : 1.0;
        m.shape = norm * shape;
        m.multipliers = norm * lre;
        res.modes.push_back(std::move(m));
        complexShapes.push_back(x);
    }
    // A damped mode's shape is the real part of its eigenvector; in a repeated eigenspace the
    // eigenvectors found may be complex combinations of real modes whose real parts nearly
    // coincide (three identical damped pendulums: Gram determinant 0.0035). Such a group
    // gets the M-orthonormal basis of the span of its real and imaginary parts instead (its
    // m largest directions: exactly the eigenspace when the damping is classical), and the
    // multipliers of those shapes.
    if (res.damped) {
        std::vector<bool> grouped(res.modes.size(), false);
        for (size_t i = 0; i < res.modes.size(); ++i) {
            if (grouped[i]) continue;
            std::vector<size_t> group{i};
            for (size_t j = i + 1; j < res.modes.size(); ++j)
                if (!grouped[j] && std::abs(res.modes[j].s - res.modes[i].s) <= 1e-8 * std::abs(res.modes[i].s))
                    group.push_back(j);
            for (const size_t j : group) grouped[j] = true;
            const int size = static_cast<int>(group.size());
            if (size < 2) continue;
            MatX R(n, 2 * size), MR(n, 2 * size);
            for (int c = 0; c < size; ++c) {
                R.col(c) = complexShapes[group[static_cast<size_t>(c)]].real();
                R.col(size + c) = complexShapes[group[static_cast<size_t>(c)]].imag();
            }
            for (int c = 0; c < 2 * size; ++c) MR.col(c) = applyMass(model, R.col(c));
            const Eigen::SelfAdjointEigenSolver<MatX> es(R.transpose() * MR);  // ascending
            for (int c = 0; c < size; ++c) {
                const int col = 2 * size - 1 - c;
                const double weight = es.eigenvalues()[col];
                if (!(weight > 0.0)) break;
                Mode& m = res.modes[group[static_cast<size_t>(c)]];
                const VecX shape = R * es.eigenvectors().col(col) / std::sqrt(weight);
                const VecC xs = shape.cast<Complex>();
                const VecC g = stiffnessTimes(xs) + m.s * m.s * (lin.mass.cast<Complex>() * xs) +
                               m.s * (lin.damping.cast<Complex>() * xs);
                m.shape = shape;
                m.multipliers = spaces.solveTransposed(-g.real());
            }
        }
    }
    std::sort(res.modes.begin(), res.modes.end(), [](const Mode& a, const Mode& b) {
        return std::abs(a.s) < std::abs(b.s);
    });
    if (static_cast<int>(res.modes.size()) > o.count) res.modes.resize(static_cast<size_t>(o.count));
    res.modes.insert(res.modes.begin(), rigidModes.begin(), rigidModes.end());
    // Measured, the rejected pairs were modes far from the shift whose shift-inverted values
    // crowd together (methods.md, "Spurious modes"), not the infinite ones: say so.
    if (res.spuriousRejected > 0)
        res.warnings.push_back(std::to_string(res.spuriousRejected) +
                               " constraint mode(s) (shape violating the constraints, or infinite) not reported; "
                               "modes far from the shift can end up so: a shift nearer the modes wanted finds them");
    for (const Mode& m : res.modes)
        if (!m.accurate) {
            res.warnings.push_back(format("a mode at %.6g Hz has a residual of %.3g: inaccurate", m.frequencyHz,
                                          m.residual));
            break;
        }
    res.flagged = res.illConditioned ||
                  std::any_of(res.modes.begin(), res.modes.end(), [](const Mode& m) { return !m.accurate; });

    // The independent dense check on the tangent space.
    if (n <= o.denseCheckLimit) {
        const auto td = Clock::now();
        const MatX T = colScales.asDiagonal() * spaces.tangentBasis();
        MatX Kd = MatX(lin.stiffness);
        if (stiffnessSkew.nonZeros() > 0) Kd += MatX(stiffnessSkew);
        const MatX Kp = T.transpose() * Kd * T;
        const MatX Mp = T.transpose() * MatX(lin.mass) * T;
        std::vector<Complex> sd;
        if (!res.damped) {
            std::vector<Complex> lamd;
            if (res.symmetric) {
                Eigen::GeneralizedSelfAdjointEigenSolver<MatX> eig(0.5 * (Kp + Kp.transpose()), Mp);
                for (int i = 0; i < eig.eigenvalues().size(); ++i) lamd.emplace_back(eig.eigenvalues()[i], 0.0);
            } else {
                Eigen::EigenSolver<MatX> eig(Mp.ldlt().solve(Kp));
                for (int i = 0; i < eig.eigenvalues().size(); ++i) lamd.push_back(eig.eigenvalues()[i]);
            }
            // Relative to ω_d² itself: against |σ| (as before) a shift far from the lowest
            // modes, e.g. the automatic one of a flexible model at 500 to 15 000 times ω₁²,
            // hid their errors by as much. The floor only keeps zero-frequency modes finite.
            double largest = 0.0;
            for (const Complex& l : lamd) largest = std::max(largest, std::abs(l.real()));
            const double floor = std::max(1e-9 * largest, 1e-12 * std::abs(sigma));
            for (const Mode& m : res.modes) {
                double best = std::numeric_limits<double>::infinity();
                for (const Complex& l : lamd)
                    best = std::min(best, std::abs(m.squaredFrequency - l.real()) / std::max(std::abs(l.real()), floor));
                res.denseDifference = std::max(res.denseDifference, best);
            }
            for (const Complex& l : lamd)
                sd.push_back(l.real() >= 0 ? Complex(0.0, std::sqrt(l.real())) : Complex(std::sqrt(-l.real()), 0.0));
        } else {
            const MatX Cp = T.transpose() * MatX(lin.damping) * T;
            const int dd = static_cast<int>(Kp.rows());
            MatX A = MatX::Zero(2 * dd, 2 * dd);
            A.topRightCorner(dd, dd).setIdentity();
            const auto Mlu = Mp.ldlt();
            A.bottomLeftCorner(dd, dd) = -Mlu.solve(Kp);
            A.bottomRightCorner(dd, dd) = -Mlu.solve(Cp);
            Eigen::EigenSolver<MatX> eig(A);
            for (int i = 0; i < eig.eigenvalues().size(); ++i) sd.push_back(eig.eigenvalues()[i]);
            double largest = 0.0;
            for (const Complex& l : sd) largest = std::max(largest, std::abs(l));
            const double floor = std::max(std::sqrt(1e-9) * largest, 1e-6 * std::abs(s0));
            for (const Mode& m : res.modes) {
                double best = std::numeric_limits<double>::infinity();
                for (const Complex& l : sd) best = std::min(best, std::abs(m.s - l) / std::max(std::abs(l), floor));
                res.denseDifference = std::max(res.denseDifference, best);
            }
        }
        std::sort(sd.begin(), sd.end(), [](Complex a, Complex b) { return std::abs(a) < std::abs(b); });
        res.denseEigenvalues = sd;
        res.denseChecked = true;
        res.denseSeconds = seconds(td);
    }
    res.factorization = lu.methodName();
    res.ok = !res.modes.empty();
    if (!res.ok)
        res.message = "no physical mode was found near the shift: " +
                      (res.spuriousRejected > 0
                           ? std::to_string(res.spuriousRejected) +
                                 " pair(s) found, each with a shape off the constraints or a residual above " +
                                 format("%.3g", o.spuriousTolerance) + " (condition of the shifted matrix " +
                                 format("%.3g", res.conditionScaled) + ")" +
                                 (rejectedW2 != 0.0
                                      ? format("; the lowest at omega^2 = %.3g rad^2/s^2 with a residual of %.3g",
                                               rejectedW2, rejectedResidual) +
                                            format(" against a shift of %.3g: the model's frequencies are not "
                                                   "resolved in double precision there (a material or mass out of "
                                                   "the range of real structures: on the example cantilever a "
                                                   "modulus over density above about 1e13 m^2/s^2, a million times "
                                                   "steel's); a --shift nearer omega^2 = %.3g may resolve them",
                                                   sigma, rejectedW2)
                                      : std::string("; try a --shift nearer the modes"))
                           : std::string("the iteration returned no pair"));
    return res;
}

}  // namespace

ModesResult computeModes(const Model& model, const State& state, const VecX& lambda, const ModesOptions& o) {
    // Spectra throws when its own decompositions fail (a tridiagonal matrix with non-finite
    // entries, from a model whose numbers leave double precision): a failure with its reason.
    try {
        return computeModesUnguarded(model, state, lambda, o);
    } catch (const std::bad_alloc&) {
        ModesResult res;
        res.message = "out of memory in the eigenvalue iteration (" + std::to_string(model.velocitySize()) +
                      " coordinates)";
        return res;
    } catch (const std::exception& e) {
        ModesResult res;
        res.message = std::string("the eigenvalue iteration failed (") + e.what() +
                      "): the shifted matrix or the mass holds numbers that double precision cannot resolve; check "
                      "the materials and masses";
        return res;
    }
}

}  // namespace looplab
