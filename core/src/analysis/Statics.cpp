#include "looplab/analysis/Statics.h"

#include "looplab/analysis/FreeDirections.h"

#include "looplab/kinematics/Assembly.h"
#include "looplab/linalg/AugmentedMatrix.h"
#include "looplab/kinematics/Constraints.h"
#include "looplab/dynamics/Dynamics.h"
#include "looplab/dynamics/Linearization.h"

#include "MessageText.h"

#include <Eigen/Eigenvalues>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>

namespace looplab {

const char* staticsOutcomeName(StaticsOutcome o) {
    switch (o) {
    case StaticsOutcome::Converged: return "converged";
    case StaticsOutcome::Mechanism: return "mechanism";
    case StaticsOutcome::Unstable: return "unstable";
    case StaticsOutcome::NoConvergence: return "no_convergence";
    case StaticsOutcome::AssemblyFailed: return "assembly_failed";
    case StaticsOutcome::Unbalanced: return "unbalanced";
    }
    return "no_convergence";
}

VecX staticNetForce(const Model& model, const State& s, const VecX& lambda) {
    State rest = s;
    rest.v.setZero();
    ConstraintValues cv;
    evaluateConstraints(model, rest, cv, kJacobian);
    VecX f = generalizedForces(model, rest);
    if (lambda.size()) f -= cv.jacobian.transpose() * lambda;
    return f;
}

namespace {

using message::format;

// The elastic forces of the beams and solids at s: Q minus them is what is applied (loads,
// gravity, springs), which stays exact however stiff a mesh is.
VecX elasticForces(const Model& model, const State& s) {
    VecX f = VecX::Zero(model.velocitySize());
    for (const Body& body : model.bodies)
        body.formulation->addElasticForce(s.q.data() + body.slice.positionOffset, f.data() + body.slice.velocityOffset);
    return f;
}

// What the rounding of the positions (ε·L) gives the spring forces: applied forces no
// larger are no load.
double springRounding(const Model& model) {
    double k = 0.0;
    const double L = model.lengthScale;
    for (const ForceElement& e : model.forces) {
        if (e.type == ForceType::SpringDamper) k = std::max(k, std::abs(e.stiffness));
        if (e.type == ForceType::RotationalSpringDamper) k = std::max(k, std::abs(e.stiffness) / (L * L));
    }
    return 10.0 * std::numeric_limits<double>::epsilon() * k * L;
}

// The pieces every method needs at a configuration.
struct Evaluation {
    ConstraintValues cv;
    ConstraintSpaces spaces;
    VecX Q;
};

class Solver {
public:
    Solver(const Model& model, const StaticsOptions& o)
        : model_(model), o_(o), rowScales_(equationScales(model)), colScales_(coordinateScales(model)),
          L_(model.lengthScale), start_(std::chrono::steady_clock::now()) {}

    /// Past StaticsOptions::maxWallTime: *why says so, with what was done. Checked between
    /// iterations and relaxation steps, so one iteration of a very large model may end
    /// past the limit.
    bool outOfTime(const StaticsResult& r, std::string* why) {
        if (!(o_.maxWallTime > 0.0)) return false;
        const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
        if (wall <= o_.maxWallTime) return false;
        timedOut = true;
        *why = format("wall-time limit reached: %.3g s (limit %.3g s)", wall, o_.maxWallTime) + " after " +
               std::to_string(r.newtonIterations) + " Newton iterations and " + std::to_string(r.relaxationSteps) +
               " relaxation steps";
        return true;
    }
    bool timedOut = false;

