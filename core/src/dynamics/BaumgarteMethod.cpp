#include "looplab/dynamics/BaumgarteMethod.h"

#include "looplab/kinematics/Constraints.h"
#include "looplab/dynamics/Dynamics.h"
#include "looplab/dynamics/Linearization.h"

#include <Eigen/Cholesky>
#include <Eigen/QR>
#include <algorithm>
#include <cmath>

namespace looplab {

BaumgarteMethod::BaumgarteMethod(std::shared_ptr<const Model> model,
                                 const ConstraintMethodSettings& settings)
    : model_(std::move(model)), settings_(settings) {
    rowScales_ = equationScales(*model_);
    colScales_ = coordinateScales(*model_);
    sparse_ = usesSparse(settings_.linearAlgebra, model_->velocitySize());
}

Status BaumgarteMethod::evaluate(const State& s, MotionEvaluation& out) {
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
    // The rank is decided once, on the scaled Jacobian J̃ = D_r J D_c itself (the same
    // factorisation as mobility and the projection method), never on the Schur
    // complement J̃ M̃⁻¹ J̃ᵀ: that matrix squares the Jacobian's spread and carries the
    // spread of the masses (a slender rod's axial inertia is 1e-6 of its transverse
    // one), so a relative threshold on it declares independent rows dependent.
    // Off the constraint manifold by a scaled violation ε, the dependency of redundant
    // equations (an overconstrained loop such as Bricard's) no longer holds exactly:
    // their direction keeps a singular value of order ε/L. Using it would buy closure
    // of a drift with multipliers of order L/ε, so a direction whose singular value
    // is not above ten times the relative violation counts as dependent.
    const double relativeViolation = (rowScales_.asDiagonal() * cv.phi).cwiseAbs().maxCoeff() / m.lengthScale;
    const double rankTolerance = std::max(settings_.rankTolerance, 10.0 * relativeViolation);
    if (sparse_) {
        if (const Status st = solveSparse(s, cv, f, target, rankTolerance, out); !st.ok) return st;
    } else if (const Status st = solveDense(cv, f, target, rankTolerance, out); !st.ok) {
        return st;
    }
    // With a singular augmented matrix the minimum-norm multipliers still solve the
    // system if it is consistent; check, and name the equations that are not met. Off
    // the constraint manifold (the drift this method allows, and an explicit solver's
    // intermediate stages) the dependent rows' targets disagree with the independent
    // ones by up to the stabilisation terms β²Φ + 2αΦ̇ themselves: that is drift, which
    // the feedback removes, not a contradiction. Only a disagreement beyond it (redundant
    // joints that do not fit each other) is one.
    const VecX residual = rowScales_.asDiagonal() * (cv.jacobian * out.acceleration - target);
    const double scale = std::max(1.0, (rowScales_.asDiagonal() * target).cwiseAbs().maxCoeff());
    const double drift = 10.0 * (b * b * (rowScales_.asDiagonal() * cv.phi).cwiseAbs().maxCoeff() +
                                 2.0 * a * (rowScales_.asDiagonal() * phiDot).cwiseAbs().maxCoeff());
    const double allowed = 1e-6 * scale + drift;
    if (!out.acceleration.allFinite() || !(residual.cwiseAbs().maxCoeff() <= allowed)) {
        std::vector<std::string> joints;
        for (int i = 0; i < neq; ++i) {
            if (!(std::abs(residual[i]) <= allowed)) {
                const std::string& owner = m.equations[static_cast<size_t>(i)].owner;
                if (std::find(joints.begin(), joints.end(), owner) == joints.end()) joints.push_back(owner);
            }
        }
        return Status::failure(
            "singular augmented matrix: the constraint equations are inconsistent (" +
                std::to_string(deficiency_) + " dependent equations)",
            joints);
    }
    return {};
}

Status BaumgarteMethod::solveDense(const ConstraintValues& cv, const VecX& f, const VecX& target,
                                   double rankTolerance, MotionEvaluation& out) {
    const Model& m = *model_;
    const MatX J = cv.denseJacobian();
    spaces_.factorize(J, rowScales_, colScales_, rankTolerance);
    const std::vector<int>& rows = spaces_.independentEquations();
    const int r = static_cast<int>(rows.size());
    deficiency_ = m.equationCount() - r;
    const int n = m.velocitySize();
    // Scaled mass matrix M̃ = D_c M D_c = L Lᵀ (block diagonal, positive definite).
    MatX Ms(n, n);
    for (int k = 0; k < n; ++k) Ms.col(k) = colScales_.asDiagonal() * applyMass(m, colScales_[k] * VecX::Unit(n, k));
    const Eigen::LLT<MatX> mass(Ms);
    if (mass.info() != Eigen::Success) return Status::failure("mass matrix is not positive definite");
    MatX JsT(n, r);  // J̃_Iᵀ, the independent rows
    for (int k = 0; k < r; ++k) {
        const int row = rows[size_t(k)];
        JsT.col(k) = rowScales_[row] * colScales_.cwiseProduct(J.row(row).transpose());
    }
    // S_II = J̃_I M̃⁻¹ J̃_Iᵀ = BᵀB with B = L⁻¹ J̃_Iᵀ = Q R: S_II = RᵀR, and R is only as
    // ill-conditioned as B (the square root of S_II's condition number).
    const MatX B = mass.matrixL().solve(JsT);
    const Eigen::HouseholderQR<MatX> qr(B);
    const auto R = qr.matrixQR().topRows(r).triangularView<Eigen::Upper>();
    const VecX fs = colScales_.cwiseProduct(f);
    VecX rhs = JsT.transpose() * mass.solve(fs);
    for (int k = 0; k < r; ++k) rhs[k] -= rowScales_[rows[size_t(k)]] * target[rows[size_t(k)]];
    const VecX lambdaI = R.solve(R.transpose().solve(rhs));  // scaled multipliers of rows I
    const VecX as = mass.solve(fs - JsT * lambdaI);
    out.acceleration = colScales_.cwiseProduct(as);
    if (out.computeMultipliers) {
        // The constraint force −J_Iᵀλ_I shared among all equations with the least
        // (scaled) norm: where equations are redundant, the minimum-norm multipliers.
        VecX g = VecX::Zero(n);
        for (int k = 0; k < r; ++k) g += rowScales_[rows[size_t(k)]] * lambdaI[k] * J.row(rows[size_t(k)]).transpose();
        out.multipliers = spaces_.solveTransposed(g);
    } else {
        out.multipliers.resize(0);
    }
    return {};
}

Status BaumgarteMethod::solveSparse(const State& s, const ConstraintValues& cv, const VecX& f,
                                    const VecX& target, double rankTolerance, MotionEvaluation& out) {
    const Model& m = *model_;
    // The same rank decision as the dense path, by SuiteSparseQR; the independent rows'
    // Schur complement J̃_I M̃⁻¹ J̃_Iᵀ is then sparse (equations that share a body) and
    // factorised by a sparse Cholesky whose symbolic analysis is kept while the set of
    // rows and the Jacobian's pattern stay the same.
    spaces_.factorize(cv.jacobian, rowScales_, colScales_, rankTolerance, LinearAlgebra::Sparse);
    const std::vector<int>& independent = spaces_.independentEquations();
    deficiency_ = m.equationCount() - static_cast<int>(independent.size());
    if (independent != selected_) {
        rows_.select(independent, rowScales_, colScales_);
        selected_ = independent;
    }
    const auto multipliers = [&]() {
        if (out.computeMultipliers) {
            // −Φ_qᵀλ is the constraint force f − M v̇; its minimum-norm multipliers.
            out.multipliers = spaces_.solveTransposed(f - applyMass(m, out.acceleration));
        } else {
            out.multipliers.resize(0);
        }
    };
    if (!rows_.setJacobian(cv.jacobian) || !rows_.accelerations(m, f, target, out.acceleration)) {
        if (Status st = solveAugmented(s, cv, f, target, independent, out.acceleration); !st.ok) return st;
        multipliers();
        return {};
    }
    // The Schur complement squares the condition of M^{-1/2}Φ_qᵀ (which the dense path's QR
    // avoids); a beam's consistent mass in nodal slopes makes that large. Refining with the
    // residual of Φ_q v̇ = target recovers the digits: the correction solves the same system
    // with no applied force, with the same factors. The refinement goes on while each pass
    // at least halves the residual: the first solve's residual grows with the applied
    // forces, and in a member deformed into equilibrium (the flexible slider-crank's rod
    // under gravity and its inertia, start: equilibrium) the elastic forces of the single
    // nodal coordinates are large where their sum is small. There the first residual was
    // 11.5 (scaled) and each pass gained a factor 175, so that three passes left 2.1e-6
    // against the 1e-6 of the target the check below allows.
    // Measured on the independent rows only: off the manifold the dependent ones disagree
    // with them by the drift, which no refinement can remove.
    const VecX zero = VecX::Zero(m.velocitySize());
    const auto independentResidual = [&](const VecX& a) {
        const VecX r = cv.jacobian * a - target;
        double largest = 0.0;
        for (int row : independent) largest = std::max(largest, std::abs(rowScales_[row] * r[row]));
        return largest;
    };
    double previous = independentResidual(out.acceleration);
    constexpr int kRefinements = 8;
    for (int pass = 0; pass < kRefinements && previous > 0.0; ++pass) {
        VecX correction;
        if (!rows_.accelerationsAgain(m, zero, target - cv.jacobian * out.acceleration, correction)) break;
        const VecX refined = out.acceleration + correction;
        const double left = independentResidual(refined);
        if (!(left < 0.5 * previous)) break;
        out.acceleration = refined;
        previous = left;
    }
    // Where the refinement stops short of the digits the check in evaluate() needs, with a
    // margin of a hundred, the Schur complement is too ill-conditioned for it to converge:
    // the flexible four-bar's clamped beams (a first residual of 320 at the consistent
    // start, and the first correction made it worse). The augmented system itself is only
    // as ill-conditioned as Φ_q and M, not their product.
    double targetScale = 1.0;
    for (int row : independent) targetScale = std::max(targetScale, std::abs(rowScales_[row] * target[row]));
    if (!(previous <= 1e-8 * targetScale)) {
        if (Status st = solveAugmented(s, cv, f, target, independent, out.acceleration); !st.ok) return st;
    }
    multipliers();
    return {};
}

Status BaumgarteMethod::solveAugmented(const State& s, const ConstraintValues& cv, const VecX& f, const VecX& target,
                                       const std::vector<int>& rows, VecX& acceleration) {
    const Model& m = *model_;
    const int n = m.velocitySize();
    const int r = static_cast<int>(rows.size());
    if (mass_.rows() != n) mass_ = massMatrix(m);
    if (!augmented_.factorize(scaledAugmentedMatrix(mass_, cv.jacobian, rows, rowScales_, colScales_)))
        return Status::failure("the augmented system [M Phi_q'; Phi_q 0] of the independent constraint equations is "
                               "singular at t = " + std::to_string(s.t));
    VecX rhs(n + r);
    rhs.head(n) = colScales_.cwiseProduct(f);
    for (int i = 0; i < r; ++i) rhs[n + i] = rowScales_[rows[size_t(i)]] * target[rows[size_t(i)]];
    const VecX x = augmented_.solve(rhs);
    acceleration = colScales_.cwiseProduct(x.head(n));
    if (!acceleration.allFinite())
        return Status::failure("the augmented system of the independent constraint equations gave non-finite "
                               "accelerations at t = " + std::to_string(s.t));
    return {};
}

}  // namespace looplab
