#include "looplab/integrate/GeneralizedAlpha.h"

#include <algorithm>
#include <cmath>

namespace looplab {

GeneralizedAlpha GeneralizedAlpha::hht(double alpha) {
    return GeneralizedAlpha{alpha, 0.25 * (1.0 - alpha) * (1.0 - alpha), 0.5 - alpha};
}

GeneralizedAlpha GeneralizedAlpha::newmark(double beta, double gamma) { return GeneralizedAlpha{0.0, beta, gamma}; }

VecX GeneralizedAlpha::positionIncrement(double h, const VecX& v, const VecX& aStart, const VecX& aEnd) const {
    return h * v + h * h * ((0.5 - beta) * aStart + beta * aEnd);
}

VecX GeneralizedAlpha::velocity(double h, const VecX& v, const VecX& aStart, const VecX& aEnd) const {
    return v + h * ((1.0 - gamma) * aStart + gamma * aEnd);
}

double GeneralizedAlpha::errorCoefficient() const {
    const double c = beta + 0.5 * alpha - 1.0 / 6.0;
    return std::abs(c) < 1e-3 ? 1.0 / 12.0 : std::abs(c);
}

VecX GeneralizedAlpha::localError(double h, const VecX& aStart, const VecX& aEnd) const {
    return (errorCoefficient() * h * h) * (aEnd - aStart);
}

VecX GeneralizedAlpha::controlledError(double h, const VecX& aStart, const VecX& aEnd) const {
    return (std::max(beta, gamma) * h * h) * (aEnd - aStart);
}

double weightedErrorNorm(const VecX& e, const VecX& scales, double rtol, double atol) {
    double worst = 0.0;
    for (Eigen::Index k = 0; k < e.size(); ++k) worst = std::max(worst, std::abs(e[k]) / (atol + rtol * scales[k]));
    return worst;
}

}  // namespace looplab
