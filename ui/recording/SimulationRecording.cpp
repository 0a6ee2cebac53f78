#include "recording/SimulationRecording.h"


namespace looplab::ui {

void SimulationRecording::reset(std::shared_ptr<const Model> model, QStringList coordinateNames,
                                std::vector<JointQuantity> quantities, QString label)
{
    model_ = std::move(model);
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

State SimulationRecording::frameState(int i) const
{
    const RecordedFrame& f = frame(i);
    State s;
    s.t = f.t;
    s.q = f.q;
    s.v = f.v;
    return s;
}

}  // namespace looplab::ui
