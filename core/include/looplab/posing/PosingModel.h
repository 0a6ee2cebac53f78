#pragma once
// The model a user poses by hand: the same bodies and joints with the drivers released,
// so that a driven crank can be dragged or set like any joint. Its coordinates are laid
// out exactly as in the original model, so a state moves freely between the two.

#include "looplab/model/Model.h"
#include "looplab/model/ModelBuilder.h"

namespace looplab {

/// Builds `model`'s document without its drivers. Fails only where the model itself
/// could not be built.
BuildResult buildPosingModel(const Model& model);

}  // namespace looplab
