#pragma once
// Stepping over a singular configuration instead of into it.
//
// Where two assembly branches cross (a parallelogram lying flat), the smallest pivot of
// the constraint Jacobian's factorisation falls linearly to zero and rises again, while the
// motion along the branch stays smooth. Within the rank tolerance of the crossing the
// projection method drops the vanishing row for a short window and its accelerations lose
// that row's curvature terms; a solver whose stages land in the window carries that error
// on, and the tighter the tolerance, the more stages land there. The forecast below
// extrapolates the pivot from the last accepted steps to the time it would reach zero, so
// that an explicit solver can choose its steps to put the crossing midway between two
// stages, as far from both as the method allows: no stage then sees the window, and the
// nearest stages are as far from the rounding-level curvature just outside it as the step
// allows. Where the forecast is wrong, or the step over the crossing is rejected and the
// steps shrink towards it, the window's treatment remains the fallback.

#include "looplab/linalg/ConstraintSpaces.h"

#include <vector>

namespace looplab {

class SingularCrossingForecast {
public:
    /// A crossing is forecast only from pivot ratios below this: close enough to the
    /// crossing for the pivot to fall linearly in time.
    static constexpr double kNearSingular = 1e-2;

    SingularCrossingForecast() = default;

    /// After each accepted step: the factorisation of Φ_q at the step's end.
    void record(double t, const ConstraintSpaces& atStepEnd);
    /// The time the pivot ratio reaches zero, extrapolated from the last two accepted
    /// steps, if it is small and falling; false otherwise.
    bool ahead(double& crossingTime) const;

private:
    int nominalRank_ = -1;
    int samples_ = 0;
    double t1_ = 0.0, rho1_ = 0.0, t2_ = 0.0, rho2_ = 0.0;
};

/// The step from `t`, not above the proposal `h` unless by the rounding of the placement,
/// that puts the crossing at `crossingTime` in the middle of the widest gap between the
/// stages t + c·h (`stages`: the abscissae c of an explicit Runge–Kutta method, each in
/// (0, 1]), or that ends where the next step of length `h` will do so. `h` itself where the
/// crossing is behind, beyond the next step's reach, or where placing it would cut the step
/// below a twentieth.
double stepAroundCrossing(double t, double h, const std::vector<double>& stages, double crossingTime);

}  // namespace looplab
