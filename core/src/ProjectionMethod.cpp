#include "looplab/ProjectionMethod.h"

#include "looplab/Constraints.h"
#include "looplab/Dynamics.h"

#include <Eigen/Cholesky>
#include <cmath>
#include <sstream>

namespace looplab {

namespace {
double scaledInf(const VecX& x, const VecX& scales) {
    return x.size() ? (scales.asDiagonal() * x).cwiseAbs().maxCoeff() : 0.0;
}
}  // namespace

ProjectionMethod::ProjectionMethod(std::shared_ptr<const Model> model,
                                   const ConstraintMethodSettings& settings)
    : model_(std::move(model)), settings_(settings) {
    rowScales_ = equationScales(*model_);
    colScales_ = coordinateScales(*model_);
}

void ProjectionMethod::factorizeAt(const State& s) {
    if (factoredQ_.size() == s.q.size() && factoredT_ == s.t && factoredQ_ == s.q) return;
    ConstraintValues cv;
    evaluateConstraints(*model_, s, cv, kJacobian);
    spaces_.factorize(cv.denseJacobian(), rowScales_, colScales_, settings_.rankTolerance);
    factoredQ_ = s.q;
    factoredT_ = s.t;
}

MethodStatus ProjectionMethod::correct(State& s) {
    const Model& m = *model_;
    normalizeQuaternions(s.q);
    // Rounding floor of Φ for this model size: below it a step cannot improve anything.
    const double floor = 8.0 * std::numeric_limits<double>::epsilon() * m.lengthScale;
    ConstraintValues cv;
    evaluateConstraints(m, s, cv, kPhi);
    double res = scaledInf(cv.phi, rowScales_);
    for (int it = 0; it < settings_.projectionIterations && res > floor; ++it) {
        factorizeAt(s);
        const VecX dq = spaces_.solveMinimumNorm(-cv.phi);
        State trial = s;
        retract(trial.q, dq);
        evaluateConstraints(m, trial, cv, kPhi);
        const double r = scaledInf(cv.phi, rowScales_);
        if (!(r < res)) break;  // at the rounding floor, or no longer converging
        s.q = trial.q;
        res = r;
    }
    if (!std::isfinite(res) || res > 1e-6 * m.lengthScale) {
        std::vector<std::string> open;
        for (auto& [owner, r] : residualsByOwner(m, cv.phi))
            if (r > 1e-6 * m.lengthScale) open.push_back(owner);
        return MethodStatus::failure("position projection did not converge (residual " +
                                         std::to_string(res) + "); the loop cannot close",
                                     open);
    }
    factorizeAt(s);
    evaluateConstraints(m, s, cv, kJacobian | kPhiT);
    const VecX err = cv.jacobian * s.v + cv.phiT;
    s.v -= spaces_.solveMinimumNorm(err);
    if (!s.v.allFinite()) return MethodStatus::failure("velocity projection produced non-finite values");
    return {};
}

MethodStatus ProjectionMethod::evaluate(const State& s, MotionEvaluation& out) {
    const Model& m = *model_;
    factorizeAt(s);
    ConstraintValues cv;
    evaluateConstraints(m, s, cv, kGamma);
    const VecX f = generalizedForces(m, s);
    // Constraint-space part: fixed by Φ_q v̇ = γ alone.
    const VecX aC = spaces_.solveMinimumNorm(cv.gamma);
    VecX a = aC;
    const int n = m.velocitySize();
    if (spaces_.rank() < n) {
        // Tangent-space part from the equations of motion projected on the tangent space.
        const MatX T = colScales_.asDiagonal() * spaces_.tangentBasis();
        MatX MT(n, T.cols());
        for (int k = 0; k < T.cols(); ++k) MT.col(k) = applyMass(m, T.col(k));
        const MatX reduced = T.transpose() * MT;
        Eigen::LLT<MatX> llt(reduced);
        if (llt.info() != Eigen::Success)
            return MethodStatus::failure("reduced mass matrix is not positive definite");
        const VecX rhs = T.transpose() * (f - applyMass(m, aC));
        a += T * llt.solve(rhs);
    }
    out.acceleration = a;
    out.multipliers = spaces_.solveTransposed(f - applyMass(m, a));
    if (!out.acceleration.allFinite() || !out.multipliers.allFinite())
        return MethodStatus::failure("accelerations are not finite");
    return {};
}

}  // namespace looplab
