#pragma once
// Writing a pose back into a model document as its initial configuration. Joint and
// spring points are stored globally at the initial configuration (model-format.md), so
// they are rewritten at the new pose too, and every quantity measured from a joint's
// initial position (driver laws, free angles of rotational springs) is shifted so that
// the mechanism means the same thing from its new starting pose.

#include "looplab/model/Model.h"
#include "looplab/model/ModelDocument.h"
#include "looplab/bodies/State.h"
#include "looplab/model/Status.h"

namespace looplab {

enum class PoseVelocities {
    Zero,  ///< the mechanism starts at rest
    Keep   ///< the velocities of `state` are written as well
};

struct PoseDocumentResult {
    Status status;
    ModelDocument document;  ///< valid when status.ok
};

/// The document of `model` with `state` as its initial configuration. Fails for models
/// with beam bodies, whose undeformed shape the pose would change.
PoseDocumentResult documentWithPose(const Model& model, const State& state, PoseVelocities velocities);

}  // namespace looplab
