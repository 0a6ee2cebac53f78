#pragma once
// Something a run says about itself while it goes: a change of rank, a singular
// configuration, a drift beyond the method's bound, a stop's impact, engagement or release,
// or the failure that ended it.

#include <string>
#include <vector>

namespace looplab {

enum class RunEventKind {
    RedundantConstraints,   ///< the constraints have more equations than rank
    RankChange,             ///< the rank of the constraint Jacobian changed
    SingularConfiguration,  ///< an episode near a singular configuration, at its worst point
    ConstraintViolation,    ///< a drift beyond the method's bound
    EnergyDrift,            ///< the energy balance broken beyond its tolerance
    BranchChange,           ///< the mechanism left its assembly branch through a singularity
    Failure,                ///< what ended the run
    Repartition,            ///< the two-loop method chose other independent coordinates
    Stiffness,              ///< an explicit integrator's steps held by stability: the stiff bodies, the remedies
    RoundingBoundSteps,     ///< steps near a singular crossing kept with a rounding-bound error estimate
    FollowerLiftOff,        ///< a cam's contact force turned negative: a real follower would leave the cam
    Impact,                 ///< a stop struck: the approach speed, the impulse, the kinetic energy lost
    StopEngaged,            ///< a stop held as a constraint from here (a plastic impact)
    StopReleased            ///< an engaged stop let go: its contact force would pull
};

/// The kind's one name, as the command line's output, the warnings panel and the
/// documentation write it ("singular_configuration"); each kind has exactly one.
inline const char* runEventKindName(RunEventKind kind) {
    switch (kind) {
    case RunEventKind::RedundantConstraints: return "redundant_constraints";
    case RunEventKind::RankChange: return "rank_change";
    case RunEventKind::SingularConfiguration: return "singular_configuration";
    case RunEventKind::ConstraintViolation: return "constraint_violation";
    case RunEventKind::EnergyDrift: return "energy_drift";
    case RunEventKind::BranchChange: return "branch_change";
    case RunEventKind::Failure: return "failure";
    case RunEventKind::Repartition: return "repartition";
    case RunEventKind::Stiffness: return "stiffness";
    case RunEventKind::RoundingBoundSteps: return "rounding_bound_steps";
    case RunEventKind::FollowerLiftOff: return "follower_lift_off";
    case RunEventKind::Impact: return "impact";
    case RunEventKind::StopEngaged: return "stop_engaged";
    case RunEventKind::StopReleased: return "stop_released";
    }
    return "failure";
}

struct SimulationEvent {
    /// Time [s] the event belongs to: for an episode (a singular configuration), the time
    /// of its worst point; otherwise the time it was detected.
    double t = 0.0;
    RunEventKind kind = RunEventKind::Failure;
    /// Joints and drivers involved, if the event singles some out.
    std::vector<std::string> joints;
    /// One or two sentences for a user, with the figures that decided the event.
    std::string detail;
};

}  // namespace looplab
