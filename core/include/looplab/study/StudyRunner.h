#pragma once
// Runs one case of a study: applies its parameter values to the model's JSON, builds and
// assembles the model, runs the analysis and keeps the outputs. A case that fails (the
// model does not build, does not assemble, the solver gives up) is a result with its reason,
// never an exception.

#include "looplab/study/StudyDescription.h"
#include "looplab/study/StudyTable.h"

#include <atomic>
#include <string>
#include <vector>

namespace looplab {

/// Runs case `index` of the study. When `stop` is given and becomes set, a simulation ends
/// at its next step and the case fails with the reason "stopped".
StudyRow runStudyCase(const StudyDescription& study, long index, const std::atomic<bool>* stop = nullptr);

/// `modelText` (a model file's JSON) with `values` (one per parameter of the study) written
/// at the parameters' pointers: the model of a case, or of a case applied to an edited
/// version of the study's model. Throws std::exception if the text is not JSON or a
/// pointer does not fit it.
std::string applyStudyValues(const StudyDescription& study, const std::string& modelText,
                             const std::vector<double>& values);

}  // namespace looplab
