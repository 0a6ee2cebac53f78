#pragma once
// Small JSON pieces every report shares: a vector as [x, y, z], and the model's meshes.
#include "looplab/model/Model.h"

#include <nlohmann/json.hpp>

#include <string>

namespace looplab::reports {

/// A vector as a JSON array [x, y, z].
inline nlohmann::json vec(const Vec3& v) { return {v.x(), v.y(), v.z()}; }

/// The beam and solid meshes of a model, {name: {kind, nodes, elements}} (empty without
/// meshes), as `check` and `simulate` report them.
nlohmann::json meshesJson(const Model& model);
/// One line per mesh, "  NAME: KIND, N nodes, E elements", in body order.
std::string meshesText(const Model& model);

/// Every moving body's place in `state`: a rigid body's position and quaternion (w, x, y, z),
/// with `withVelocities` also its velocity and angular velocity; a beam's or a solid's
/// centre of mass and its named points.
nlohmann::json bodiesJson(const Model& model, const State& state, bool withVelocities);

}  // namespace looplab::reports
