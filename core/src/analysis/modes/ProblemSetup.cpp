#include "analysis/modes/ModesWork.h"

#include "looplab/linalg/AugmentedMatrix.h"

#include "MessageText.h"

#include <cmath>
#include <limits>
#include <random>

namespace looplab::modes {

using message::format;

bool setUpProblem(ModesWork& w, const VecX& lambda, ModesResult& res) {
    const Model& model = w.model;
    const ModesOptions& o = w.options;
    const State& s = w.state;
    const int n = w.n = model.velocitySize();
    res.coordinates = n;
    if (o.count < 1) {
        res.message = "the number of modes must be at least 1";
        return false;
    }
    if (lambda.size() != model.equationCount()) {
        res.message = "one multiplier per constraint equation is needed";
        return false;
    }
    w.rowScales = equationScales(model);
    w.colScales = coordinateScales(model);
    const VecX& colScales = w.colScales;
    ConstraintValues& cv = w.constraints;
    evaluateConstraints(model, s, cv, kPhi | kJacobian);
    ConstraintSpaces& spaces = w.spaces;
    spaces.factorize(cv.jacobian, w.rowScales, colScales, o.rankTolerance, o.linearAlgebra);
    const int r = w.r = static_cast<int>(w.rows().size());
    const int d = w.d = n - r;
    res.independentEquations = r;
    res.degreesOfFreedom = d;
    if (d == 0) {
        res.message = "the model has no degree of freedom: nothing can vibrate";
        return false;
    }

    Linearization& lin = w.lin;
    linearize(model, s, lambda, lin);
    const double kMax = w.kMax = largestAbsEntry(lin.stiffness);
    const double mMax = w.mMax = largestAbsEntry(lin.mass);
    res.stiffnessScale = kMax;
    switch (o.scaling) {
    case ModeScaling::Automatic: res.scaling = kMax > 0 ? kMax : 1.0; break;
    case ModeScaling::None: res.scaling = 1.0; break;
    case ModeScaling::Value: res.scaling = o.scalingValue; break;
    }
    if (!(res.scaling > 0.0) || !std::isfinite(res.scaling)) {
        res.message = "the scaling factor must be a finite positive number";
        return false;
    }
    if (kMax == 0.0 && o.scaling == ModeScaling::Automatic)
        res.warnings.push_back("the stiffness matrix is zero: scaling factor 1");
    w.beta = res.scaling;
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
        return false;
    }
    res.shift = o.shift ? *o.shift : res.referenceShift;
    w.sigma = res.shift;
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
    if (res.symmetric) {
        SparseColMatrix& stiffnessSkew = w.stiffnessSkew;
        const SparseColMatrix Kt = lin.stiffness.transpose();
        stiffnessSkew = 0.5 * (lin.stiffness - Kt);
        const double invisible = std::numeric_limits<double>::epsilon() * kMax;
        stiffnessSkew.prune([&](Eigen::Index, Eigen::Index, const double& v) { return std::abs(v) > invisible; });
        stiffnessSkew.data().squeeze();  // prune keeps the memory of the entries it drops
        lin.stiffness = 0.5 * (lin.stiffness + Kt);
    }
    return true;
}

}  // namespace looplab::modes
