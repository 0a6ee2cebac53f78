#include "looplab/integrate/StiffnessDetector.h"

#include <cmath>
#include <vector>

namespace looplab {

void StiffnessDetector::reset() {
    above_ = below_ = 0;
    steps_ = 0;
    found_ = false;
    finding_ = {};
}

bool StiffnessDetector::observe(double t, double h, const VecX& df, const VecX& dg) {
    ++steps_;
    if (found_ || !(threshold_ > 0.0)) return false;
    const double num = df.squaredNorm(), den = dg.squaredNorm();
    if (!(den > 0.0) || !std::isfinite(num)) return false;
    const double rho = std::sqrt(num / den);
    // Held by stability, or by a fast motion resolved although it makes many periods
    // between two outputs.
    const bool bound = h * rho > threshold_;
    const bool fast = outputInterval_ > 0.0 && rho * outputInterval_ >= 2.0 * M_PI * kPeriodsPerOutput &&
                      h * rho >= kTiedStep;
    if (bound || fast) {
        below_ = 0;
        if (++above_ < kStiffSteps) return false;
        found_ = true;
        finding_.t = t;
        finding_.step = steps_;
        finding_.stepSize = h;
        finding_.rho = rho;
        finding_.threshold = threshold_;
        finding_.stabilityBound = bound;
        finding_.outputInterval = outputInterval_;
        finding_.share = num > 0.0 ? VecX(df.array().square() / num) : VecX::Zero(df.size());
        return true;
    }
    if (++below_ >= kClearingSteps) above_ = 0;
    return false;
}

double StiffnessDetector::realStabilityBoundary(const std::vector<std::vector<double>>& a,
                                                const std::vector<double>& b) {
    // R(z) for an explicit method: the stage values of y' = z y from y0 = 1 with h = 1.
    const size_t s = b.size();
    auto r = [&](double z) {
        std::vector<double> k(s);
        double y = 1.0;
        for (size_t i = 0; i < s; ++i) {
            double g = 1.0;
            for (size_t j = 0; j < i && j < a[i].size(); ++j) g += a[i][j] * k[j];
            k[i] = z * g;
            y += b[i] * k[i];
        }
        return y;
    };
    // March along the negative real axis until |R| exceeds 1, then bisect.
    double lo = 0.0, hi = 0.0;
    const double dx = 1e-3;
    for (double x = dx; x < 100.0; x += dx) {
        if (std::abs(r(-x)) > 1.0) {
            hi = x;
            break;
        }
        lo = x;
    }
    if (hi == 0.0) return lo;
    for (int it = 0; it < 60; ++it) {
        const double mid = 0.5 * (lo + hi);
        (std::abs(r(-mid)) > 1.0 ? hi : lo) = mid;
    }
    return lo;
}

}  // namespace looplab
