#include "looplab/integrate/InitialStep.h"

#include <algorithm>
#include <cmath>

namespace looplab {

double explicitInitialStep(const std::function<bool(double t, const VecX& y, VecX& dy)>& eval, double t,
                           const VecX& y, const VecX& f, const OdeSettings& settings, int k) {
    auto norm = [&](const VecX& x, const VecX& ref) {
        const VecX sc = settings.atol + settings.rtol * ref.cwiseAbs().array();
        return std::sqrt((x.array() / sc.array()).square().mean());
    };
    const double d0 = norm(y, y), d1 = norm(f, y);
    const double h0 = (d0 < 1e-5 || d1 < 1e-5) ? 1e-6 : 0.01 * d0 / d1;
    VecX f1;
    if (!eval(t + h0, y + h0 * f, f1)) return 1e-6;
    const double d2 = norm(f1 - f, y) / h0;
    const double h1 = std::max(d1, d2) <= 1e-15 ? std::max(1e-6, h0 * 1e-3)
                                                : std::pow(0.01 / std::max(d1, d2), 1.0 / k);
    return std::min(100 * h0, h1);
}

}  // namespace looplab
