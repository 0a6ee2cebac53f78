#include "looplab/simulation/OutputSchedule.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace looplab {

OutputSchedule::OutputSchedule(double t0, double tEnd, double dt) : t0_(t0), tEnd_(tEnd), dt_(dt) {
    const double outputs = dt > 0 ? std::floor((tEnd - t0) / dt * (1 + 1e-12)) : 0.0;
    outputs_ = outputs;
    frames_ = outputs + 1.0 + (t0 + outputs * dt < tEnd - 1e-12 * std::max(1.0, std::abs(tEnd)) ? 1.0 : 0.0);
    // Only meaningful when the frame count has been accepted as small enough.
    last_ = outputs >= 0.0 && outputs < double(std::numeric_limits<long>::max() / 2) ? static_cast<long>(outputs) : 0;
}

double OutputSchedule::timeOf(long k) const { return k > last_ ? tEnd_ : t0_ + static_cast<double>(k) * dt_; }

bool OutputSchedule::due(double t, double& to) {
    while (next_ <= last_ + 1 && timeOf(next_) <= t + 1e-12 * std::max(1.0, std::abs(t))) {
        to = timeOf(next_);
        if (next_ > last_ && to <= timeOf(last_) + 1e-12) {
            ++next_;  // tEnd coincides with the last regular output
            continue;
        }
        return true;
    }
    return false;
}

}  // namespace looplab
