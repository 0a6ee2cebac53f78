#include "looplab/simulation/WorkCounter.h"

#include "looplab/simulation/InputPower.h"

#include <algorithm>
#include <cmath>

namespace looplab {

namespace {
constexpr size_t kMostPanels = 16;
}

WorkCounter::WorkCounter(const Model& model) : active_(hasWorkInput(model)) {}

double WorkCounter::Panel::integral(double upTo) const {
    // Newton's form about t[0]: p(x) = p0 + d1 (x − t0) + d2 (x − t0)(x − t1), integrated
    // from `from` to b in the shifted variable u = x − t0.
    const double d01 = (p[1] - p[0]) / (t[1] - t[0]), d12 = (p[2] - p[1]) / (t[2] - t[1]);
    const double d2 = (d12 - d01) / (t[2] - t[0]);
    const double g = t[1] - t[0];
    auto antiderivative = [&](double x) {
        const double u = x - t[0];
        return p[0] * u + 0.5 * d01 * u * u + d2 * (u * u * u / 3.0 - 0.5 * g * u * u);
    };
    const double b = std::clamp(upTo, from, to);
    return antiderivative(b) - antiderivative(from);
}

void WorkCounter::start(double t, double power) {
    t0_ = t;
    p0_ = power;
    work_ = 0.0;
    havePrevious_ = false;
    panels_.clear();
    before_.assign(1, 0.0);
}

void WorkCounter::restart(double t, double power) {
    t0_ = t;
    p0_ = power;
    havePrevious_ = false;
    panels_.clear();
    before_.assign(1, work_);
}

void WorkCounter::countStep(double t1, const std::function<double(double)>& power, double rtol, double energyScale) {
    if (!active_ || !(t1 > t0_)) return;
    const double t0 = t0_, p0 = p0_, h = t1 - t0, p1 = power(t1);
    auto tolerance = [&](double largest) { return rtol * std::max(largest * h, energyScale); };
    panels_.clear();
    if (havePrevious_) {
        const Panel extrapolated{{tPrevious_, t0, t1}, {pPrevious_, p0, p1}, t0, t1};
        const double trapezoid = 0.5 * (p0 + p1) * h;
        const double largest = std::max({std::abs(pPrevious_), std::abs(p0), std::abs(p1)});
        if (std::abs(extrapolated.integral(t1) - trapezoid) <= 15.0 * tolerance(largest)) panels_.push_back(extrapolated);
    }
    if (panels_.empty()) {
        std::vector<double> ts{t0, 0.5 * (t0 + t1), t1}, ps{p0, power(0.5 * (t0 + t1)), p1};
        auto simpson = [](const std::vector<double>& t, const std::vector<double>& p) {
            double w = 0.0;
            for (size_t k = 0; k + 2 < t.size(); k += 2)
                w += (t[k + 2] - t[k]) / 6.0 * (p[k] + 4.0 * p[k + 1] + p[k + 2]);
            return w;
        };
        double coarse = simpson(ts, ps);
        for (size_t panels = 1; panels < kMostPanels; panels *= 2) {
            std::vector<double> tf, pf;
            for (size_t k = 0; k + 1 < ts.size(); ++k) {
                const double tm = 0.5 * (ts[k] + ts[k + 1]);
                tf.insert(tf.end(), {ts[k], tm});
                pf.insert(pf.end(), {ps[k], power(tm)});
            }
            tf.push_back(ts.back());
            pf.push_back(ps.back());
            const double fine = simpson(tf, pf);
            double largest = 0.0;
            for (double p : pf) largest = std::max(largest, std::abs(p));
            ts = std::move(tf);
            ps = std::move(pf);
            // The finer rule's error is about a fifteenth of the difference (Richardson).
            const bool agreed = std::abs(fine - coarse) <= 15.0 * tolerance(largest);
            coarse = fine;
            if (agreed) break;
        }
        for (size_t k = 0; k + 2 < ts.size(); k += 2)
            panels_.push_back({{ts[k], ts[k + 1], ts[k + 2]}, {ps[k], ps[k + 1], ps[k + 2]}, ts[k], ts[k + 2]});
    }
    before_.assign(1, work_);
    for (const Panel& panel : panels_) before_.push_back(before_.back() + panel.integral(panel.to));
    const Panel& last = panels_.back();
    // The sample before the next step: the last one inside this step.
    tPrevious_ = last.t[1] < t1 && last.from < last.t[1] ? last.t[1] : t0;
    pPrevious_ = last.t[1] < t1 && last.from < last.t[1] ? last.p[1] : p0;
    havePrevious_ = true;
    t0_ = t1;
    p0_ = p1;
}

double WorkCounter::workAt(double t) const {
    if (!active_) return 0.0;
    if (panels_.empty()) return work_;
    size_t k = 0;
    while (k + 1 < panels_.size() && t > panels_[k].to) ++k;
    return before_[k] + panels_[k].integral(t);
}

void WorkCounter::endStep() {
    if (!active_ || panels_.empty()) return;
    work_ = before_.back();
    panels_.clear();
    before_.assign(1, work_);
}

}  // namespace looplab
