#pragma once
// When numbers shown as a range are one number: values that vary by less than
// kFlatRelativeSpan of their magnitude (at least one unit, so that noise about zero counts
// too) differ by rounding only. A chart's axis (PlotAxisRange.h) and a colour map
// (FlexibleActors.h) then show one value instead of magnifying the noise.

#include <algorithm>
#include <cmath>

namespace looplab::ui {

inline constexpr double kFlatRelativeSpan = 1e-9;

/// Whether values spanning [lo, hi] are constant to within rounding.
inline bool isFlatRange(double lo, double hi)
{
    return hi - lo <= kFlatRelativeSpan * std::max({std::abs(lo), std::abs(hi), 1.0});
}

}  // namespace looplab::ui
