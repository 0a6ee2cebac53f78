#pragma once
// How far each joint is from closing at a configuration that does not assemble, in the
// units a user reads: metres between the joint's two frames and degrees between its axes.

#include "looplab/model/Model.h"
#include "looplab/model/State.h"

#include <string>
#include <vector>

namespace looplab {

struct JointGap {
    JointIndex joint;
    std::string name;
    double distance = 0.0;  ///< norm of the joint's length equations [m]
    double angle = 0.0;     ///< misalignment from its orientation equations [rad]
    Vec3 point1 = Vec3::Zero(), point2 = Vec3::Zero();  ///< the two frame origins, global
    /// "B: 0.150 m apart" or "B: 0.150 m apart, 3.2° out of line".
    std::string label() const;
};

/// The joints of `model` whose equations are not met at `state` to within `tolerance`
/// (metres for length equations, radians for orientation ones), largest gap first.
std::vector<JointGap> jointGaps(const Model& model, const State& state, double tolerance = 1e-8);

}  // namespace looplab
