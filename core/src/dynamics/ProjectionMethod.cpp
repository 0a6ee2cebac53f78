#include "looplab/dynamics/ProjectionMethod.h"

#include "looplab/kinematics/Constraints.h"
#include "looplab/dynamics/Dynamics.h"

#include <Eigen/Cholesky>
#include <limits>
#include <cmath>
#include <sstream>
#include <vector>

namespace looplab {

namespace {
// Up to this many coordinates the Gauss–Newton normal matrix is formed densely.
constexpr int kDenseNormalLimit = 120;

double scaledInf(const VecX& x, const VecX& scales) {
    return x.size() ? (scales.asDiagonal() * x).cwiseAbs().maxCoeff() : 0.0;
}
}  // namespace

ProjectionMethod::ProjectionMethod(std::shared_ptr<const Model> model,
                                   const ConstraintMethodSettings& settings)
    : model_(std::move(model)), settings_(settings) {
    rowScales_ = equationScales(*model_);
    colScales_ = coordinateScales(*model_);
    sparse_ = usesSparse(settings_.linearAlgebra, model_->velocitySize());
}

const ConstraintSpaces* ProjectionMethod::factorizationAt(const State& s) const {
    const bool same = factoredQ_.size() == s.q.size() && factoredT_ == s.t && factoredQ_ == s.q;
    return same ? &spaces_ : nullptr;
}

void ProjectionMethod::factorizeAt(const State& s) {
    if (factoredQ_.size() == s.q.size() && factoredT_ == s.t && factoredQ_ == s.q) return;
    ConstraintValues cv;
    evaluateConstraints(*model_, s, cv, kJacobian);
    factorizeFrom(s, cv);
}

void ProjectionMethod::factorizeFrom(const State& s, const ConstraintValues& cv) {
    if (factoredQ_.size() == s.q.size() && factoredT_ == s.t && factoredQ_ == s.q) return;
    spaces_.factorize(cv.jacobian, rowScales_, colScales_, settings_.rankTolerance,
                      sparse_ ? LinearAlgebra::Sparse : LinearAlgebra::Dense);
    factoredQ_ = s.q;
    factoredT_ = s.t;
}

Status ProjectionMethod::correct(State& s) {
    // An explicit solver projects its new step end right after evaluating the derivative
    // there: the second call finds the same input and reuses the answer.
    if (cacheValid_ && s.t == cachedIn_.t && s.q == cachedIn_.q && s.v == cachedIn_.v) {
        s = cachedOut_;
        return {};
    }
    cachedIn_ = s;
    cacheValid_ = false;
    const Status status = sparse_ ? projectSparse(s) : project(s);
    if (status.ok) {
        cachedOut_ = s;
        cacheValid_ = true;
    }
    return status;
}

Status ProjectionMethod::project(State& s) {
    const Model& m = *model_;
    normalizePositions(m, s.q);
    // Rounding floor of Φ for this model size: below it a step cannot improve anything.
    const double floor = 8.0 * std::numeric_limits<double>::epsilon() * m.lengthScale;
    ConstraintValues cv;
    evaluateConstraints(m, s, cv, kPhi | kJacobian | kPhiT);
    double res = scaledInf(cv.phi, rowScales_);
    bool moved = false;
    // Minimum-norm Gauss–Newton steps. The step only needs the row space of Φ_q, so it
    // is taken from the normal equations of the equations found independent by the last
    // factorisation (a small Cholesky instead of a pivoted QR); the minimum-norm step is
    // the same whichever independent rows span that space. Where that fails (first call,
    // a rank change, poor convergence) the pivoted QR is used. A Jacobian is evaluated for
    // an iterate unless the previous step reduced the residual a hundredfold.
    bool needJacobian = false;
    // Whether cv.jacobian was evaluated at s.q: a factorisation is stamped with the
    // configuration, so it must never be made from a Jacobian of an earlier iterate.
    bool jacobianCurrent = true;
    bool useQr = spaces_.equations() != m.equationCount() || spaces_.rank() == 0;
    Eigen::LLT<MatX> normal;
    SparseMatrix Ji;
    MatX JiDense;
    const bool denseNormal = m.velocitySize() <= kDenseNormalLimit;
    bool haveNormal = false;
    for (int it = 0; it < settings_.projectionIterations && res > floor; ++it) {
        if (needJacobian || (useQr && !jacobianCurrent)) {
            evaluateConstraints(m, s, cv, kPhi | kJacobian | kPhiT);
            haveNormal = false;
            needJacobian = false;
            jacobianCurrent = true;
        }
        VecX dq;
        if (!useQr) {
            if (!haveNormal) {
                const auto& rows = spaces_.independentEquations();
                const Eigen::Index r = static_cast<Eigen::Index>(rows.size());
                if (denseNormal) {
                    // A small model: the r²n flops of a dense product cost less than the
                    // bookkeeping of a sparse one.
                    JiDense.setZero(r, m.velocitySize());
                    for (Eigen::Index k = 0; k < r; ++k) {
                        const int row = rows[size_t(k)];
                        for (SparseMatrix::InnerIterator e(cv.jacobian, row); e; ++e)
                            JiDense(k, e.col()) = rowScales_[row] * e.value() * colScales_[e.col()];
                    }
                    MatX N = MatX::Zero(r, r);
                    N.selfadjointView<Eigen::Lower>().rankUpdate(JiDense);
                    normal.compute(N);
                } else {
                    // Each row of Φ_q touches one or two bodies: the normal matrix is
                    // formed from the sparse rows (a dense product would cost r²n, the
                    // bulk of a step for a large model).
                    std::vector<Eigen::Triplet<double>> pick;
                    pick.reserve(rows.size());
                    for (size_t k = 0; k < rows.size(); ++k)
                        pick.emplace_back(static_cast<int>(k), rows[k], rowScales_[rows[k]]);
                    SparseMatrix select(r, cv.jacobian.rows());
                    select.setFromTriplets(pick.begin(), pick.end());
                    Ji = select * cv.jacobian * colScales_.asDiagonal();
                    const SparseMatrix JiT = Ji.transpose();
                    normal.compute(MatX(SparseMatrix(Ji * JiT)));
                }
                haveNormal = normal.info() == Eigen::Success;
            }
            if (haveNormal) {
                const auto& rows = spaces_.independentEquations();
                VecX b(static_cast<Eigen::Index>(rows.size()));
                for (size_t k = 0; k < rows.size(); ++k) b[Eigen::Index(k)] = -rowScales_[rows[k]] * cv.phi[rows[k]];
                const VecX y = normal.solve(b);
                dq = colScales_.asDiagonal() * (denseNormal ? VecX(JiDense.transpose() * y) : VecX(Ji.transpose() * y));
            } else {
                useQr = true;
            }
        }
        if (useQr) {
            factorizeFrom(s, cv);
            dq = spaces_.solveMinimumNorm(-cv.phi);
        }
        State trial = s;
        retract(m, trial.q, dq);
        ConstraintValues ct;
        evaluateConstraints(m, trial, ct, kPhi);
        const double r = scaledInf(ct.phi, rowScales_);
        if (!(r < res)) {
            if (useQr) break;  // at the rounding floor, or no longer converging
            useQr = true;      // the remembered independent rows no longer serve
            continue;
        }
        needJacobian = !(r < 0.01 * res);
        jacobianCurrent = false;
        s.q = trial.q;
        cv.phi = ct.phi;
        res = r;
        moved = true;
    }
    if (const Status st = positionOutcome(s, res, cv.phi); !st.ok) return st;
    // Velocities are projected with the Jacobian at the final configuration.
    if (moved && !jacobianCurrent) evaluateConstraints(m, s, cv, kJacobian | kPhiT);
    factorizeFrom(s, cv);
    const VecX err = cv.jacobian * s.v + cv.phiT;
    s.v -= spaces_.solveMinimumNorm(err);
    if (!s.v.allFinite()) return Status::failure("velocity projection produced non-finite values");
    return {};
}

Status ProjectionMethod::evaluate(const State& s, MotionEvaluation& out) {
    const Model& m = *model_;
    ConstraintValues cv;
    evaluateConstraints(m, s, cv, kGamma);
    const VecX f = generalizedForces(m, s);
    if (sparse_) return evaluateSparse(s, f, cv.gamma, out);
    factorizeAt(s);
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
            return Status::failure("reduced mass matrix is not positive definite");
        const VecX rhs = T.transpose() * (f - applyMass(m, aC));
        a += T * llt.solve(rhs);
    }
    out.acceleration = a;
    if (out.computeMultipliers) out.multipliers = spaces_.solveTransposed(f - applyMass(m, a));
    if (!out.acceleration.allFinite() || (out.computeMultipliers && !out.multipliers.allFinite()))
        return Status::failure("accelerations are not finite");
    return {};
}

