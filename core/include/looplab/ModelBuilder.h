#pragma once
// Compiles a ModelDocument into an immutable Model, or explains why it cannot.

#include "looplab/Diagnostic.h"
#include "looplab/Model.h"
#include "looplab/ModelDocument.h"

#include <memory>

namespace looplab {

/// Result of buildModel(): a model, or the diagnostics that prevented it.
struct BuildResult {
    std::shared_ptr<const Model> model;
    Diagnostics diagnostics;
    bool ok() const { return model != nullptr; }
};

/// Validates names, references, masses, inertias (symmetric, positive definite,
/// triangle inequality of principal moments), axes and joint data; derives joint frames
/// from global points and axes at the initial configuration; numbers the equations.
/// `file` is only used to label diagnostics. Does not assemble (see assemble()).
BuildResult buildModel(const ModelDocument& doc, const std::string& file = "");

/// Names and kinds of the equations a joint of this type contributes, in row order.
std::vector<EquationLabel> jointEquationLabels(JointType type);

}  // namespace looplab
