#pragma once
// The scales the implicit steppers hold each coordinate's local error to.
//
// A rigid body's translation is measured against the model's length scale L and its
// rotation against one radian, as before. A deformable member's nodal coordinates are
// measured against the member's own motion instead: the largest distance any of its nodes
// (or slopes) has moved from the run's start. Held to L, a tip vibrating 1 mm on a 1 m beam
// was controlled a thousand times more loosely than its amplitude, and drifted in phase by
// several percent of it within twenty periods at the default tolerances.

#include "looplab/common/Types.h"

#include <vector>

namespace looplab {

struct Model;

class ErrorScales {
public:
    explicit ErrorScales(const Model& model);

    /// The run starts at q: every member's motion so far is zero.
    void start(const VecX& q);
    /// The scales with the motion up to the last accepted step and to q, a trial's end.
    const VecX& with(const VecX& q);
    /// A step ending at q was accepted.
    void accept(const VecX& q);
    /// The scales with the motion up to the last accepted step.
    const VecX& current() const { return scales_; }

private:
    void fill(const std::vector<double>& motion, VecX& scales) const;

    std::vector<int> group_;    // per coordinate: its motion group, −1 for a fixed scale
    std::vector<int> position_; // per coordinate in a group: its index in q
    std::vector<double> motion_, trialMotion_;  // per group: largest |q − q₀| so far
    VecX start_;
    // L·(velocity scale) where the group is −1 (a translation against L, a rotation against 1)
    VecX scales_, trialScales_;
};

}  // namespace looplab
