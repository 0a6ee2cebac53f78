#pragma once
// Follows the rank and the conditioning of the constraint Jacobian through a run and
// raises the events a user debugging a linkage needs: redundant equations at the start,
// changes of rank, and singular-configuration episodes with their worst point and the
// joints that carry the lost direction.

#include "looplab/linalg/ConstraintSpaces.h"
#include "looplab/model/Model.h"
#include "looplab/integrate/SimulationEvent.h"
#include "looplab/integrate/TimeStepper.h"

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
    void start(const State& s, const ConstraintSpaces& atStart);

    /// After each accepted step of `stepper` from tPrev, with Φ_q factorised at the step's
    /// end, stepEnd its state with positions normalised. Samples inside the step only where
    /// an event's time is decided there.
    void afterStep(const TimeStepper& stepper, double tPrev, const State& stepEnd, const ConstraintSpaces& atStepEnd);

    /// At the end of the run (or where it stopped): closes an open episode.
    void finish(double t);

private:
    double threshold() const { return threshold_ * sigmaRegular_; }
    double sigmaOf(const ConstraintSpaces& w);
    void watch(const State& s, const ConstraintSpaces& w, double sigma);
    void closeEpisode(double t, const ConstraintSpaces* atExit);
    // Largest principal angle [rad] between the tangent spaces (null spaces of the scaled
    // Φ_q) at two configurations; negative if they cannot be compared.
    double tangentTurn(const State& before, const ConstraintSpaces& after) const;

    const Model& model_;
    double threshold_, rankTolerance_;
    LinearAlgebra linearAlgebra_;
    EventSink emit_;

    double sigmaRegular_ = 1.0;  // largest σ_min seen so far, at most 1
    int nominalRank_ = 0, lastRank_ = 0;
    double sigmaStepStart_ = 0.0;
    double pivotStepStart_ = 0.0;  // smallest pivot of the factorisation at the step's start
    double pivotRegular_ = 0.0;    // largest smallest-pivot seen: its value where regular
    bool inEpisode_ = false;
    double sigmaMinEpisode_ = 0.0, tMinEpisode_ = 0.0, tEnterEpisode_ = 0.0;
    std::vector<std::string> jointsEpisode_;
    State lastRegular_;   // the last sample before the current episode, for the branch check
    State episodeEntry_;
    State episodeWorst_;  // where σ_min was least: the links that line up are named there
    // A regained rank is named after the joints that lost it: at the regained (regular)
    // configuration no direction singles them out any more.
    std::vector<std::string> jointsLostRank_;
};

/// Largest turn [rad] of the tangent space across a singular episode that still counts as
/// going on along the same assembly branch. Through a bifurcation the branches cross at an
/// angle; following one branch, the tangent space turns only by the curvature of the
/// configuration curve over the short stretch the episode covers.
inline constexpr double kBranchChangeAngle = 0.2;

/// Owners (joint or driver names) of the given equations, each once, in row order.
std::vector<std::string> equationOwners(const Model& model, const std::vector<int>& rows);

}  // namespace looplab
