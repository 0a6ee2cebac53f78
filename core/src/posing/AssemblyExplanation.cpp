#include "looplab/posing/AssemblyExplanation.h"

namespace looplab {

std::vector<std::string> AssemblyExplanation::sentences() const {
    std::vector<std::string> out;
    if (!closed) {
        if (fourBar) {
            const std::string reach = fourBar->reachSentence();
            if (!reach.empty()) out.push_back(reach);
        }
        for (const JointGap& g : gaps) out.push_back("joint " + g.label() + " at the best pose reached");
        if (!assembly.message.empty() && gaps.empty()) out.push_back(assembly.message);
    }
    if (fourBar) out.push_back(fourBar->grashofSentence());
    for (const DetachedJoint& d : detached) out.push_back(d.sentence);
    if (redundancy) out.push_back(redundancy->sentence);
    if (singular) out.push_back(singular->sentence);
    return out;
}

AssemblyExplanation explainAssembly(const Model& model, const AssemblyOptions& options) {
    return explainAssembly(model, initialState(model), options);
}

AssemblyExplanation explainAssembly(const Model& model, const State& start, const AssemblyOptions& options) {
    AssemblyExplanation e;
    e.pose = start;
    e.assembly = assemble(model, e.pose, options);
    e.closed = e.assembly.ok;
    // The assembly tolerance, in metres, with a margin so that a closed joint never shows.
    const double tolerance = 10.0 * options.tolerance * model.lengthScale;
    if (!e.closed) e.gaps = jointGaps(model, e.pose, tolerance);
    e.fourBar = findPlanarFourBar(model);
    e.detached = detachedJoints(model);
    if (e.closed) {
        e.redundancy = redundancyAdvice(model, analyzeMobility(model, e.pose, options.rankTolerance,
                                                               options.linearAlgebra));
        e.singular = singularLineUp(model, e.pose);
    }
    return e;
}

}  // namespace looplab
