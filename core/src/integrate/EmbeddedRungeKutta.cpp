#include "looplab/integrate/EmbeddedRungeKutta.h"
#include "looplab/integrate/InitialStep.h"

// ARKODE's headers use FILE without including <stdio.h>.
#include <cstdio>

#include <arkode/arkode_butcher_erk.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace looplab {

EmbeddedRungeKutta::EmbeddedRungeKutta(EmbeddedPair pair, std::string name) : name_(std::move(name)) {
    const ARKODE_ERKTableID id = pair == EmbeddedPair::Verner65 ? ARKODE_VERNER_8_5_6 : ARKODE_FEHLBERG_13_7_8;
    ARKodeButcherTable table = ARKodeButcherTable_LoadERK(id);
    if (!table || !table->d) throw std::logic_error("ARKODE has no embedded table for " + name_);
    const int s = table->stages;
    order_ = table->q;
    embeddedOrder_ = table->p;
    a_.resize(s);
    c_.resize(s);
    b_.resize(s);
    e_.resize(s);
    for (int i = 0; i < s; ++i) {
        a_[i].assign(table->A[i], table->A[i] + i);
        c_[i] = table->c[i];
        b_[i] = table->b[i];
        e_[i] = table->b[i] - table->d[i];
    }
    // First same as last: the last stage is evaluated at the propagated solution itself.
    firstSameAsLast_ = c_[s - 1] == 1.0;
    for (int j = 0; j < s && firstSameAsLast_; ++j)
        firstSameAsLast_ = (j < s - 1 ? table->A[s - 1][j] : 0.0) == b_[j];
    ARKodeButcherTable_Free(table);
    outputNodes_ = (order_ + 1) / 2 + 1;
    // Hairer's stiffness test needs two stages at the same time; the last such pair at the
    // latest abscissa, and a threshold a little below the method's real stability
    // boundary, as dopri5's 3.25 is below its 3.31.
    for (int i = s - 1; i > 0 && stiffStageA_ < 0; --i)
        for (int j = i - 1; j >= 0; --j)
            if (c_[j] == c_[i] && c_[i] > 0.0) {
                stiffStageA_ = i;
                stiffStageB_ = j;
                break;
            }
    if (stiffStageA_ >= 0) stiffnessThreshold_ = 0.98 * StiffnessDetector::realStabilityBoundary(a_, b_);
}

bool EmbeddedRungeKutta::eval(double t, const VecX& y, VecX& dy) const {
    ++stats_.rhsEvaluations;
    return sys_.rhs(t, y, dy) && dy.allFinite();
}

Status EmbeddedRungeKutta::initialize(const OdeSystem& system, double t0, const VecX& y0,
                                      const OdeSettings& settings) {
    sys_ = system;
    settings_ = settings;
    stats_ = {};
    stiffness_ = StiffnessDetector(stiffnessThreshold_, settings.outputInterval);
    if (!(settings.rtol > 0.0) || !(settings.atol > 0.0)) return failure("needs positive rtol and atol");
    t_ = t0;
    y_ = y0;
    if (sys_.project && !sys_.project(t_, y_)) return Status::failure("initial projection failed");
    if (!eval(t_, y_, f_)) return Status::failure("right-hand side failed at the initial state");
    history_.assign(1, Node{t_, y_, f_});
    outputSteps_ = 0;
    nearCrossing_ = false;
    k_.assign(c_.size(), VecX(y_.size()));
    h_ = settings.step > 0.0 ? settings.step
                             : explicitInitialStep([this](double t, const VecX& y, VecX& dy) { return eval(t, y, dy); },
                                                   t_, y_, f_, settings_, order_ + 1);
    if (settings_.maxStep > 0.0) h_ = std::min(h_, settings_.maxStep);
    hLast_ = 0.0;
    passage_ = {};
    return {};
}

