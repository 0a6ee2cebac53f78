#pragma once
// Setting one joint coordinate by hand, the rest of the mechanism assembling around it:
// the coordinate is moved from its present value to the requested one in small steps,
// each assembled from the last, so the mechanism stays on its assembly branch (a
// four-bar does not flip from open to crossed on the way).

#include "looplab/kinematics/Assembly.h"
#include "looplab/model/Model.h"
#include "looplab/model/State.h"
#include "looplab/model/Status.h"

namespace looplab {

struct JointCoordinateResult {
    Status status;          ///< why the mechanism could not follow, naming the joints
    double reached = 0.0;   ///< the coordinate's value at the returned state
    double closure = 0.0;   ///< max |Φ| of the model's joints at the returned state
};

/// Which coordinate of a joint is set: the angle about its axis (revolute and
/// cylindrical joints) or the slide along it (prismatic and cylindrical joints).
enum class JointCoordinateKind { Angle, Slide };

/// Sets the angle [rad] of revolute `joint` (or the displacement [m] of a prismatic one)
/// to `value`, measured as jointAngle()/jointDisplacement() measure it, with every joint
/// of `model` held; the model's drivers are released. Angles go the shorter way round.
/// On failure `state` holds the last configuration that closed, and `reached` its value.
JointCoordinateResult setJointCoordinate(const Model& model, State& state, JointIndex joint,
                                         double value, const AssemblyOptions& options = {});

/// Sets the chosen coordinate of `joint` (a cylindrical joint has both) as above: the
/// angle [rad] as jointAngle() measures it, the slide [m] as jointDisplacement() does.
JointCoordinateResult setJointCoordinate(const Model& model, State& state, JointIndex joint,
                                         JointCoordinateKind kind, double value,
                                         const AssemblyOptions& options = {});

}  // namespace looplab
