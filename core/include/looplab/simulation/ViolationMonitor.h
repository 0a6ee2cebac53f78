#pragma once
// Holds each method to the constraint drift it is entitled to: a run whose constraints
// drift beyond what its tolerances allow says so (a "constraint_violation" event), and a
// mechanism that has come apart ends the run (docs/methods.md, "Trusting a run").

#include "looplab/model/Model.h"
#include "looplab/integrate/SimulationEvent.h"
#include "looplab/simulation/SimulationFrame.h"
#include "looplab/simulation/SimulationSettings.h"

#include <functional>
#include <string>

namespace looplab {

/// How far a method may let the constraints drift before the simulator says so: above
/// `warning` [m, scaled ‖D_r Φ‖∞] a "constraint_violation" event is raised once; above
/// `gross` the mechanism has come apart and the run fails. For the penalty methods the
/// warning bound grows with the constraint forces: add `perMultiplier` × ‖D_r⁻¹ λ‖∞
/// (the largest so far in the run).
struct ViolationBound {
    double warning = 0.0;
    double perMultiplier = 0.0;  ///< [m per unit of scaled multiplier]
    double gross = 0.0;
};
ViolationBound constraintViolationBound(const Model& model, const SimulationSettings& settings);

class ViolationMonitor {
public:
    using EventSink = std::function<void(SimulationEvent)>;
    ViolationMonitor(const Model& model, const SimulationSettings& settings, EventSink emit);

    /// Checks a frame. Returns false if the mechanism has come apart: a "failure" event
    /// was raised and *failure holds its message.
    bool check(const SimulationFrame& frame, std::string* failure);

private:
    // Joints whose equations are violated by more than `limit` [m, scaled] at a frame.
    std::vector<std::string> violatedJoints(const SimulationFrame& frame, double limit) const;

    const Model& model_;
    std::string method_;
    ViolationBound bound_;
    VecX rowScales_;
    EventSink emit_;
    bool warned_ = false;
    double maxScaledMultiplier_ = 0.0;
};

/// "message (joints a, b)": a failure's message names the joints, so that the text alone
/// says where.
std::string namingJoints(const std::string& message, const std::vector<std::string>& joints);

}  // namespace looplab
