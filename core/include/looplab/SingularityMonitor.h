#pragma once
// Follows the rank and the conditioning of the constraint Jacobian through a run and
// raises the events a user debugging a linkage needs: redundant equations at the start,
// changes of rank, and singular-configuration episodes with their worst point and the
// joints that carry the lost direction.

#include "looplab/ConstraintSpaces.h"
#include "looplab/Model.h"
#include "looplab/SimulationEvent.h"
#include "looplab/TimeStepper.h"

#include <functional>
#include <string>
#include <vector>

namespace looplab {

class SingularityMonitor {
public:
    using EventSink = std::function<void(SimulationEvent)>;

    /// `singularThreshold` as in SimulationSettings; the factorisations it makes itself
    /// use `rankTolerance` and `linearAlgebra`.
    SingularityMonitor(const Model& model, double singularThreshold, double rankTolerance,
                       LinearAlgebra linearAlgebra, EventSink emit);

    /// At the start state, factorised: reports redundant equations and takes the rank
    /// there as the nominal rank.
    void start(double t, const ConstraintSpaces& atStart);

    /// After each accepted step of `stepper` from tPrev, with Φ_q factorised at the step's
    /// end. Samples inside the step only where an event's time is decided there.
    void afterStep(const TimeStepper& stepper, double tPrev, const ConstraintSpaces& atStepEnd);

    /// At the end of the run (or where it stopped): closes an open episode.
    void finish(double t);

private:
    double threshold() const { return threshold_ * sigmaRegular_; }
    double sigmaOf(const ConstraintSpaces& w);
    void watch(double t, const ConstraintSpaces& w, double sigma);
    void closeEpisode(double t);

    const Model& model_;
    double threshold_, rankTolerance_;
    LinearAlgebra linearAlgebra_;
    EventSink emit_;

    double sigmaRegular_ = 1.0;  // largest σ_min seen so far, at most 1
    int nominalRank_ = 0, lastRank_ = 0;
    double sigmaStepStart_ = 0.0;
    bool inEpisode_ = false;
    double sigmaMinEpisode_ = 0.0, tMinEpisode_ = 0.0, tEnterEpisode_ = 0.0;
    std::vector<std::string> jointsEpisode_;
    // A regained rank is named after the joints that lost it: at the regained (regular)
    // configuration no direction singles them out any more.
    std::vector<std::string> jointsLostRank_;
};

/// Owners (joint or driver names) of the given equations, each once, in row order.
std::vector<std::string> equationOwners(const Model& model, const std::vector<int>& rows);

}  // namespace looplab
