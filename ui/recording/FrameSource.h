#pragma once
// What playback plays: a numbered sequence of states of one model, each at a time. The
// playback bar steps and scrubs through the frames by their times and the 3D view draws
// the scene of the frame shown; neither knows where the frames come from. A simulation
// recording is one source; a mode-shape animation (the mechanism swinging through one
// mode at a display amplitude) will be another, with its own scene overlays.

#include "looplab/scene/Scene.h"
#include "looplab/model/State.h"

#include <memory>

namespace looplab::ui {

class FrameSource {
public:
    virtual ~FrameSource() = default;

    virtual int frameCount() const = 0;
    /// Time of frame i [s], 0 ≤ i < frameCount(); never decreasing with i.
    virtual double frameTime(int i) const = 0;
    /// The model whose states the frames are; may be null when there are no frames.
    virtual std::shared_ptr<const Model> frameModel() const = 0;
    /// State of the model at frame i (t, q, v in the model's layout).
    virtual State frameState(int i) const = 0;
    /// What to draw at frame i: by default the model's scene at frameState(i); a source
    /// may add to it (e.g. mode overlays).
    virtual Scene frameScene(int i) const;

    bool isEmpty() const { return frameCount() == 0; }
    double startTime() const { return isEmpty() ? 0.0 : frameTime(0); }
    double endTime() const { return isEmpty() ? 0.0 : frameTime(frameCount() - 1); }
    /// Index of the last frame at or before t (0 if t precedes every frame, −1 if empty).
    int frameAt(double t) const;
};

}  // namespace looplab::ui
