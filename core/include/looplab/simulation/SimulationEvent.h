#pragma once
// Something a run says about itself while it goes: a change of rank, a singular
// configuration, a drift beyond the method's bound, or the failure that ended it.

#include <string>
#include <vector>

namespace looplab {

struct SimulationEvent {
    /// Time [s] the event belongs to: for an episode (a singular configuration), the time
    /// of its worst point; otherwise the time it was detected.
    double t = 0.0;
    /// "redundant_constraints", "rank_change", "singular_configuration",
    /// "constraint_violation", "energy_drift", "branch_change", "failure",
    /// "repartition" (the two-loop method chose other independent coordinates),
    /// "stiffness" (an explicit integrator's steps are held by stability: the stiff
    /// bodies and the methods to use instead)
    std::string kind;
    /// Joints and drivers involved, if the event singles some out.
    std::vector<std::string> joints;
    /// One or two sentences for a user, with the figures that decided the event.
    std::string detail;
};

}  // namespace looplab
