#include "looplab/integrate/StepHermite.h"

#include "looplab/model/State.h"

#include <algorithm>

namespace looplab {

void StepHermite::reset(const State& s) {
    t0 = s.t;
    q0 = s.q;
    v0 = s.v;
    increment = VecX::Zero(s.v.size());
}

void StepHermite::begin(double t, const VecX& q, const VecX& v, const VecX& stepIncrement) {
    t0 = t;
    q0 = q;
    v0 = v;
    increment = stepIncrement;
}

void StepHermite::interpolate(const Model& model, double t1, const VecX& q1, const VecX& v1, double t,
                              State& out) const {
    const double h = t1 - t0;
    out.t = t;
    if (!(h > 0.0)) {
        out.q = q1;
        out.v = v1;
        return;
    }
    const double s = std::clamp((t - t0) / h, 0.0, 1.0);
    const double h10 = s * (1 - s) * (1 - s), h01 = s * s * (3 - 2 * s), h11 = s * s * (s - 1);
    const double d10 = (1 - s) * (1 - 3 * s), d01 = 6 * s * (1 - s), d11 = s * (3 * s - 2);
    out.q = q0;
    retract(model, out.q, VecX(h10 * h * v0 + h01 * increment + h11 * h * v1));
    out.v = d10 * v0 + d01 * increment / h + d11 * v1;
}

}  // namespace looplab
