#pragma once
// Dormand–Prince 5(4) (Dormand & Prince 1980; Hairer, Nørsett & Wanner, Solving ODE I,
// §II.4–II.6): embedded error estimate, standard step-size control, first-same-as-last,
// and the fourth-order continuous extension for output between steps.

#include "looplab/integrate/OdeSolver.h"
#include "looplab/integrate/SingularCrossing.h"

namespace looplab {

class DormandPrince5 final : public OdeSolver {
public:
    const char* name() const override { return "dopri5"; }
    Status initialize(const OdeSystem& system, double t0, const VecX& y0,
                         const OdeSettings& settings) override;
    Status step(double tStop) override;
    double time() const override { return t_; }
    const VecX& state() const override { return y_; }
    double lastStepSize() const override { return hLast_; }
    void interpolate(double t, VecX& y) const override;

private:
    bool eval(double t, const VecX& y, VecX& dy);

    OdeSystem sys_;
    OdeSettings settings_;
    double t_ = 0.0, h_ = 0.0, hLast_ = 0.0, tPrev_ = 0.0;
    VecX y_, k1_;
    // Dense-output coefficients of the last step.
    VecX r1_, r2_, r3_, r4_, r5_;
    SingularCrossingPassage passage_;
};

}  // namespace looplab
