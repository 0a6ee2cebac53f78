#include "looplab/Simulation.h"

#include "looplab/Constraints.h"
#include "looplab/Mobility.h"
#include "looplab/RigidBodyCoordinates.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>

namespace looplab {

namespace {

VecX pack(const State& s) {
    VecX y(s.q.size() + s.v.size());
    y << s.q, s.v;
    return y;
}

State unpack(double t, const VecX& y, int nq) {
    State s;
    s.t = t;
    s.q = y.head(nq);
    s.v = y.tail(y.size() - nq);
    return s;
}

std::vector<std::string> ownersOf(const Model& m, const std::vector<int>& rows) {
    std::vector<std::string> out;
    for (int r : rows) {
        const std::string& o = m.equations[static_cast<size_t>(r)].owner;
        if (std::find(out.begin(), out.end(), o) == out.end()) out.push_back(o);
    }
    return out;
}

// Joints carrying the largest entries of the direction that is closest to dependence.
std::vector<std::string> singularJoints(const Model& m, const ConstraintSpaces& sp) {
    const VecX w = sp.singularDirection();
    std::vector<int> rows;
    const double big = w.size() ? w.cwiseAbs().maxCoeff() : 0.0;
    for (int i = 0; i < w.size(); ++i)
        if (std::abs(w[i]) > 0.2 * big) rows.push_back(i);
    return ownersOf(m, rows);
}

// A failure's message names the joints involved, so that the text alone says where.
std::string naming(const std::string& message, const std::vector<std::string>& joints) {
    if (joints.empty()) return message;
    std::string out = message + " (joint" + (joints.size() > 1 ? "s " : " ");
    for (size_t i = 0; i < joints.size(); ++i) out += (i ? ", " : "") + joints[i];
    return out + ")";
}

}  // namespace

ViolationBound constraintViolationBound(const Model& m, const SimulationSettings& st) {
    ViolationBound b;
    const double L = m.lengthScale;
    b.gross = 1e-2 * L;
    const ConstraintMethodSettings& c = st.constraints;
    // rk4 has no tolerances: it is held to the default ones.
    const OdeSettings defaults;
    const bool fixed = st.integrator == "rk4";
    const double rtol = fixed ? defaults.rtol : st.ode.rtol, atol = fixed ? defaults.atol : st.ode.atol;
    // Drift of the methods that stabilise rather than project: the integrator's local
    // error (rtol·L + atol per unit of scaled position) that the constraint feedback does
    // not remove between steps, with a margin of ten.
    const double integration = 10.0 * (rtol * L + atol);
    if (st.method == "projection") {
        // Every frame is projected to the rounding floor 8ε·L (ProjectionMethod), within
        // eight times that.
        b.warning = 64.0 * std::numeric_limits<double>::epsilon() * L;
    } else if (st.method == "penalty" || st.method == "augmented-lagrangian") {
        // The penalty force λ̃ = α(Φ̈ + 2ξωΦ̇ + ω²Φ) holds a static error Φ̃ ≈ λ̃ / (α ω²)
        // (α = factor × mean scaled mass); the augmented variant iterates it away to its
        // tolerance but is given the same allowance at its own factor. The margin of a
        // hundred covers the transients of the constraint dynamics and the coupling of
        // the equations through M + αΦ_qᵀΦ_q.
        const int n = m.velocitySize();
        const VecX cs = coordinateScales(m);
        double meanMass = 0.0;
        for (int k = 0; k < n; ++k) meanMass += cs[k] * cs[k] * applyMass(m, VecX::Unit(n, k))[k];
        meanMass = n ? meanMass / n : 1.0;
        const double factor = st.method == "penalty" ? c.penaltyFactor : c.augmentedFactor;
        const double w = c.penaltyFrequency;
        b.warning = integration;
        b.perMultiplier = 100.0 / (factor * meanMass * w * w);
    } else {
        b.warning = integration;
    }
    return b;
}

void computeReactions(const Model& model, const State& s, const SparseMatrix& jacobian,
                      const VecX& lambda, const std::vector<bool>& indeterminate,
                      std::vector<JointReaction>& reactions, std::vector<DriverEffort>& drivers) {
    reactions.clear();
    drivers.clear();
    for (const Joint& j : model.joints) {
        JointReaction r;
        r.joint = j.name;
        // The reaction on body 2 is its share of −J_rowsᵀ λ_rows; when body 2 is the ground,
        // the same reaction is minus the share of body 1.
        const bool onFirst = j.frame2.body.value() == 0;
        const BodyIndex onBody = onFirst ? j.frame1.body : j.frame2.body;
        const double sign = onFirst ? 1.0 : -1.0;
        // The generalised force on a rigid body: force (global) and torque (body frame).
        const int c0 = model.velocityOffset(onBody);
        const int width = model.velocitySliceSize(onBody);
        Eigen::Matrix<double, rigid::kVelocitySize, 1> g = Eigen::Matrix<double, rigid::kVelocitySize, 1>::Zero();
        for (int row = j.firstEquation; row < j.firstEquation + j.equationCount; ++row) {
            if (indeterminate.size() > size_t(row) && indeterminate[size_t(row)]) r.indeterminate = true;
            for (SparseMatrix::InnerIterator it(jacobian, row); it; ++it)
                if (it.col() >= c0 && it.col() < c0 + width) g[it.col() - c0] += sign * it.value() * lambda[row];
        }
        const BodyFrame& fr = onFirst ? j.frame1 : j.frame2;
        const Quat A = bodyOrientation(model, s, onBody);
        const Vec3 F = g.head<3>();
        const Vec3 torqueAtCom = A * Vec3(g.tail<3>());
        const Vec3 arm = A * fr.origin;  // centre of mass to joint point
        r.forceGlobal = F;
        r.torqueGlobal = torqueAtCom - arm.cross(F);
        const Mat3 axes1 = bodyOrientation(model, s, j.frame1.body).toRotationMatrix() * j.frame1.axes;
        r.forceJoint = axes1.transpose() * r.forceGlobal;
        r.torqueJoint = axes1.transpose() * r.torqueGlobal;
        reactions.push_back(r);
    }
    for (const Driver& d : model.drivers) drivers.push_back({d.name, -lambda[d.equation]});
}

Simulator::Simulator(std::shared_ptr<const Model> model, SimulationSettings settings)
    : model_(std::move(model)), settings_(std::move(settings)) {
    method_ = makeConstraintMethod(settings_.method, model_, settings_.constraints);
    if (!method_) throw std::invalid_argument("unknown method '" + settings_.method + "'");
    solver_ = makeOdeSolver(settings_.integrator);
    if (!solver_) throw std::invalid_argument("unknown integrator '" + settings_.integrator + "'");
}

Simulator::~Simulator() = default;

bool Simulator::evaluateFrame(State s, SimulationFrame& frame, std::string* error) {
    const Model& m = *model_;
    if (method_->projects()) {
        const MethodStatus st = method_->correct(s);
        if (!st.ok) {
            if (error) *error = st.message;
            return false;
        }
    }
    MotionEvaluation ev;
    const MethodStatus st = method_->evaluate(s, ev);
    if (!st.ok) {
        if (error) *error = st.message;
        return false;
    }
    frame.state = s;
    frame.acceleration = ev.acceleration;
    frame.multipliers = ev.multipliers;
    ConstraintValues cv;
    evaluateConstraints(m, s, cv, kAllParts);
    auto inf = [](const VecX& x) { return x.size() ? x.cwiseAbs().maxCoeff() : 0.0; };
    frame.violation.position = inf(cv.phi);
    frame.violation.positionScaled = inf(equationScales(m).cwiseProduct(cv.phi));
    frame.violation.velocity = inf(cv.jacobian * s.v + cv.phiT);
    frame.violation.acceleration = inf(cv.jacobian * ev.acceleration - cv.gamma);
    frame.energy = mechanicalEnergy(m, s);
    // The projection method has just factorised Φ_q at this very state; others have not.
    ConstraintSpaces own;
    const ConstraintSpaces* known = method_->factorizationAt(s);
    if (!known)
        own.factorize(cv.jacobian, equationScales(m), coordinateScales(m),
                      settings_.constraints.rankTolerance, settings_.constraints.linearAlgebra);
    const ConstraintSpaces& sp = known ? *known : own;
    frame.rank = sp.rank();
    frame.independentEquations = sp.independentEquations();
    frame.smallestSingularValue = sp.smallestSingularValue();
    computeReactions(m, s, cv.jacobian, ev.multipliers, sp.indeterminateEquations(), frame.reactions,
                     frame.drivers);
    return true;
}

SimulationResult Simulator::run(const State& start,
                                const std::function<void(const SimulationFrame&)>& onFrame,
                                const std::function<void(const SimulationEvent&)>& onEvent,
                                const std::atomic<bool>* stop) {
    const Model& m = *model_;
    const auto wall0 = std::chrono::steady_clock::now();
    SimulationResult result;
    const int nq = m.positionSize();
    std::string methodError;
    std::vector<std::string> methodJoints;
    auto emit = [&](SimulationEvent e) {
        if (onEvent) onEvent(e);
        result.events.push_back(std::move(e));
    };
    auto finish = [&](double t) {
        result.tFinal = t;
        result.statistics = solver_->statistics();
        result.wallTime = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
        return result;
    };

    OdeSystem sys;
    sys.size = static_cast<int>(start.q.size() + start.v.size());
    sys.rhs = [&](double t, const VecX& y, VecX& dy) {
        State s = unpack(t, y, nq);
        if (method_->projects()) {
            const MethodStatus st = method_->correct(s);
            if (!st.ok) {
                methodError = st.message;
                methodJoints = st.joints;
                return false;
            }
        } else {
            normalizePositions(m, s.q);
        }
        MotionEvaluation ev;
        ev.computeMultipliers = false;
        const MethodStatus st = method_->evaluate(s, ev);
        if (!st.ok) {
            methodError = st.message;
            methodJoints = st.joints;
            return false;
        }
        dy.resize(y.size());
        dy.head(nq) = positionDerivative(m, s);
        dy.tail(y.size() - nq) = ev.acceleration;
        return true;
    };
    if (method_->projects()) {
        sys.project = [&](double t, VecX& y) {
            State s = unpack(t, y, nq);
            const MethodStatus st = method_->correct(s);
            if (!st.ok) {
                methodError = st.message;
                methodJoints = st.joints;
                return false;
            }
            y << s.q, s.v;
            return true;
        };
    }

    const double t0 = start.t, tEnd = settings_.tEnd, dt = settings_.outputStep;
    long nextOut = 1;
    // The number of regular output times, counted in double: a tiny output step must not
    // overflow the integer (the run would then stop reporting after the first frame).
    const double outputs = dt > 0 ? std::floor((tEnd - t0) / dt * (1 + 1e-12)) : 0.0;
    const double frames =
        outputs + 1.0 + (t0 + outputs * dt < tEnd - 1e-12 * std::max(1.0, std::abs(tEnd)) ? 1.0 : 0.0);
    if (!(outputs >= 0.0) || !(frames <= double(settings_.maxFrames))) {
        std::ostringstream d;
        d << "the output step " << dt << " s over " << (tEnd - t0) << " s gives " << frames
          << " frames, more than the limit of " << settings_.maxFrames;
        result.message = d.str();
        emit({start.t, "failure", {}, result.message});
        result.tFinal = start.t;
        return result;
    }
    const long lastOut = static_cast<long>(outputs);

    // Initial frame and the redundancy known before the first step.
    SimulationFrame frame;
    std::string err;
    if (!evaluateFrame(start, frame, &err)) {
        result.message = naming("cannot evaluate the initial state: " + err, methodJoints);
        emit({start.t, "failure", methodJoints, result.message});
        return finish(start.t);
    }
    ConstraintSpaces sp;
    factorizeConstraints(m, frame.state, sp, settings_.constraints.rankTolerance,
                         settings_.constraints.linearAlgebra);
    if (!sp.redundantEquations().empty()) {
        std::ostringstream d;
        d << sp.redundantEquations().size() << " redundant equation(s):";
        for (int r : sp.redundantEquations())
            d << " " << m.equations[size_t(r)].owner << " (" << m.equations[size_t(r)].component << ")";
        d << "; reactions of the joints involved are statically indeterminate (minimum-norm "
             "multipliers are reported)";
        std::vector<int> rows;
        const auto ind = sp.indeterminateEquations();
        for (size_t i = 0; i < ind.size(); ++i)
            if (ind[i]) rows.push_back(int(i));
        emit({start.t, "redundant_constraints", ownersOf(m, rows), d.str()});
    }
    result.energyInitial = frame.energy.total();
    double lastFrameTime = start.t;
    const ViolationBound bound = constraintViolationBound(m, settings_);
    const VecX rowScales = equationScales(m);
    bool violationWarned = false;
    double maxScaledMultiplier = 0.0;
    // Joints whose equations are violated by more than `limit` [m, scaled] at a frame.
    auto violatedJoints = [&](const SimulationFrame& f, double limit) {
        ConstraintValues cv;
        evaluateConstraints(m, f.state, cv, kPhi);
        std::vector<int> rows;
        for (int i = 0; i < cv.phi.size(); ++i)
            if (!(std::abs(rowScales[i] * cv.phi[i]) <= limit)) rows.push_back(i);
        return ownersOf(m, rows);
    };
    // False when the mechanism has come apart: the run must end.
    auto checkViolation = [&](const SimulationFrame& f) {
        const double v = f.violation.positionScaled;
        if (!(v <= bound.gross)) {
            const std::vector<std::string> joints = violatedJoints(f, bound.gross);
            std::ostringstream d;
            d << "the mechanism has come apart: constraint violation " << v << " m exceeds 1e-2 x the model's length "
              << "scale (" << bound.gross << " m)";
            result.message = naming(d.str(), joints);
            emit({f.state.t, "failure", joints, result.message});
            return false;
        }
        // The constraint dynamics respond to the forces with a lag of about 1/ω: the
        // largest multiplier so far sets the allowance.
        if (f.multipliers.size() == rowScales.size() && f.multipliers.size())
            maxScaledMultiplier =
                std::max(maxScaledMultiplier, f.multipliers.cwiseQuotient(rowScales).cwiseAbs().maxCoeff());
        const double allowed = bound.warning + bound.perMultiplier * maxScaledMultiplier;
        if (!violationWarned && v > allowed) {
            violationWarned = true;
            const std::vector<std::string> joints = violatedJoints(f, allowed);
            std::ostringstream d;
            d << "constraint violation " << v << " m exceeds the bound " << allowed << " m of the " << settings_.method
              << " method at these tolerances (see docs/methods.md); the results are less accurate than asked for";
            emit({f.state.t, "constraint_violation", joints, naming(d.str(), joints)});
        }
        return true;
    };
    auto track = [&](const SimulationFrame& f) {
        lastFrameTime = f.state.t;
        result.maxViolation.position = std::max(result.maxViolation.position, f.violation.position);
        result.maxViolation.velocity = std::max(result.maxViolation.velocity, f.violation.velocity);
        result.maxViolation.acceleration = std::max(result.maxViolation.acceleration, f.violation.acceleration);
        result.energyFinal = f.energy.total();
        result.energyMaxDrift = std::max(result.energyMaxDrift, std::abs(f.energy.total() - result.energyInitial));
    };
    // Joint angles are continued at every accepted step, not only from frame to frame.
    JointCoordinateTracker angles(m);
    frame.jointCoordinates = angles.update(frame.state);
    track(frame);
    onFrame(frame);
    if (!checkViolation(frame)) return finish(start.t);

    const OdeStatus init = solver_->initialize(sys, start.t, pack(frame.state), settings_.ode);
    if (!init.ok) {
        result.message = naming(init.message + (methodError.empty() ? "" : ": " + methodError), methodJoints);
        emit({start.t, "failure", methodJoints, result.message});
        return finish(start.t);
    }

    // Rank and conditioning are followed at every accepted step; events carry the time.
    // The singular threshold is relative to the smallest singular value of the run's
    // regular configurations (the largest σ_min seen so far, at most 1): a long chain of
    // loops has a small σ_min by its size alone (1e-3 for 20 loops), so an absolute
    // threshold would call all of its motion singular, while a fraction of the regular
    // value means the same for a four-bar and for a chain of 400 joints.
    double sigmaRegular = std::min(1.0, sp.smallestSingularValue());
    auto threshold = [&] { return settings_.singularThreshold * sigmaRegular; };
    int lastRank = sp.rank();
    const int nominalRank = sp.rank();
    bool inSingular = false;
    double sigmaMinEpisode = 0.0, tMinEpisode = 0.0, tEnterEpisode = 0.0;
    std::vector<std::string> jointsEpisode;
    auto closeEpisode = [&](double t) {
        inSingular = false;
        std::ostringstream d;
        d << "singular configuration: smallest singular value of the constraint Jacobian "
          << sigmaMinEpisode << " (threshold " << threshold() << ", " << settings_.singularThreshold
          << " of the regular " << sigmaRegular << ") between t = "
          << tEnterEpisode << " and " << t;
        emit({tMinEpisode, "singular_configuration", jointsEpisode, d.str()});
    };
    // A regained rank is named after the joints that lost it: at the regained (regular)
    // configuration no direction singles them out any more.
    std::vector<std::string> jointsLostRank;
    // Within the rank tolerance of a singular configuration a row counts as lost; the
    // episode goes on, measured by the first rejected pivot. The lower bound settles most
    // steps without the inverse iteration (σ is exact only below the threshold).
    auto sigmaOf = [&](const ConstraintSpaces& w) {
        if (w.rank() < nominalRank) return w.firstRejectedPivot();
        const double bound = w.smallestSingularValueLowerBound();
        sigmaRegular = std::max(sigmaRegular, std::min(1.0, bound));
        if (bound >= threshold()) return threshold();
        const double sigma = w.smallestSingularValue();
        sigmaRegular = std::max(sigmaRegular, std::min(1.0, sigma));
        return sigma;
    };
    auto watchFactorized = [&](double t, const ConstraintSpaces& w, double sigma) {
        if (w.rank() != lastRank) {
            const bool lost = w.rank() < lastRank;
            if (lost) jointsLostRank = singularJoints(m, w);
            emit({t, "rank_change", jointsLostRank,
                  "rank " + std::to_string(lastRank) + " -> " + std::to_string(w.rank()) +
                      (lost ? ": a constraint became redundant" : ": a constraint became independent")});
            lastRank = w.rank();
        }
        if (sigma < threshold()) {
            if (!inSingular) {
                inSingular = true;
                tEnterEpisode = t;
                sigmaMinEpisode = std::numeric_limits<double>::infinity();
            }
            if (sigma < sigmaMinEpisode) {
                sigmaMinEpisode = sigma;
                tMinEpisode = t;
                jointsEpisode = singularJoints(m, w);
            }
        } else if (inSingular) {
            closeEpisode(t);
        }
    };
    auto watch = [&](double t, const State& s) {
        ConstraintSpaces w;
        factorizeConstraints(m, s, w, settings_.constraints.rankTolerance,
                             settings_.constraints.linearAlgebra);
        watchFactorized(t, w, sigmaOf(w));
    };
    double sigmaStepStart = sigmaOf(sp);

    auto outputTime = [&](long k) { return k > lastOut ? tEnd : t0 + static_cast<double>(k) * dt; };
    VecX y;
    while (solver_->time() < tEnd) {
        const double tPrev = solver_->time();
        const OdeStatus st = solver_->step(tEnd);
        if (!st.ok) {
            result.message = naming(st.message + (methodError.empty() ? "" : ": " + methodError), methodJoints);
            emit({solver_->time(), "failure", methodJoints, result.message});
            break;
        }
        const double t = solver_->time();
        const State stepEnd = unpack(t, solver_->state(), nq);
        ConstraintSpaces own;
        const ConstraintSpaces* known = method_->factorizationAt(stepEnd);
        if (!known)
            factorizeConstraints(m, stepEnd, own, settings_.constraints.rankTolerance,
                                 settings_.constraints.linearAlgebra);
        const ConstraintSpaces& atStepEnd = known ? *known : own;
        // Sample inside the step only where an event's time is decided there: the entry into
        // an episode (σ_min ≤ the smallest pivot |R_rr|, and with column pivoting rarely far
        // below), its exit, or a smallest σ that may lie inside the step (σ falling, or the
        // episode's smallest so far at the step's start). In a long, shallow episode, as in
        // a large model whose σ_min stays below the threshold, rising stretches are skipped.
        const double sigmaEnd = sigmaOf(atStepEnd);
        const bool sampleInside =
            inSingular ? sigmaEnd >= threshold() || sigmaEnd < sigmaStepStart ||
                             sigmaStepStart <= sigmaMinEpisode
                       : atStepEnd.smallestPivot() < 10.0 * threshold();
        if (sampleInside) {
            for (int k = 1; k < 8; ++k) {
                const double ts = tPrev + (t - tPrev) * k / 8.0;
                solver_->interpolate(ts, y);
                State s = unpack(ts, y, nq);
                normalizePositions(m, s.q);
                watch(ts, s);
            }
        }
        watchFactorized(t, atStepEnd, sigmaEnd);
        sigmaStepStart = sigmaEnd;
        while (nextOut <= lastOut + 1 && outputTime(nextOut) <= t + 1e-12 * std::max(1.0, std::abs(t))) {
            const double to = outputTime(nextOut);
            if (nextOut > lastOut && to <= outputTime(lastOut) + 1e-12) {
                ++nextOut;  // tEnd coincides with the last regular output
                continue;
            }
            solver_->interpolate(to, y);
            if (std::abs(to - t) <= 1e-12 * std::max(1.0, std::abs(t))) y = solver_->state();
            State s = unpack(to, y, nq);
            if (!evaluateFrame(s, frame, &err)) {
                result.message =
                    naming("cannot evaluate the state at t = " + std::to_string(to) + ": " + err, methodJoints);
                emit({to, "failure", methodJoints, result.message});
                return finish(to);
            }
            frame.stepSize = solver_->lastStepSize();
            frame.statistics = solver_->statistics();
            frame.jointCoordinates = angles.peek(frame.state);
            track(frame);
            onFrame(frame);
            if (!checkViolation(frame)) return finish(to);
            ++nextOut;
        }
        {
            State s = stepEnd;
            normalizePositions(m, s.q);
            angles.update(s);
        }
        if (stop && stop->load()) {
            result.message = "stopped";
            return finish(solver_->time());
        }
        if (solver_->time() >= tEnd) break;
        if (settings_.maxSteps > 0 && solver_->statistics().steps >= settings_.maxSteps) {
            std::ostringstream d;
            d << "step limit reached: " << solver_->statistics().steps << " steps taken, t = " << solver_->time()
              << " of " << tEnd << " s";
            result.message = d.str();
            emit({solver_->time(), "failure", {}, result.message});
            break;
        }
        if (settings_.maxWallTime > 0.0) {
            const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
            if (wall > settings_.maxWallTime) {
                std::ostringstream d;
                d << "wall-time limit reached: " << wall << " s (limit " << settings_.maxWallTime
                  << " s) at t = " << solver_->time() << " of " << tEnd << " s";
                result.message = d.str();
                emit({solver_->time(), "failure", {}, result.message});
                break;
            }
        }
    }
    if (inSingular) closeEpisode(solver_->time());
    // A run is ok only if it got to its end: anything short of that is a failure.
    if (result.message.empty() &&
        !(solver_->time() >= tEnd && lastFrameTime >= tEnd - 1e-12 * std::max(1.0, std::abs(tEnd)))) {
        std::ostringstream d;
        d << "the run ended at t = " << solver_->time() << " with its last frame at t = " << lastFrameTime
          << ", before its end time " << tEnd;
        result.message = d.str();
        emit({solver_->time(), "failure", {}, result.message});
    }
    result.ok = result.message.empty();
    return finish(solver_->time());
}

}  // namespace looplab