Status EmbeddedRungeKutta::step(double tStop) {
    const int n = static_cast<int>(y_.size());
    const int s = stages();
    const double exponent = -1.0 / (std::min(order_, embeddedOrder_) + 1);
    VecX stage(n), y1(n), f1(n), errv(n);
    int failures = 0;
    for (;;) {
        double h = h_;
        if (settings_.maxStep > 0.0) h = std::min(h, settings_.maxStep);
        bool last = false;
        if (t_ + h >= tStop - 1e-12 * std::abs(tStop)) {
            h = tStop - t_;
            last = true;
        }
        if (!(h > 0.0)) return failure("no time left before the stop time");
        if (h < settings_.minStep && !last)
            return failure("step size " + std::to_string(h) + " fell below the minimum at t = " + std::to_string(t_) +
                           " (the solution may be singular or the tolerances too tight)");
        // Over a forecast singular configuration, as dopri5: the crossing midway between
        // two of this table's stages, the step planned with the smooth motion's length.
        bool shaped = false, holdsCrossing = false;
        double crossing = 0.0;
        const bool forecast = sys_.singularAhead && sys_.singularAhead(t_, crossing);
        passage_.observe(t_, forecast, crossing, settings_.maxStep > 0.0 ? std::min(h_, settings_.maxStep) : h_);
        if (forecast) {
            const double plan = std::max(h, passage_.entryStep(t_));
            const double around = stepAroundCrossing(t_, plan, c_, crossing);
            const bool holds = crossing - t_ <= around && t_ + around < tStop;
            if (around < h || (holds && around > h)) {
                h = holds ? around : std::min(around, h);
                holdsCrossing = holds;
                last = false;
                shaped = true;
            }
        }
        k_[0] = f_;
        bool ok = true;
        for (int i = 1; i < s && ok; ++i) {
            stage = y_;
            for (int j = 0; j < i; ++j)
                if (a_[i][j] != 0.0) stage += (h * a_[i][j]) * k_[j];
            ok = eval(t_ + c_[i] * h, stage, k_[i]);
            if (i == stiffStageA_) stiffArgA_ = stage;
            if (i == stiffStageB_) stiffArgB_ = stage;
        }
        if (ok) {
            y1 = y_;
            errv.setZero();
            for (int j = 0; j < s; ++j) {
                if (b_[j] != 0.0) y1 += (h * b_[j]) * k_[j];
                if (e_[j] != 0.0) errv += (h * e_[j]) * k_[j];
            }
        }
        if (!ok) {
            // A failed evaluation is treated like a rejected step: try a smaller one.
            ++stats_.rejectedSteps;
            if (++failures > 20)
                return Status::failure("right-hand side failed repeatedly near t = " + std::to_string(t_));
            h_ = 0.25 * h;
            continue;
        }
        const VecX sc = settings_.atol + settings_.rtol * y_.cwiseAbs().cwiseMax(y1.cwiseAbs()).array();
        const double err = n ? std::sqrt((errv.array() / sc.array()).square().mean()) : 0.0;
        if (!std::isfinite(err)) {
            ++stats_.rejectedSteps;
            h_ = 0.25 * h;
            if (++failures > 20) return Status::failure("error estimate not finite near t = " + std::to_string(t_));
            continue;
        }
        const double fac = std::clamp(0.9 * std::pow(std::max(err, 1e-10), exponent), 0.2, 10.0);
        // Near a singular configuration the steps do not shrink below the passage's floor,
        // and a step of that length stands whatever its estimate (SingularCrossingPassage).
        const double shortest = passage_.shortestStep(t_);
        const bool roundingBound = err > 1.0 && (holdsCrossing || h <= shortest * (1.0 + 1e-9));
        if (err > 1.0 && !roundingBound) {
            ++stats_.rejectedSteps;
            h_ = std::max(h * std::min(1.0, fac), shortest);
            if (++failures > 100) return Status::failure("too many rejected steps near t = " + std::to_string(t_));
            continue;
        }
        const double t1 = last ? tStop : t_ + h;
        if (sys_.project && !sys_.project(t1, y1))
            return Status::failure("projection failed at t = " + std::to_string(t1));
        if (firstSameAsLast_) {
            // The projected right-hand side does not change under the projection, so the
            // last stage remains the derivative at the projected state.
            f1 = k_[s - 1];
        } else if (!eval(t1, y1, f1)) {
            // The next step cannot start from here: as a failed stage, a smaller step.
            ++stats_.rejectedSteps;
            if (++failures > 20)
                return Status::failure("right-hand side failed repeatedly near t = " + std::to_string(t_));
            h_ = 0.25 * h;
            continue;
        }
        if (stiffStageA_ >= 0) stiffness_.observe(t1, h, k_[stiffStageA_] - k_[stiffStageB_], stiffArgA_ - stiffArgB_);
        t_ = t1;
        y_ = y1;
        f_ = f1;
        hLast_ = h;
        nearCrossing_ = forecast || passage_.shortestStep(t_ - h) > 0.0;
        history_.push_back(Node{t_, y_, f_});
        while (static_cast<int>(history_.size()) > outputNodes_) history_.pop_front();
        if (!last && !shaped && !roundingBound) h_ = h * (failures ? std::min(1.0, fac) : fac);
        ++stats_.steps;
        if (roundingBound) {
            ++stats_.roundingBoundSteps;
            stats_.largestRoundingBoundEstimate = std::max(stats_.largestRoundingBoundEstimate, err);
        }
        return {};
    }
}

