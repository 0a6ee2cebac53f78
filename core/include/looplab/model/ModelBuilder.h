#pragma once
// Compiles a ModelDocument into an immutable Model, or explains why it cannot.

#include "looplab/model/Diagnostic.h"
#include "looplab/model/Model.h"
#include "looplab/model/ModelDocument.h"

#include <memory>

namespace looplab {

/// Start of the message of a diagnostic that reports an exception which reading, building
/// or assembling a model should never throw (a bug, not a fault of the file). Such a
/// diagnostic has an empty location.
inline constexpr const char* kInternalErrorPrefix = "internal error while loading the model: ";

/// Result of buildModel(): a model, or the diagnostics that prevented it.
struct BuildResult {
    std::shared_ptr<const Model> model;
    Diagnostics diagnostics;
    bool ok() const { return model != nullptr; }
};

/// Validates names, references, masses, inertias (symmetric, positive definite,
/// triangle inequality of principal moments), axes and joint data; derives joint frames
/// from global points and axes at the initial configuration; numbers the equations.
/// `file` is only used to label diagnostics. Does not assemble (see assemble()). Never
/// throws: an unexpected exception is reported as a diagnostic (kInternalErrorPrefix).
BuildResult buildModel(const ModelDocument& doc, const std::string& file = "");

/// Names and kinds of the equations a joint of this type contributes, in row order.
std::vector<EquationLabel> jointEquationLabels(JointType type);

}  // namespace looplab
