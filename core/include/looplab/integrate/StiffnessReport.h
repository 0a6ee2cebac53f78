#pragma once
// What a user is told when an explicit integrator finds the model stiff: which bodies
// (and, in a beam, which node) carry the stiff motion, how fast it is, and the methods
// that step over it instead.

#include "looplab/integrate/StiffnessDetector.h"
#include "looplab/model/Model.h"
#include "looplab/integrate/SimulationEvent.h"

#include <string>
#include <vector>

namespace looplab {

/// A body's share of the stiff part of the motion (the components of f(g_i) − f(g_j)).
struct StiffBody {
    std::string name;
    double share = 0.0;  ///< of ‖f(g_i) − f(g_j)‖², in [0, 1]
    int beamNode = -1;   ///< a beam's node carrying most of the body's share; −1 otherwise
};

/// The bodies carrying the stiff part, largest share first: as many as make up 90 % of it,
/// at most three. `finding.share` covers y = (q, v).
std::vector<StiffBody> stiffBodies(const Model& model, const StiffnessFinding& finding);

/// The "stiffness" event of `integrator` (the stepper `stepperName`) at the finding: the
/// stiff bodies, h·ρ against the threshold, ρ as a frequency, and the methods to use
/// instead (stiffRemedies()), in `detail`; `joints` stays empty.
SimulationEvent stiffnessEvent(const Model& model, const std::string& stepperName, const StiffnessFinding& finding);

}  // namespace looplab
