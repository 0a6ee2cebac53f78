#include "overlays/FrameArrows.h"

#include "plotting/PlotQuantity.h"
#include "recording/SimulationRecording.h"

#include "looplab/dynamics/Reactions.h"
#include "looplab/model/Model.h"

namespace looplab::ui {

namespace {

std::vector<JointReaction> recordedReactions(const RecordedFrame& f)
{
    std::vector<JointReaction> out(f.reactions.size() / 6);
    for (size_t j = 0; j < out.size(); ++j) {
        out[j].forceGlobal = Vec3(f.reactions[6 * j], f.reactions[6 * j + 1], f.reactions[6 * j + 2]);
        out[j].torqueGlobal = Vec3(f.reactions[6 * j + 3], f.reactions[6 * j + 4], f.reactions[6 * j + 5]);
    }
    return out;
}

}  // namespace

bool wantsAnyArrow(const ArrowRequest& request)
{
    for (int k = 0; k < kArrowKindCount; ++k)
        if (request.wants(static_cast<ArrowKind>(k)))
            return true;
    return false;
}

Status frameArrows(const FrameSource& source, int frame, const ArrowRequest& request, const ArrowScale& scale,
                   std::vector<MotionArrow>* arrows)
{
    arrows->clear();
    const std::shared_ptr<const Model> model = source.frameModel();
    if (!model || frame < 0 || frame >= source.frameCount())
        return Status::failure("no frame " + std::to_string(frame) + " to draw arrows at");
    ArrowRequest withPoints = request;
    withPoints.points = markerPoints(*model);
    // The centres of mass as well as the markers: an empty list would mean only those.
    for (int b = model->bodyCount() - 1; b >= 1; --b)
        if (model->body(BodyIndex(b)).movesAsOneFrame())
            withPoints.points.insert(withPoints.points.begin(),
                                     {model->body(BodyIndex(b)).name, Vec3::Zero(), model->body(BodyIndex(b)).name});
    const State s = source.frameState(frame);
    if (const auto* recording = dynamic_cast<const SimulationRecording*>(&source)) {
        const RecordedFrame& f = recording->frame(frame);
        return motionArrows(*model, s, f.acceleration, recordedReactions(f), withPoints, scale, arrows);
    }
    return motionArrows(*model, s, VecX(), {}, withPoints, scale, arrows);
}

}  // namespace looplab::ui
