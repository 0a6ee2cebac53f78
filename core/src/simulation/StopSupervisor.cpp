#include "looplab/simulation/StopSupervisor.h"

#include "looplab/dynamics/ImpactImpulse.h"
#include "looplab/integrate/MethodRegistry.h"
#include "looplab/kinematics/StopGaps.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace looplab {

namespace {

const char* sideName(StopSide side) { return side == StopSide::Lower ? "lower" : "upper"; }

// How a stop's bound is named to a user: a joint's lower limit, a rope's max distance.
std::string boundName(const Stop& stop, StopSide side) {
    if (stop.kind == Stop::Kind::JointLimit)
        return "joint '" + stop.name + "' at its " + sideName(side) + " limit";
    return "stop '" + stop.name + "' at its " + (side == StopSide::Lower ? "min" : "max") + " distance";
}

// A limit of a joint's angle: its gap is in rad and its rate in rad/s, which compare with
// the other stops' metres once multiplied by the model's length scale.
bool angular(const Stop& stop) { return stop.kind == Stop::Kind::JointLimit && stop.angular; }

State normalized(const Model& m, State x) {
    normalizePositions(m, x.q);
    return x;
}

// The force scale [N] under which an engaged stop's contact force is rounding: the model's
// weight (with |g| at least 1 m/s²), times L for a torque.
double forceScale(const Model& m, const Stop& stop) {
    double mass = 0.0;
    for (const Body& b : m.bodies) mass += b.formulation->totalMass();
    const double f = mass * std::max(m.gravity.norm(), 1.0);
    return angular(stop) ? f * m.lengthScale : f;
}

}  // namespace

double plasticImpactSpeed(const Model& model, const Stop& stop) {
    const double L = model.lengthScale;
    const double g = model.gravity.norm();
    const double v = 1e-3 * (g > 0.0 ? std::sqrt(g * L) : L);
    return angular(stop) ? v / L : v;
}

double touchingGap(const Model& model, const Stop& stop) {
    return angular(stop) ? 1e-9 : 1e-9 * model.lengthScale;
}

std::shared_ptr<const Model> StopSupervisor::modelHolding(const std::vector<Bound>& engaged) const {
    if (engaged.empty()) return base_;
    auto copy = std::make_shared<Model>(*base_);
    for (const Bound& b : engaged) {
        const Stop& stop = base_->stops[static_cast<size_t>(b.stop)];
        copy->engagedStops.push_back({b.stop, b.side, copy->equationCount()});
        copy->equations.push_back({stop.name, std::string(sideName(b.side)) + " stop", angular(stop)});
    }
    return copy;
}

StopSupervisor::StopSupervisor(std::shared_ptr<const Model> model, const SimulationSettings& settings, EventSink emit)
    : base_(std::move(model)), stepping_(base_), settings_(settings), emit_(std::move(emit)) {
    for (size_t k = 0; k < base_->stops.size(); ++k)
        for (StopSide side : {StopSide::Lower, StopSide::Upper})
            if (stopHasSide(base_->stops[k], side)) bounds_.push_back({static_cast<int>(k), side});
}

bool StopSupervisor::engaged(int stop, StopSide side) const {
    return std::any_of(engaged_.begin(), engaged_.end(),
                       [&](const Bound& b) { return b.stop == stop && b.side == side; });
}

Status StopSupervisor::checkStart(const State& start) const {
    const State x = normalized(*base_, start);
    for (const Bound& b : bounds_) {
        const Stop& stop = base_->stops[static_cast<size_t>(b.stop)];
        const double g = stopGap(*base_, stop, b.side, x, false).value;
        if (g < -touchingGap(*base_, stop)) {
            std::ostringstream d;
            d << boundName(stop, b.side) << ": the start is " << -g << (angular(stop) ? " rad" : " m")
              << " beyond it; start the mechanism within its limits and stops";
            return Status::failure(d.str(), {stop.name});
        }
    }
    return {};
}