    void evaluate(const State& s, Evaluation& e) const {
        State rest = s;
        rest.v.setZero();
        evaluateConstraints(model_, rest, e.cv, kPhi | kJacobian);
        e.spaces.factorize(e.cv.jacobian, rowScales_, colScales_, o_.rankTolerance, o_.linearAlgebra);
        e.Q = generalizedForces(model_, rest);
    }
    double forceNorm(const VecX& f) const {
        return f.size() ? colScales_.cwiseProduct(f).cwiseAbs().maxCoeff() : 0.0;
    }
    // The forces that the rounding of the positions alone gives the elastic forces: ε·L
    // displacements times the largest stiffness entry β, with room for the terms a nodal
    // force sums. An unloaded straight steel beam whose nodes are not binary fractions
    // carries about 1e-8 N of them, which no iteration can reduce.
    double roundingForce(double beta) const { return 10.0 * std::numeric_limits<double>::epsilon() * beta * L_; }
    // A residual that no iteration can be expected to reduce: within what the rounding of
    // the positions gives the elastic forces, or within a thousand times the tolerance of
    // the forces present (a small load on a stiff member: 1 mN on the steel cantilever
    // stalls at 8e-8 N).
    bool atRoundingFloor(double fr, double fs, double cr, double beta) const {
        return fr <= std::max(1e3 * o_.forceTolerance * fs, roundingForce(beta)) && cr <= 1e-10 * L_;
    }
    double constraintNorm(const VecX& phi) const {
        return phi.size() ? rowScales_.cwiseProduct(phi).cwiseAbs().maxCoeff() : 0.0;
    }
    double merit(const VecX& f, const VecX& phi, double f0) const {
        const double a = f.size() ? colScales_.cwiseProduct(f).squaredNorm() / (f0 * f0) : 0.0;
        const double b = phi.size() ? rowScales_.cwiseProduct(phi).squaredNorm() / (L_ * L_) : 0.0;
        return 0.5 * (a + b);
    }
    // Largest step factor ≤ 1 that turns no body by more than 0.5 rad nor moves it by
    // more than 0.5 L: far from equilibrium Newton's step may be huge along a soft
    // direction, and the retraction is periodic in the rotations.
    double clamp(const VecX& dq) const {
        double f = 1.0;
        for (const Body& body : model_.bodies)
            f = std::min(f, body.formulation->stepFactor(dq.data() + body.slice.velocityOffset, 0.5, 0.5 * L_));
        return f;
    }

    // Newton in (q, λ). Returns true when the force and constraint residuals meet the
    // tolerance; *why says otherwise. With `unloaded`, forces at the start no larger than
    // their rounding (roundingForce, from the first tangent's β) are no load: the start is
    // the equilibrium, *unloaded is set, and no step is taken (Newton would only stall on
    // that rounding).
    bool newton(State& s, VecX& lambda, double f0, StaticsResult& r, std::string* why, bool* unloaded = nullptr) {
        Evaluation e;
        double progressMark = std::numeric_limits<double>::infinity();
        int sinceProgress = 0;
        for (int it = 0;; ++it) {
            evaluate(s, e);
            if (lambda.size() != model_.equationCount()) lambda = e.spaces.solveTransposed(e.Q);
            VecX F = e.Q - e.cv.jacobian.transpose() * lambda;
            const double fr = forceNorm(F), cr = constraintNorm(e.cv.phi);
            r.history.push_back(fr / f0);
            // The residual is a difference of the forces present, rounded to ε of the
            // largest: the internal forces of a deformed flexible body (a clamped mesh's
            // nodal forces are ~100 times the load on it) can put that floor above
            // tolerance × the applied forces, so the tolerance is taken of the larger.
            const double fs = std::max(f0, forceNorm(e.Q));
            if (fr <= o_.forceTolerance * fs && cr <= 1e-12 * L_) return true;
            if (outOfTime(r, why)) return false;
            if (it >= o_.maxNewtonIterations) {
                *why = "Newton's method did not converge in " + std::to_string(it) +
                       " iterations" + format(" (force residual %.3g of the applied forces)", fr / f0);
                return false;
            }
            Linearization lin;
            State rest = s;
            rest.v.setZero();
            linearize(model_, rest, lambda, lin);
            const std::vector<int>& rows = e.spaces.independentEquations();
            const double beta = std::max(largestAbsEntry(lin.stiffness), std::numeric_limits<double>::min());
            if (it == 0) startStiffness = beta;
            if (unloaded && it == 0 && forceNorm(e.Q) <= roundingForce(beta)) {
                *unloaded = true;
                return true;
            }
            // Converging, Newton at least halves the residual at every iteration. Three
            // iterations without a halving, at a residual that the rounding of the
            // positions explains, are the end: the line search still finds decreases
            // there, but they are the noise of the residual's own rounding, and which
            // noise depends on the BLAS kernels the CPU runs (the refined beam four-bar
            // stalled at 1.2e-8 of its forces on one kernel, under 1e-10 on another).
            if (fr < 0.5 * progressMark) {
                progressMark = fr;
                sinceProgress = 0;
            } else if (++sinceProgress >= 3 && atRoundingFloor(fr, fs, cr, beta)) {
                r.convergedToRounding = true;
                return true;
            }
            const SparseColMatrix S =
                holdFreeDirections(augmentedMatrix(lin.stiffness, e.cv.jacobian, rows, beta), model_, free_, beta);
            SparseLUFactorization lu;
            const int n = model_.velocitySize(), m = static_cast<int>(rows.size());
            if (!lu.factorize(S)) {
                *why = "the tangent stiffness is singular: a direction of the mechanism has no stiffness "
                       "(it can move without changing its potential energy), so its equilibrium is not isolated";
                return false;
            }
            VecX rhs = VecX::Zero(S.rows());  // the held free directions: δq M-orthogonal to them
            rhs.head(n) = F;
            for (int k = 0; k < m; ++k) rhs[n + k] = -beta * e.cv.phi[rows[static_cast<size_t>(k)]];
            const VecX sol = lu.solve(rhs);
            if (!sol.allFinite()) {
                *why = "the Newton step is not finite: the tangent stiffness is singular";
                return false;
            }
            const VecX dq = sol.head(n);
            VecX dlambda = VecX::Zero(model_.equationCount());
            for (int k = 0; k < m; ++k) dlambda[rows[static_cast<size_t>(k)]] = beta * sol[n + k];
            // Backtracking on the merit; Newton's direction is a descent direction of any
            // weighted sum of squares of the residuals (its slope is −2·merit).
            const double m0 = merit(F, e.cv.phi, f0);
            double alpha = clamp(dq);
            bool accepted = false;
            State trial = s;
            Evaluation et;
            for (int k = 0; k < 40; ++k, alpha *= 0.5) {
                trial.q = s.q;
                retract(model_, trial.q, alpha * dq);
                const VecX lt = lambda + alpha * dlambda;
                State rest2 = trial;
                rest2.v.setZero();
                evaluateConstraints(model_, rest2, et.cv, kPhi | kJacobian);
                const VecX Ft = generalizedForces(model_, rest2) - et.cv.jacobian.transpose() * lt;
                const double mt = merit(Ft, et.cv.phi, f0);
                if (std::isfinite(mt) && mt <= (1.0 - 1e-4 * alpha) * m0) {
                    s.q = trial.q;
                    lambda = lt;
                    accepted = true;
                    break;
                }
            }
            r.newtonIterations++;
            if (!accepted) {
                // At the rounding floor the merit cannot decrease further.
                if (atRoundingFloor(fr, fs, cr, beta)) {
                    r.convergedToRounding = true;
                    return true;
                }
                *why = "Newton's line search found no decrease" +
                       format(" (force residual %.3g of the applied forces, constraint residual %.3g m)",
                              fr / f0, cr);
                return false;
            }
            normalizePositions(model_, s.q);
        }
    }

