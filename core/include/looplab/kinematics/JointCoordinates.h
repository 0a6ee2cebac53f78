#pragma once
// Continuous joint coordinates for output: revolute angles are unwrapped across ±π so
// that a crank that turns twice reports 4π, not a saw-tooth.

#include "looplab/model/Model.h"
#include "looplab/model/State.h"

#include <string>
#include <vector>

namespace looplab {

/// One output coordinate of a joint.
struct JointCoordinate {
    JointIndex joint;
    bool angular = true;  ///< angle [rad] or displacement [m]
    std::string name;     ///< "<joint>.angle" or "<joint>.displacement"
};

/// Tracks the coordinates of every revolute, cylindrical (both) and prismatic joint.
class JointCoordinateTracker {
public:
    explicit JointCoordinateTracker(const Model& model);

    const std::vector<JointCoordinate>& coordinates() const { return coords_; }

    /// Values at `state`, angles continued from the previous call (the first call
    /// returns angles in (−π, π]). The continuation takes the whole turns that bring an
    /// angle nearest the previous one advanced by the mean of the two joint rates over the
    /// time between the calls, so a joint may turn more than π between calls as long as
    /// its rate changes little; call it at every solver step for a fast joint.
    std::vector<double> update(const State& state);
    /// The values update() would return, without moving the reference.
    std::vector<double> peek(const State& state) const;

private:
    std::vector<double> evaluate(const State& state, std::vector<double>* rates) const;

    const Model& model_;
    std::vector<JointCoordinate> coords_;
    std::vector<double> previous_, previousRates_;
    double previousTime_ = 0.0;
    bool first_ = true;
};

}  // namespace looplab
