#include "workbench/SimulationRecording.h"

#include <algorithm>

namespace looplab::ui {

void SimulationRecording::reset(QStringList coordinateNames, std::vector<JointQuantity> quantities, QString label)
{
    frames_.clear();
    events_.clear();
    coordinateNames_ = std::move(coordinateNames);
    quantities_ = std::move(quantities);
    label_ = std::move(label);
}

void SimulationRecording::append(const FrameBatch& batch)
{
    frames_.insert(frames_.end(), batch.frames.begin(), batch.frames.end());
    events_.insert(events_.end(), batch.events.begin(), batch.events.end());
}

int SimulationRecording::frameAt(double t) const
{
    if (frames_.empty())
        return -1;
    // A little slack so that a time read back from a label or slider still finds its frame.
    const double slack = 1e-9 * std::max(1.0, std::abs(t));
    auto it = std::upper_bound(frames_.begin(), frames_.end(), t + slack,
                               [](double value, const RecordedFrame& f) { return value < f.t; });
    if (it == frames_.begin())
        return 0;
    return static_cast<int>(it - frames_.begin()) - 1;
}

}  // namespace looplab::ui
