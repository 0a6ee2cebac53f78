#pragma once
// Models from the exchange formats of robotics: URDF (with LoopLab's <loop_joint> for the
// loops URDF cannot close) and MJCF (whose `connect` and `weld` equalities close loops),
// turned into a model-format document (docs/import-export.md). What a format says that
// LoopLab does not model (limits, actuators, contacts, meshes' shapes, ...) is listed in the
// report, never dropped in silence.
#include "looplab/model/Diagnostic.h"
#include "looplab/model/ModelDocument.h"

#include <optional>
#include <string>
#include <vector>

namespace looplab {

struct ImportResult {
    /// The model in the model format (JSON text), and read as a document; empty on failure.
    std::string modelJson;
    std::optional<ModelDocument> document;
    /// Why there is none: each names the file, the element (an XML path such as
    /// "mujoco/worldbody/body[arm]/joint[shoulder]") and, for XML errors, the line.
    Diagnostics diagnostics;
    /// What was not taken over, or taken over approximately, a sentence each.
    std::vector<std::string> report;
    bool ok() const { return document.has_value(); }
};

/// Reads a URDF file (.urdf) or an MJCF file (.xml, .mjcf) by its extension.
ImportResult importModel(const std::string& path);
ImportResult importUrdf(const std::string& xmlText, const std::string& file);
ImportResult importMjcf(const std::string& xmlText, const std::string& file);
/// Whether `path` names a file importModel reads (by its extension).
bool isImportable(const std::string& path);

}  // namespace looplab
