#include "looplab/integrate/ErrorScales.h"

#include "looplab/bodies/BodyFormulation.h"
#include "looplab/kinematics/Constraints.h"
#include "looplab/model/Model.h"

#include <algorithm>
#include <cmath>

namespace looplab {

ErrorScales::ErrorScales(const Model& model) : scales_(model.lengthScale * coordinateScales(model)) {
    const auto n = static_cast<size_t>(model.velocitySize());
    group_.assign(n, -1);
    position_.assign(n, -1);
    int groups = 0;
    for (const Body& body : model.bodies) {
        const BodyFormulation& f = *body.formulation;
        const int size = body.slice.velocitySize;
        if (size == 0 || f.positionSize() != size) continue;
        int largest = -1;
        for (int k = 0; k < size; ++k) {
            const int g = f.motionGroup(k);
            if (g < 0) continue;
            const auto index = static_cast<size_t>(body.slice.velocityOffset + k);
            group_[index] = groups + g;
            position_[index] = body.slice.positionOffset + k;
            largest = std::max(largest, g);
        }
        groups += largest + 1;
    }
    motion_.assign(static_cast<size_t>(groups), 0.0);
    trialMotion_ = motion_;
    trialScales_ = scales_;
}

void ErrorScales::fill(const std::vector<double>& motion, VecX& scales) const {
    for (size_t k = 0; k < group_.size(); ++k)
        if (group_[k] >= 0) scales[static_cast<Eigen::Index>(k)] = motion[static_cast<size_t>(group_[k])];
}

void ErrorScales::start(const VecX& q) {
    start_ = q;
    std::fill(motion_.begin(), motion_.end(), 0.0);
    fill(motion_, scales_);
}

const VecX& ErrorScales::with(const VecX& q) {
    trialMotion_ = motion_;
    for (size_t k = 0; k < group_.size(); ++k) {
        if (group_[k] < 0) continue;
        const auto i = static_cast<Eigen::Index>(position_[k]);
        const double moved = std::abs(q[i] - start_[i]);
        // A coordinate that is not finite is left to the step's own checks.
        if (std::isfinite(moved)) {
            double& m = trialMotion_[static_cast<size_t>(group_[k])];
            m = std::max(m, moved);
        }
    }
    fill(trialMotion_, trialScales_);
    return trialScales_;
}

void ErrorScales::accept(const VecX& q) {
    with(q);
    motion_ = trialMotion_;
    scales_ = trialScales_;
}

}  // namespace looplab
