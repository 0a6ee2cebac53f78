#include "looplab/JointCoordinates.h"

#include <cmath>

namespace looplab {

JointCoordinateTracker::JointCoordinateTracker(const Model& model) : model_(model) {
    for (size_t i = 0; i < model.joints.size(); ++i) {
        const Joint& j = model.joints[i];
        const JointIndex ji(static_cast<int>(i));
        const bool hasAngle = j.type == JointType::Revolute || j.type == JointType::Cylindrical;
        const bool hasDisp = j.type == JointType::Prismatic || j.type == JointType::Cylindrical;
        if (hasAngle) coords_.push_back({ji, true, j.name + ".angle"});
        if (hasDisp) coords_.push_back({ji, false, j.name + ".displacement"});
    }
}

std::vector<double> JointCoordinateTracker::update(const State& state) {
    std::vector<double> values(coords_.size());
    for (size_t k = 0; k < coords_.size(); ++k) {
        const JointCoordinate& c = coords_[k];
        if (!c.angular) {
            values[k] = jointDisplacement(model_, state, c.joint);
            continue;
        }
        double a = jointAngle(model_, state, c.joint);
        if (!first_) {
            // Add the whole turns that bring the angle nearest the previous value.
            a += 2.0 * M_PI * std::round((previous_[k] - a) / (2.0 * M_PI));
        }
        values[k] = a;
    }
    previous_ = values;
    first_ = false;
    return values;
}

}  // namespace looplab
