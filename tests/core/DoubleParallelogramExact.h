#pragma once
// The exact motion of resources/examples/double-parallelogram.json (no gravity losses: one
// degree of freedom, energy conserved): the crank angle θ at time t from the energy
// integral t = ∫ dθ / θ̇(θ), by Simpson's rule on 40 000 intervals and Newton's method on θ,
// and the position of coupler1's centre there. θ(0) = π/3, θ̇(0) = 12 rad/s; masses and
// lengths as in the file. Used by the tests that run the projection method through its
// flat postures.

#include "looplab/common/Types.h"

#include <cmath>

namespace looplab::test {

struct DoubleParallelogramExact {
    double theta = 0.0;        ///< crank angle at `time` [rad]
    double residual = 0.0;     ///< |t(θ) − time| of the quadrature [s]
    Vec3 coupler;              ///< centre of coupler1 [m]
};

inline DoubleParallelogramExact doubleParallelogramAt(double time) {
    const double mc = 0.3, rc = 0.075, Ic = 0.0005725, mk = 0.6, R = 0.15, g = 9.81;
    const double I = 3 * (Ic + mc * rc * rc) + 2 * mk * R * R, W = g * (3 * mc * rc + 2 * mk * R);
    const double theta0 = M_PI / 3, rate0 = 12.0;
    const double E = 0.5 * I * rate0 * rate0 + W * std::sin(theta0);
    const auto rate = [&](double th) { return std::sqrt(2 * (E - W * std::sin(th)) / I); };
    const auto timeAt = [&](double th) {
        const int n = 40000;
        const double h = (th - theta0) / n;
        double s = 1 / rate(theta0) + 1 / rate(th);
        for (int k = 1; k < n; ++k) s += (k % 2 ? 4.0 : 2.0) / rate(theta0 + k * h);
        return s * h / 3;
    };
    double theta = theta0 + rate0 * time;
    for (int it = 0; it < 20; ++it) {
        const double dt = timeAt(theta) - time;
        theta -= dt * rate(theta);
        if (std::abs(dt) < 1e-14) break;
    }
    return {theta, std::abs(timeAt(theta) - time), Vec3(R + R * std::cos(theta), R * std::sin(theta), 0.0)};
}

}  // namespace looplab::test
