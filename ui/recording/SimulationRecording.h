#pragma once
// The frames and events of one run, kept on the GUI side for playback, plots, warnings
// and export. Frames arrive in increasing time. As a FrameSource it gives playback the
// run's states.

#include "recording/FrameSource.h"
#include "recording/JointQuantity.h"
#include "recording/RecordedFrame.h"

#include <QStringList>

#include <memory>
#include <vector>

namespace looplab::ui {

class SimulationRecording : public FrameSource {
public:
    /// Forgets everything and names the model that is run, the joint coordinates the
    /// frames will carry, the quantities that can be plotted from them and the run (its
    /// method and integrator).
    void reset(std::shared_ptr<const Model> model = {}, QStringList coordinateNames = {},
               std::vector<JointQuantity> quantities = {}, QString label = {});
    void append(const FrameBatch& batch);

    // FrameSource
    int frameCount() const override { return static_cast<int>(frames_.size()); }
    double frameTime(int i) const override { return frame(i).t; }
    /// The model that was run (kept also while there are no frames yet).
    std::shared_ptr<const Model> frameModel() const override { return model_; }
    State frameState(int i) const override;

    const RecordedFrame& frame(int i) const { return frames_[static_cast<size_t>(i)]; }
    const std::vector<RecordedFrame>& frames() const { return frames_; }
    const std::vector<SimulationEvent>& events() const { return events_; }
    const QStringList& coordinateNames() const { return coordinateNames_; }
    const std::vector<JointQuantity>& quantities() const { return quantities_; }
    const QString& label() const { return label_; }

private:
    std::shared_ptr<const Model> model_;
    std::vector<RecordedFrame> frames_;
    std::vector<SimulationEvent> events_;
    QStringList coordinateNames_;
    std::vector<JointQuantity> quantities_;
    QString label_;
};

}  // namespace looplab::ui
