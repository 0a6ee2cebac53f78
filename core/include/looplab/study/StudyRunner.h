#pragma once
// Runs one case of a study: applies its parameter values to the model's JSON, builds and
// assembles the model, runs the analysis and keeps the outputs. A case that fails (the
// model does not build, does not assemble, the solver gives up) is a result with its reason,
// never an exception.

#include "looplab/study/StudyDescription.h"
#include "looplab/study/StudyTable.h"

#include <string>
#include <vector>

namespace looplab {

/// The quantities an analysis of `model` can report, by name (what StudyOutput::quantity
/// may be).
std::vector<std::string> studyQuantities(const Model& model, const StudyAnalysis& analysis);

/// Runs case `index` of the study.
StudyRow runStudyCase(const StudyDescription& study, long index);

}  // namespace looplab
