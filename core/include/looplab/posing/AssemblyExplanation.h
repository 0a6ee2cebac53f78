#pragma once
// Why a model does or does not assemble, gathered for a user: the best pose reached with
// the gap of each unclosed joint, the four-bar's reach and Grashof conditions, joints
// placed away from their links, redundant joints and a singular line-up. The command
// line (`check`) prints it; the workbench draws it.

#include "looplab/kinematics/Assembly.h"
#include "looplab/kinematics/FourBarAnalysis.h"
#include "looplab/posing/JointGaps.h"
#include "looplab/posing/JointPlacement.h"
#include "looplab/posing/MechanismAdvice.h"
#include "looplab/model/Model.h"
#include "looplab/model/State.h"

#include <optional>
#include <string>
#include <vector>

namespace looplab {

struct AssemblyExplanation {
    bool closed = false;
    State pose;                          ///< the assembled pose, or the best one reached
    AssemblyResult assembly;
    std::vector<JointGap> gaps;          ///< unclosed joints, largest first
    std::optional<FourBarLinkage> fourBar;
    std::vector<DetachedJoint> detached;
    std::optional<RedundancyAdvice> redundancy;
    std::optional<SingularLineUp> singular;

    /// Every finding as one sentence, the most important first.
    std::vector<std::string> sentences() const;
};

/// Assembles the model's initial state and explains the outcome.
AssemblyExplanation explainAssembly(const Model& model, const AssemblyOptions& options = {});
/// The same from a given starting configuration.
AssemblyExplanation explainAssembly(const Model& model, const State& start,
                                    const AssemblyOptions& options = {});

}  // namespace looplab
