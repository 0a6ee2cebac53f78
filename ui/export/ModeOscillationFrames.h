#pragma once
// A mode shape's swing as the frames of a video: whole periods of the oscillation about
// the equilibrium, each period in the same number of frames, so that frame i and frame
// i + framesPerPeriod show the same shape and the video loops without a seam (the frame
// that would close the last period is left out). Frame i is at phase
// 2π·(i mod framesPerPeriod)/framesPerPeriod and at time i / fps of the video, so that
// AnimationExportJob, which picks the frame nearest each video time, takes every frame
// once. The animation is copied: the export outlives a change of selection or amplitude
// in the Modes panel.

#include "recording/FrameSource.h"
#include "recording/ModeShapeAnimation.h"

#include <QString>

namespace looplab::ui {

/// How much of a mode's oscillation a video shows.
struct ModeVideoCycles {
    int periods = 3;
    int framesPerPeriod = 48;
};

class ModeOscillationFrames : public FrameSource {
public:
    /// `animation` as shown (shape, equilibrium, amplitude); `fps` the video's frame rate.
    ModeOscillationFrames(const ModeShapeAnimation& animation, ModeVideoCycles cycles, double fps);

    /// Why these cycles and rate make no video, or an empty string.
    static QString checkCycles(ModeVideoCycles cycles, double fps);

    int frameCount() const override;
    double frameTime(int i) const override;
    std::shared_ptr<const Model> frameModel() const override { return animation_.frameModel(); }
    State frameState(int i) const override;
    /// The shape at frame i's phase over the equilibrium's ghosts.
    Scene frameScene(int i) const override;

    const ModeShapeAnimation& animation() const { return animation_; }
    ModeVideoCycles cycles() const { return cycles_; }

private:
    ModeShapeAnimation animation_;
    ModeVideoCycles cycles_;
    double fps_;
};

}  // namespace looplab::ui
