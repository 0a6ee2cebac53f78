#pragma once
// Joints placed where no part of either body is: usually a point typed or moved by hand
// that no longer meets the links it is meant to connect. The mechanism still works (the
// joint acts through thin air), so it is flagged rather than rejected.

#include "looplab/model/Model.h"
#include "looplab/model/VisualShape.h"

#include <string>
#include <vector>

namespace looplab {

/// Distance [m] from a point in the body frame to the body's shape (0 inside it);
/// negative if the shape is None, where nothing can be said.
double distanceToShape(const VisualShape& shape, const Vec3& bodyPoint);

struct DetachedJoint {
    JointIndex joint;
    std::string name;
    double distance1 = -1.0, distance2 = -1.0;  ///< to each body's shape [m]; −1: not judged
    std::string sentence;
};

/// Joints whose frame origin lies farther than `tolerance` · lengthScale from the shape of
/// each body it connects that has one (the ground has none). A joint whose bodies have
/// no shapes is never flagged.
std::vector<DetachedJoint> detachedJoints(const Model& model, double tolerance = 0.05);

}  // namespace looplab
