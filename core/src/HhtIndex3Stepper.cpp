#include "looplab/HhtIndex3Stepper.h"

#include "looplab/Constraints.h"
#include "looplab/Dynamics.h"
#include "looplab/Linearization.h"
#include "looplab/Mobility.h"
#include "looplab/SingularityMonitor.h"
#include "looplab/State.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

namespace looplab {

namespace {

std::string at(double t) {
    std::ostringstream o;
    o << "t = " << t << " s";
    return o.str();
}

}  // namespace

HhtIndex3Stepper::HhtIndex3Stepper(std::shared_ptr<const Model> model, const TlismniSettings& settings,
                                   std::string integrator)
    : model_(std::move(model)), settings_(settings), integrator_(std::move(integrator)) {
    const Model& m = *model_;
    alpha_ = settings_.effectiveAlpha();
    beta_ = settings_.effectiveBeta();
    gamma_ = settings_.effectiveGamma();
    rowScales_ = equationScales(m);
    colScales_ = coordinateScales(m);
    weightScales_ = m.lengthScale * colScales_;
    mass_ = massMatrix(m);
}

Status HhtIndex3Stepper::chooseRows(const State& s) {
    ConstraintSpaces spaces;
    factorizeConstraints(*model_, s, spaces, settings_.rankTolerance, settings_.linearAlgebra);
    rows_ = spaces.independentEquations();
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
        ConstraintSpaces spaces;
        factorizeConstraints(*model_, s, spaces, settings_.rankTolerance, settings_.linearAlgebra);
        out.multipliers = spaces.solveTransposed(generalizedForces(*model_, s) - applyMass(*model_, out.acceleration));
    }
    rows_ = stepRows;
    return {};
}

Status HhtIndex3Stepper::initialize(const State& start) {
    stats_ = {};
    chooseRows(start);
    if (Status st = accelerations(start, a_, lambdaI_); !st.ok) return st;
    ConstraintValues cv;
    evaluateConstraints(*model_, start, cv, kJacobian);
    force_ = netForce(start, cv.jacobian, lambdaI_);
    t_ = tPrev_ = start.t;
    q_ = qPrev_ = start.q;
    v_ = vPrev_ = start.v;
    increment_ = VecX::Zero(v_.size());
    lastStep_ = 0.0;
    const OdeSettings& o = settings_.ode;
    nextStep_ = o.step > 0.0 ? o.step : std::min(1e-2, 0.05 * std::cbrt(o.rtol));
    if (o.maxStep > 0.0) nextStep_ = std::min(nextStep_, o.maxStep);
    return {};
}