void EmbeddedRungeKutta::hermite(int first, double t, VecX& y) const {
    // Nodes in units of the last step from its start: the last step is [0, 1].
    const double start = t_ - hLast_;
    const int m = static_cast<int>(history_.size()) - first;
    std::vector<double> z(2 * m);
    // Newton's divided differences over the doubled nodes, a column at a time in place:
    // d[j] holds the difference over z[j−k … j].
    std::vector<VecX> d(2 * m);
    for (int i = 0; i < m; ++i) {
        const Node& node = history_[first + i];
        z[2 * i] = z[2 * i + 1] = (node.t - start) / hLast_;
        d[2 * i] = d[2 * i + 1] = node.y;
    }
    for (int k = 1; k < 2 * m; ++k) {
        for (int j = 2 * m - 1; j >= k; --j) {
            if (k == 1 && j % 2 == 1) d[j] = hLast_ * history_[first + j / 2].f;  // a repeated node
            else d[j] = (d[j] - d[j - 1]) / (z[j] - z[j - k]);
        }
    }
    const double s = (t - start) / hLast_;
    y = d[2 * m - 1];
    for (int k = 2 * m - 2; k >= 0; --k) y = d[k] + (s - z[k]) * y;
}

bool EmbeddedRungeKutta::stepTo(double t, VecX& y) const {
    const Node& start = history_[history_.size() - 2];
    const double h = t - start.t;
    const int s = stages();
    std::vector<VecX> k(s);
    k[0] = start.f;
    VecX stage;
    for (int i = 1; i < s; ++i) {
        stage = start.y;
        for (int j = 0; j < i; ++j)
            if (a_[i][j] != 0.0) stage += (h * a_[i][j]) * k[j];
        if (!eval(start.t + c_[i] * h, stage, k[i])) return false;
    }
    y = start.y;
    for (int j = 0; j < s; ++j)
        if (b_[j] != 0.0) y += (h * b_[j]) * k[j];
    return true;
}

void EmbeddedRungeKutta::interpolate(double t, VecX& y) const {
    const int available = static_cast<int>(history_.size());
    if (available < 2 || !(hLast_ > 0.0)) {
        y = y_;
        return;
    }
    const double start = t_ - hLast_;
    int first = available - 2;
    while (first > 0 && start - history_[first - 1].t <= kHistorySpan * hLast_)
        --first;
    if (available - first >= 3) {
        hermite(first, t, y);
        VecX lower;
        hermite(first + 1, t, lower);
        const VecX& y0 = history_[available - 2].y;
        const VecX sc = settings_.atol + settings_.rtol * y0.cwiseAbs().cwiseMax(y_.cwiseAbs()).array();
        const double estimate = y.size() ? std::sqrt(((y - lower).array() / sc.array()).square().mean()) : 0.0;
        if (estimate <= 1.0) return;
    }
    // Near a singular configuration a step to the output time could put its stages in the
    // rank window the steps were planned around.
    VecX stepped;
    if (!nearCrossing_ && stepTo(t, stepped)) {
        ++outputSteps_;
        y = std::move(stepped);
        return;
    }
    // There, or where the right-hand side failed inside the step, the interpolant is the
    // best there is.
    hermite(first, t, y);
}

}  // namespace looplab
