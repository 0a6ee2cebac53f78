#include "looplab/simulation/Simulation.h"
#include "looplab/simulation/StepPace.h"

#include "looplab/kinematics/Constraints.h"
#include "looplab/simulation/EnergyMonitor.h"
#include "looplab/simulation/InputPower.h"
#include "looplab/simulation/WorkCounter.h"
#include "looplab/simulation/StopSupervisor.h"
#include "looplab/kinematics/JointCoordinates.h"
#include "looplab/integrate/MethodRegistry.h"
#include "looplab/kinematics/Mobility.h"
#include "looplab/simulation/OutputSchedule.h"
#include "looplab/integrate/SingularityMonitor.h"
#include "looplab/kinematics/FourBarAnalysis.h"

#include <algorithm>
#include <optional>
#include <chrono>
#include <cmath>
#include <sstream>
#include <stdexcept>

namespace looplab {

Simulator::Simulator(std::shared_ptr<const Model> model, SimulationSettings settings)
    : model_(std::move(model)), settings_(std::move(settings)) {
    std::string why;
    OdeSettings ode = settings_.ode;
    ode.outputInterval = settings_.outputStep;
    stepper_ = makeTimeStepper(model_, settings_.method, settings_.integrator, ode, settings_.constraints, &why);
    if (!stepper_) throw std::invalid_argument(why);
}

Simulator::~Simulator() = default;

namespace {

Status evaluateFrameStatus(const Model& m, TimeStepper& stepper, const SimulationSettings& settings, State s,
                           SimulationFrame& frame, bool stepperOnModel = true) {
    MotionEvaluation ev;
    const Status st = stepper.evaluate(s, ev);
    if (!st.ok) return st;
    frame.state = s;
    frame.acceleration = ev.acceleration;
    // A stepper on a copy that holds engaged stops has their multipliers after the model's.
    frame.multipliers = ev.multipliers.head(std::min<Eigen::Index>(ev.multipliers.size(), m.equationCount()));
    ConstraintValues cv;
    evaluateConstraints(m, s, cv, kAllParts);
    auto inf = [](const VecX& x) { return x.size() ? x.cwiseAbs().maxCoeff() : 0.0; };
    frame.violation.position = inf(cv.phi);
    frame.violation.positionScaled = inf(equationScales(m).cwiseProduct(cv.phi));
    frame.violation.velocity = inf(cv.jacobian * s.v + cv.phiT);
    frame.violation.acceleration = inf(cv.jacobian * ev.acceleration - cv.gamma);
    frame.energy = mechanicalEnergy(m, s);
    // A projecting stepper has just factorised Φ_q at this very state; others have not.
    ConstraintSpaces own;
    const ConstraintSpaces* known = stepperOnModel ? stepper.factorizationAt(s) : nullptr;
    if (!known)
        own.factorize(cv.jacobian, equationScales(m), coordinateScales(m), settings.constraints.rankTolerance,
                      settings.constraints.linearAlgebra);
    const ConstraintSpaces& sp = known ? *known : own;
    frame.rank = sp.rank();
    frame.independentEquations = sp.independentEquations();
    frame.smallestSingularValue = sp.smallestSingularValue();
    computeReactions(m, s, cv.jacobian, frame.multipliers, sp.indeterminateEquations(), frame.reactions,
                     frame.drivers);
    frame.couplers = couplerEfforts(m, s, frame.multipliers);
    return {};
}

}  // namespace

bool Simulator::evaluateFrame(State s, SimulationFrame& frame, std::string* error) {
    const Status st = evaluateFrameStatus(*model_, *stepper_, settings_, std::move(s), frame, !stepperReplaced_);
    if (!st.ok && error) *error = namingJoints(st.message, st.joints);
    return st.ok;
}

SimulationResult Simulator::run(const State& start, const std::function<void(const SimulationFrame&)>& onFrame,
                                const std::function<void(const SimulationEvent&)>& onEvent,
                                const std::atomic<bool>* stop) {
    const Model& m = *model_;
    if (stepperReplaced_) {
        OdeSettings ode = settings_.ode;
        ode.outputInterval = settings_.outputStep;
        stepper_ = makeTimeStepper(model_, settings_.method, settings_.integrator, ode, settings_.constraints);
        stepperReplaced_ = false;
    }
    TimeStepper* stepper = stepper_.get();
    // The steps of the steppers an event replaced, and the energy the impacts took.
    StepStatistics carried;
    auto statistics = [&]() {
        StepStatistics st = stepper->statistics();
        st += carried;
        return st;
    };
    double dissipated = 0.0;
    const auto wall0 = std::chrono::steady_clock::now();
    SimulationResult result;
    auto emit = [&](SimulationEvent e) {
        if (onEvent) onEvent(e);
        result.events.push_back(std::move(e));
    };
    auto fail = [&](double t, const std::string& message, const std::vector<std::string>& joints = {}) {
        result.message = namingJoints(message, joints);
        result.joints = joints;
        emit({t, RunEventKind::Failure, joints, result.message});
    };
    // A four-bar driven at a link that cannot turn fully fails in motion where the driver
    // pushes it into a limit; the solver sees only a loop that no longer closes, so the
    // cause comes first, in the mechanism's words, with what to do. The run's own limits
    // (steps, wall time, frames) are not that.
    const std::string limitCause = drivenLinkLimitSentence(m);
    auto failInMotion = [&](double t, const std::string& message, const std::vector<std::string>& joints) {
        fail(t, limitCause.empty() ? message : limitCause + " (the solver: " + message + ")", joints);
    };
    auto finish = [&](double t) {
        result.tFinal = t;
        result.statistics = statistics();
        result.wallTime = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
        result.ok = result.message.empty();
        return result;
    };

    const double tEnd = settings_.tEnd;
    OutputSchedule schedule(start.t, tEnd, settings_.outputStep);
    if (!schedule.fitsWithin(settings_.maxFrames)) {
        std::ostringstream d;
        d << "the output step " << settings_.outputStep << " s over " << (tEnd - start.t) << " s gives "
          << schedule.frameCount() << " frames, more than the limit of " << settings_.maxFrames;
        fail(start.t, d.str());
        result.tFinal = start.t;
        return result;
    }

    // Initial frame and the redundancy known before the first step.
    SimulationFrame frame;
    if (const Status st = evaluateFrameStatus(m, *stepper, settings_, start, frame); !st.ok) {
        fail(start.t, "cannot evaluate the initial state: " + st.message, st.joints);
        return finish(start.t);
    }
    SingularityMonitor singularities(m, settings_.singularThreshold, settings_.constraints.rankTolerance,
                                     settings_.constraints.linearAlgebra, emit);
    {
        ConstraintSpaces sp;
        factorizeConstraints(m, frame.state, sp, settings_.constraints.rankTolerance,
                             settings_.constraints.linearAlgebra);
        singularities.start(frame.state, sp);
    }
    ViolationMonitor violations(m, settings_, emit);
    EnergyMonitor energy(m, settings_, emit);
    result.energyInitial = frame.energy.total();
    double lastFrameTime = start.t;
    // The energy the motion exchanges so far [J], for the work's quadrature: followed at
    // the steps' ends, so that the work does not depend on the output step.
    double exchanged = frame.energy.kinetic;
    // A cam whose contact force turns negative holds on a follower that a real machine
    // would lose there: said once per cam, as it happens (lift-off is not modelled).
    std::vector<bool> liftOffSaid(m.couplers.size(), false);
    auto report = [&](SimulationFrame& f) {
        for (size_t c = 0; c < f.couplers.size() && c < liftOffSaid.size(); ++c) {
            const CouplerEffort& e = f.couplers[c];
            if (!m.couplers[c].cam || liftOffSaid[c] || !(e.contactForce < 0.0)) continue;
            liftOffSaid[c] = true;
            std::ostringstream d;
            d << "cam '" << e.coupler << "': the contact force is " << e.contactForce
              << " N: the cam pulls its follower, which a real one would leave here (lift-off is not modelled; a "
                 "stronger spring, a heavier follower or a slower cam keeps it on)";
            emit({f.state.t, RunEventKind::FollowerLiftOff, {e.coupler}, d.str()});
        }
        lastFrameTime = f.state.t;
        result.maxViolation.position = std::max(result.maxViolation.position, f.violation.position);
        result.maxViolation.velocity = std::max(result.maxViolation.velocity, f.violation.velocity);
        result.maxViolation.acceleration = std::max(result.maxViolation.acceleration, f.violation.acceleration);
        result.energyFinal = f.energy.total();
        result.energyMaxDrift = std::max(result.energyMaxDrift, std::abs(f.energy.total() - result.energyInitial));
        onFrame(f);
        energy.check(f, f.statistics.steps);
        return violations.check(f, &result.message);
    };
    // Joint angles are continued at every accepted step, not only from frame to frame.
    JointCoordinateTracker angles(m);
    frame.jointCoordinates = angles.update(frame.state);
    WorkCounter work(m);
    // A fixed-step integrator is held to the default tolerance, as for the violation bound.
    const IntegratorInfo* integratorInfo = findIntegrator(settings_.integrator);
    const double workTolerance = integratorInfo && integratorInfo->stepControl == StepControl::Fixed
                                     ? OdeSettings{}.rtol
                                     : settings_.ode.rtol;
    if (work.active()) work.start(frame.state.t, inputPower(m, frame.state, frame.multipliers));
    if (!report(frame)) return finish(start.t);

    StopSupervisor stops(model_, settings_, emit);
    if (stops.active())
        if (const Status st = stops.checkStart(frame.state); !st.ok) {
            fail(start.t, st.message, st.joints);
            return finish(start.t);
        }
    if (const Status st = stepper->initialize(frame.state); !st.ok) {
        failInMotion(start.t, st.message, st.joints);
        return finish(start.t);
    }

    State s;
    while (stepper->time() < tEnd) {
        const double tPrev = stepper->time();
        if (const Status st = stepper->step(tEnd); !st.ok) {
            failInMotion(stepper->time(), st.message, st.joints);
            break;
        }
        // A stop event inside the step ends it there: what follows it belongs to the motion
        // after the event.
        std::optional<StopEvent> stopEvent;
        if (stops.active()) stopEvent = stops.firstEvent(*stepper, tPrev);
        const double t = stopEvent ? stopEvent->at.t : stepper->time();
        State stepEnd = stopEvent ? stopEvent->at.state : stepper->state();
        stepEnd.t = t;
        // Rank and conditioning are followed at every accepted step; events carry the time.
        ConstraintSpaces own;
        const ConstraintSpaces* known =
            stopEvent || !stops.steppingIsBase() ? nullptr : stepper->factorizationAt(stepEnd);
        if (!known)
            factorizeConstraints(m, stepEnd, own, settings_.constraints.rankTolerance,
                                 settings_.constraints.linearAlgebra);
        // One normalised copy of the step's end serves the events and the joint angles.
        State endNormalized = stepEnd;
        normalizePositions(m, endNormalized.q);
        singularities.afterStep(*stepper, tPrev, endNormalized, known ? *known : own);
        bool stiff = false;
        for (SimulationEvent& e : stepper->takeEvents()) {
            stiff = stiff || e.kind == RunEventKind::Stiffness;
            // Stopped, the finding is the failure's reason rather than a warning beside it.
            if (e.kind == RunEventKind::Stiffness && settings_.stopWhenStiff) {
                fail(e.t, e.detail);
                continue;
            }
            emit(std::move(e));
        }
        if (stiff && settings_.stopWhenStiff) break;

        if (work.active()) {
            // The input power from the multipliers at the step's end and at times inside it
            // (the stepper's interpolation); where a state cannot be evaluated, the power
            // known before it.
            double lastPower = work.power();
            work.countStep(t, [&](double tau) {
                VecX lambda;
                if (tau == t && !stopEvent && stepper->multipliersAtStepEnd(lambda))
                    return lastPower = inputPower(m, stepEnd, lambda);
                State x;
                if (tau == t) x = stepEnd;
                else stepper->interpolate(tau, x);
                x.t = tau;
                MotionEvaluation ev;
                if (stepper->evaluate(x, ev).ok) lastPower = inputPower(m, x, ev.multipliers);
                return lastPower;
            }, workTolerance, exchanged);
        }
        double to = 0.0;
        while (schedule.due(t, to)) {
            if (std::abs(to - t) <= 1e-12 * std::max(1.0, std::abs(t))) s = stepEnd;
            else stepper->interpolate(to, s);
            s.t = to;
            if (const Status st = evaluateFrameStatus(m, *stepper, settings_, s, frame, stops.steppingIsBase()); !st.ok) {
                failInMotion(to, "cannot evaluate the state at t = " + std::to_string(to) + ": " + st.message, st.joints);
                return finish(to);
            }
            frame.work = work.workAt(to);
            frame.dissipated = dissipated;
            frame.stepSize = stepper->lastStepSize();
            frame.statistics = statistics();
            frame.jointCoordinates = angles.peek(frame.state);
            if (!report(frame)) return finish(to);
            schedule.reported();
        }
        work.endStep();
        if (work.active()) {
            const Energy e = mechanicalEnergy(m, stepEnd);
            exchanged = std::max(exchanged, e.kinetic + std::abs(e.total() - result.energyInitial) + std::abs(work.work()));
        }
        angles.update(endNormalized);
        if (stopEvent) {
            const StepStatistics before = carried;
            carried = statistics();
            State after;
            const Status st = stops.apply(*stopEvent, stepper_, dissipated, after);
            stepper = stepper_.get();
            stepperReplaced_ = true;
            // A stepper that was not replaced (the event failed first) has taken the step
            // that raised the event, so it counts its own steps still.
            if (stepper->statistics().steps > 0) carried = before;
            if (!st.ok) {
                failInMotion(t, st.message, st.joints);
                break;
            }
            if (work.active()) {
                MotionEvaluation ev;
                State x = after;
                work.restart(after.t, stepper->evaluate(x, ev).ok ? inputPower(m, x, ev.multipliers) : work.power());
            }
            State afterNormalized = after;
            normalizePositions(m, afterNormalized.q);
            angles.update(afterNormalized);
        }
        if (stop && stop->load()) {
            result.message = "stopped";
            return finish(stepper->time());
        }
        if (stepper->time() >= tEnd) break;
        if (settings_.maxSteps > 0 && statistics().steps >= settings_.maxSteps) {
            std::ostringstream d;
            d << "step limit reached: " << statistics().steps << " steps taken, t = " << stepper->time()
              << " of " << tEnd << " s";
            fail(stepper->time(), d.str());
            break;
        }
        if (const double needed = stepsNeededBeyondLimit(statistics().steps, stepper->time() - start.t,
                                                         tEnd - start.t, settings_.maxSteps)) {
            std::ostringstream d;
            d << "step limit would be reached: " << statistics().steps << " steps for t = " << start.t
              << " to " << stepper->time() << " of " << tEnd << " s; at that pace the run needs about " << needed
              << " steps, more than twice the limit of " << settings_.maxSteps;
            // An implicit integrator is not held back by stiffness: its steps are as short as
            // the motion the tolerances ask it to follow (a flexible member's ringing), so
            // pointing it to the implicit methods would send the user where they are.
            const IntegratorInfo* integrator = findIntegrator(settings_.integrator);
            if (integrator && integrator->implicit)
                d << " (raise the step limit or shorten the run: the implicit " << settings_.integrator
                  << " is not held back by stiffness but takes the steps the tolerances need to follow the "
                     "motion, such as a flexible member's vibration; looser rtol and atol, or structural "
                     "damping in the model (stiffness_damping), lengthen them)";
            else
                d << " (raise the step limit; if the steps are short because fast, stiff motion holds an "
                     "explicit integrator back, bdf or tlismni/hht step over it)";
            fail(stepper->time(), d.str());
            break;
        }
        if (settings_.maxWallTime > 0.0) {
            const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
            if (wall > settings_.maxWallTime) {
                std::ostringstream d;
                d << "wall-time limit reached: " << wall << " s (limit " << settings_.maxWallTime << " s) at t = "
                  << stepper->time() << " of " << tEnd << " s";
                fail(stepper->time(), d.str());
                break;
            }
        }
    }
    singularities.finish(stepper->time());
    // Steps kept near singular configurations although their estimate exceeded the
    // tolerance: the run may be right (rounding, not truncation, dominated the estimate)
    // but its error after such a passage can exceed what the tolerance asks, so it says so.
    if (const StepStatistics& st = statistics(); st.roundingBoundSteps > 0) {
        std::ostringstream d;
        d << st.roundingBoundSteps << " step(s) near singular configurations were kept with error estimates up to "
          << st.largestRoundingBoundEstimate
          << " times the tolerance: there the estimate measures rounding in the accelerations (which grows as the "
             "configuration nears the singular one), not the step's truncation error, and shorter steps would only "
             "bring the stages nearer to it; the error after such a passage can be larger than the tolerance asks "
             "(docs/methods.md, passing a singular configuration)";
        emit({stepper->time(), RunEventKind::RoundingBoundSteps, {}, d.str()});
    }
    // A run is ok only if it got to its end: anything short of that is a failure.
    if (result.message.empty() &&
        !(stepper->time() >= tEnd && lastFrameTime >= tEnd - 1e-12 * std::max(1.0, std::abs(tEnd)))) {
        std::ostringstream d;
        d << "the run ended at t = " << stepper->time() << " with its last frame at t = " << lastFrameTime
          << ", before its end time " << tEnd;
        fail(stepper->time(), d.str());
    }
    return finish(stepper->time());
}

}  // namespace looplab
