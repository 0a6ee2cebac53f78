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
// allows. Near the crossing that rounding error dominates the error estimate at tight
// tolerances, and it grows as the steps shrink and their stages come nearer: the step over
// the crossing keeps the length the smooth motion took as the crossing came near, and the
// steps about it do not shrink below a quarter of that (SingularCrossingPassage). Where
// the forecast is wrong the window's treatment remains the fallback.

#include "looplab/linalg/ConstraintSpaces.h"

#include <vector>

namespace looplab {

class SingularCrossingForecast {
public:
    /// A crossing is forecast only from pivot ratios below this, close enough to the
    /// crossing for the pivot to fall linearly in time, and below kFallen of the run's
    /// regular ratio (the largest seen, at most 1). The second bound is for long chains of
    /// loops, whose ratio is small by their size alone (about 1e-3 for 20 loops on the
    /// dense path) and dips by a factor of two or three in regular motion: the first bound
    /// alone called every such dip a crossing, and the steps accepted over a crossing that
    /// never comes were wrong.
    static constexpr double kNearSingular = 1e-2;
    static constexpr double kFallen = 0.1;

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
    double rhoRegular_ = 0.0;  // the largest pivot ratio seen, at most 1
};

/// The neighbourhood of a forecast crossing, where an explicit solver's error estimate is
/// dominated by the rounding error of the accelerations, which grows like (σ₁/σ)³ as the
/// stages come nearer to the crossing: there a shorter step could only put its stages
/// nearer. The step that holds the crossing is planned with the entry step (the proposal
/// when the crossing was first forecast) and accepted whatever its estimate says; other
/// rejected steps are tried again shorter only down to a quarter of the entry step, and a
/// step of that length is accepted whatever its estimate says. Both rest on the motion
/// through the crossing being as smooth as before it: a step of the entry length has a
/// truncation error about the tolerance, a quarter of it about 4⁻⁵ of the tolerance, and
/// an estimate above that is rounding.
class SingularCrossingPassage {
public:
    static constexpr double kFloorFraction = 0.25;
    /// The neighbourhood extends at least this many entry steps past the crossing.
    static constexpr double kReach = 2.0;

    /// Before each attempted step from `t` with the proposal `proposedStep`: whether a
    /// crossing is forecast, and at which time. The neighbourhood runs from the first
    /// forecast (the pivot ratio below SingularCrossingForecast::kNearSingular) to as far
    /// past the crossing.
    void observe(double t, bool forecast, double crossingTime, double proposedStep);
    /// The step proposed when the crossing was first forecast, near it; 0 elsewhere.
    double entryStep(double t) const;
    /// The shortest step worth trying from `t`: the floor near a crossing, 0 elsewhere.
    double shortestStep(double t) const;

private:
    double start_ = 0.0, end_ = -1.0, entryStep_ = 0.0;
};

/// The step from `t`, not above the proposal `h` unless by the rounding of the placement,
/// that puts the crossing at `crossingTime` in the middle of the widest gap between the
/// stages t + c·h (`stages`: the abscissae c of an explicit Runge–Kutta method, each in
/// (0, 1]), or that ends where the next step of length `h` will do so. `h` itself where the
/// crossing is behind, beyond the next step's reach, or where placing it would cut the step
/// below a twentieth.
double stepAroundCrossing(double t, double h, const std::vector<double>& stages, double crossingTime);

}  // namespace looplab
