#include "analysis/modes/Deflation.h"
#include "analysis/modes/ModesWork.h"

#include "looplab/dynamics/Dynamics.h"

#include <Eigen/Eigenvalues>
#include <Eigen/QR>
#include <Eigen/SparseCholesky>
#include <Spectra/GenEigsSolver.h>
#include <Spectra/SymGEigsShiftSolver.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>

namespace looplab::modes {
namespace {

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

// The Lanczos basis of each deflated run that looks for a missing copy of a repeated
// eigenvalue (one value wanted): on the 30 927-coordinate block a run that finds nothing
// costs 16 solves with 10 vectors, 21 with 20, 17 with 8, 19 with 6 or 12.
constexpr int kDeflationBasis = 10;

// One run of the iteration on one of its three paths; the paths read the problem and the
// factors from the work and leave the pairs there.
class ShiftInvertIteration {
public:
    ShiftInvertIteration(ModesWork& work, ModesResult& result)
        : res(result), model(work.model), o(work.options), n(work.n), r(work.r), d(work.d), elastic(work.elastic),
          sigma(work.sigma), kappa(work.kappa), lin(work.lin), lu(work.lu), free(work.free), freeM(work.freeM),
          freeCount(work.free.count()), nu(work.nu), vecs(work.vecs) {}

    bool factoredMass();
    bool massInnerProduct(int nev, int ncv);
    void general();

