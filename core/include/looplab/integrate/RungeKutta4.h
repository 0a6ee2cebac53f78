#pragma once
// Classic fourth-order Runge–Kutta with a fixed step, and cubic Hermite dense output.

#include "looplab/integrate/OdeSolver.h"

namespace looplab {

class RungeKutta4 final : public OdeSolver {
public:
    const char* name() const override { return "rk4"; }
    Status initialize(const OdeSystem& system, double t0, const VecX& y0,
                         const OdeSettings& settings) override;
    Status step(double tStop) override;
    double time() const override { return t_; }
    const VecX& state() const override { return y_; }
    double lastStepSize() const override { return h_; }
    void interpolate(double t, VecX& y) const override;

private:
    bool eval(double t, const VecX& y, VecX& dy);

    OdeSystem sys_;
    OdeSettings settings_;
    double t_ = 0.0, tPrev_ = 0.0, h_ = 0.0;
    VecX y_, yPrev_, f_, fPrev_;  // f_ = f(t_, y_), kept for the next step and for output
};

}  // namespace looplab
