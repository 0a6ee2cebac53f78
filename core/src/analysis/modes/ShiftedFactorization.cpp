#include "analysis/modes/ModesWork.h"

#include <Eigen/Eigenvalues>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <random>
#include <string>

#include "MessageText.h"

namespace looplab::modes {
namespace {

using message::format;

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

bool factorizeShifted(ModesWork& w, const ModesResult& res) {
    // The symmetric one by the Cholesky factorisation of its stiffness block where that is
    // positive definite (as below every ω² of a stable structure), else by LU.
    if (res.damped)
        return w.lu.factorizeGeneral(stateSpaceMatrix(w.lin, w.constraints.jacobian, w.rows(), w.beta, w.s0, w.kappa));
    return w.lu.factorizeAugmented(SparseColMatrix(w.lin.stiffness - w.sigma * w.lin.mass), w.constraints.jacobian,
                                   w.rows(), w.beta,
                                   res.symmetric && w.options.factorization == ShiftedFactorization::Automatic);
}

bool factorizeAtReferenceShift(ModesWork& w, ModesResult& res) {
    const ModesOptions& o = w.options;
    // The shifted matrices, unscaled (β = 1) and with β; their condition estimates.
    w.s0 = -std::sqrt(std::abs(w.sigma));  // state-space shift [1/s]
    w.kappa = w.mMax * std::max(std::abs(w.s0), 1e-3);
    AugmentedFactorization& lu = w.lu;
    const double beta = w.beta, sigma = w.sigma;
    const std::vector<int>& rows = w.rows();
    const auto tf = Clock::now();
    const bool factored = factorizeShifted(w, res);
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
        return false;
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
    return true;
}

void moveShiftNearLowestMode(ModesWork& w, ModesResult& res) {
    const ModesOptions& o = w.options;
    double& sigma = w.sigma;
    // The automatic shift, moved near the lowest frequency. At the reference shift a flexible
    // body's low modes, thousands of times below |σ|, all map to nearly the same ν = 1/(ω² − σ)
    // and the iteration needs many restarts to separate them (29 on a solid block of 30 927
    // coordinates). A short Lanczos run with the factors at hand estimates ω₁² from above, and
    // the matrix is factorised again (same pattern: the symbolic analysis is kept) at σ = −ω̂₁².
    // Only for the symmetric undamped path, and only when the lowest modes are wanted: when
    // more than half of the spectrum is asked for, its top is as far from a low shift as its
    // bottom is from the reference one (methods.md, "Eigenanalysis", step 3).
    const auto te = Clock::now();
    if (!o.shift && res.symmetric && 2 * o.count <= w.elastic && w.elastic >= 2) {
        const double w2 = estimateLowestSquaredFrequency(w.lin.mass, w.lu, w.n, w.r, sigma, w.free.basis, w.freeM,
                                                         res.shiftEstimateSolves);
        res.lowestEstimate = w2;
        // An estimate at the rounding level of the reference shift is a rigid-body or
        // mechanism mode (ω² = 0): a shift that near zero would make the matrix nearly
        // singular, so the reference shift stays.
        if (w2 > 1e-6 * -sigma && -sigma > kShiftRefinementFactor * w2) {
            const auto tr = Clock::now();
            sigma = -w2;
            if (factorizeShifted(w, res)) {
                res.shift = sigma;
            } else {
                // Singular at the estimate (a mode below zero the estimate did not see): back
                // to the reference shift, where the matrix was regular.
                sigma = res.shift;
                factorizeShifted(w, res);
            }
            res.factorizationSeconds += seconds(tr);
        }
    }
    res.shiftEstimateSeconds = seconds(te);
}

}  // namespace looplab::modes