    // Dynamic relaxation: pseudo-dynamics M a = F projected on the tangent space, explicit
    // steps, kinetic damping (velocities zeroed whenever the kinetic energy passes a
    // maximum), positions re-assembled after each step. Stops when the force residual is
    // below `target`·f0.
    bool relax(State& s, double f0, double target, StaticsResult& r, std::string* why) {
        AssemblyOptions ao;
        ao.tolerance = 1e-12;
        ao.rankTolerance = o_.rankTolerance;
        ao.linearAlgebra = o_.linearAlgebra;
        Evaluation e;
        evaluate(s, e);
        VecX lambda = e.spaces.solveTransposed(e.Q);
        // Step from a Gershgorin bound of the largest ω² of M⁻¹K (M's diagonal): the
        // explicit update is stable below 2/ω_max.
        Linearization lin;
        State rest = s;
        rest.v.setZero();
        linearize(model_, rest, lambda, lin);
        const MatX Kd = MatX(lin.stiffness);
        double rho = 0.0;
        for (int i = 0; i < Kd.rows(); ++i) {
            const double mii = lin.mass.coeff(i, i);
            if (mii > 0) rho = std::max(rho, Kd.row(i).cwiseAbs().sum() / mii);
        }
        double h = rho > 0 ? 1.0 / std::sqrt(rho) : 1e-3;
        VecX v = VecX::Zero(model_.velocitySize());
        double keLast = 0.0;
        for (int step = 0; step < o_.maxRelaxationSteps; ++step) {
            evaluate(s, e);
            lambda = e.spaces.solveTransposed(e.Q);
            const VecX F = e.Q - e.cv.jacobian.transpose() * lambda;
            const double fr = forceNorm(F);
            if (fr <= target * f0) return true;
            if (outOfTime(r, why)) return false;
            VecX a = applyInverseMass(model_, F);
            a -= e.spaces.solveMinimumNorm(e.cv.jacobian * a);
            v += h * a;
            v -= e.spaces.solveMinimumNorm(e.cv.jacobian * v);
            const double ke = 0.5 * v.dot(applyMass(model_, v));
            if (ke < keLast) {
                v.setZero();
                keLast = 0.0;
            } else {
                keLast = ke;
            }
            retract(model_, s.q, h * v);
            const AssemblyResult ar = assemble(model_, s, ao);
            r.relaxationSteps++;
            if (!ar.ok) {
                *why = "dynamic relaxation lost the assembly: " + ar.message;
                return false;
            }
        }
        evaluate(s, e);
        lambda = e.spaces.solveTransposed(e.Q);
        *why = "dynamic relaxation did not converge in " + std::to_string(o_.maxRelaxationSteps) + " steps" +
               format(" (force residual %.3g of the applied forces)",
                      forceNorm(e.Q - e.cv.jacobian.transpose() * lambda) / f0);
        return false;
    }

