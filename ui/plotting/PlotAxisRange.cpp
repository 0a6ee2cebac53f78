#include "plotting/PlotAxisRange.h"

#include <algorithm>
#include <cmath>

namespace looplab::ui {

PlotAxisRange plotAxisRange(double lo, double hi)
{
    PlotAxisRange r;
    if (!std::isfinite(lo) || !std::isfinite(hi) || hi < lo)
        return r;
    if (isFlatRange(lo, hi)) {
        r.flat = true;
        r.value = 0.5 * (lo + hi);
        const double pad = 0.1 * std::max(std::abs(r.value), 1.0);
        r.min = r.value - pad;
        r.max = r.value + pad;
        return r;
    }
    const double pad = 0.05 * (hi - lo);
    r.min = lo - pad;
    r.max = hi + pad;
    return r;
}

}  // namespace looplab::ui
