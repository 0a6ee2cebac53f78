#pragma once
// Assembly toward a dragged target: a point fixed on one body is driven toward a target
// position while every joint equation holds, as when a user grabs a link and pulls it.
// Each step is the least-squares move of the point inside the tangent space of the
// constraint manifold, retracted onto the manifold by assemble(); where the target is
// out of reach the point stops at the nearest position the mechanism allows.

#include "looplab/kinematics/Assembly.h"
#include "looplab/model/Model.h"
#include "looplab/model/State.h"
#include "looplab/model/Status.h"

namespace looplab {

struct DragOptions {
    /// The target counts as reached within tolerance · lengthScale.
    double tolerance = 1e-9;
    /// Steps per call. An interactive drag calls once per mouse event and continues from
    /// where the last call stopped, so a small number keeps each event short.
    int maxIterations = 60;
    /// Largest rotation [rad] and translation [lengthScale] of any body per step, as in
    /// assemble(): keeps a step on the current assembly branch.
    double maxRotationStep = 0.2;
    double maxTranslationStep = 0.2;
    /// The reach limit is found where the target direction is orthogonal to every
    /// motion the point can make, to this relative tolerance.
    double stationarity = 1e-10;
    AssemblyOptions assembly;
};

enum class DragOutcome {
    Reached,     ///< the point is at the target
    ReachLimit,  ///< the point is as near the target as the constraints allow
    Moving,      ///< out of steps on the way: call again to go on
    Failed       ///< the state could not be assembled; status says why
};

struct DragResult {
    DragOutcome outcome = DragOutcome::Failed;
    Status status;           ///< ok unless Failed; the reach-limit sentence is in `note`
    std::string note;        ///< for ReachLimit: how far short and why, in words
    int iterations = 0;
    Vec3 point = Vec3::Zero();  ///< where the dragged point ended, global [m]
    double distance = 0.0;      ///< from there to the target [m]
    double closure = 0.0;       ///< max |Φ| at the end (lengths in m)
};

/// Moves `state` (its positions; velocities are left alone) so that the point
/// `localPoint` of `body` approaches `target`, every constraint of `model` held.
/// `state` is assembled first if it is not. On failure it is left as the best assembled
/// configuration found. `body` must be a rigid body.
DragResult dragToTarget(const Model& model, State& state, BodyIndex body, const Vec3& localPoint,
                        const Vec3& target, const DragOptions& options = {});

/// "reached", "reach limit", "moving", "failed".
const char* dragOutcomeName(DragOutcome outcome);

}  // namespace looplab
