#pragma once
// The quantities a study's analysis of a model can report, named as the command-line
// tool's CSV columns: what a study output may name. Apart from the runner, so that reading a
// study file (which checks its outputs against them) needs no solver.

#include "looplab/model/Model.h"
#include "looplab/study/StudyDescription.h"

#include <string>
#include <vector>

namespace looplab {

/// Every analysis has the bodies' positions and quaternions and the joint coordinates; the
/// rest depends on what it computes (violations and energy, joint and driver forces, the
/// force residual, mode frequencies). In the order of a case's sampled values.
std::vector<std::string> studyQuantities(const Model& model, const StudyAnalysis& analysis);

}  // namespace looplab