std::optional<StopEvent> StopSupervisor::firstEvent(TimeStepper& stepper, double t0) {
    std::optional<StopEvent> first;
    const Model& m = *base_;
    const State end = normalized(m, stepper.state());
    auto consider = [&](const Bound& b, bool release, const SwitchingFunction& f) {
        std::optional<LocatedEvent> at = locateFirstCrossing(stepper, t0, stepper.time(), f);
        if (at && (!first || at->t < first->at.t)) first = StopEvent{*at, b.stop, b.side, release};
    };
    for (const Bound& b : bounds_) {
        if (engaged(b.stop, b.side)) continue;
        const Stop& stop = m.stops[static_cast<size_t>(b.stop)];
        if (!(stopGap(m, stop, b.side, end, false).value < -touchingGap(m, stop))) continue;
        // A gap that starts the step touching (closed to rounding, within the touching
        // depth) is measured from a little below where it starts, so that the event is
        // where it closes further, not at the step's start again.
        State start;
        stepper.interpolate(t0, start);
        start.t = t0;
        const double g0 = stopGap(m, stop, b.side, normalized(m, start), false).value;
        const double from = g0 > 0.0 ? 0.0 : g0 - 1e-3 * touchingGap(m, stop);
        consider(b, false, [&m, &stop, side = b.side, from](State& x) {
            return stopGap(m, stop, side, normalized(m, x), false).value - from;
        });
    }
    if (engaged_.empty()) return first;
    // An engaged stop's contact force N = −λ of its row (the constraint force is −Φ_qᵀλ,
    // and its row is the gap g): positive while it pushes the gap open.
    const int firstRow = firstStopEquation();
    VecX lambda;
    State atEnd = stepper.state();
    MotionEvaluation ev;
    if (!stepper.multipliersAtStepEnd(lambda)) {
        if (!stepper.evaluate(atEnd, ev).ok) return first;
        lambda = ev.multipliers;
    }
    for (size_t k = 0; k < engaged_.size(); ++k) {
        const Bound& b = engaged_[k];
        const Stop& stop = m.stops[static_cast<size_t>(b.stop)];
        const int row = firstRow + static_cast<int>(k);
        if (!(-lambda[row] < -1e-12 * forceScale(m, stop))) continue;
        consider(b, true, [&stepper, row](State& x) {
            MotionEvaluation e;
            if (!stepper.evaluate(x, e).ok) return std::nan("");
            return -e.multipliers[row];
        });
    }
    return first;
}

Status StopSupervisor::rebuild(std::unique_ptr<TimeStepper>& stepper) {
    stepping_ = modelHolding(engaged_);
    OdeSettings ode = settings_.ode;
    ode.outputInterval = settings_.outputStep;
    std::string why;
    std::unique_ptr<TimeStepper> made =
        makeTimeStepper(stepping_, settings_.method, settings_.integrator, ode, settings_.constraints, &why);
    if (!made) return Status::failure(why);
    stepper = std::move(made);
    return {};
}

Status StopSupervisor::strike(int index, StopSide side, State& x, double& dissipated, bool& engage) {
    const Model& m = *base_;
    const Stop& stop = m.stops[static_cast<size_t>(index)];
    const StopGap gap = stopGap(m, stop, side, normalized(m, x));
    const double approach = -gap.rate;
    engage = false;
    // A gap that closed only to rounding and opens again needs no impulse.
    if (!(approach > 0.0)) return {};
    const double vc = plasticImpactSpeed(m, stop);
    strikeSpeed_ = approach * (angular(stop) ? m.lengthScale : 1.0);
    engage = stop.restitution == 0.0 || approach < vc;
    const double target = engage ? 0.0 : stop.restitution * approach;
    const ImpactImpulse imp = impactImpulse(*stepping_, normalized(m, x), gap.gradient, target);
    if (!imp.ok) return Status::failure(boundName(stop, side) + ": " + imp.message, {stop.name});
    x.v = imp.velocity;
    dissipated += imp.energyLoss;
    const bool angle = angular(stop);
    std::ostringstream d;
    d.precision(6);
    d << boundName(stop, side) << ": approach speed " << approach << (angle ? " rad/s" : " m/s") << ", restitution "
      << stop.restitution << (engage && stop.restitution > 0.0 ? " (plastic below " : "");
    if (engage && stop.restitution > 0.0) d << vc << (angle ? " rad/s)" : " m/s)");
    d << ", impulse " << imp.impulse << (angle ? " N·m·s" : " N·s") << ", kinetic energy lost " << imp.energyLoss
      << " J, loops closed to " << imp.closureRate << " in velocity";
    emit_({x.t, RunEventKind::Impact, {stop.name}, d.str()});
    if (engage) {
        engaged_.push_back({index, side});
        std::ostringstream e;
        e << boundName(stop, side) << ": held as a constraint while it pushes ("
          << (stop.restitution == 0.0 ? "restitution 0" : "an approach slower than the plastic-impact speed") << ")";
        emit_({x.t, RunEventKind::StopEngaged, {stop.name}, e.str()});
        // The next impact at this event holds this stop too.
        stepping_ = modelHolding(engaged_);
    }
    return {};
}

