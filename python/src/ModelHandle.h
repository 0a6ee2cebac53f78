#pragma once
// A model as Python holds it: the document it was read from (so that a parameter can be
// changed and the model built again), the built model and its assembled initial state.
#include "looplab/files/ModelFile.h"

#include <memory>
#include <string>
#include <vector>

namespace looplab::python {

struct ModelHandle {
    ModelDocument document;
    std::string file;  ///< where it was read from; empty for a model given as a dict
    std::shared_ptr<const Model> model;
    State initial;
    /// How its flexible members started at `initial` (StartMotion.h).
    StartReport start;
};

/// A model, or why there is none: the diagnostics (file, JSON location, message) and,
/// for a model that builds but does not assemble, the assembly's explanation.
struct LoadOutcome {
    std::shared_ptr<ModelHandle> model;
    Diagnostics diagnostics;
    std::vector<std::string> explanation;
    /// For an imported model: what the URDF or MJCF said that was not taken over.
    std::vector<std::string> report;
};

LoadOutcome loadFile(const std::string& path);
/// A URDF or MJCF file, imported and loaded.
LoadOutcome importFile(const std::string& path);
/// JSON text in the model format; `label` names it in the diagnostics.
LoadOutcome loadText(const std::string& text, const std::string& label);
/// The same model with the number at `pointer` (a JSON pointer into the model format,
/// "/drivers/0/law/speed") set to `value`, built again but not assembled: the caller keeps
/// its state.
LoadOutcome withNumber(const ModelHandle& m, const std::string& pointer, double value);

}  // namespace looplab::python
