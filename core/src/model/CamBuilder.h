#pragma once
// Compiles a cam coupler of the model document (its law and follower) into the coupler's
// equation and the cam's geometry; part of buildCouplers() (CouplerBuilder.cpp).

#include "looplab/model/State.h"
#include "looplab/model/Model.h"

#include <functional>
#include <string>
#include <vector>

namespace looplab {

/// How the cam's and the follower's joints hold the body they share: each joint's sign
/// makes its coordinate that of its other body relative to the common one.
struct CamJoints {
    JointIndex cam, follower;
    bool followerTurns = false;  ///< a revolute (oscillating follower), else a prismatic
    double camSign = 1.0, followerSign = 1.0;
    BodyIndex common;
};

/// Fills c's terms, offset, scale and cam from cd, or reports through `fail` (a field
/// under the coupler's JSON pointer, and the problem) and returns false.
bool buildCam(const Model& model, const State& initial, const CouplerDoc& cd, const CamJoints& joints, Coupler& c,
              const std::function<void(const std::string& field, const std::string& what)>& fail);

}  // namespace looplab
