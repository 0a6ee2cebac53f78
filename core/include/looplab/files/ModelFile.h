#pragma once
// Reading and writing model files (JSON, format "looplab-model", see
// docs/model-format.md). Reading never half-loads: it returns a complete document or the
// diagnostics, each naming the file, the JSON location and the problem.

#include "looplab/kinematics/Assembly.h"
#include "looplab/kinematics/StartMotion.h"
#include "looplab/model/Diagnostic.h"
#include "looplab/model/Model.h"
#include "looplab/model/ModelBuilder.h"
#include "looplab/model/ModelDocument.h"
#include "looplab/model/State.h"

#include <memory>
#include <optional>
#include <string>

namespace looplab {

inline constexpr const char* kModelFormatName = "looplab-model";
inline constexpr int kModelFormatVersion = 1;

/// A document, or the reasons it could not be read.
struct DocumentResult {
    std::optional<ModelDocument> document;
    Diagnostics diagnostics;
};

/// Parses JSON text; `file` labels the diagnostics. Never throws: invalid JSON, including
/// a number too large for a double, is reported with its line and column.
DocumentResult parseModelDocument(const std::string& text, const std::string& file = "");
/// Reads and parses a file.
DocumentResult readModelDocument(const std::string& path);

/// Canonical JSON text of a document (parsing it gives back an equal document).
std::string serializeModelDocument(const ModelDocument& doc);
/// Writes the document to `path` through a temporary file and a rename, so that a
/// crash never leaves a half-written model. Returns false and sets `error` on failure.
bool writeModelDocument(const ModelDocument& doc, const std::string& path, std::string* error);

/// A model ready to simulate: the compiled model and its assembled initial state.
struct LoadedModel {
    std::shared_ptr<const Model> model;
    State initial;
    /// How the flexible members start moving, and the vibration the start gives them.
    StartReport start;
    Diagnostics diagnostics;  ///< why loading failed; empty on success
    bool ok() const { return model != nullptr; }
};

/// Builds a document into a model and assembles its initial state (positions by
/// Gauss–Newton, velocities projected). Assembly failure is reported as a diagnostic at
/// "/joints" naming the joints that do not close.
LoadedModel prepareModel(const ModelDocument& doc, const std::string& file = "",
                         const AssemblyOptions& options = {});

/// readModelDocument() followed by prepareModel().
LoadedModel loadModel(const std::string& path, const AssemblyOptions& options = {});

}  // namespace looplab
