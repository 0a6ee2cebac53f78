#pragma once
// A mode shape as frames to play: the mechanism swinging through one vibration mode about
// its equilibrium at a display amplitude,
//
//   q(t) = q_eq ⊕ a·sin(2π f_vis t)·φ,
//
// φ the mode's shape in velocity coordinates (Modes.h), ⊕ the retraction of each body's
// kind (State.h: rigid bodies rotate by the exponential map, so their quaternions stay
// unit), f_vis a frequency chosen for watching rather than the mode's own. The amplitude
// is given as a fraction of the model's size, so a slider reads the same on any model:
// a is chosen so that the drawn point that moves most (a corner of a solid's bounding box,
// a joint point, a sample of a beam's centreline or a vertex of a solid mesh's surface)
// moves by fraction × size, to first order. Every frame carries the
// equilibrium as ghosts (Scene::ghosts, and Scene::ghostBeams and ghostSurfaces for
// flexible members), so both shapes are seen together.

#include "recording/FrameSource.h"

#include "looplab/model/Model.h"
#include "looplab/model/State.h"
#include "looplab/scene/ModeFields.h"

#include <memory>

namespace looplab::ui {

class ModeShapeAnimation : public FrameSource {
public:
    /// Frames per cycle; one cycle lasts 1/visualFrequency seconds of playback.
    static constexpr int kFramesPerCycle = 48;
    static constexpr double kVisualFrequency = 0.5;  ///< [Hz]

    /// `shape` in velocity coordinates of `model`; `equilibrium` the state it is about.
    ModeShapeAnimation(std::shared_ptr<const Model> model, const State& equilibrium, const VecX& shape);

    /// Largest displacement to reach, as a fraction of modelSize() (≥ 0).
    void setAmplitudeFraction(double fraction);
    double amplitudeFraction() const { return fraction_; }
    /// The factor a applied to the shape [units of modal amplitude].
    double shapeFactor() const;

    /// The model's size: the diagonal of the box that holds every drawn point
    /// (drawnPoints()) at the equilibrium [m]; 1 m if there is nothing to measure.
    double modelSize() const { return size_; }
    /// Largest displacement of a drawn point per unit of shape factor, to first order [m].
    double displacementPerUnit() const { return perUnit_; }

    const State& equilibrium() const { return equilibrium_; }
    const VecX& shape() const { return shape_; }

    // FrameSource: one cycle, kFramesPerCycle + 1 frames (the last closes the cycle).
    int frameCount() const override { return kFramesPerCycle + 1; }
    double frameTime(int i) const override;
    std::shared_ptr<const Model> frameModel() const override { return model_; }
    State frameState(int i) const override;
    /// The model's scene at frameState(i) with the equilibrium's bodies as ghosts.
    Scene frameScene(int i) const override;

    /// The state at phase 2π·step/stepsPerCycle of the swing, at the equilibrium's time;
    /// phases 0 and π are the equilibrium exactly. A video chooses its own steps a cycle.
    State stateAtPhase(int step, int stepsPerCycle) const;
    /// The model's scene at stateAtPhase() with the equilibrium as ghosts; its flexible
    /// members carry the mode's normalised fields (ModeFields.h) at that phase.
    Scene sceneAtPhase(int step, int stepsPerCycle) const;
    /// sin(2π·step/stepsPerCycle), exactly 0 at phases 0 and π.
    static double sineAtPhase(int step, int stepsPerCycle);
    /// The mode's strain and stress fields (made on first use).
    const ModeFields& fields() const;

    /// The drawn points of `scene` whose motion is measured: every solid's bounding-box
    /// corners, every joint point, the beams' centreline samples and the solid meshes'
    /// surface vertices, global frame [m].
    static std::vector<Vec3> drawnPoints(const Scene& scene);

private:
    std::shared_ptr<const Model> model_;
    State equilibrium_;
    VecX shape_;
    std::vector<SceneBody> ghosts_;
    std::vector<SceneBeam> ghostBeams_;
    std::vector<SceneSurface> ghostSurfaces_;
    double fraction_ = 0.05;
    double size_ = 1.0;
    double perUnit_ = 0.0;
    mutable std::shared_ptr<const ModeFields> fields_;  ///< shared by copies (a video's frames)
};

}  // namespace looplab::ui
