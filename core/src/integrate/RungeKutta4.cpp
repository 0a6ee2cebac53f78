#include "looplab/integrate/RungeKutta4.h"

#include <cmath>

namespace looplab {

bool RungeKutta4::eval(double t, const VecX& y, VecX& dy) {
    ++stats_.rhsEvaluations;
    return sys_.rhs(t, y, dy) && dy.allFinite();
}

Status RungeKutta4::initialize(const OdeSystem& system, double t0, const VecX& y0,
                                  const OdeSettings& settings) {
    sys_ = system;
    settings_ = settings;
    stats_ = {};
    if (!(settings.step > 0.0) || !std::isfinite(settings.step))
        return Status::failure("rk4 needs a positive step");
    t_ = tPrev_ = t0;
    y_ = yPrev_ = y0;
    h_ = 0.0;
    if (sys_.project && !sys_.project(t_, y_)) return Status::failure("initial projection failed");
    if (!eval(t_, y_, f_)) return Status::failure("right-hand side failed at the initial state");
    fPrev_ = f_;
    return {};
}

Status RungeKutta4::step(double tStop) {
    double h = settings_.step;
    // Land exactly on tStop instead of stepping past it or leaving a sliver.
    if (t_ + h >= tStop - 1e-9 * std::abs(h)) h = tStop - t_;
    if (!(h > 0.0)) return Status::failure("rk4: no time left before the stop time");
    VecX k2, k3, k4;
    if (!eval(t_ + 0.5 * h, y_ + 0.5 * h * f_, k2) || !eval(t_ + 0.5 * h, y_ + 0.5 * h * k2, k3) ||
        !eval(t_ + h, y_ + h * k3, k4))
        return Status::failure("right-hand side failed during a step from t = " + std::to_string(t_));
    yPrev_ = y_;
    fPrev_ = f_;
    tPrev_ = t_;
    y_ += (h / 6.0) * (f_ + 2.0 * k2 + 2.0 * k3 + k4);
    t_ += h;
    h_ = h;
    if (sys_.project && !sys_.project(t_, y_))
        return Status::failure("projection failed at t = " + std::to_string(t_));
    if (!eval(t_, y_, f_)) return Status::failure("right-hand side failed at t = " + std::to_string(t_));
    ++stats_.steps;
    return {};
}

void RungeKutta4::interpolate(double t, VecX& y) const {
    if (h_ <= 0.0) {
        y = y_;
        return;
    }
    const double s = (t - tPrev_) / h_;
    const double h00 = (1 + 2 * s) * (1 - s) * (1 - s), h10 = s * (1 - s) * (1 - s);
    const double h01 = s * s * (3 - 2 * s), h11 = s * s * (s - 1);
    y = h00 * yPrev_ + h10 * h_ * fPrev_ + h01 * y_ + h11 * h_ * f_;
}

}  // namespace looplab