    // Relaxation to 1e-6 f0, then Newton to the tolerance; where Newton fails from there
    // (a direction without stiffness makes its matrix singular), relaxation goes on alone.
    bool relaxThenPolish(State& s, double f0, StaticsResult& r, std::string* why) {
        if (!relax(s, f0, std::max(1e-6, o_.forceTolerance), r, why)) return false;
        const State relaxed = s;
        VecX lambda;
        if (newton(s, lambda, f0, r, why)) return true;
        s = relaxed;
        return relax(s, f0, o_.forceTolerance, r, why);
    }

    /// max|K_ij| of Newton's first tangent (0 before Newton ran).
    double startStiffness = 0.0;
    void holdFree(const FreeDirections& free) { free_ = free; }

private:
    const Model& model_;
    const StaticsOptions& o_;
    FreeDirections free_;
    VecX rowScales_, colScales_;
    double L_;
    std::chrono::steady_clock::time_point start_;
};

}  // namespace

namespace {

// The projected ω² without the free directions' zeros (the free.count() of smallest
// magnitude), ascending.
VecX withoutFreeDirections(const VecX& squaredFrequencies, int freeCount) {
    std::vector<double> w(squaredFrequencies.data(), squaredFrequencies.data() + squaredFrequencies.size());
    std::sort(w.begin(), w.end(), [](double a, double b) { return std::abs(a) < std::abs(b); });
    w.erase(w.begin(), w.begin() + std::min<std::ptrdiff_t>(freeCount, static_cast<std::ptrdiff_t>(w.size())));
    std::sort(w.begin(), w.end());
    return Eigen::Map<const VecX>(w.data(), static_cast<Eigen::Index>(w.size()));
}

// Final residuals with the minimum-norm multipliers on an assembled configuration, and the
// classification of the equilibrium (stable, mechanism, unstable).
void finish(const Model& model, State& state, const StaticsOptions& o, const AssemblyOptions& ao, bool converged,
            std::string why, const FreeDirections& free, StaticsResult& r) {
    Solver solver(model, o);
    Evaluation e;
    assemble(model, state, ao);
    solver.evaluate(state, e);
    r.lambda = e.spaces.solveTransposed(e.Q);
    r.forceResidual = solver.forceNorm(e.Q - e.cv.jacobian.transpose() * r.lambda);
    r.constraintResidual = solver.constraintNorm(e.cv.phi);
    r.rank = e.spaces.rank();
    r.degreesOfFreedom = e.spaces.degreesOfFreedom();
    r.freeDirections = free.count();
    // Whatever the search said, an equilibrium is one only if the net force is small against
    // the loads: otherwise the reactions miss part of them (the clamp of a mesh too stiff
    // for its load would carry only its own node's share).
    const bool finite = std::isfinite(r.forceResidual) && std::isfinite(r.constraintResidual) && state.q.allFinite();
    const bool balanced = r.loadScale > 0.0 ? r.forceResidual <= o.loadResidualTolerance * r.loadScale : finite;
    if (converged && !balanced) {
        converged = false;
        why = !finite ? std::string("the equilibrium search ended on numbers that are not finite")
                      : format("the force residual %.3g N is %.3g", r.forceResidual, r.forceResidual / r.loadScale) +
                            format(" of the applied loads (%.3g N), above the %g accepted", r.loadScale,
                                   o.loadResidualTolerance);
    }
    // Say when double precision is the reason: the rounding of the positions (ε·L) times
    // the largest stiffness is a force that no search can reduce.
    if (!converged && r.loadScale > 0.0 && finite) {
        Linearization lin;
        linearize(model, state, r.lambda, lin);
        const double beta = largestAbsEntry(lin.stiffness), floor = solver.roundingForce(beta);
        if (floor > o.loadResidualTolerance * r.loadScale)
            why += format(": the elastic forces of this model are resolved only to about %.3g N in double precision "
                          "(the rounding of the positions times its largest stiffness, %.3g N/m)",
                          floor, beta) +
                   format(", against applied loads of %.3g N: loads this small against its stiffness cannot be "
                          "balanced; make the material less stiff or the loads larger",
                          r.loadScale);
    }
    if (!converged) {
        r.outcome = StaticsOutcome::NoConvergence;
        r.message = why;
        return;
    }
    r.outcome = StaticsOutcome::Converged;
    if (o.checkStability && r.degreesOfFreedom > free.count()) {
        Linearization lin;
        linearize(model, state, r.lambda, lin);
        if (model.velocitySize() <= o.denseStabilityLimit) {
            const MatX T = coordinateScales(model).asDiagonal() * e.spaces.tangentBasis();
            MatX Kp = T.transpose() * MatX(lin.stiffness) * T;
            // Symmetric at an equilibrium of conservative loads (methods.md, "Linearisation").
            Kp = 0.5 * (Kp + Kp.transpose()).eval();
            const MatX Mp = T.transpose() * MatX(lin.mass) * T;
            Eigen::GeneralizedSelfAdjointEigenSolver<MatX> eig(Kp, Mp);
            r.squaredFrequencies = eig.eigenvalues();
            const VecX held = withoutFreeDirections(r.squaredFrequencies, free.count());
            const double largest = held.cwiseAbs().maxCoeff();
            const double lowest = held.minCoeff();
            const double zero = o.zeroStiffnessTolerance * largest;
            if (largest == 0.0 || std::abs(lowest) <= zero) {
                r.outcome = StaticsOutcome::Mechanism;
                r.message = "equilibrium found, but a direction of the mechanism has no stiffness"
                            + format(" (lowest omega^2 = %.3g rad^2/s^2)", lowest) +
                            ": the equilibrium is neutral, not isolated";
            } else if (lowest < 0) {
                r.outcome = StaticsOutcome::Unstable;
                r.message = "equilibrium found, but it is unstable" +
                            format(" (omega^2 = %.6g rad^2/s^2 < 0 in %g direction(s))", lowest,
                                   double((held.array() < -zero).count()));
            }
        } else {
            // sign det [K βBᵀ; βB 0] = (−1)^r sign det(TᵀKT): an odd number of negative
            // stiffness directions shows as a negative sign (an even number does not).
            const std::vector<int>& rows = e.spaces.independentEquations();
            const double beta = std::max(largestAbsEntry(lin.stiffness), std::numeric_limits<double>::min());
            SparseLUFactorization lu;
            if (!lu.factorize(
                    holdFreeDirections(augmentedMatrix(lin.stiffness, e.cv.jacobian, rows, beta), model, free, beta))) {
                r.outcome = StaticsOutcome::Mechanism;
                r.message = "equilibrium found, but the tangent stiffness is singular: a direction of the "
                            "mechanism has no stiffness";
            } else if (lu.signDeterminant() * (((rows.size() + static_cast<size_t>(free.count())) % 2) ? -1 : 1) < 0) {
                r.outcome = StaticsOutcome::Unstable;
                r.message = "equilibrium found, but it is unstable (the tangent stiffness has a negative "
                            "determinant)";
            }
        }
    }
    r.ok = r.outcome == StaticsOutcome::Converged;
}

}  // namespace

namespace {

// Why the loads Q have no equilibrium (a resultant along a free direction), empty if they
// are balanced.
std::string unbalancedLoad(const FreeDirections& free, const VecX& Q) {
    const VecX along = relativeResultants(free, Q);
    Eigen::Index worst = 0;
    if (!(along.maxCoeff(&worst) > kUnbalancedLoad)) return {};
    std::string bodies;
    for (const std::string& b : free.structures[static_cast<size_t>(free.structureOf[static_cast<size_t>(worst)])])
        bodies += (bodies.empty() ? "'" : ", '") + b + "'";
    return "the loads have a resultant along a free direction of the structure " + bodies +
           " (a rigid-body motion that no joint and no stiffness holds; " + std::to_string(free.count()) +
           " free direction(s) in the model), so no static equilibrium exists: hold it with a joint or balance "
           "its loads";
}

}  // namespace

StaticsResult findEquilibrium(const Model& model, State& state, const StaticsOptions& o) {
    StaticsResult r;
    state.v.setZero();
    AssemblyOptions ao;
    ao.tolerance = 1e-12;
    ao.rankTolerance = o.rankTolerance;
    ao.linearAlgebra = o.linearAlgebra;
    const AssemblyResult ar = assemble(model, state, ao);
    if (!ar.ok) {
        r.outcome = StaticsOutcome::AssemblyFailed;
        r.message = "the constraints cannot be closed: " + ar.message;
        return r;
    }
    Solver solver(model, o);
    Evaluation e;
    solver.evaluate(state, e);
    r.forceScale = solver.forceNorm(e.Q);
    r.loadScale = solver.forceNorm(e.Q - elasticForces(model, state));
    // No load but what the rounding of spring forces gives: the start may be taken as the
    // equilibrium if the elastic forces there are rounding too (Solver::newton).
    const bool noLoad = !(r.loadScale > springRounding(model));
    // No applied force at all: every assembled configuration is in equilibrium; keep a
    // positive scale so that the tests below stay meaningful.
    const double f0 = r.forceScale > 0 ? r.forceScale : 1.0;
    const FreeDirections free = findFreeDirections(model, state, e.spaces.solveTransposed(e.Q));
    if (free.count() > 0) {
        const std::string why = unbalancedLoad(free, e.Q);
        if (!why.empty()) {
            finish(model, state, o, ao, false, why, free, r);
            r.outcome = StaticsOutcome::Unbalanced;
            return r;
        }
        solver.holdFree(free);
    }

    bool converged = false;
    std::string why;
    VecX lambda;
    const State start = state;
    if (o.method == StaticsMethod::Newton || o.method == StaticsMethod::Automatic) {
        r.method = "newton";
        bool unloaded = false;
        converged = solver.newton(state, lambda, f0, r, &why, noLoad ? &unloaded : nullptr);
        if (unloaded) r.method = "none (no load)";
        // Relaxation cannot go below the rounding of the elastic forces either: where that
        // bound (pessimistic by one to two orders) is above a tenth of the loads, 100 times
        // the residual accepted, the fallback would spend its whole budget for nothing.
        const bool hopeless = r.loadScale > 0.0 && solver.roundingForce(solver.startStiffness) >
                                                       100.0 * o.loadResidualTolerance * r.loadScale;
        if (!converged && o.method == StaticsMethod::Automatic && !hopeless && !solver.timedOut) {
            // Newton can stall or meet a singular tangent far from the solution; start
            // again from the initial configuration with relaxation, and polish.
            const std::string newtonWhy = why;
            state = start;
            r.method = "relaxation+newton";
            converged = solver.relaxThenPolish(state, f0, r, &why);
            if (!converged) why = newtonWhy + "; then " + why;
        }
    } else {
        r.method = "relaxation";
        converged = solver.relax(state, f0, o.forceTolerance, r, &why);
    }
    finish(model, state, o, ao, converged, why, free, r);
    // Newton goes to the nearest stationary point, which may be a maximum or a saddle of
    // the potential energy; relaxation only goes downhill. In automatic mode an unstable
    // equilibrium found by Newton is therefore tried again from the start by relaxation.
    if (o.method == StaticsMethod::Automatic && r.outcome == StaticsOutcome::Unstable && r.relaxationSteps == 0 &&
        !solver.timedOut) {
        State again = start;
        StaticsResult second;
        second.forceScale = r.forceScale;
        second.loadScale = r.loadScale;
        second.newtonIterations = r.newtonIterations;
        second.history = r.history;
        second.method = "relaxation+newton";
        if (solver.relaxThenPolish(again, f0, second, &why)) {
            finish(model, again, o, ao, true, why, free, second);
            if (second.outcome != StaticsOutcome::Unstable && second.outcome != StaticsOutcome::NoConvergence) {
                state = again;
                r = second;
            }
        }
    }
    r.ok = r.outcome == StaticsOutcome::Converged;
    return r;
}

}  // namespace looplab
