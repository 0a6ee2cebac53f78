#include "looplab/integrate/EventLocation.h"

#include <cmath>
#include <limits>

namespace looplab {

namespace {

double valueAt(const TimeStepper& stepper, double t, double t1, const SwitchingFunction& f, State& x) {
    if (t == t1) x = stepper.state();
    else stepper.interpolate(t, x);
    x.t = t;
    return f(x);
}

}  // namespace

std::optional<LocatedEvent> locateFirstCrossing(const TimeStepper& stepper, double t0, double t1,
                                                const SwitchingFunction& f, int panels) {
    State x;
    double a = t0;
    double fa = valueAt(stepper, a, t1, f, x);
    if (std::isnan(fa)) return std::nullopt;
    if (fa <= 0.0) return LocatedEvent{a, x, fa};
    // The first panel whose end is ≤ 0.
    double b = t1, fb = 0.0;
    bool found = false;
    for (int k = 1; k <= panels; ++k) {
        const double t = k == panels ? t1 : t0 + (t1 - t0) * k / panels;
        const double v = valueAt(stepper, t, t1, f, x);
        if (std::isnan(v)) return std::nullopt;
        if (v <= 0.0) {
            b = t;
            fb = v;
            found = true;
            break;
        }
        a = t;
        fa = v;
    }
    if (!found) return std::nullopt;
    // Illinois: the end that stays has its value halved, so that the bracket closes from
    // both sides; a bisection every third try if the bracket did not halve.
    const double resolution = 4.0 * std::numeric_limits<double>::epsilon() * std::max(std::abs(t0), std::abs(t1));
    int side = 0;
    double width = b - a;
    State xb = x;
    for (int it = 0; it < 200 && b - a > resolution; ++it) {
        double t = (it % 3 == 2 && b - a > 0.5 * width) ? 0.5 * (a + b) : b - fb * (b - a) / (fb - fa);
        if (!(t > a && t < b)) t = 0.5 * (a + b);
        if (it % 3 == 2) width = b - a;
        const double v = valueAt(stepper, t, t1, f, x);
        if (std::isnan(v)) return std::nullopt;
        if (v <= 0.0) {
            b = t;
            fb = v;
            xb = x;
            if (side == -1) fa *= 0.5;
            side = -1;
        } else {
            a = t;
            fa = v;
            if (side == 1) fb *= 0.5;
            side = 1;
        }
        if (v == 0.0) break;
    }
    // The end on the event's side, so that the event's state has crossed (f ≤ 0).
    State at;
    const double v = valueAt(stepper, b, t1, f, at);
    return LocatedEvent{b, at, v};
}

}  // namespace looplab
