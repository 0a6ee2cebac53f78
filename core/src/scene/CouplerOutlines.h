#pragma once
// The outlines that show a coupler's motion (Scene.h, SceneCoupler): its wheels' teeth or
// pulley spokes turning with their bodies, a belt's straight spans, a rack's teeth.

#include "looplab/scene/Scene.h"

namespace looplab {

struct Coupler;

/// The coupler's outlines at the state, as polylines in the global frame.
SceneCoupler couplerOutlines(const Model& model, const State& state, const Coupler& coupler);

}  // namespace looplab
