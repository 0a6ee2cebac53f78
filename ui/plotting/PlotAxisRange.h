#pragma once
// The value range a plot axis shows for data spanning [lo, hi]. An axis never magnifies
// rounding noise: data flat to within rounding (FlatRange.h) are drawn as a flat line in
// the middle of a range sized by the value, and the axis says the value.

#include "viewport/FlatRange.h"

namespace looplab::ui {

struct PlotAxisRange {
    double min = -1.0, max = 1.0;
    bool flat = false;   ///< the data are constant to within rounding
    double value = 0.0;  ///< their mean, when flat
};

/// Padded by 5 % of the span; a flat range is value ± 10 % of max(|value|, 1).
PlotAxisRange plotAxisRange(double lo, double hi);

}  // namespace looplab::ui
