#include "looplab/integrate/SingularCrossing.h"

#include <algorithm>
#include <cmath>

namespace looplab {

void SingularCrossingForecast::record(double t, const ConstraintSpaces& w) {
    if (nominalRank_ < 0) nominalRank_ = w.rank();
    const double largest = w.largestPivot();
    if (!(largest > 0.0)) {
        samples_ = 0;
        return;
    }
    // Inside the window the vanishing row is the first rejected one.
    const double rho = (w.rank() < nominalRank_ ? w.firstRejectedPivot() : w.smallestPivot()) / largest;
    rhoRegular_ = std::max(rhoRegular_, std::min(1.0, rho));
    if (samples_ > 0 && t <= t2_) return;
    t1_ = t2_;
    rho1_ = rho2_;
    t2_ = t;
    rho2_ = rho;
    ++samples_;
}

bool SingularCrossingForecast::ahead(double& crossingTime) const {
    if (samples_ < 2 || !(rho2_ < std::min(kNearSingular, kFallen * rhoRegular_)) || !(rho2_ < rho1_)) return false;
    const double rate = (rho1_ - rho2_) / (t2_ - t1_);
    if (!(rate > 0.0)) return false;
    crossingTime = t2_ + rho2_ / rate;
    return std::isfinite(crossingTime);
}

void SingularCrossingPassage::observe(double t, bool forecast, double crossingTime, double proposedStep) {
    if (!forecast) return;
    // A forecast outside the current neighbourhood starts a new one, whose floor follows
    // from the proposal of the smooth motion before the crossing.
    if (!(t >= start_ && t <= end_)) {
        start_ = t;
        entryStep_ = proposedStep;
    }
    // The pivot rises after the crossing as it fell before it: the neighbourhood ends as
    // far after the crossing as the first forecast came before it.
    end_ = crossingTime + std::max(crossingTime - start_, kReach * entryStep_);
}

double SingularCrossingPassage::entryStep(double t) const {
    return t >= start_ && t <= end_ ? entryStep_ : 0.0;
}

double SingularCrossingPassage::shortestStep(double t) const {
    return t >= start_ && t <= end_ ? kFloorFraction * entryStep_ : 0.0;
}

double stepAroundCrossing(double t, double h, const std::vector<double>& stages, double crossingTime) {
    // The widest gap between consecutive abscissae, the step's start (c = 0) included.
    std::vector<double> c = stages;
    c.push_back(0.0);
    std::sort(c.begin(), c.end());
    double middle = 0.5, width = 0.0;
    for (size_t i = 1; i < c.size(); ++i) {
        if (c[i] - c[i - 1] > width) {
            width = c[i] - c[i - 1];
            middle = 0.5 * (c[i] + c[i - 1]);
        }
    }
    const double d = crossingTime - t;
    if (!(d > 0.0) || !(d < (1.0 + middle) * h)) return h;
    const double shortest = h / 20.0;
    if (d <= middle * h) {
        // Within this step: shorten it so that the crossing falls in the middle.
        const double step = d / middle;
        return step >= shortest ? step : h;
    }
    // Beyond this step's middle: end the step where the next one, of the proposed length,
    // has the crossing in its middle; where that step would be too short, move the
    // crossing a fifth of the gap's half-width past the middle instead.
    const double before = d - middle * h;
    if (before >= shortest) return before;
    return std::min(h, d / (middle + 0.1 * width));
}

}  // namespace looplab
