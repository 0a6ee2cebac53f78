#include "looplab/kinematics/JointCoordinates.h"

#include "looplab/kinematics/NodeJoints.h"

#include <cmath>

namespace looplab {

JointCoordinateTracker::JointCoordinateTracker(const Model& model) : model_(model) {
    for (size_t i = 0; i < model.joints.size(); ++i) {
        const Joint& j = model.joints[i];
        const JointIndex ji(static_cast<int>(i));
        // A revolute between two beam nodes is a pin: no axis, no angle (NodeJoints.h).
        const bool both = j.type == JointType::Cylindrical || j.type == JointType::Screw;
        const bool hasAngle = (j.type == JointType::Revolute && !isBeamToBeamRevolute(model, j)) || both;
        const bool hasDisp = j.type == JointType::Prismatic || both;
        if (hasAngle) coords_.push_back({ji, true, j.name + ".angle"});
        if (hasDisp) coords_.push_back({ji, false, j.name + ".displacement"});
    }
}

std::vector<double> JointCoordinateTracker::evaluate(const State& state, std::vector<double>* rates) const {
    std::vector<double> values(coords_.size());
    if (rates) rates->assign(coords_.size(), 0.0);
    for (size_t k = 0; k < coords_.size(); ++k) {
        const JointCoordinate& c = coords_[k];
        if (!c.angular) {
            values[k] = jointDisplacement(model_, state, c.joint);
            continue;
        }
        double a = jointAngle(model_, state, c.joint);
        const double rate = jointAngleRate(model_, state, c.joint);
        if (rates) (*rates)[k] = rate;
        if (!first_) {
            // Add the whole turns that bring the angle nearest the previous value carried
            // forward at the mean rate (trapezoidal rule).
            const double predicted = previous_[k] + 0.5 * (previousRates_[k] + rate) * (state.t - previousTime_);
            const double turns = std::round((predicted - a) / (2.0 * M_PI));
            if (std::isfinite(turns)) a += 2.0 * M_PI * turns;
        }
        values[k] = a;
    }
    return values;
}

std::vector<double> JointCoordinateTracker::peek(const State& state) const { return evaluate(state, nullptr); }

std::vector<double> JointCoordinateTracker::update(const State& state) {
    std::vector<double> rates;
    std::vector<double> values = evaluate(state, &rates);
    previous_ = values;
    previousRates_ = rates;
    previousTime_ = state.t;
    first_ = false;
    return values;
}

}  // namespace looplab
