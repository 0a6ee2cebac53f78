#include "export/AnimationTimeline.h"

#include <algorithm>
#include <cmath>

namespace looplab::ui {

int videoFrameCount(double start, double end, double fps) {
    if (!(end >= start) || !(fps > 0.0)) return 0;
    return static_cast<int>(std::floor((end - start) * fps + 1e-9)) + 1;
}

std::vector<int> recordedFramesForVideo(const std::vector<double>& times, double fps) {
    std::vector<int> out;
    if (times.empty()) return out;
    const int n = videoFrameCount(times.front(), times.back(), fps);
    out.reserve(static_cast<size_t>(n));
    for (int k = 0; k < n; ++k) {
        const double t = times.front() + k / fps;
        const auto it = std::lower_bound(times.begin(), times.end(), t);
        size_t i = static_cast<size_t>(it - times.begin());
        if (i == times.size()) i = times.size() - 1;
        else if (i > 0 && t - times[i - 1] <= times[i] - t) i -= 1;
        out.push_back(static_cast<int>(i));
    }
    return out;
}

}  // namespace looplab::ui
