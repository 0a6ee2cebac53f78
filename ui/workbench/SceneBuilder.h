#pragma once
// Translates a compiled model and a state into what the viewport draws.
//
// Index mapping: the viewport knows only moving bodies. Viewport body i is model body
// i + 1 (model body 0 is the ground, which has no solid); pose vectors follow the same
// order. A joint glyph rides on its second body (or on its first if the second is the
// ground, or stays fixed in the world if both are the ground).

#include "looplab/Model.h"
#include "looplab/State.h"
#include "viewport/SceneDescription.h"
#include "viewport/VtkViewport.h"

#include <Eigen/Geometry>

#include <vector>

namespace looplab::ui {

/// Viewport bodies of the model's moving bodies.
std::vector<BodyVisual> sceneBodies(const Model& model);
/// Viewport joint glyphs, in model joint order.
std::vector<JointVisual> sceneJoints(const Model& model);
/// Lines of the point-to-point spring-dampers.
std::vector<SpringVisual> sceneSprings(const Model& model);
/// Poses of the moving bodies at `state` (body frame to world).
std::vector<Eigen::Isometry3d> scenePoses(const Model& model, const State& state);
/// Up axis that points against gravity: Y if gravity is mostly along y, else Z.
VtkViewport::UpAxis upAxisForGravity(const Vec3& gravity);

/// Viewport body index of a model body (−1 for the ground).
inline int viewportBody(BodyIndex b) { return b.value() - 1; }

}  // namespace looplab::ui
