#pragma once
// Redundancy and singularity told in the words of mechanism design rather than of linear
// algebra: which joints over-constrain a loop and the usual change that frees it, and
// at a singular configuration which links line up and the direction the mechanism
// cannot move in.

#include "looplab/kinematics/Mobility.h"
#include "looplab/model/Model.h"
#include "looplab/model/State.h"

#include <optional>
#include <string>
#include <vector>

namespace looplab {

struct RedundancyAdvice {
    std::vector<std::string> joints;  ///< owners of the redundant equations, each once
    int rotations = 0;     ///< redundant orientation equations
    int translations = 0;  ///< redundant length equations
    std::string sentence;
};

/// A joint that repeats another: the same type between the same two frames.
struct DuplicatedJoint {
    std::string joint;     ///< the later one in the model
    std::string original;  ///< the one it repeats
    int equations = 0;     ///< its equations, all redundant
    std::string sentence;  ///< "joint A2 repeats joint A (…): delete one of them"
};

/// Every joint that repeats an earlier one.
std::vector<DuplicatedJoint> duplicatedJoints(const Model& model);

/// Nothing when the report has no redundant equations. A repeated joint comes first, with
/// its fix; the usual fix for a loop follows for the redundant equations it does not explain.
std::optional<RedundancyAdvice> redundancyAdvice(const Model& model, const MobilityReport& report);

struct SingularLineUp {
    std::string link1, link2;   ///< bodies whose pivot lines are collinear
    std::string joint;          ///< the joint they share
    Vec3 point = Vec3::Zero();  ///< that joint's position, global [m]
    Vec3 direction = Vec3::Zero();  ///< unit: the line the joint cannot move along
    double smallestSingularValue = 0.0;  ///< scaled; 0 where the rank is lost outright
    std::string sentence;
};

/// At `state` (assembled), if the smallest singular value of the scaled constraint
/// Jacobian is below `threshold` or its rank is below the rank a small move along the
/// free mechanism (drivers released) finds (that comparison only up to 600 velocity
/// coordinates): the two adjacent links, among those whose joints carry
/// the lost direction, whose pivot lines are most nearly collinear. Nothing if the
/// configuration is regular or no two links line up.
std::optional<SingularLineUp> singularLineUp(const Model& model, const State& state,
                                             double threshold = 1e-2);

}  // namespace looplab