    int nconv = 0;           ///< pairs Spectra counts as converged
    bool converged = false;  ///< all that were asked for

private:
    ModesResult& res;
    const Model& model;
    const ModesOptions& o;
    const int n, r, d, elastic;
    const double sigma, kappa;
    const Linearization& lin;
    const AugmentedFactorization& lu;
    const FreeDirections& free;
    const MatX& freeM;
    const int freeCount;
    std::vector<Complex>& nu;  ///< eigenvalues of the shift-inverted operator
    std::vector<VecC>& vecs;   ///< x (velocity coordinates) of each
    FunctionOp op;
};

// The symmetric path when a Krylov basis would not fit the tangent space: every pair of H
// (below) from a Rayleigh-Ritz problem on its range, the vectors mapped back to x. False if
// the mass is not positive definite.
bool ShiftInvertIteration::factoredMass() {
    // H = Bᵀ Pᵀ S⁻¹ P B with M = BBᵀ: symmetric, with the eigenvalues ν = 1/(ω² − σ)
    // for z = Bᵀx, and 0 for the r constraint directions. B = Qᵀ L from the Cholesky
    // factor of the permuted mass Q M Qᵀ = LLᵀ: rigid bodies' blocks are diagonal, but the
    // consistent mass of a solid mesh couples neighbouring nodes, and without a
    // fill-reducing ordering its factor fills the whole band.
    Eigen::SimplicialLLT<SparseColMatrix, Eigen::Lower, Eigen::AMDOrdering<int>> chol(lin.mass);
    if (chol.info() != Eigen::Success) {
        res.message = "the mass matrix is not positive definite";
        return false;
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
    // H has rank `elastic` exactly: it vanishes on the r constraint directions and on the
    // free ones. Its image of a few more random vectors than that spans its range, and the
    // Rayleigh-Ritz problem there gives every pair, the second copy of a repeated eigenvalue
    // included, which a Krylov run from one vector holds only through rounding: with nearly
    // every mode asked for there is no room left to deflate, and which ghosts took the
    // missing copies' places, to be rejected as constraint modes, changed with the BLAS
    // kernels of the CPU (4 of the 49 modes of the 8-element cantilever on one kernel, none
    // on another).
    const int nev = std::min(o.count, elastic);
    const int sample = std::min(elastic + 8, n);
    MatX Y(n, sample);
    {
        std::mt19937 g(12345);
        MatX omega(n, sample);
        // Uniform in [-1, 1) from the generator's raw output, the same numbers everywhere.
        for (Eigen::Index j = 0; j < sample; ++j)
            for (Eigen::Index i = 0; i < n; ++i) omega(i, j) = double(g()) / 2147483648.0 - 1.0;
        for (Eigen::Index j = 0; j < sample; ++j) op.apply(omega.col(j).data(), Y.col(j).data());
    }
    Eigen::ColPivHouseholderQR<MatX> qr(Y);
    const MatX basis = qr.householderQ() * MatX::Identity(n, elastic);
    MatX HB(n, elastic);
    for (Eigen::Index j = 0; j < elastic; ++j) op.apply(basis.col(j).data(), HB.col(j).data());
    const MatX T = basis.transpose() * HB;
    Eigen::SelfAdjointEigenSolver<MatX> small(0.5 * (T + T.transpose()));
    res.iterations = 1;
    res.operations = sample + elastic;
    if (small.info() != Eigen::Success || !small.eigenvalues().allFinite()) {
        res.message = "the shift-inverted operator on the tangent space is not finite: the shifted matrix is "
                      "too close to singular";
        return false;
    }
    // Largest |ν| first, as the iteration's pairs come.
    std::vector<Eigen::Index> order(static_cast<size_t>(elastic));
    for (size_t i = 0; i < order.size(); ++i) order[i] = static_cast<Eigen::Index>(i);
    std::stable_sort(order.begin(), order.end(), [&](Eigen::Index a, Eigen::Index b) {
        return std::abs(small.eigenvalues()[a]) > std::abs(small.eigenvalues()[b]);
    });
    VecX ev(nev);
    MatX Z(n, nev);
    for (int k = 0; k < nev; ++k) {
        ev[k] = small.eigenvalues()[order[static_cast<size_t>(k)]];
        Z.col(k) = basis * small.eigenvectors().col(order[static_cast<size_t>(k)]);
    }
    nconv = nev;
    converged = true;
    const auto Lt = L.transpose().triangularView<Eigen::Upper>();
    for (int k = 0; k < ev.size(); ++k) {
        nu.emplace_back(ev[k], 0.0);
        vecs.push_back(VecX(Q.transpose() * Lt.solve(VecX(Z.col(k)))).cast<Complex>());
    }
    return true;
}

// The symmetric path: Lanczos in the M inner product. False if the mass is not positive definite.
bool ShiftInvertIteration::massInnerProduct(int nev, int ncv) {
    // Lanczos in the M inner product ⟨x, y⟩ = xᵀMy on A x = [I 0] S⁻¹ [Mx; 0] = G M x,
    // G = [I 0] S⁻¹ [I 0]ᵀ symmetric with S: M A = M G M is symmetric, so A is
    // M-self-adjoint, with the eigenvalues ν = 1/(ω² − σ) on the tangent space and 0 for
    // the r constraint directions, which the iteration therefore never returns. Its
    // eigenvectors come out M-orthonormal in x itself: no factor of M is needed (the
    // consistent mass of a solid mesh couples neighbouring nodes, and its Cholesky
    // factor cost a third of the Lanczos time on the 30 927-coordinate block).
    // Spectra's shift-invert mode hands the solve M x, not x.
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
        return false;
    }
    // Repeated eigenvalues (Deflation.h): P A P with the M-orthogonal projector P = I − Z ZᵀM
    // (M-self-adjoint like A), its largest |ν| taken in place of the smallest kept while
    // larger, until none is. Given w = Mx it returns P G M P x = P G (w − MZ Zᵀw).
    if (converged && nev < elastic) {
        MatX MZ(n, Z.cols());
        for (Eigen::Index c = 0; c < Z.cols(); ++c) MZ.col(c) = lin.mass * Z.col(c);
        FunctionOp deflated = deflatedOperator(op, MZ, Z);
        try {
            deflationRounds(nev, n, [&](const VecX& start) {
                ShiftInvertLanczos extra(deflated, massOp, 1, std::min(kDeflationBasis, n), sigma);
                extra.init(start.data());
                extra.compute(Spectra::SortRule::LargestMagn, o.maxIterations, o.tolerance);
                res.iterations += static_cast<int>(extra.num_iterations());
                res.operations += static_cast<int>(extra.num_operations());
                if (extra.info() != Spectra::CompInfo::Successful) return false;
                const double found = toNu(extra.eigenvalues())[0];
                Eigen::Index smallest = 0;
                ev.cwiseAbs().minCoeff(&smallest);
                // A copy of the smallest kept value itself changes nothing: strictly larger.
                if (!(std::abs(found) > std::abs(ev[smallest]) * (1.0 + 1e-9))) return false;
                ev[smallest] = found;
                Z.col(smallest) = extra.eigenvectors().col(0);
                MZ.col(smallest) = lin.mass * Z.col(smallest);
                return true;
            });
        } catch (const MassNotPositive&) {
            res.message = "the mass matrix is not positive definite";
            return false;
        }
    }
    for (int k = 0; k < ev.size(); ++k) {
        nu.emplace_back(ev[k], 0.0);
        vecs.push_back(VecX(Z.col(k)).cast<Complex>());
    }
    return true;
}

// The general path: Arnoldi on the shift-inverted operator, in the state space if damped.
void ShiftInvertIteration::general() {
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
        FunctionOp deflated = deflatedOperator(op, Qb, Qb);
        deflationRounds(nev, N, [&](const VecX& start) {
            Spectra::GenEigsSolver<FunctionOp> extra(deflated, extraNev, std::min(20, N));
            extra.init(start.data());
            extra.compute(Spectra::SortRule::LargestMagn, o.maxIterations, o.tolerance);
            res.iterations += static_cast<int>(extra.num_iterations());
            res.operations += static_cast<int>(extra.num_operations());
            if (extra.info() != Spectra::CompInfo::Successful) return false;
            const VecC found = extra.eigenvalues();
            if (!(std::abs(found[0]) > ev.cwiseAbs().minCoeff() * (1.0 + 1e-9))) return false;
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
            return true;
        });
    }
    for (int k = 0; k < ev.size(); ++k) {
        nu.push_back(ev[k]);
        vecs.push_back(VecC(Z.col(k).head(n)));
    }
}

}  // namespace

