#include "looplab/study/StudyQuantities.h"

#include "looplab/kinematics/JointCoordinates.h"

namespace looplab {

namespace {

void jointAndDriverForces(const Model& model, std::vector<std::string>& names) {
    for (const Joint& j : model.joints)
        for (const char* c : {"fx", "fy", "fz", "tx", "ty", "tz"}) names.push_back(j.name + "." + c);
    for (const Driver& d : model.drivers) names.push_back(d.name + ".effort");
}

}  // namespace

std::vector<std::string> studyQuantities(const Model& model, const StudyAnalysis& analysis) {
    std::vector<std::string> names;
    if (analysis.type == StudyAnalysisType::Check) {
        for (const char* n : {"dof", "rank", "redundant", "gruebler", "smallest_singular_value"}) names.push_back(n);
        return names;
    }
    for (int b = 1; b < model.bodyCount(); ++b)
        for (const char* c : {"x", "y", "z", "qw", "qx", "qy", "qz"})
            names.push_back(model.bodies[size_t(b)].name + "." + c);
    const JointCoordinateTracker tracker(model);
    for (const JointCoordinate& c : tracker.coordinates()) names.push_back(c.name);
    switch (analysis.type) {
    case StudyAnalysisType::Kinematics:
        for (const char* n : {"position_violation", "velocity_violation", "acceleration_violation"}) names.push_back(n);
        break;
    case StudyAnalysisType::Simulate:
        for (const char* n : {"position_violation", "velocity_violation", "acceleration_violation", "energy"})
            names.push_back(n);
        jointAndDriverForces(model, names);
        for (const char* n : {"rank", "smallest_singular_value", "step_size"}) names.push_back(n);
        break;
    case StudyAnalysisType::Statics:
    case StudyAnalysisType::Modes:
        jointAndDriverForces(model, names);
        names.push_back("force_residual");
        if (analysis.type == StudyAnalysisType::Modes)
            for (int k = 1; k <= analysis.modes.count; ++k) names.push_back("mode" + std::to_string(k) + ".frequency");
        break;
    case StudyAnalysisType::Check: break;
    }
    return names;
}

}  // namespace looplab
