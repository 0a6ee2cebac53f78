#pragma once
// What to draw of a mechanism at one state: where each body is and which solid it
// carries, where each joint sits and which way it points, where each spring runs. All
// placements are in the global frame, so a viewer needs neither the model's slices of q
// nor its body kinds: buildScene() asks the model (State.h) and does that once for every
// viewer. Nothing here knows how it will be drawn.
//
// Room for what is not built yet, each as a further list in Scene that today's viewers
// can ignore and that changes the meaning of no existing field:
//   - beam centrelines: a flexible body will add its centreline as a polyline of global
//     points [m] (one per beam body, naming its SceneBody), since its shape is no longer
//     a rigid solid placed by one pose;
//   - mode overlays: a modal analysis will add, per body, the displacement of its frame
//     (and of beam nodes) in one mode, global frame [m] and [rad], scaled for display,
//     next to the state's placement, so a viewer can draw the mechanism at rest and
//     displaced together.

#include "looplab/model/Types.h"
#include "looplab/model/VisualShape.h"

#include <string>
#include <vector>

namespace looplab {

struct Model;
struct State;

/// One body as drawn.
struct SceneBody {
    std::string name;
    BodyIndex body;  ///< the body in the model
    /// Solid drawn in the body frame; Kind::None draws nothing (the body still has a
    /// place, so trails and springs can follow it).
    VisualShape shape;
    /// Origin of the body frame (a rigid body's centre of mass), global frame [m].
    Vec3 position = Vec3::Zero();
    /// Orientation of the body frame: rotates body coordinates into global ones (unit).
    Quat orientation = Quat::Identity();
};

/// A joint as drawn: a marker of its kind at the joint's point, along its axis.
struct SceneJoint {
    enum class Kind { Revolute, Prismatic, Spherical, Other };
    std::string name;
    Kind kind = Kind::Other;
    /// The body the marker moves with: the joint's second body, or its first if the
    /// second is the ground (the ground if both are).
    BodyIndex body;
    /// Origin of that body's joint frame, global frame [m].
    Vec3 point = Vec3::Zero();
    /// The joint frame's axes: rotates joint-frame coordinates into global ones (unit).
    /// Its z axis is the rotation axis (revolute) or sliding direction (prismatic).
    Quat orientation = Quat::Identity();
    /// The joint frame's z axis in the global frame (unit, dimensionless); not
    /// meaningful for a spherical joint.
    Vec3 axis() const { return orientation * Vec3::UnitZ(); }
};

/// A point-to-point spring-damper as drawn: a straight line between its attachments.
struct SceneSpring {
    std::string name;
    Vec3 end1 = Vec3::Zero();  ///< attachment on the first body, global frame [m]
    Vec3 end2 = Vec3::Zero();  ///< attachment on the second body, global frame [m]
};

/// Everything drawn at one state.
struct Scene {
    double t = 0.0;  ///< time of the state [s]
    /// Every body but the ground (which has no solid), in model order: see
    /// sceneBodyIndex().
    std::vector<SceneBody> bodies;
    /// Every joint, in model order (joints[j] is model joint j).
    std::vector<SceneJoint> joints;
    /// The point-to-point spring-dampers, in model force order; other force elements
    /// are not drawn.
    std::vector<SceneSpring> springs;
    /// Translucent copies of bodies at other placements (e.g. a mode's equilibrium shape
    /// behind the mode's motion), drawn for reference only: they are not picked,
    /// highlighted or trailed. Empty unless a frame source adds them.
    std::vector<SceneBody> ghosts;
};

/// The scene of `model` at `state` (whose q must have the model's layout).
Scene buildScene(const Model& model, const State& state);

/// Index in Scene::bodies of model body b; −1 for the ground, which has no entry.
int sceneBodyIndex(BodyIndex b);

}  // namespace looplab
