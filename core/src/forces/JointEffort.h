#pragma once
// An effort along one joint coordinate between two rigid bodies (or a body and the ground):
// a torque about a revolute's or cylindrical joint's axis z1, or a force along a prismatic
// joint's axis z1 (acting on body 2 at its frame's origin p2 and, reversed, on body 1 at
// the same point). The joint's rate is ẋ = gᵀv with g = ∂ẋ/∂v, and the effort's generalised
// force is Q = τ g. What a motor, and later a joint's friction, acts through.

#include "ForceGeometry.h"

namespace looplab::forces {

struct JointEffortJet {
    double rate = 0.0;            ///< ẋ [rad/s or m/s]
    PairVector g;                 ///< ∂ẋ/∂v on the two bodies' slices
    PairBlock gDerivative;        ///< ∂g/∂δ along the retraction (column k: d g / dδ_k)
    BodyIndex body1, body2;
};

/// The jet of joint j's angle (rotational) or slide at s.
JointEffortJet jointEffortJet(const Model& m, const State& s, JointIndex j, bool rotational);

/// Adds Q = τ g for an effort τ [N·m or N].
void addJointEffort(const Model& m, const JointEffortJet& jet, double effort, VecX& f);

/// Adds −∂Q/∂δ = −τ_ẋ g (∂ẋ/∂δ)ᵀ − τ ∂g/∂δ and −∂Q/∂v = −τ_ẋ g gᵀ for an effort τ(ẋ, t)
/// whose slope ∂τ/∂ẋ is `slope` (∂ẋ/∂δ = (∂g/∂δ)ᵀ v, ẋ being linear in v).
void addJointEffortDerivatives(const Model& m, const State& s, const JointEffortJet& jet, double effort,
                               double slope, Triplets& K, Triplets& C);

}  // namespace looplab::forces