Status ProjectionMethod::positionOutcome(const State& s, double res, const VecX& phi) const {
    const Model& m = *model_;
    if (!std::isfinite(res) || res > 1e-6 * m.lengthScale) {
        std::vector<std::string> open;
        for (auto& [owner, r] : residualsByOwner(m, phi))
            if (!(r <= 1e-6 * m.lengthScale)) open.push_back(owner);
        return Status::failure("position projection did not converge (residual " + std::to_string(res) +
                                         "); the loop cannot close",
                                     open);
    }
    const std::vector<std::string> wrongRoot = driversOnWrongRoot(m, s);
    if (!wrongRoot.empty())
        return Status::failure("the projection reached a configuration half a turn from "
                                     "the driver's prescribed angle",
                                     wrongRoot);
    return {};
}

void ProjectionMethod::chooseIndependentRows(const State& s, const ConstraintValues& cv) {
    factorizeFrom(s, cv);
    rows_.select(spaces_.independentEquations(), rowScales_, colScales_);
    rowsChosen_ = true;
}

Status ProjectionMethod::projectSparse(State& s) {
    const Model& m = *model_;
    normalizePositions(m, s.q);
    const double floor = 8.0 * std::numeric_limits<double>::epsilon() * m.lengthScale;
    // An equation left out of the independent set is met to rounding while it depends on
    // the others; a residual this far above rounding (and this far below any failure) says
    // that it no longer does.
    const double consistency = 1e-10 * m.lengthScale;
    // Pivots of J Jᵀ within ten times the rank tolerance of each other: the rows are close
    // to dependence, and the rank-revealing factorisation decides again.
    const double spreadLimit = 10.0 * settings_.rankTolerance;
    ConstraintValues cv;
    evaluateConstraints(m, s, cv, kPhi | kJacobian | kPhiT);
    bool chosenHere = false;
    auto choose = [&] {
        chooseIndependentRows(s, cv);
        chosenHere = true;
    };
    if (!rowsChosen_) choose();
    auto rowsServe = [&] { return rows_.setJacobian(cv.jacobian) && rows_.pivotSpread() > spreadLimit; };
    double res = scaledInf(cv.phi, rowScales_);
    for (int attempt = 0; attempt < 2; ++attempt) {
        bool served = true;
        for (int it = 0; it < settings_.projectionIterations && res > floor; ++it) {
            if (!rowsServe()) {
                served = false;
                break;
            }
            State trial = s;
            retract(m, trial.q, rows_.minimumNormSolve(-cv.phi));
            ConstraintValues ct;
            evaluateConstraints(m, trial, ct, kPhi);
            const double r = scaledInf(ct.phi, rowScales_);
            if (!(r < res)) break;  // at the rounding floor, or no longer converging
            s.q = trial.q;
            res = r;
            evaluateConstraints(m, s, cv, kPhi | kJacobian | kPhiT);
        }
        if ((served && res <= consistency) || chosenHere) break;
        choose();
    }
    if (const Status st = positionOutcome(s, res, cv.phi); !st.ok) return st;
    // Velocities, with the Jacobian at the final configuration.
    const VecX v0 = s.v;
    for (int attempt = 0; attempt < 2; ++attempt) {
        if (!rowsServe()) {
            if (chosenHere) return Status::failure("the constraint Jacobian's independent rows are singular");
            choose();
            continue;
        }
        s.v = v0 - rows_.minimumNormSolve(cv.jacobian * v0 + cv.phiT);
        const double speed = (colScales_.cwiseInverse().asDiagonal() * s.v).cwiseAbs().maxCoeff();
        const double left = scaledInf(cv.jacobian * s.v + cv.phiT, rowScales_);
        if (left <= 1e-10 * speed + floor || chosenHere) break;
        choose();
    }
    if (!s.v.allFinite()) return Status::failure("velocity projection produced non-finite values");
    rowsQ_ = s.q;
    rowsT_ = s.t;
    return {};
}

