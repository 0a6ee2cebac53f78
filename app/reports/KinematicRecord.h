#pragma once
// What a kinematic run of a fully driven model reports: a row per sample under named
// columns (the command line's CSV, Python's arrays) and a summary at the end.
#include "looplab/kinematics/JointCoordinates.h"
#include "looplab/kinematics/KinematicSimulation.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace looplab::reports {

class KinematicRecord {
public:
    explicit KinematicRecord(const Model& model);

    /// t, each body's position and quaternion, joint coordinates (revolute angles
    /// continuous over the run), the three violation norms.
    const std::vector<std::string>& columns() const { return columns_; }
    /// Takes a sample (in time order) and makes its row.
    void add(const KinematicSample& sample);
    const std::vector<double>& row() const { return row_; }
    bool empty() const { return !last_; }

    /// Steps, wall time, the largest violations and the final state.
    nlohmann::json summary(const KinematicResult& result, double wallTime) const;
    double maxPositionViolation() const { return maxPos_; }
    double maxVelocityViolation() const { return maxVel_; }
    double maxAccelerationViolation() const { return maxAcc_; }

private:
    const Model& model_;
    JointCoordinateTracker tracker_;
    std::vector<std::string> columns_;
    std::vector<double> row_, coordinates_;
    std::optional<KinematicSample> last_;
    double maxPos_ = 0.0, maxVel_ = 0.0, maxAcc_ = 0.0;
};

}  // namespace looplab::reports