Status StopSupervisor::apply(const StopEvent& event, std::unique_ptr<TimeStepper>& stepper, double& dissipated,
                             State& after) {
    const Model& m = *base_;
    State x = event.at.state;
    x.t = event.at.t;
    MotionEvaluation ev;
    // On the manifolds of the equations held until now.
    if (const Status st = stepper->evaluate(x, ev); !st.ok) return st;
    if (event.release) {
        const Stop& stop = m.stops[static_cast<size_t>(event.stop)];
        engaged_.erase(std::remove_if(engaged_.begin(), engaged_.end(),
                                      [&](const Bound& b) { return b.stop == event.stop && b.side == event.side; }),
                       engaged_.end());
        emit_({x.t, RunEventKind::StopReleased, {stop.name},
               boundName(stop, event.side) + ": released, its contact force would pull"});
    } else {
        bool engage = false;
        if (const Status st = strike(event.stop, event.side, x, dissipated, engage); !st.ok) return st;
    }
    // Touching contacts that now approach are struck one after another, the fastest
    // approach first, until none approaches (Newton's cradle: the momentum passes along
    // the row of balls). An approach below 1e-8 of the speeds at the event is the rounding
    // of the impulses and of the located positions (the line between two balls' centres
    // known to the interpolant's accuracy: 1e-11 m/s at 1 m/s in the cradle): struck, it
    // would count as plastic and glue resting balls together. The count bounds a sequence
    // that would not end.
    const double roundingApproach = 1e-8 * std::max(x.v.cwiseAbs().maxCoeff(), event.release ? 0.0 : strikeSpeed_);
    const int limit = 100 * static_cast<int>(bounds_.size()) + 100;
    for (int pass = 0;; ++pass) {
        const State xn = normalized(m, x);
        int best = -1;
        double fastest = 0.0;
        for (size_t k = 0; k < bounds_.size(); ++k) {
            const Bound& b = bounds_[k];
            if (engaged(b.stop, b.side)) continue;
            const Stop& stop = m.stops[static_cast<size_t>(b.stop)];
            const StopGap g = stopGap(m, stop, b.side, xn);
            const double L = angular(stop) ? m.lengthScale : 1.0;
            if (g.value > touchingGap(m, stop) || !(g.rate * L < -roundingApproach)) continue;
            if (best < 0 || g.rate * L < fastest) {
                best = static_cast<int>(k);
                fastest = g.rate * L;
            }
        }
        if (best < 0) break;
        if (pass >= limit) {
            std::ostringstream d;
            d << "the impacts at t = " << x.t << " s did not end after " << limit
              << " contacts struck one after another";
            return Status::failure(d.str());
        }
        bool engage = false;
        const Bound b = bounds_[static_cast<size_t>(best)];
        if (const Status st = strike(b.stop, b.side, x, dissipated, engage); !st.ok) return st;
    }
    // The stepper for what follows; a stop engaged at this event that would pull at once is
    // released again (the impact left it with nothing pressing it on).
    for (int pass = 0; pass < 2; ++pass) {
        if (const Status st = rebuild(stepper); !st.ok) return st;
        if (const Status st = stepper->evaluate(x, ev); !st.ok) return st;
        if (pass == 1 || engaged_.empty()) break;
        std::vector<Bound> keep;
        const int firstRow = firstStopEquation();
        for (size_t k = 0; k < engaged_.size(); ++k) {
            const Bound& b = engaged_[k];
            const Stop& stop = m.stops[static_cast<size_t>(b.stop)];
            if (-ev.multipliers[firstRow + static_cast<int>(k)] < -1e-12 * forceScale(m, stop)) {
                emit_({x.t, RunEventKind::StopReleased, {stop.name},
                       boundName(stop, b.side) + ": released, its contact force would pull"});
            } else {
                keep.push_back(b);
            }
        }
        if (keep.size() == engaged_.size()) break;
        engaged_ = keep;
    }
    if (const Status st = stepper->initialize(x); !st.ok) return st;
    after = x;
    return {};
}

}  // namespace looplab
