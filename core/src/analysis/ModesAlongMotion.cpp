#include "looplab/analysis/ModesAlongMotion.h"

#include <algorithm>

namespace looplab {

AlongMotionResult modesAlongMotion(const Model& base, const State& start, const AlongMotionOptions& o,
                                   const std::function<void(const AlongMotionStep&)>& onStep,
                                   const std::function<bool()>& cancelled) {
    AlongMotionResult out;
    Model model = base;
    auto it = std::find_if(model.drivers.begin(), model.drivers.end(),
                           [&](const Driver& d) { return d.name == o.driver; });
    if (it == model.drivers.end()) {
        out.message = "no driver named '" + o.driver + "'";
        return out;
    }
    const bool listed = !o.coordinates.empty();
    const int steps = listed ? static_cast<int>(o.coordinates.size()) : o.steps;
    if (steps < 1) {
        out.message = "the number of steps must be at least 1";
        return out;
    }
    Driver& driver = *it;
    State s = start;
    std::vector<VecX> trackShapes;  // last shape of each track
    out.ok = true;
    for (int i = 0; i < steps; ++i) {
        if (cancelled && cancelled()) {
            out.ok = false;
            out.message = "cancelled";
            break;
        }
        AlongMotionStep step;
        if (listed)
            step.coordinate = o.coordinates[static_cast<size_t>(i)];
        else {
            // (1 − t) from + t to: exact at both ends, and finite for any finite ends (to − from
            // overflows for ranges such as −1e308 … 1e308).
            const double t = steps == 1 ? 0.0 : double(i) / double(steps - 1);
            step.coordinate = i == steps - 1 && steps > 1 ? o.to : (1.0 - t) * o.from + t * o.to;
        }
        TimeLaw law;
        law.kind = TimeLaw::Kind::Constant;
        law.initial = step.coordinate;
        driver.law = law;
        const StaticsResult st = findEquilibrium(model, s, o.statics);
        step.equilibrium = st.outcome;
        step.state = s;
        const bool equilibrium = st.ok || st.outcome == StaticsOutcome::Mechanism || st.outcome == StaticsOutcome::Unstable;
        if (!equilibrium) {
            step.message = "no equilibrium: " + st.message;
        } else {
            const ModesResult mr = computeModes(model, s, st.lambda, o.modes);
            step.conditionScaled = mr.conditionScaled;
            if (!mr.ok) {
                step.message = mr.message;
            } else {
                step.ok = true;
                if (!st.ok) step.message = st.message;
                const size_t k = mr.modes.size();
                if (trackShapes.empty()) {
                    for (const Mode& m : mr.modes) {
                        trackShapes.push_back(m.shape);
                        step.frequenciesHz.push_back(m.frequencyHz);
                        step.dampingRatios.push_back(m.dampingRatio);
                        step.correlation.push_back(1.0);
                    }
                } else {
                    // Greedy assignment by the largest MAC between the previous shape of a
                    // track and a mode of this step.
                    const size_t tracks = trackShapes.size();
                    std::vector<std::tuple<double, size_t, size_t>> pairs;
                    for (size_t t = 0; t < tracks; ++t)
                        for (size_t m = 0; m < k; ++m)
                            pairs.emplace_back(modalAssurance(model, trackShapes[t], mr.modes[m].shape), t, m);
                    std::sort(pairs.begin(), pairs.end(), [](const auto& a, const auto& b) {
                        return std::get<0>(a) > std::get<0>(b);
                    });
                    std::vector<int> modeOfTrack(tracks, -1);
                    std::vector<bool> used(k, false);
                    step.correlation.assign(tracks, 0.0);
                    for (const auto& [mac, t, m] : pairs)
                        if (modeOfTrack[t] < 0 && !used[m]) {
                            modeOfTrack[t] = static_cast<int>(m);
                            used[m] = true;
                            step.correlation[t] = mac;
                        }
                    step.frequenciesHz.assign(tracks, -1.0);
                    step.dampingRatios.assign(tracks, -1.0);
                    for (size_t t = 0; t < tracks; ++t)
                        if (modeOfTrack[t] >= 0) {
                            const Mode& m = mr.modes[static_cast<size_t>(modeOfTrack[t])];
                            step.frequenciesHz[t] = m.frequencyHz;
                            step.dampingRatios[t] = m.dampingRatio;
                            trackShapes[t] = m.shape;
                        }
                }
            }
        }
        if (!step.ok) {
            out.ok = false;
            if (out.message.empty())
                out.message = "at " + std::to_string(step.coordinate) + ": " + step.message;
        }
        if (onStep) onStep(step);
        out.steps.push_back(std::move(step));
    }
    return out;
}

}  // namespace looplab
