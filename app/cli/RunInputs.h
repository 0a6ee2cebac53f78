#pragma once
// Every file a command reads: the model, study or imported file and the mesh files its
// bodies name. Outputs are checked against this one list before anything is written, so
// that no output (--out, --summary, a study's partial file) lands on a file the run, or
// the next run, needs.

#include "looplab/model/Model.h"
#include "looplab/model/ModelDocument.h"
#include "looplab/study/StudyDescription.h"

#include <string>
#include <vector>

namespace looplab::cli {

/// The model file and the mesh files of its bodies, as the built model opens them.
std::vector<std::string> modelInputs(const std::string& modelFile, const Model& model);

/// The model file and the mesh files its bodies name (relative names from the file's
/// folder), for a document not built yet (a study's model).
std::vector<std::string> documentInputs(const std::string& modelFile, const ModelDocument& doc);

/// The study file, its model file and the mesh files the model names.
std::vector<std::string> studyInputs(const std::string& studyFile, const StudyDescription& study);

}  // namespace looplab::cli
