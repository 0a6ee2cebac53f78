#include "recording/FrameSource.h"

#include "looplab/model/Model.h"

#include <algorithm>
#include <cmath>

namespace looplab::ui {

Scene FrameSource::frameScene(int i) const
{
    const std::shared_ptr<const Model> model = frameModel();
    if (!model)
        return {};
    return buildScene(*model, frameState(i));
}

int FrameSource::frameAt(double t) const
{
    const int n = frameCount();
    if (n == 0)
        return -1;
    // A little slack so that a time read back from a label or slider still finds its frame.
    const double slack = 1e-9 * std::max(1.0, std::abs(t));
    // First frame after t + slack, by bisection over the times.
    int lo = 0, hi = n;
    while (lo < hi) {
        const int mid = lo + (hi - lo) / 2;
        if (t + slack < frameTime(mid))
            hi = mid;
        else
            lo = mid + 1;
    }
    return std::max(lo - 1, 0);
}

}  // namespace looplab::ui
