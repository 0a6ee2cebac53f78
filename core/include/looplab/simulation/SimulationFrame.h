#pragma once
// Everything a forward-dynamics run reports at one output time.

#include "looplab/dynamics/Dynamics.h"
#include "looplab/integrate/OdeSolver.h"
#include "looplab/dynamics/Reactions.h"
#include "looplab/model/State.h"

#include <vector>

namespace looplab {

/// Infinity norms of the constraint residuals. Rows of Φ are lengths [m] or, for
/// orientation rows, dimensionless; the velocity and acceleration norms carry the same
/// mixture per second and per second squared.
struct Violations {
    double position = 0.0;      ///< ‖Φ‖∞ [m or 1]
    double velocity = 0.0;      ///< ‖Φ_q v + Φ_t‖∞ [m/s or 1/s]
    double acceleration = 0.0;  ///< ‖Φ_q v̇ − γ‖∞ [m/s² or 1/s²]
    /// ‖D_r Φ‖∞ [m]: orientation rows times the model's length scale, so that every row
    /// is a length; compared with the method's bound (constraintViolationBound()).
    double positionScaled = 0.0;
};

struct SimulationFrame {
    /// t [s], q and v in the model's coordinates (State.h; a rigid body: centre of mass
    /// [m] and unit quaternion body→global in q, centre-of-mass velocity [m/s] global and
    /// angular velocity [rad/s] in body axes in v). Projected onto the constraint
    /// manifolds when the stepper projects.
    State state;
    /// v̇ in the model's velocity coordinates [m/s², rad/s²].
    VecX acceleration;
    /// λ per equation (Model::equations order); the constraint force is −Φ_qᵀλ.
    VecX multipliers;
    Violations violation;
    Energy energy;  ///< [J]
    /// Work of the drivers and applied loads since the run's start [J], counted over the
    /// integrator's steps (WorkCounter.h): E − E₀ − work is the run's energy balance.
    double work = 0.0;
    /// Kinetic energy the impacts on stops took since the run's start [J] (StopSupervisor.h):
    /// E − E₀ − work + dissipated is the balance of a model with stops.
    double dissipated = 0.0;
    /// Rank of Φ_q at the frame's state under the run's rank tolerance.
    int rank = 0;
    /// Equations (rows of Φ) chosen as independent, in pivot order.
    std::vector<int> independentEquations;
    /// Smallest singular value of the scaled independent rows of Φ_q (dimensionless; of
    /// order one at a regular configuration of a small mechanism, zero at a singular one).
    double smallestSingularValue = 0.0;
    /// Size of the stepper's last accepted step before this frame [s].
    double stepSize = 0.0;
    /// The stepper's work from the start of the run to this frame.
    StepStatistics statistics;
    std::vector<JointReaction> reactions;  ///< one per joint, model order
    std::vector<DriverEffort> drivers;     ///< one per driver, model order
    std::vector<CouplerEffort> couplers;   ///< one per coupler, model order
    /// Joint coordinates in the order of JointCoordinateTracker::coordinates() [rad or m],
    /// revolute angles continuous over the run: followed at every accepted step, so a
    /// joint may turn any number of times between frames.
    std::vector<double> jointCoordinates;
};

}  // namespace looplab
