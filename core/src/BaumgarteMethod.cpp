#include "looplab/BaumgarteMethod.h"

#include "looplab/Constraints.h"
#include "looplab/Dynamics.h"

#include <Eigen/QR>
#include <algorithm>
#include <cmath>

namespace looplab {

BaumgarteMethod::BaumgarteMethod(std::shared_ptr<const Model> model,
                                 const ConstraintMethodSettings& settings)
    : model_(std::move(model)), settings_(settings) {
    rowScales_ = equationScales(*model_);
    colScales_ = coordinateScales(*model_);
}

MethodStatus BaumgarteMethod::evaluate(const State& s, MotionEvaluation& out) {
    const Model& m = *model_;
    const int neq = m.equationCount();
    ConstraintValues cv;
    evaluateConstraints(m, s, cv, kAllParts);
    const VecX f = generalizedForces(m, s);
    const double a = settings_.baumgarteAlpha, b = settings_.baumgarteBeta;
    const VecX phiDot = cv.jacobian * s.v + cv.phiT;
    const VecX target = cv.gamma - 2.0 * a * phiDot - b * b * cv.phi;
    if (neq == 0) {
        out.acceleration = applyInverseMass(m, f);
        out.multipliers.resize(0);
        return {};
    }
    // Schur complement in scaled units: S = J̃ M̃⁻¹ J̃ᵀ, with J̃ = D_r J D_c, M̃ = D_c M D_c.
    const MatX J = cv.denseJacobian();
    const MatX Js = rowScales_.asDiagonal() * J;
    MatX MinvJt(J.cols(), neq);
    for (int k = 0; k < neq; ++k) MinvJt.col(k) = applyInverseMass(m, Js.row(k).transpose());
    const MatX S = Js * MinvJt;
    const VecX rhs = Js * applyInverseMass(m, f) - rowScales_.asDiagonal() * target;
    Eigen::CompleteOrthogonalDecomposition<MatX> cod;
    cod.setThreshold(settings_.rankTolerance);
    cod.compute(S);
    deficiency_ = neq - static_cast<int>(cod.rank());
    const VecX lambdaScaled = cod.solve(rhs);
    out.multipliers = rowScales_.asDiagonal() * lambdaScaled;
    out.acceleration = applyInverseMass(m, f - J.transpose() * out.multipliers);
    // With a singular augmented matrix the minimum-norm multipliers still solve the
    // system if it is consistent; check, and name the equations that are not met.
    const VecX residual = rowScales_.asDiagonal() * (J * out.acceleration - target);
    const double scale = std::max(1.0, (rowScales_.asDiagonal() * target).cwiseAbs().maxCoeff());
    if (!out.acceleration.allFinite() || residual.cwiseAbs().maxCoeff() > 1e-6 * scale) {
        std::vector<std::string> joints;
        for (int i = 0; i < neq; ++i) {
            if (!(std::abs(residual[i]) <= 1e-6 * scale)) {
                const std::string& owner = m.equations[static_cast<size_t>(i)].owner;
                if (std::find(joints.begin(), joints.end(), owner) == joints.end()) joints.push_back(owner);
            }
        }
        return MethodStatus::failure(
            "singular augmented matrix: the constraint equations are inconsistent (" +
                std::to_string(deficiency_) + " dependent equations)",
            joints);
    }
    return {};
}

}  // namespace looplab
