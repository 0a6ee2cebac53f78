#pragma once
// Whether a run can still end within its step limit. A solver whose steps are held short
// (an explicit integrator on a stiff model, a step size that collapsed near a singular
// configuration) would otherwise use the whole limit, ten million steps by default and
// tens of minutes, before failing; the pace of the steps so far says so much earlier.

#include <algorithm>

namespace looplab {

/// Steps the whole span needs at the pace so far, once that pace is known well enough
/// (at least max(1 000, limit/100) steps taken), if that is more than twice the limit;
/// 0 otherwise. The factor 2 leaves room for a run whose steps lengthen later.
inline double stepsNeededBeyondLimit(long steps, double spanDone, double span, long limit) {
    if (limit <= 0 || steps < std::max(1000L, limit / 100) || !(spanDone > 0.0)) return 0.0;
    const double needed = double(steps) * span / spanDone;
    return needed > 2.0 * double(limit) ? needed : 0.0;
}

}  // namespace looplab
