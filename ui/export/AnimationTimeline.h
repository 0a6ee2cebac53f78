#pragma once
// Which moments of a recording become the frames of a video: frame k shows time
// start + k / fps, from the start up to and including the last whole frame interval
// before the end. A recording's own frames need not fall on those times; each video
// frame shows the recorded frame nearest its time.

#include <vector>

namespace looplab::ui {

/// Number of video frames covering [start, end] at `fps`: floor((end − start) · fps) + 1
/// (with a tolerance of 1e-9 frame, so that an end time that is a whole number of
/// frames counts its last frame); 0 if end < start.
int videoFrameCount(double start, double end, double fps);

/// For each video frame, the index in `recordedTimes` (non-decreasing) of the recorded
/// frame nearest its time.
std::vector<int> recordedFramesForVideo(const std::vector<double>& recordedTimes, double fps);

}  // namespace looplab::ui
