#include "looplab/dynamics/PenaltyMethod.h"

#include "looplab/kinematics/Constraints.h"
#include "looplab/dynamics/Dynamics.h"

#include <Eigen/Cholesky>
#include <cmath>

namespace looplab {

PenaltyMethod::PenaltyMethod(std::shared_ptr<const Model> model,
                             const ConstraintMethodSettings& settings, bool augmented)
    : model_(std::move(model)), settings_(settings), augmented_(augmented) {
    rowScales_ = equationScales(*model_);
    colScales_ = coordinateScales(*model_);
}

Status PenaltyMethod::evaluate(const State& s, MotionEvaluation& out) {
    const Model& m = *model_;
    const int n = m.velocitySize();
    const int neq = m.equationCount();
    ConstraintValues cv;
    evaluateConstraints(m, s, cv, kAllParts);
    // Scaled units: J̃ = D_r J D_c, M̃ = D_c M D_c, f̃ = D_c f, ṽ̇ = D_c⁻¹ v̇, λ̃ = D_r⁻¹ λ.
    const MatX Js = rowScales_.asDiagonal() * cv.denseJacobian() * colScales_.asDiagonal();
    MatX Ms(n, n);
    for (int k = 0; k < n; ++k)
        Ms.col(k) = colScales_.asDiagonal() * applyMass(m, colScales_[k] * VecX::Unit(n, k));
    const VecX fs = colScales_.asDiagonal() * generalizedForces(m, s);
    const double meanMass = n ? Ms.diagonal().mean() : 1.0;
    const double factor = augmented_ ? settings_.augmentedFactor : settings_.penaltyFactor;
    const double alpha = factor * meanMass;
    const double xi = settings_.penaltyDamping, w = settings_.penaltyFrequency;
    const VecX phiDot = rowScales_.asDiagonal() * (cv.jacobian * s.v + cv.phiT);
    const VecX phi = rowScales_.asDiagonal() * cv.phi;
    const VecX gamma = rowScales_.asDiagonal() * cv.gamma;
    // Constraint "dynamics" Φ̈ + 2ξωΦ̇ + ω²Φ with Φ̈ = J̃ṽ̇ − γ̃.
    const VecX bias = -gamma + 2.0 * xi * w * phiDot + w * w * phi;
    Eigen::LLT<MatX> llt(Ms + alpha * Js.transpose() * Js);
    if (llt.info() != Eigen::Success)
        return Status::failure("penalty matrix M + αΦ_qᵀΦ_q is not positive definite");
    VecX a;
    VecX lambda = VecX::Zero(neq);
    if (!augmented_) {
        a = llt.solve(fs - alpha * Js.transpose() * bias);
        lambda = alpha * (Js * a + bias);
        iterations_ = 1;
    } else {
        if (warmMultipliers_.size() == neq) lambda = warmMultipliers_;
        iterations_ = 0;
        VecX previous = VecX::Zero(n);
        for (int k = 0; k < settings_.augmentedIterations; ++k) {
            a = llt.solve(fs - Js.transpose() * lambda - alpha * Js.transpose() * bias);
            lambda += alpha * (Js * a + bias);
            ++iterations_;
            const double change = (a - previous).norm();
            previous = a;
            if (k > 0 && change <= settings_.augmentedTolerance * std::max(1.0, a.norm())) break;
        }
        warmMultipliers_ = lambda;
    }
    out.acceleration = colScales_.asDiagonal() * a;
    out.multipliers = rowScales_.asDiagonal() * lambda;
    if (!out.acceleration.allFinite() || !out.multipliers.allFinite())
        return Status::failure("accelerations are not finite");
    return {};
}

}  // namespace looplab
