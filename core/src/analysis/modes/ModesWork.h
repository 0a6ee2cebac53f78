#pragma once
// The eigenanalysis about an equilibrium (Modes.h, methods.md "Eigenanalysis") in stages,
// each in a file of this folder, in the order computeModes() runs them:
//   ProblemSetup.cpp          constraint spaces, linearisation, scaling, the reference shift,
//                             the symmetry of K on the tangent space
//   RigidBodyModes.cpp        the free directions, reported as rigid-body modes
//   ShiftedFactorization.cpp  the shifted augmented matrix, its condition, the automatic shift
//   ShiftInvertIteration.cpp  Lanczos or Arnoldi on the shift-inverted operator, with the
//                             repeated eigenvalues a run misses found by deflation (Deflation.h)
//   ModeRecovery.cpp          frequencies, shapes, residuals and multipliers of the pairs kept
//   DenseTangentCheck.cpp     the independent dense check on the tangent space
// A stage reads and fills one ModesWork and the result; one that fails sets the result's
// message and returns false.

#include "looplab/analysis/FreeDirections.h"
#include "looplab/analysis/Modes.h"
#include "looplab/dynamics/Linearization.h"
#include "looplab/kinematics/Constraints.h"
#include "looplab/linalg/AugmentedFactorization.h"
#include "looplab/linalg/ConstraintSpaces.h"

#include <chrono>
#include <complex>
#include <functional>
#include <vector>

namespace looplab::modes {

using Clock = std::chrono::steady_clock;
using Complex = std::complex<double>;
using VecC = Eigen::VectorXcd;

inline double seconds(Clock::time_point since) {
    return std::chrono::duration<double>(Clock::now() - since).count();
}

// ‖x‖∞, 0 for an empty vector (a model without constraint equations).
template <class V>
double largestMagnitude(const V& x) {
    return x.size() ? x.cwiseAbs().maxCoeff() : 0.0;
}

// x ← x − R (MRᵀ x): the part of x M-orthogonal to the free directions R (RᵀMR = I). The
// shift-inverted operators leave span R invariant, so removing it before and after each
// application leaves the elastic spectrum alone.
inline void removeFreePart(const MatX& R, const MatX& MR, double* x, int n) {
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

// What the stages share: the problem at the equilibrium, the shifted factorisation and the
// pairs the iteration returns.
struct ModesWork {
    ModesWork(const Model& m, const ModesOptions& o, const State& equilibrium) : model(m), options(o), state(equilibrium) {
        state.v.setZero();
    }
    const Model& model;
    const ModesOptions& options;
    State state;  ///< the equilibrium, at rest

    // ProblemSetup.cpp
    int n = 0;  ///< velocity coordinates
    int r = 0;  ///< independent constraint equations
    int d = 0;  ///< degrees of freedom, n − r
    VecX rowScales, colScales;
    ConstraintValues constraints;  ///< Φ and Φ_q at the equilibrium
    ConstraintSpaces spaces;
    Linearization lin;              ///< K symmetrised on the symmetric path
    SparseColMatrix stiffnessSkew;  ///< K's antisymmetric part there, entries below ε max|K_ij| dropped
    double kMax = 0.0, mMax = 0.0;  ///< largest |K_ij|, |M_ij|
    double beta = 1.0;              ///< the scaling of the constraint rows
    double sigma = 0.0;             ///< the shift in use [rad²/s²]
    const std::vector<int>& rows() const { return spaces.independentEquations(); }

    // RigidBodyModes.cpp
    FreeDirections free;
    MatX freeM;       ///< M times each free direction
    int elastic = 0;  ///< degrees of freedom left to the iteration

    // ShiftedFactorization.cpp
    double s0 = 0.0;     ///< the state-space shift −√|σ| [1/s]
    double kappa = 0.0;  ///< the state-space rows' scale
    AugmentedFactorization lu;

    // ShiftInvertIteration.cpp
    std::vector<Complex> nu;  ///< eigenvalues of the shift-inverted operator
    std::vector<VecC> vecs;   ///< x (velocity coordinates) of each
};

/// The lowest ω² among the pairs recovery rejected by their residual (0 if none), for the
/// message when no mode is left.
struct RejectedPair {
    double squaredFrequency = 0.0;
    double residual = 0.0;
};

bool setUpProblem(ModesWork& w, const VecX& lambda, ModesResult& res);
std::vector<Mode> rigidBodyModes(ModesWork& w, ModesResult& res);
/// Factorises the shifted matrix at σ = w.sigma (the state-space one if damped).
bool factorizeShifted(ModesWork& w, const ModesResult& res);
bool factorizeAtReferenceShift(ModesWork& w, ModesResult& res);
void moveShiftNearLowestMode(ModesWork& w, ModesResult& res);
bool iterateShiftInverted(ModesWork& w, ModesResult& res);
RejectedPair recoverModes(ModesWork& w, ModesResult& res, std::vector<Mode> rigidModes);
void checkOnTangentSpace(ModesWork& w, ModesResult& res);
/// Why no mode was found; `shiftTried`: a shift at the rejected pairs' ω² was tried as well.
std::string noModeMessage(const ModesWork& w, const ModesResult& res, const RejectedPair& rejected, bool shiftTried);

}  // namespace looplab::modes
