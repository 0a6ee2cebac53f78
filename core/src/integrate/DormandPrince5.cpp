#include "looplab/integrate/DormandPrince5.h"

#include "looplab/integrate/InitialStep.h"
#include "looplab/integrate/SingularCrossing.h"

#include <algorithm>
#include <cmath>

namespace looplab {
namespace {
// Butcher tableau of Dormand & Prince (1980), and the dense-output weights of Hairer,
// Nørsett & Wanner's DOPRI5.
constexpr double c2 = 1.0 / 5, c3 = 3.0 / 10, c4 = 4.0 / 5, c5 = 8.0 / 9;
constexpr double a21 = 1.0 / 5;
constexpr double a31 = 3.0 / 40, a32 = 9.0 / 40;
constexpr double a41 = 44.0 / 45, a42 = -56.0 / 15, a43 = 32.0 / 9;
constexpr double a51 = 19372.0 / 6561, a52 = -25360.0 / 2187, a53 = 64448.0 / 6561, a54 = -212.0 / 729;
constexpr double a61 = 9017.0 / 3168, a62 = -355.0 / 33, a63 = 46732.0 / 5247, a64 = 49.0 / 176,
                 a65 = -5103.0 / 18656;
constexpr double a71 = 35.0 / 384, a73 = 500.0 / 1113, a74 = 125.0 / 192, a75 = -2187.0 / 6784,
                 a76 = 11.0 / 84;
constexpr double e1 = 71.0 / 57600, e3 = -71.0 / 16695, e4 = 71.0 / 1920, e5 = -17253.0 / 339200,
                 e6 = 22.0 / 525, e7 = -1.0 / 40;
// Hairer's DOPRI5 flags a step held by stability when h·ρ > 3.25 (the real stability
// boundary of the method is 3.31).
constexpr double kStiffnessThreshold = 3.25;
constexpr double d1 = -12715105075.0 / 11282082432, d3 = 87487479700.0 / 32700410799,
                 d4 = -10690763975.0 / 1880347072, d5 = 701980252875.0 / 199316789632,
                 d6 = -1453857185.0 / 822651844, d7 = 69997945.0 / 29380423;
}  // namespace

bool DormandPrince5::eval(double t, const VecX& y, VecX& dy) {
    ++stats_.rhsEvaluations;
    return sys_.rhs(t, y, dy) && dy.allFinite();
}

Status DormandPrince5::initialize(const OdeSystem& system, double t0, const VecX& y0,
                                     const OdeSettings& settings) {
    sys_ = system;
    settings_ = settings;
    stats_ = {};
    stiffness_ = StiffnessDetector(kStiffnessThreshold, settings.outputInterval);
    if (!(settings.rtol > 0.0) || !(settings.atol > 0.0))
        return Status::failure("dopri5 needs positive rtol and atol");
    t_ = tPrev_ = t0;
    y_ = y0;
    if (sys_.project && !sys_.project(t_, y_)) return Status::failure("initial projection failed");
    if (!eval(t_, y_, k1_)) return Status::failure("right-hand side failed at the initial state");
    h_ = settings.step > 0.0 ? settings.step
                             : explicitInitialStep([this](double t, const VecX& y, VecX& dy) { return eval(t, y, dy); },
                                                   t_, y_, k1_, settings_, 5);
    if (settings_.maxStep > 0.0) h_ = std::min(h_, settings_.maxStep);
    hLast_ = 0.0;
    passage_ = {};
    r1_ = r2_ = y_;
    r2_.setZero();
    r3_ = r4_ = r5_ = r2_;
    return {};
}

Status DormandPrince5::step(double tStop) {
    const int n = static_cast<int>(y_.size());
    VecX k2(n), k3(n), k4(n), k5(n), k6(n), k7(n), y1(n), y6(n);
    int failures = 0;
    for (;;) {
        double h = h_;
        if (settings_.maxStep > 0.0) h = std::min(h, settings_.maxStep);
        bool last = false;
        if (t_ + h >= tStop - 1e-12 * std::abs(tStop)) {
            h = tStop - t_;
            last = true;
        }
        if (!(h > 0.0)) return Status::failure("dopri5: no time left before the stop time");
        if (h < settings_.minStep && !last)
            return Status::failure("dopri5: step size " + std::to_string(h) + " fell below the minimum at t = " +
                                      std::to_string(t_) + " (the solution may be singular or the tolerances too tight)");
        // A step over a singular configuration, with the crossing midway between two stages,
        // keeps the accuracy of the smooth motion through it; the step-size proposal is kept
        // for the step after.
        bool shaped = false, holdsCrossing = false;
        double crossing = 0.0;
        const bool forecast = sys_.singularAhead && sys_.singularAhead(t_, crossing);
        passage_.observe(t_, forecast, crossing, settings_.maxStep > 0.0 ? std::min(h_, settings_.maxStep) : h_);
        if (forecast) {
            // The step that holds the crossing is planned with the length the smooth motion
            // took before it (SingularCrossingPassage::entryStep) even where the steps have
            // shrunk since: its stages stay as far from the crossing as that allows.
            static const std::vector<double> stages = {c2, c3, c4, c5, 1.0};
            const double plan = std::max(h, passage_.entryStep(t_));
            const double around = stepAroundCrossing(t_, plan, stages, crossing);
            const bool holds = crossing - t_ <= around && t_ + around < tStop;
            if (around < h || (holds && around > h)) {
                h = holds ? around : std::min(around, h);
                holdsCrossing = holds;
                last = false;
                shaped = true;
            }
        }
        bool ok = eval(t_ + c2 * h, y_ + h * (a21 * k1_), k2) &&
                  eval(t_ + c3 * h, y_ + h * (a31 * k1_ + a32 * k2), k3) &&
                  eval(t_ + c4 * h, y_ + h * (a41 * k1_ + a42 * k2 + a43 * k3), k4) &&
                  eval(t_ + c5 * h, y_ + h * (a51 * k1_ + a52 * k2 + a53 * k3 + a54 * k4), k5) &&
                  eval(t_ + h, y6 = y_ + h * (a61 * k1_ + a62 * k2 + a63 * k3 + a64 * k4 + a65 * k5), k6);
        if (ok) {
            y1 = y_ + h * (a71 * k1_ + a73 * k3 + a74 * k4 + a75 * k5 + a76 * k6);
            ok = eval(t_ + h, y1, k7);
        }
        if (!ok) {
            // A failed evaluation is treated like a rejected step: try a smaller one.
            ++stats_.rejectedSteps;
            if (++failures > 20)
                return Status::failure("right-hand side failed repeatedly near t = " + std::to_string(t_));
            h_ = 0.25 * h;
            continue;
        }
        const VecX errv = h * (e1 * k1_ + e3 * k3 + e4 * k4 + e5 * k5 + e6 * k6 + e7 * k7);
        const VecX sc = settings_.atol + settings_.rtol * y_.cwiseAbs().cwiseMax(y1.cwiseAbs()).array();
        const double err = n ? std::sqrt((errv.array() / sc.array()).square().mean()) : 0.0;
        if (!std::isfinite(err)) {
            ++stats_.rejectedSteps;
            h_ = 0.25 * h;
            if (++failures > 20) return Status::failure("error estimate not finite near t = " + std::to_string(t_));
            continue;
        }
        const double fac = std::clamp(0.9 * std::pow(std::max(err, 1e-10), -0.2), 0.2, 10.0);
        // Near a singular configuration the steps do not shrink below the passage's floor,
        // and a step of that length stands whatever its estimate (SingularCrossingPassage).
        const double shortest = passage_.shortestStep(t_);
        const bool roundingBound = err > 1.0 && (holdsCrossing || h <= shortest * (1.0 + 1e-9));
        if (err > 1.0 && !roundingBound) {
            ++stats_.rejectedSteps;
            h_ = std::max(h * std::min(1.0, fac), shortest);
            if (++failures > 100) return Status::failure("too many rejected steps near t = " + std::to_string(t_));
            continue;
        }
        // Stages 6 and 7 are both at t + h: Hairer's stiffness test compares them.
        stiffness_.observe(last ? tStop : t_ + h, h, k7 - k6, y1 - y6);
        // Accepted: build the continuous extension before moving on.
        r1_ = y_;
        r2_ = y1 - y_;
        r3_ = h * k1_ - r2_;
        r4_ = r2_ - h * k7 - r3_;
        r5_ = h * (d1 * k1_ + d3 * k3 + d4 * k4 + d5 * k5 + d6 * k6 + d7 * k7);
        tPrev_ = t_;
        t_ += h;
        if (last) t_ = tStop;
        y_ = y1;
        // The projected right-hand side does not change under the projection, so k7
        // remains the derivative at the projected state (first same as last).
        if (sys_.project && !sys_.project(t_, y_))
            return Status::failure("projection failed at t = " + std::to_string(t_));
        k1_ = k7;
        hLast_ = h;
        if (!last && !shaped && !roundingBound) h_ = h * (failures ? std::min(1.0, fac) : fac);
        ++stats_.steps;
        if (roundingBound) {
            ++stats_.roundingBoundSteps;
            stats_.largestRoundingBoundEstimate = std::max(stats_.largestRoundingBoundEstimate, err);
        }
        return {};
    }
}

void DormandPrince5::interpolate(double t, VecX& y) const {
    if (hLast_ <= 0.0) {
        y = y_;
        return;
    }
    const double s = (t - tPrev_) / hLast_;
    const double s1 = 1.0 - s;
    y = r1_ + s * (r2_ + s1 * (r3_ + s * (r4_ + s1 * r5_)));
}

}  // namespace looplab
