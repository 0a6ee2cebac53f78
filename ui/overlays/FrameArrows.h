#pragma once
// The arrows of one frame of a FrameSource (looplab::MotionArrow): velocities and
// accelerations at the centres of mass and the markers, and, for a simulation recording,
// the joint reactions and applied loads recorded with the frame. The view's arrows and
// the exported video's come from here, so the video shows what the view shows.

#include "looplab/analysis/MotionArrows.h"
#include "looplab/model/Status.h"

#include <vector>

namespace looplab::ui {

class FrameSource;

/// True if `request` asks for any kind of arrow.
bool wantsAnyArrow(const ArrowRequest& request);

/// Fills *arrows with the arrows of `frame` of `source` that `request` asks for, drawn at
/// `scale`; the status says why they could not be made (reactions of a model that has
/// none recorded, a frame out of range).
Status frameArrows(const FrameSource& source, int frame, const ArrowRequest& request, const ArrowScale& scale,
                   std::vector<MotionArrow>* arrows);

}  // namespace looplab::ui