bool iterateShiftInverted(ModesWork& work, ModesResult& res) {
    const ModesOptions& o = work.options;
    const int n = work.n, elastic = work.elastic;
    const auto ti = Clock::now();
    // Lanczos in the M inner product (below) keeps every vector in the tangent space, the
    // range of its operator: a basis larger than that space (a mechanism's few degrees of
    // freedom, or nearly all modes asked for) runs out of directions, and Spectra's restart
    // then broke down ("TridiagEigen: eigen decomposition failed" on the Grashof four-bar
    // and the chain of 20 loops, one degree of freedom each; the Bricard linkage's mode
    // lost). There the problem is small on the tangent space, and is solved whole on the
    // range of H = Lᵀ Pᵀ S⁻¹ P L with the Cholesky factor of the mass, M = LLᵀ.
    const int symmetricNev = std::min({o.count, elastic, n - 1});
    const int symmetricNcv = std::min(std::max(2 * symmetricNev + 1, 20), n);
    const bool basisFitsTangentSpace = symmetricNcv <= elastic && symmetricNev + kDeflationBasis <= elastic;
    ShiftInvertIteration iteration(work, res);
    if (res.symmetric && !basisFitsTangentSpace) {
        if (!iteration.factoredMass()) return false;
    } else if (res.symmetric) {
        if (!iteration.massInnerProduct(symmetricNev, symmetricNcv)) return false;
    } else {
        iteration.general();
    }
    res.iterationSeconds = seconds(ti);
    res.operations += res.shiftEstimateSolves;
    if (!iteration.converged && iteration.nconv == 0) {
        res.message = "the shift-invert iteration did not converge in " + std::to_string(o.maxIterations) +
                      " restarts";
        return false;
    }
    if (!iteration.converged)
        res.warnings.push_back("only " + std::to_string(iteration.nconv) + " eigenvalues converged");
    return true;
}

}  // namespace looplab::modes
