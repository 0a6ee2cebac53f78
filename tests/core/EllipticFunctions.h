#pragma once
// Complete elliptic integral and Jacobi's sn, for exact pendulum solutions in the tests.

#include <cmath>

namespace looplab::test {

// Arithmetic–geometric mean, iterated until the two means agree to rounding.
inline double agm(double a, double b) {
    for (int i = 0; i < 64 && std::abs(a - b) > 1e-16 * a; ++i) {
        const double an = 0.5 * (a + b);
        b = std::sqrt(a * b);
        a = an;
    }
    return 0.5 * (a + b);
}

// Complete elliptic integral of the first kind, modulus k.
inline double ellipticK(double k) { return M_PI / (2.0 * agm(1.0, std::sqrt(1.0 - k * k))); }

// Jacobi sn(u, k) by the descending Landen (AGM) scheme, Abramowitz & Stegun 16.4.
inline double jacobiSn(double u, double k) {
    double a[32], c[32];
    a[0] = 1.0;
    double b = std::sqrt(1.0 - k * k);
    c[0] = k;
    int n = 0;
    while (std::abs(c[n]) > 1e-17 && n < 30) {
        a[n + 1] = 0.5 * (a[n] + b);
        c[n + 1] = 0.5 * (a[n] - b);
        b = std::sqrt(a[n] * b);
        ++n;
    }
    double phi = std::ldexp(a[n] * u, n);
    for (int i = n; i > 0; --i) phi = 0.5 * (phi + std::asin(c[i] / a[i] * std::sin(phi)));
    return std::sin(phi);
}

}  // namespace looplab::test