Status ProjectionMethod::evaluateSparse(const State& s, const VecX& f, const VecX& gamma,
                                              MotionEvaluation& out) {
    // A large model's tangent space has as many dense columns as degrees of freedom (an
    // open chain of 1 000 links: 6 000), so the projected equations are solved through the
    // multipliers of the independent equations instead (IndependentRows::accelerations):
    // the same unique v̇ with Φ_q v̇ = γ whose tangent part satisfies the projected
    // equations of motion.
    const Model& m = *model_;
    if (!rowsChosen_ || rowsQ_.size() != s.q.size() || rowsT_ != s.t || rowsQ_ != s.q) {
        ConstraintValues cv;
        evaluateConstraints(m, s, cv, kJacobian);
        if (!rowsChosen_) chooseIndependentRows(s, cv);
        if (!rows_.setJacobian(cv.jacobian)) {
            chooseIndependentRows(s, cv);
            if (!rows_.setJacobian(cv.jacobian))
                return Status::failure("the constraint Jacobian's independent rows are singular");
        }
        rowsQ_ = s.q;
        rowsT_ = s.t;
    }
    if (!rows_.accelerations(m, f, gamma, out.acceleration))
        return Status::failure("the constraint Schur complement J M⁻¹ Jᵀ is not positive definite");
    if (out.computeMultipliers) {
        factorizeAt(s);
        out.multipliers = spaces_.solveTransposed(f - applyMass(m, out.acceleration));
        if (!out.multipliers.allFinite()) return Status::failure("multipliers are not finite");
    }
    return {};
}

}  // namespace looplab
