#pragma once
// Forward dynamics from start to end: a constraint method computes accelerations, an ODE
// solver integrates, and at every output time the simulator reports the state, the
// constraint violations, energy, rank and conditioning of the constraint Jacobian, joint
// reactions and events (rank changes, singular configurations).

#include "looplab/ConstraintMethod.h"
#include "looplab/Constraints.h"
#include "looplab/Dynamics.h"
#include "looplab/JointCoordinates.h"
#include "looplab/Model.h"
#include "looplab/OdeSolver.h"
#include "looplab/State.h"

#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace looplab {

struct SimulationSettings {
    std::string method = "projection";  ///< see constraintMethodNames()
    std::string integrator = "dopri5";  ///< see odeSolverNames()
    double tEnd = 1.0;                  ///< s, absolute end time
    double outputStep = 0.01;           ///< s between reported frames
    OdeSettings ode;
    ConstraintMethodSettings constraints;
    /// A singular-configuration event is raised while the smallest singular value σ_min of
    /// the scaled independent constraint rows is below this fraction of its regular value:
    /// σ_min < threshold · min(1, σ̂), σ̂ the largest σ_min met so far in the run
    /// (dimensionless; the scaled Jacobian has entries of order one). Relative, so that
    /// it means the same for four joints and for four hundred.
    double singularThreshold = 1e-2;
    /// The run fails (ok = false, a "failure" event naming the limit) when the solver has
    /// taken this many accepted steps without reaching tEnd; 0 = no limit.
    long maxSteps = 10'000'000;
    /// The run fails when it has taken longer than this wall-clock time [s], checked
    /// between steps; 0 = no limit.
    double maxWallTime = 0.0;
    /// The run is refused (at its start, as a failure) if it would report more frames.
    long maxFrames = 1'000'000'000'000L;
};

/// Reaction of one joint: the force and torque that body 1 exerts on body 2 through the
/// joint, at the joint point (origin of frame 2).
struct JointReaction {
    std::string joint;
    Vec3 forceGlobal = Vec3::Zero();
    Vec3 torqueGlobal = Vec3::Zero();
    Vec3 forceJoint = Vec3::Zero();   ///< in joint frame 1 axes
    Vec3 torqueJoint = Vec3::Zero();
    bool indeterminate = false;  ///< statically indeterminate: part of a redundant set
};

/// Effort of a driver: torque (revolute) or force (prismatic) applied to body 2 about
/// or along the joint axis.
struct DriverEffort {
    std::string driver;
    double value = 0.0;
};

struct Violations {
    double position = 0.0;      ///< ‖Φ‖∞
    double velocity = 0.0;      ///< ‖Φ_q v + Φ_t‖∞
    double acceleration = 0.0;  ///< ‖Φ_q v̇ − γ‖∞
    /// ‖D_r Φ‖∞ [m]: orientation rows times the model's length scale, so that every row
    /// is a length; compared with the method's bound (constraintViolationBound()).
    double positionScaled = 0.0;
};

/// Everything reported at one output time.
struct SimulationFrame {
    State state;
    VecX acceleration;
    VecX multipliers;
    Violations violation;
    Energy energy;
    int rank = 0;
    std::vector<int> independentEquations;
    double smallestSingularValue = 0.0;
    double stepSize = 0.0;
    OdeStatistics statistics;
    std::vector<JointReaction> reactions;
    std::vector<DriverEffort> drivers;
    /// Joint coordinates in the order of JointCoordinateTracker::coordinates(), revolute
    /// angles continuous over the run: followed at every accepted solver step, so a
    /// joint may turn any number of times between frames (filled by run()).
    std::vector<double> jointCoordinates;
};

struct SimulationEvent {
    double t = 0.0;
    /// "redundant_constraints", "rank_change", "singular_configuration", "failure"
    std::string kind;
    std::vector<std::string> joints;
    std::string detail;
};

struct SimulationResult {
    /// True only if the run reached tEnd without a failure.
    bool ok = false;
    std::string message;  ///< why the run stopped early
    double tFinal = 0.0;
    OdeStatistics statistics;
    double wallTime = 0.0;
    Violations maxViolation;
    double energyInitial = 0.0, energyFinal = 0.0, energyMaxDrift = 0.0;
    std::vector<SimulationEvent> events;
};

class Simulator {
public:
    /// Throws std::invalid_argument for an unknown method or integrator name.
    Simulator(std::shared_ptr<const Model> model, SimulationSettings settings);
    ~Simulator();

    /// Runs from `start` to settings.tEnd. onFrame receives the frame at start.t and every
    /// outputStep after it, and the end time; onEvent each event as it happens. If `stop`
    /// becomes true the run ends after the current step with ok = false and message
    /// "stopped". Never throws for numerical trouble: failures come back in the result,
    /// with the frames up to the failure already delivered.
    SimulationResult run(const State& start,
                         const std::function<void(const SimulationFrame&)>& onFrame,
                         const std::function<void(const SimulationEvent&)>& onEvent = {},
                         const std::atomic<bool>* stop = nullptr);

    /// Evaluates a frame (accelerations, multipliers, diagnostics) at a state; for the
    /// projection method the state is projected first.
    bool evaluateFrame(State state, SimulationFrame& frame, std::string* error = nullptr);

    const SimulationSettings& settings() const { return settings_; }

private:
    std::shared_ptr<const Model> model_;
    SimulationSettings settings_;
    std::unique_ptr<ConstraintMethod> method_;
    std::unique_ptr<OdeSolver> solver_;
};

/// How far a method may let the constraints drift before the simulator says so
/// (docs/methods.md, "Trusting a run"): above `warning` [m, scaled ‖D_r Φ‖∞] a
/// "constraint_violation" event is raised once; above `gross` the mechanism has come
/// apart and the run fails. For the penalty methods the warning bound grows with the
/// constraint forces: add `perMultiplier` × ‖D_r⁻¹ λ‖∞ at each frame.
struct ViolationBound {
    double warning = 0.0;
    double perMultiplier = 0.0;
    double gross = 0.0;
};
ViolationBound constraintViolationBound(const Model& model, const SimulationSettings& settings);

/// Reactions and driver efforts from multipliers (constraint force on the bodies −Φ_qᵀλ),
/// with the constraint Jacobian already evaluated at s.
void computeReactions(const Model& model, const State& s, const SparseMatrix& jacobian,
                      const VecX& multipliers, const std::vector<bool>& indeterminateEquations,
                      std::vector<JointReaction>& reactions, std::vector<DriverEffort>& drivers);

}  // namespace looplab
