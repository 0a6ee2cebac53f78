#pragma once
// The stops of a run (methods.md, "Stops and impacts"): which bounds are free and which are
// held engaged, the events they raise and what happens at each. After every accepted step
// the run asks for the first event inside it (located on the stepper's dense output by
// EventLocation.h): a free gap closing, or an engaged stop's contact force turning to a
// pull. At the event it applies the impacts (ImpactImpulse.h; contacts already touching
// and approaching are struck one after another, so that a row of touching balls passes
// the momentum on), engages the stops whose impact was plastic (e = 0, or an approach
// slower than plasticImpactSpeed(): this is how a Zeno sequence of ever smaller bounces
// ends) and releases the ones that would pull; then it steps on with a new stepper on a
// copy of the model whose constraint set holds the engaged stops' rows after the
// couplers', started at the event's state. Stick–slip friction and a cam follower's
// lift-off are events of the same kind: a switching function located the same way and a
// change of the equations held, applied here.

#include "looplab/integrate/EventLocation.h"
#include "looplab/integrate/SimulationEvent.h"
#include "looplab/integrate/TimeStepper.h"
#include "looplab/model/Model.h"
#include "looplab/simulation/SimulationSettings.h"

#include <functional>
#include <memory>
#include <optional>
#include <vector>

namespace looplab {

/// Approach speed below which an impact on the stop is plastic and the stop engages
/// [m/s, or rad/s for an angle]: 10⁻³ √(|g| L) with L the model's length scale (10⁻³ L per
/// second without gravity), divided by L for an angle. A ball bouncing with restitution e
/// from a speed v₀ engages at the first impact slower than this, within
/// 2 v_c e / (|g| (1 − e)) of the closed-form end t∞ of its infinite sequence.
double plasticImpactSpeed(const Model& model, const Stop& stop);

/// The gap below which a free stop counts as touching for the impacts that follow one
/// another at an event, and the depth a gap may close to without raising an event
/// [m, or rad for an angle]: 10⁻⁹ L (10⁻⁹ rad).
double touchingGap(const Model& model, const Stop& stop);

/// A stop event located in the last accepted step.
struct StopEvent {
    LocatedEvent at;
    int stop = 0;
    StopSide side = StopSide::Lower;
    bool release = false;  ///< an engaged stop that would pull; else a free gap closing
};

class StopSupervisor {
public:
    using EventSink = std::function<void(SimulationEvent)>;
    StopSupervisor(std::shared_ptr<const Model> model, const SimulationSettings& settings, EventSink emit);

    /// Whether the model has stops at all (otherwise nothing here runs).
    bool active() const { return !base_->stops.empty(); }
    /// The model the stepper steps: the run's own while no stop is engaged.
    std::shared_ptr<const Model> steppingModel() const { return stepping_; }
    bool steppingIsBase() const { return engaged_.empty(); }
    /// The first engaged stop's equation in the stepping model: multipliers from there on
    /// are the engaged stops'.
    int firstStopEquation() const { return base_->equationCount(); }

    /// Refuses a start where a stop's gap is already closed beyond touching.
    Status checkStart(const State& start) const;
    /// The first stop event in the stepper's last step, from t0 to its end.
    std::optional<StopEvent> firstEvent(TimeStepper& stepper, double t0);
    /// Applies the event: impacts, engagement, release, as the class comment says; replaces
    /// `stepper` by one on the new stepping model, initialised at the state after the
    /// event. Adds the impacts' kinetic-energy losses to `dissipated`. `after` is the state
    /// the new stepper starts from.
    Status apply(const StopEvent& event, std::unique_ptr<TimeStepper>& stepper, double& dissipated, State& after);

private:
    struct Bound {
        int stop;
        StopSide side;
    };
    std::shared_ptr<const Model> modelHolding(const std::vector<Bound>& engaged) const;
    Status rebuild(std::unique_ptr<TimeStepper>& stepper);
    bool engaged(int stop, StopSide side) const;
    Status strike(int stop, StopSide side, State& x, double& dissipated, bool& engage);

    std::shared_ptr<const Model> base_;
    std::shared_ptr<const Model> stepping_;
    SimulationSettings settings_;
    EventSink emit_;
    std::vector<Bound> engaged_;
    std::vector<Bound> bounds_;  ///< every finite bound of every stop
    double strikeSpeed_ = 0.0;   ///< the approach [m/s] of the last impact struck
};

}  // namespace looplab
