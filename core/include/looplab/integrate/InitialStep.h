#pragma once
// The first step of an adaptive explicit Runge–Kutta method: Hairer's starting-step
// heuristic (Hairer, Nørsett & Wanner, Solving ODE I, §II.4). With the weighted RMS norm
// of the step control, d0 = ‖y₀‖, d1 = ‖f₀‖, a trial Euler step h₀ = 0.01 d0/d1 (1e-6 when
// either is below 1e-5), d2 = ‖f(t₀ + h₀, y₀ + h₀f₀) − f₀‖/h₀, and
// h = min(100 h₀, (0.01 / max(d1, d2))^(1/k)).

#include "looplab/integrate/OdeSolver.h"

#include <functional>

namespace looplab {

/// The first step from (t, y) with f = y'(t). `k` is the exponent's order: dopri5 takes 5
/// (the value of Hairer's code), a pair whose propagated method has order p takes p + 1
/// (its local error). `eval` evaluates the right-hand side (and counts it); when it fails
/// the step is 1e-6.
double explicitInitialStep(const std::function<bool(double t, const VecX& y, VecX& dy)>& eval, double t,
                           const VecX& y, const VecX& f, const OdeSettings& settings, int k);

}  // namespace looplab
