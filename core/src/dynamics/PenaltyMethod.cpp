#include "looplab/dynamics/PenaltyMethod.h"

#include "looplab/kinematics/Constraints.h"
#include "looplab/dynamics/Dynamics.h"

#include "looplab/dynamics/Linearization.h"

#include <Eigen/Cholesky>
#include <functional>
#include <cmath>

namespace looplab {

PenaltyMethod::PenaltyMethod(std::shared_ptr<const Model> model,
                             const ConstraintMethodSettings& settings, bool augmented)
    : model_(std::move(model)), settings_(settings), augmented_(augmented) {
    rowScales_ = equationScales(*model_);
    colScales_ = coordinateScales(*model_);
    sparse_ = usesSparse(settings_.linearAlgebra, model_->velocitySize());
    // M is constant in the velocity coordinates of every body kind (Dynamics.h).
    scaledMass_ = colScales_.asDiagonal() * massMatrix(*model_) * colScales_.asDiagonal();
    const int n = model_->velocitySize();
    meanMass_ = n ? VecX(scaledMass_.diagonal()).mean() : 1.0;
}

Status PenaltyMethod::evaluate(const State& s, MotionEvaluation& out) {
    const Model& m = *model_;
    const int n = m.velocitySize();
    const int neq = m.equationCount();
    ConstraintValues cv;
    evaluateConstraints(m, s, cv, kAllParts);
    // Scaled units: J̃ = D_r J D_c, M̃ = D_c M D_c, f̃ = D_c f, ṽ̇ = D_c⁻¹ v̇, λ̃ = D_r⁻¹ λ.
    const VecX fs = colScales_.asDiagonal() * generalizedForces(m, s);
    const double factor = augmented_ ? settings_.augmentedFactor : settings_.penaltyFactor;
    const double alpha = factor * meanMass_;
    const double xi = settings_.penaltyDamping, w = settings_.penaltyFrequency;
    const VecX phiDot = rowScales_.asDiagonal() * (cv.jacobian * s.v + cv.phiT);
    const VecX phi = rowScales_.asDiagonal() * cv.phi;
    const VecX gamma = rowScales_.asDiagonal() * cv.gamma;
    // Constraint "dynamics" Φ̈ + 2ξωΦ̇ + ω²Φ with Φ̈ = J̃ṽ̇ − γ̃.
    const VecX bias = -gamma + 2.0 * xi * w * phiDot + w * w * phi;
    // M̃ + αJ̃ᵀJ̃: dense for a small model; for a large one sparse (the bodies that share a
    // joint), by a sparse Cholesky whose symbolic analysis is kept between evaluations.
    std::function<VecX(const VecX&)> solve;
    SparseMatrix JsSparse;
    MatX JsDense;
    Eigen::LLT<MatX> llt;
    if (sparse_) {
        JsSparse = rowScales_.asDiagonal() * cv.jacobian * colScales_.asDiagonal();
        const ColMajorMatrix JsCol(JsSparse);
        const ColMajorMatrix A = scaledMass_ + alpha * ColMajorMatrix(JsCol.transpose() * JsCol);
        if (!sparseFactor_.factorize(A))
            return Status::failure("penalty matrix M + αΦ_qᵀΦ_q is not positive definite");
        solve = [this](const VecX& b) { return sparseFactor_.solve(b); };
    } else {
        JsDense = rowScales_.asDiagonal() * cv.denseJacobian() * colScales_.asDiagonal();
        llt.compute(MatX(scaledMass_) + alpha * JsDense.transpose() * JsDense);
        if (llt.info() != Eigen::Success)
            return Status::failure("penalty matrix M + αΦ_qᵀΦ_q is not positive definite");
        solve = [&llt](const VecX& b) { return VecX(llt.solve(b)); };
    }
    const auto Js = [&](const VecX& x) { return sparse_ ? VecX(JsSparse * x) : VecX(JsDense * x); };
    const auto JsT = [&](const VecX& y) {
        return sparse_ ? VecX(JsSparse.transpose() * y) : VecX(JsDense.transpose() * y);
    };
    VecX a;
    VecX lambda = VecX::Zero(neq);
    if (!augmented_) {
        a = solve(fs - alpha * JsT(bias));
        lambda = alpha * (Js(a) + bias);
        iterations_ = 1;
    } else {
        if (warmMultipliers_.size() == neq) lambda = warmMultipliers_;
        iterations_ = 0;
        VecX previous = VecX::Zero(n);
        for (int k = 0; k < settings_.augmentedIterations; ++k) {
            a = solve(fs - JsT(lambda) - alpha * JsT(bias));
            lambda += alpha * (Js(a) + bias);
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
