#include "StaticsReport.h"
#include "ReportJson.h"

namespace looplab::reports {

nlohmann::json staticsJson(const Model& model, const State& s, const StaticsResult& r) {
    nlohmann::json j;
    j["outcome"] = staticsOutcomeName(r.outcome);
    j["method"] = r.method;
    j["newton_iterations"] = r.newtonIterations;
    j["relaxation_steps"] = r.relaxationSteps;
    j["force_residual"] = r.forceResidual;
    j["converged_to_rounding"] = r.convergedToRounding;
    j["force_scale"] = r.forceScale;
    j["load_scale"] = r.loadScale;
    j["constraint_residual"] = r.constraintResidual;
    j["rank"] = r.rank;
    j["dof"] = r.degreesOfFreedom;
    j["free_directions"] = r.freeDirections;
    j["squared_frequencies"] = std::vector<double>(r.squaredFrequencies.data(),
                                                   r.squaredFrequencies.data() + r.squaredFrequencies.size());
    if (!r.ok) j["message"] = r.message;
    j["bodies"] = bodiesJson(model, s, false);
    return j;
}

}  // namespace looplab::reports
