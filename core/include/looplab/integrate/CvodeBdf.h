#pragma once
// SUNDIALS CVODE in BDF mode (variable order 1–5) with Newton iterations on a dense,
// difference-quotient Jacobian: for stiff models (stiff springs, penalty formulations).
// The system's projection is handed to CVODE's projection hook, which applies it after
// each accepted step.

#include "looplab/integrate/OdeSolver.h"

namespace looplab {

class CvodeBdf final : public OdeSolver {
public:
    CvodeBdf();
    ~CvodeBdf() override;
    CvodeBdf(const CvodeBdf&) = delete;
    CvodeBdf& operator=(const CvodeBdf&) = delete;

    const char* name() const override { return "bdf"; }
    Status initialize(const OdeSystem& system, double t0, const VecX& y0,
                         const OdeSettings& settings) override;
    Status step(double tStop) override;
    double time() const override { return t_; }
    const VecX& state() const override { return y_; }
    double lastStepSize() const override { return hLast_; }
    void interpolate(double t, VecX& y) const override;

    struct Impl;

private:
    void release();
    Impl* impl_ = nullptr;
    double t_ = 0.0, hLast_ = 0.0;
    VecX y_;
};

}  // namespace looplab
