#pragma once
// What to draw of a mechanism at one state: where each body is and which solid it
// carries, where each joint sits and which way it points, where each spring runs. All
// placements are in the global frame, so a viewer needs neither the model's slices of q
// nor its body kinds: buildScene() asks the model (State.h) and does that once for every
// viewer. Nothing here knows how it will be drawn.
//
// Flexible members are not placed by one pose: a beam is described by its centreline
// sampled with the element's own interpolation and the section to sweep along it
// (SceneBeam), a solid by the outer surface of its hexahedra (SceneSurface), each with a
// per-vertex scalar field and its undeformed reference, so that a viewer can exaggerate
// the deformation (withExaggeratedDeformation, FlexibleScene.h) without the model.

#include "looplab/common/Types.h"
#include "looplab/model/VisualShape.h"

#include <array>
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
    /// Origin of that body's joint frame, global frame [m]; on a beam or solid node, the
    /// node's current position.
    Vec3 point = Vec3::Zero();
    /// The joint frame's axes: rotates joint-frame coordinates into global ones (unit).
    /// Its z axis is the rotation axis (revolute) or sliding direction (prismatic). A node
    /// has no frame, so a joint on a node takes the frame of its other side (a rigid body
    /// or the ground): a hinge on a beam node points along its axis as the rigid side
    /// carries it. Between two nodes it is the identity.
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

/// A distance joint, drawn as the massless rod it stands for: its two ends.
struct SceneRod {
    std::string name;
    Vec3 end1 = Vec3::Zero();  ///< its point on the first body, global frame [m]
    Vec3 end2 = Vec3::Zero();  ///< its point on the second body, global frame [m]
};

/// A coupler as drawn: its wheels' tooth outlines or pulleys with spokes, a belt's spans,
/// a rack's teeth, a cam's profile and its follower's roller, face or point, as polylines in
/// the global frame [m] that move with the bodies.
struct SceneCoupler {
    std::string name;
    std::vector<std::vector<Vec3>> lines;
};

/// The cross-section swept along a beam's centreline. The cable element has no section
/// orientation, so a rectangle is placed by sweepNormals() (FlexibleScene.h).
struct SceneSection {
    enum class Kind { Circle, Rectangle };
    Kind kind = Kind::Circle;
    double radius = 0.0;               ///< circle [m]
    double width = 0.0, height = 0.0;  ///< rectangle [m]; the height lies along the normal
};

/// A beam as drawn: its centreline sampled between and at the nodes with the cable
/// element's cubic Hermite interpolation r(x) = S(x) e (AncfCableElement.h), the slope
/// r_x = ∂r/∂x at each sample (not normalised: it is linear in the nodal coordinates, so
/// exaggerating it is exact), the same at the undeformed configuration, and the axial
/// strain at each sample.
struct SceneBeam {
    std::string name;
    BodyIndex body;               ///< the beam's body in the model
    SceneSection section;         ///< swept along the centreline
    std::array<double, 3> color{{0.6, 0.6, 0.65}};
    std::vector<Vec3> points;     ///< r at the samples, global frame [m]; node k is sample k·samplesPerElement
    std::vector<Vec3> slopes;     ///< r_x at the samples [1]
    std::vector<Vec3> referencePoints;  ///< r at the undeformed configuration [m]
    std::vector<Vec3> referenceSlopes;  ///< r_x at the undeformed configuration [1] (unit)
    /// Unit normals of the section at the samples (sweepNormals(), FlexibleScene.h), for
    /// the points and slopes above: a viewer sweeps the section along them.
    std::vector<Vec3> normals;
    /// The cable element's axial strain ε = ½(r_x·r_x − 1) (Green's) at each sample [1],
    /// at the state, whatever exaggeration is drawn.
    std::vector<double> axialStrain;
    /// The bending strain of the outermost fibre at each sample, κ·c [1]: κ = |r_x × r_xx| /
    /// |r_x|³ the centreline's curvature, c the distance from the neutral axis to the
    /// section's farthest point in the plane of bending (a circle's radius; a rectangle's
    /// ½(h |cos φ| + w |sin φ|), φ the angle of the curvature's direction to the section's
    /// height).
    std::vector<double> bendingStrain;
    /// The curvature vector r_x × r_xx / |r_x|³ at each sample [1/m] (curvatureVector()).
    std::vector<Vec3> curvatures;
    int samplesPerElement = 1;
};

/// A solid as drawn: the boundary faces of its hexahedra (faces that belong to one
/// element only), as quadrilaterals over the boundary nodes at their current positions,
/// with the von Mises stress at each vertex.
struct SceneSurface {
    std::string name;
    BodyIndex body;               ///< the solid's body in the model
    std::array<double, 3> color{{0.6, 0.6, 0.65}};
    std::vector<int> nodes;       ///< mesh node of each vertex
    std::vector<Vec3> points;     ///< vertex positions, global frame [m]
    std::vector<Vec3> referencePoints;  ///< undeformed vertex positions [m]
    /// Quadrilaterals (vertex indices, counter-clockwise seen from outside).
    std::vector<std::array<int, 4>> quads;
    /// Von Mises equivalent of the Cauchy stress σ = J⁻¹ F S Fᵀ at each vertex [Pa]: the
    /// mean over the elements sharing the node of the value at the element's corner
    /// (methods.md, "Drawing flexible bodies").
    std::vector<double> vonMises;
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
    /// Every distance joint, in model order (also listed in joints, with its marker).
    std::vector<SceneRod> rods;
    /// Every coupler, in model order.
    std::vector<SceneCoupler> couplers;
    /// Translucent copies of bodies at other placements (e.g. a mode's equilibrium shape
    /// behind the mode's motion), drawn for reference only: they are not picked,
    /// highlighted or trailed. Empty unless a frame source adds them.
    std::vector<SceneBody> ghosts;
    /// The beam bodies, in model order (their SceneBody has no solid).
    std::vector<SceneBeam> beams;
    /// The solid bodies, in model order (their SceneBody has no solid).
    std::vector<SceneSurface> surfaces;
    /// Flexible members of Scene::ghosts' placements (a mode's equilibrium shape).
    std::vector<SceneBeam> ghostBeams;
    std::vector<SceneSurface> ghostSurfaces;
    /// The flexible members' fields are a vibration mode's, normalised (ModeFields.h):
    /// strains in [−1, 1], von Mises stress in [0, 1] of the largest over the model.
    bool modeFields = false;
};

/// The scene of `model` at `state` (whose q must have the model's layout).
Scene buildScene(const Model& model, const State& state);

/// Index in Scene::bodies of model body b; −1 for the ground, which has no entry.
int sceneBodyIndex(BodyIndex b);

}  // namespace looplab
