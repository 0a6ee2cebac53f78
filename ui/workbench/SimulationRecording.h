#pragma once
// The frames and events of one run, kept on the GUI side for playback, plots, warnings
// and export. Frames arrive in increasing time.

#include "workbench/JointQuantity.h"
#include "workbench/RecordedFrame.h"

#include <QStringList>

#include <vector>

namespace looplab::ui {

class SimulationRecording {
public:
    /// Forgets everything and names the joint coordinates the frames will carry, the
    /// quantities that can be plotted from them and the run (its method and integrator).
    void reset(QStringList coordinateNames = {}, std::vector<JointQuantity> quantities = {}, QString label = {});
    void append(const FrameBatch& batch);

    bool isEmpty() const { return frames_.empty(); }
    int frameCount() const { return static_cast<int>(frames_.size()); }
    const RecordedFrame& frame(int i) const { return frames_[static_cast<size_t>(i)]; }
    const std::vector<RecordedFrame>& frames() const { return frames_; }
    const std::vector<SimulationEvent>& events() const { return events_; }
    const QStringList& coordinateNames() const { return coordinateNames_; }
    const std::vector<JointQuantity>& quantities() const { return quantities_; }
    const QString& label() const { return label_; }

    double startTime() const { return frames_.empty() ? 0.0 : frames_.front().t; }
    double endTime() const { return frames_.empty() ? 0.0 : frames_.back().t; }
    /// Index of the last frame at or before t (0 if t precedes every frame, −1 if empty).
    int frameAt(double t) const;

private:
    std::vector<RecordedFrame> frames_;
    std::vector<SimulationEvent> events_;
    QStringList coordinateNames_;
    std::vector<JointQuantity> quantities_;
    QString label_;
};

}  // namespace looplab::ui
