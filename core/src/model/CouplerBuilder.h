#pragma once
// Compiles the model document's couplers (gear pairs, racks, belts, linear couplers, cams
// through CamBuilder.h) into the Model's coupler equations; part of buildModel()
// (ModelBuilder.cpp).

#include "looplab/model/Model.h"

#include <functional>
#include <map>
#include <string>

namespace looplab {

struct CouplerBuildContext {
    /// The document's couplers.
    const std::vector<CouplerDoc>* couplers = nullptr;
    /// The joints built so far, by name.
    const std::map<std::string, JointIndex>* joints = nullptr;
    /// Whether a joint of that name is declared (a declared joint that was rejected has
    /// its own diagnostic, so a coupler naming it adds none).
    std::function<bool(const std::string&)> declaredJoint;
    /// Reports a problem at a JSON pointer.
    std::function<void(const std::string& where, const std::string& what)> error;
    /// Checks the coupler's name (empty, duplicate) at a JSON pointer.
    std::function<void(const std::string& name, const std::string& where)> checkName;
};

/// Appends one equation per valid coupler of the document to the model (after every
/// joint and driver, which must be built), or reports why a coupler is invalid.
void buildCouplers(Model& model, const CouplerBuildContext& context);

/// The smallest whole numbers aᵢ (|aᵢ| ≤ kLargestCouplerWhole) with xᵢ = unit·aᵢ to 1e-9
/// relative, if there are such (every xᵢ non-zero and finite).
bool wholeNumberRatio(const std::vector<double>& x, std::vector<double>& whole, double& unit);

inline constexpr int kLargestCouplerWhole = 10000;

}  // namespace looplab
