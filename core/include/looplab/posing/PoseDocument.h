#pragma once
// Writing a pose back into a model document as its initial configuration. Joint and
// spring points are stored globally at the initial configuration (model-format.md), so
// they are rewritten at the new pose too. The free angles of rotational springs are shifted
// so that the springs pull towards the same physical angles. A driver's law is shifted so
// that it starts at the pose, its rate and shape kept: whoever poses a driven joint moves
// where the drive starts (otherwise the driver would pull the mechanism back to its old
// start the moment the pose is loaded).

#include "looplab/model/Model.h"
#include "looplab/model/ModelDocument.h"
#include "looplab/model/State.h"
#include "looplab/model/Status.h"

#include <string>
#include <utility>
#include <vector>

namespace looplab {

enum class PoseVelocities {
    Zero,  ///< the mechanism starts at rest
    Keep   ///< the velocities of `state` are written as well
};

struct PoseDocumentResult {
    Status status;
    ModelDocument document;  ///< valid when status.ok
    /// Drivers whose law now starts elsewhere, with the change of their start value
    /// [rad or m], so that a user interface can say so.
    std::vector<std::pair<std::string, double>> shiftedDrivers;
};

/// The document of `model` with `state` as its initial configuration. Fails for models
/// with beam bodies, whose undeformed shape the pose would change.
PoseDocumentResult documentWithPose(const Model& model, const State& state, PoseVelocities velocities);

}  // namespace looplab
