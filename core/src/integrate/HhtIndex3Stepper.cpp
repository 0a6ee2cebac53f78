#include "looplab/integrate/HhtIndex3Stepper.h"

#include "looplab/kinematics/Constraints.h"
#include "looplab/dynamics/Dynamics.h"
#include "looplab/dynamics/Linearization.h"
#include "looplab/integrate/SingularityMonitor.h"
#include "looplab/model/State.h"

#include "MessageText.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

namespace looplab {

namespace {

using message::at;

}  // namespace

HhtIndex3Stepper::HhtIndex3Stepper(std::shared_ptr<const Model> model, const TlismniSettings& settings,
                                   std::string integrator)
    : model_(std::move(model)), settings_(settings), integrator_(std::move(integrator)), errorScales_(*model_),
      spaces_(settings_.rankTolerance, settings_.linearAlgebra) {
    const Model& m = *model_;
    scheme_ = settings_.scheme();
    alpha_ = scheme_.alpha;
    beta_ = scheme_.beta;
    gamma_ = scheme_.gamma;
    rowScales_ = equationScales(m);
    colScales_ = coordinateScales(m);
    mass_ = massMatrix(m);
}

const ConstraintSpaces* HhtIndex3Stepper::factorizationAt(const State& s) const { return spaces_.ifAt(s); }

Status HhtIndex3Stepper::chooseRows(const State& s) {
    rows_ = spaces_.at(*model_, s).independentEquations();
    std::sort(rows_.begin(), rows_.end());
    return {};
}

Status HhtIndex3Stepper::accelerations(const State& s, VecX& a, VecX& lambdaI) {
    const Model& m = *model_;
    const int n = m.velocitySize();
    const int r = static_cast<int>(rows_.size());
    ConstraintValues cv;
    evaluateConstraints(m, s, cv, kJacobian | kGamma);
    ++stats_.rhsEvaluations;
    if (!accelerationSolver_.factorize(scaledAugmentedMatrix(mass_, cv.jacobian, rows_, rowScales_, colScales_)))
        return Status::failure("the augmented system [M Phi_q'; Phi_q 0] is singular at " + at(s.t));
    VecX rhs(n + r);
    rhs.head(n) = colScales_.cwiseProduct(generalizedForces(m, s));
    for (int i = 0; i < r; ++i) rhs[n + i] = rowScales_[rows_[size_t(i)]] * cv.gamma[rows_[size_t(i)]];
    const VecX x = accelerationSolver_.solve(rhs);
    if (!x.allFinite()) return Status::failure("the augmented system gave non-finite accelerations at " + at(s.t));
    a = colScales_.cwiseProduct(x.head(n));
    lambdaI.resize(r);
    for (int i = 0; i < r; ++i) lambdaI[i] = rowScales_[rows_[size_t(i)]] * x[n + i];
    return {};
}

VecX HhtIndex3Stepper::netForce(const State& s, const SparseMatrix& jacobian, const VecX& lambdaI) const {
    VecX lambda = VecX::Zero(model_->equationCount());
    for (size_t i = 0; i < rows_.size(); ++i) lambda[rows_[i]] = lambdaI[Eigen::Index(i)];
    return VecX(jacobian.transpose() * lambda) - generalizedForces(*model_, s);
}

Status HhtIndex3Stepper::evaluate(State& s, MotionEvaluation& out) {
    // The rows independent here (the rank decision may differ from the step's).
    const std::vector<int> stepRows = rows_;
    chooseRows(s);
    VecX lambdaI;
    if (Status st = accelerations(s, out.acceleration, lambdaI); !st.ok) {
        rows_ = stepRows;
        return st;
    }
    if (out.computeMultipliers) {
        out.multipliers =
            spaces_.at(*model_, s).solveTransposed(generalizedForces(*model_, s) - applyMass(*model_, out.acceleration));
    }
    rows_ = stepRows;
    return {};
}

Status HhtIndex3Stepper::initialize(const State& start) {
    stats_ = {};
    // Without numerical damping the multipliers and the accelerations of the index-3 form
    // oscillate from step to step (Cardona & Géradin 1989); the error estimate, a difference
    // of accelerations, then sees that oscillation and the adaptive step collapses.
    if (!settings_.fixedStep && !(alpha_ < 0.0)) {
        std::ostringstream o;
        o << "hht-index3 with an adaptive step needs numerical damping, HHT alpha in [-1/3, 0) (given " << alpha_
          << "): without it the multipliers of the index-3 equations oscillate and the step-size control cannot "
             "follow them";
        return Status::failure(o.str());
    }
    chooseRows(start);
    newton_.invalidate();
    if (Status st = accelerations(start, a_, lambdaI_); !st.ok) return st;
    ConstraintValues cv;
    evaluateConstraints(*model_, start, cv, kJacobian);
    force_ = netForce(start, cv.jacobian, lambdaI_);
    t_ = start.t;
    q_ = start.q;
    v_ = start.v;
    errorScales_.start(q_);
    last_.reset(start);
    lastStep_ = 0.0;
    lastIncrementA_.resize(0);
    steps_.start(settings_.ode, settings_.fixedStep);
    return {};
}

Status HhtIndex3Stepper::formIterationMatrix(const State& s, const VecX& lambdaI, const SparseMatrix& jacobian,
                                             double h) {
    const Model& m = *model_;
    VecX lambda = VecX::Zero(m.equationCount());
    for (size_t i = 0; i < rows_.size(); ++i) lambda[rows_[i]] = lambdaI[Eigen::Index(i)];
    Linearization lin;
    linearize(m, s, lambda, lin);
    ++stats_.jacobianEvaluations;
    const SparseColMatrix mHat =
        mass_ + scheme_.velocityWeight(h) * lin.damping + scheme_.positionWeight(h) * lin.stiffness;
    ++stats_.factorizations;
    if (!iterationSolver_.factorize(scaledAugmentedMatrix(mHat, jacobian, rows_, rowScales_, colScales_))) {
        newton_.invalidate();
        return Status::failure("the iteration matrix [M^ Phi_q'; Phi_q 0] is singular at " + at(s.t));
    }
    newton_.factorized(h);
    return {};
}

Status HhtIndex3Stepper::attempt(double h, Trial& trial) {
    const Model& m = *model_;
    const int n = m.velocitySize();
    const int r = static_cast<int>(rows_.size());
    const double t1 = t_ + h;
    const double floor = 8.0 * std::numeric_limits<double>::epsilon() * m.lengthScale;
    // The constraint residual is divided by βh² (not weighted by 1 + α), so that its
    // Jacobian is Φ_q whatever the step: the iteration matrix's constraint rows do not
    // depend on h.
    const double wq = h * h * beta_;
    // The iteration matrix is kept from earlier steps while it serves (ModifiedNewton.h);
    // when it does not, it is formed with the tangent at the step start and the Jacobian at
    // the first iterate.
    const bool formFirst = newton_.needsFactorization(h);
    bool formedThisStep = false;
    double previousCorrection = std::numeric_limits<double>::infinity();
    // The scheme's acceleration variable lags the motion by the step: a_n ≈ a(t_n + αh_n)
    // for the step h_n that produced it (GeneralizedAlpha.h). A step h ≠ h_n needs
    // a(t_n + αh), or every change of step leaves an error α(h − h_n)ȧ in a_n, γh times
    // that in the velocities, and error control changes the step at almost every step. So
    // a_n is moved along its last increment, a_n + α(h − h_n)(a_n − a_{n−1})/h_n.
    VecX aStart = a_;
    if (lastStep_ > 0.0 && lastIncrementA_.size() == a_.size() && h != lastStep_)
        aStart += (alpha_ * (h - lastStep_) / lastStep_) * lastIncrementA_;
    // Unknowns a_{n+1} and μ = (1 + α)λ_{n+1}, predicted by the step start's.
    VecX a = aStart, mu = (1.0 + alpha_) * lambdaI_;
    // One set of constraint values for all iterations: their arrays and the Jacobian's
    // storage are allocated once a step, not at every evaluation.
    ConstraintValues cv;
    for (int it = 0;; ++it) {
        ++stats_.outerIterations;
        const VecX increment = scheme_.positionIncrement(h, v_, aStart, a);
        State s{t1, q_, scheme_.velocity(h, v_, aStart, a)};
        if (!increment.allFinite() || !s.v.allFinite())
            return Status::failure("the Newton iteration of HHT-I3 diverged at " + at(t1));
        retract(m, s.q, increment);
        evaluateConstraints(m, s, cv, kPhi | kJacobian);
        ++stats_.rhsEvaluations;
        // Residuals: the α-weighted equations of motion and the position constraints
        // divided by βh² (so that both have units of accelerations times mass or of
        // accelerations).
        VecX lambdaFull = VecX::Zero(m.equationCount());
        for (int i = 0; i < r; ++i) lambdaFull[rows_[size_t(i)]] = mu[i];
        const VecX e1 = applyMass(m, a) + VecX(cv.jacobian.transpose() * lambdaFull) -
                        (1.0 + alpha_) * generalizedForces(m, s) - alpha_ * force_;
        VecX e2(r);
        double phiNorm = 0.0;
        for (int i = 0; i < r; ++i) {
            const double v = rowScales_[rows_[size_t(i)]] * cv.phi[rows_[size_t(i)]];
            e2[i] = v / wq;
            phiNorm = std::max(phiNorm, std::abs(v));
        }
        if (it == 0 && formFirst) {
            if (Status st = formIterationMatrix(state(), lambdaI_, cv.jacobian, h); !st.ok) return st;
            formedThisStep = true;
        }
        VecX rhs(n + r);
        rhs.head(n) = -colScales_.cwiseProduct(e1);
        rhs.tail(r) = -e2;
        VecX d = iterationSolver_.solveWithoutRefinement(rhs);
        if (!d.allFinite()) return Status::failure("the Newton correction of HHT-I3 is not finite at " + at(t1));
        const auto correctionMeasure = [&](const VecX& dd) {
            double measure = 0.0;
            for (int k = 0; k < n; ++k) {
                // What the iteration leaves in the positions, held to a millionth of the
                // error tolerance: its part in the velocities (γh δa) is not damped and
                // the positions carry it over all later steps, 10³ to 10⁵ of them at
                // rtol 1e-6 to 1e-12, so that a share of 1e-3 made the iteration error, not
                // the scheme's, the global error (Bricard's loop at rtol 1e-9: 7.8e-8 m,
                // 1.5e-8 m with 1e-6; the error then fell 0.33 decades per decade of rtol
                // instead of 0.6). Never below the rounding of the positions (floor), which
                // no iterate can beat at tight tolerances.
                const double tol = settings_.fixedStep
                                       ? 1e-12 * m.lengthScale * colScales_[k]
                                       : std::max(floor, 1e-6 * (settings_.ode.atol +
                                                                 settings_.ode.rtol * errorScales_.current()[k]));
                measure = std::max(measure, wq * std::abs(colScales_[k] * dd[k]) / tol);
            }
            return measure;
        };
        double measure = correctionMeasure(d);
        // Modified Newton that stops gaining: a fresh iteration matrix at the current iterate.
        bool formedHere = false;
        if (it > 0 && measure > 1.0 &&
            (ModifiedNewton::slowed(previousCorrection, measure) || ModifiedNewton::keptTooLong(it, formedThisStep))) {
            if (Status st = formIterationMatrix(s, mu / (1.0 + alpha_), cv.jacobian, h); !st.ok) return st;
            formedThisStep = formedHere = true;
            d = iterationSolver_.solveWithoutRefinement(rhs);
            if (!d.allFinite()) return Status::failure("the Newton correction of HHT-I3 is not finite at " + at(t1));
            measure = correctionMeasure(d);
        }
        // At the rounding floor: Newton with a matrix formed at this very iterate converges
        // quadratically, so a correction that still does not contract is the rounding of the
        // residual, not an iteration error, and the iterate is as good as double precision
        // makes it. Accepted where that correction moves the positions by at most
        // kFloorSlack times the floor: the tolerance above asks for 8εL, which the rounding
        // of Φ and of the solve can miss by a small factor (Andrews' mechanism at rtol 1e-10
        // stalled at 2.2 times it and the step collapsed at t = 1.6e-9 s).
        constexpr double kFloorSlack = 100.0;
        const auto withinFloorSlack = [&]() {
            for (int k = 0; k < n; ++k)
                if (wq * std::abs(colScales_[k] * d[k]) > kFloorSlack * floor) return false;
            return true;
        };
        const bool atFloor = formedHere && measure > 1.0 && ModifiedNewton::slowed(previousCorrection, measure) &&
                             withinFloorSlack();
        previousCorrection = measure;
        const bool closed = phiNorm <= std::max(floor, 1e-12 * m.lengthScale);
        if (it > 0 && (measure <= 1.0 || atFloor) && closed) {
            trial.q = s.q;
            trial.v = s.v;
            trial.a = a;
            trial.lambdaI = mu / (1.0 + alpha_);
            trial.increment = increment;
            if (!settings_.fixedStep) {
                // The corrector less the predictor in the positions (GeneralizedAlpha.h),
                // unfiltered: the index-3 form has no factorisation of [M Φ_Iᵀ; Φ_I 0] at
                // the step's end to split off the part normal to the constraints, and
                // filtering that part too let the drift exceed its bound.
                trial.error = weightedErrorNorm(scheme_.controlledError(h, aStart, a), errorScales_.with(s.q),
                                                settings_.ode.rtol, settings_.ode.atol);
            }
            return {};
        }
        if (it + 1 >= settings_.maxOuterIterations) {
            std::ostringstream o;
            o << "the Newton iteration of HHT-I3 did not converge at " << at(t1) << " with step " << h
              << " s: scaled constraint residual " << phiNorm << " m, correction " << measure
              << " x the tolerance after " << it + 1 << " iterations";
            return Status::failure(o.str());
        }
        for (int k = 0; k < n; ++k) a[k] += colScales_[k] * d[k];
        for (int i = 0; i < r; ++i) mu[i] += rowScales_[rows_[size_t(i)]] * d[n + i];
    }
}

Status HhtIndex3Stepper::step(double tStop) {
    const Model& m = *model_;
    const double remaining = tStop - t_;
    if (!(remaining > 0.0)) return Status::failure("step requested at or past its stop time " + at(tStop));
    double h = steps_.proposed();
    if (!(h > 0.0)) return Status::failure("HHT-I3 needs a positive step (--step)");
    // The independent rows at the step's start, and their multipliers.
    {
        const std::vector<int> before = rows_;
        chooseRows(state());
        if (before != rows_) {
            newton_.invalidate();
            if (Status st = accelerations(state(), a_, lambdaI_); !st.ok) return st;
            ConstraintValues cv;
            evaluateConstraints(m, state(), cv, kJacobian);
            force_ = netForce(state(), cv.jacobian, lambdaI_);
        }
    }
    for (;;) {
        h = steps_.limited(h, remaining);
        Trial trial;
        const Status st = attempt(h, trial);
        if (steps_.accepts(st, trial.error)) {
            last_.begin(t_, q_, v_, trial.increment);
            t_ = (h == remaining) ? tStop : t_ + h;
            q_ = trial.q;
            normalizePositions(m, q_);
            errorScales_.accept(q_);
            v_ = trial.v;
            lastIncrementA_ = trial.a - a_;
            a_ = trial.a;
            lambdaI_ = trial.lambdaI;
            ConstraintValues cv;
            evaluateConstraints(m, state(), cv, kJacobian);
            force_ = netForce(state(), cv.jacobian, lambdaI_);
            lastStep_ = h;
            ++stats_.steps;
            steps_.accepted(h, remaining, trial.error);
            // The next step's rows come from this factorisation, which the run's rank and
            // σ_min watch at this step's end takes too (factorizationAt).
            spaces_.at(m, state());
            return {};
        }
        // A failed trial may have failed on a kept iteration matrix: the next one forms it.
        if (!st.ok) newton_.invalidate();
        if (steps_.fixed()) return st;
        ++stats_.rejectedSteps;
        if (Status failed = steps_.rejected(h, st, trial.error, at(t_)); !failed.ok) return failed;
    }
}

void HhtIndex3Stepper::interpolate(double t, State& out) const { last_.interpolate(*model_, t_, q_, v_, t, out); }

}  // namespace looplab
