#include "looplab/ConstraintMethod.h"

#include "looplab/BaumgarteMethod.h"
#include "looplab/PenaltyMethod.h"
#include "looplab/ProjectionMethod.h"

namespace looplab {

std::vector<std::string> constraintMethodNames() {
    return {"projection", "baumgarte", "penalty", "augmented-lagrangian"};
}

std::unique_ptr<ConstraintMethod> makeConstraintMethod(const std::string& name,
                                                       std::shared_ptr<const Model> model,
                                                       const ConstraintMethodSettings& settings) {
    if (name == "projection") return std::make_unique<ProjectionMethod>(model, settings);
    if (name == "baumgarte") return std::make_unique<BaumgarteMethod>(model, settings);
    if (name == "penalty") return std::make_unique<PenaltyMethod>(model, settings, false);
    if (name == "augmented-lagrangian") return std::make_unique<PenaltyMethod>(model, settings, true);
    return nullptr;
}

}  // namespace looplab