Status HhtIndex3Stepper::attempt(double h, Trial& trial) {
    const Model& m = *model_;
    const int n = m.velocitySize();
    const int r = static_cast<int>(rows_.size());
    const double t1 = t_ + h;
    const double floor = 8.0 * std::numeric_limits<double>::epsilon() * m.lengthScale;
    VecX lambda = VecX::Zero(m.equationCount());
    for (int i = 0; i < r; ++i) lambda[rows_[size_t(i)]] = lambdaI_[i];
    Linearization lin;
    linearize(m, State{t_, q_, v_}, lambda, lin);
    ++stats_.jacobianEvaluations;
    const double wq = h * h * beta_, wv = h * gamma_;
    const SparseColMatrix mHat = mass_ + (1.0 + alpha_) * (wv * lin.damping + wq * lin.stiffness);
    bool factorized = false;
    // Unknowns a_{n+1} and μ = (1 + α)λ_{n+1}, predicted by the step start's.
    VecX a = a_, mu = (1.0 + alpha_) * lambdaI_;
    for (int it = 0;; ++it) {
        ++stats_.outerIterations;
        const VecX increment = h * v_ + h * h * ((0.5 - beta_) * a_ + beta_ * a);
        State s{t1, q_, v_ + h * ((1.0 - gamma_) * a_ + gamma_ * a)};
        if (!increment.allFinite() || !s.v.allFinite())
            return Status::failure("the Newton iteration of HHT-I3 diverged at " + at(t1));
        retract(m, s.q, increment);
        ConstraintValues cv;
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
        if (!factorized) {
            if (!iterationSolver_.factorize(scaledAugmentedMatrix(mHat, cv.jacobian, rows_, rowScales_, colScales_)))
                return Status::failure("the iteration matrix [M^ Phi_q'; Phi_q 0] is singular at " + at(t1));
            factorized = true;
        }
        VecX rhs(n + r);
        rhs.head(n) = -colScales_.cwiseProduct(e1);
        rhs.tail(r) = -e2;
        const VecX d = iterationSolver_.solve(rhs);
        if (!d.allFinite()) return Status::failure("the Newton correction of HHT-I3 is not finite at " + at(t1));
        double measure = 0.0;
        for (int k = 0; k < n; ++k) {
            const double tol = settings_.fixedStep ? 1e-12 * weightScales_[k]
                                                   : 1e-3 * (settings_.ode.atol + settings_.ode.rtol * weightScales_[k]);
            measure = std::max(measure, wq * std::abs(colScales_[k] * d[k]) / tol);
        }
        const bool closed = phiNorm <= std::max(floor, 1e-12 * m.lengthScale);
        if (it > 0 && measure <= 1.0 && closed) {
            trial.q = s.q;
            trial.v = s.v;
            trial.a = a;
            trial.lambdaI = mu / (1.0 + alpha_);
            trial.increment = increment;
            // Corrector minus explicit predictor, in the positions (h²β Δa) and the
            // velocities times h (h²γ Δa), largest over the coordinates (as tlismni).
            const double c = std::max(beta_, gamma_);
            double worst = 0.0;
            for (int k = 0; k < n; ++k) {
                const double e = c * h * h * (a[k] - a_[k]);
                worst = std::max(worst, std::abs(e) / (settings_.ode.atol + settings_.ode.rtol * weightScales_[k]));
            }
            trial.error = worst;
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
    const OdeSettings& o = settings_.ode;
    const double remaining = tStop - t_;
    if (!(remaining > 0.0)) return Status::failure("step requested at or past its stop time " + at(tStop));
    double h = settings_.fixedStep ? o.step : nextStep_;
    if (!(h > 0.0)) return Status::failure("HHT-I3 needs a positive step (--step)");
    // The independent rows at the step's start, and their multipliers.
    {
        const std::vector<int> before = rows_;
        chooseRows(state());
        if (before != rows_) {
            if (Status st = accelerations(state(), a_, lambdaI_); !st.ok) return st;
            ConstraintValues cv;
            evaluateConstraints(m, state(), cv, kJacobian);
            force_ = netForce(state(), cv.jacobian, lambdaI_);
        }
    }
    Status lastFailure;
    for (;;) {
        if (h >= remaining || (!settings_.fixedStep && h > 0.9 * remaining)) h = remaining;
        if (o.maxStep > 0.0) h = std::min(h, o.maxStep);
        Trial trial;
        const Status st = attempt(h, trial);
        if (st.ok && (settings_.fixedStep || trial.error <= 1.0)) {
            tPrev_ = t_;
            qPrev_ = q_;
            vPrev_ = v_;
            increment_ = trial.increment;
            t_ = (h == remaining) ? tStop : t_ + h;
            q_ = trial.q;
            normalizePositions(m, q_);
            v_ = trial.v;
            a_ = trial.a;
            lambdaI_ = trial.lambdaI;
            ConstraintValues cv;
            evaluateConstraints(m, state(), cv, kJacobian);
            force_ = netForce(state(), cv.jacobian, lambdaI_);
            lastStep_ = h;
            ++stats_.steps;
            if (!settings_.fixedStep) {
                const double factor =
                    trial.error > 0.0 ? std::clamp(0.9 * std::pow(trial.error, -1.0 / 3.0), 0.2, 2.0) : 2.0;
                const bool cut = h == remaining && h < nextStep_;
                if (!cut) nextStep_ = h * factor;
            }
            return {};
        }
        if (settings_.fixedStep) return st;
        ++stats_.rejectedSteps;
        lastFailure = st.ok ? Status{} : st;
        h *= st.ok ? std::clamp(0.9 * std::pow(trial.error, -1.0 / 3.0), 0.2, 0.9) : 0.25;
        if (!(h >= o.minStep)) {
            std::ostringstream d;
            d << "step size " << h << " s below the smallest allowed " << o.minStep << " s at " << at(t_);
            if (!lastFailure.ok) d << "; last failure: " << lastFailure.message;
            return Status::failure(d.str(), lastFailure.joints);
        }
    }
}

void HhtIndex3Stepper::interpolate(double t, State& out) const {
    const double h = t_ - tPrev_;
    out.t = t;
    if (!(h > 0.0)) {
        out.q = q_;
        out.v = v_;
        return;
    }
    const double s = std::clamp((t - tPrev_) / h, 0.0, 1.0);
    const double h10 = s * (1 - s) * (1 - s), h01 = s * s * (3 - 2 * s), h11 = s * s * (s - 1);
    const double d10 = (1 - s) * (1 - 3 * s), d01 = 6 * s * (1 - s), d11 = s * (3 * s - 2);
    out.q = qPrev_;
    retract(*model_, out.q, VecX(h10 * h * vPrev_ + h01 * increment_ + h11 * h * v_));
    out.v = d10 * vPrev_ + d01 * increment_ / h + d11 * v_;
}

}  // namespace looplab
