#pragma once
// How flexible members enter the scene (Scene.h): a beam body becomes a SceneBeam (its
// centreline sampled with the cable element's Hermite interpolation, the slopes, the
// axial and bending strains), a solid body a SceneSurface (the boundary faces of its hexahedra, the von
// Mises stress at their vertices). buildScene() calls these for every flexible body; a
// viewer exaggerates the deformation and sweeps the section with the functions below,
// without the model. See methods.md, "Drawing flexible bodies".

#include "looplab/scene/Scene.h"

#include <functional>
#include <optional>
#include <vector>

namespace looplab {

struct Model;
struct State;

/// Samples per element of a drawn centreline: the Hermite cubic between two nodes is
/// drawn as this many straight pieces.
inline constexpr int kBeamSamplesPerElement = 8;

/// The centreline of beam body b at `state`, `samplesPerElement` (≥ 1) pieces per element.
SceneBeam sceneBeam(const Model& model, const State& state, BodyIndex b,
                    int samplesPerElement = kBeamSamplesPerElement);
/// The outer surface of solid body b at `state`.
SceneSurface sceneSurface(const Model& model, const State& state, BodyIndex b);

/// The curvature vector of a centreline, r_x × r_xx / |r_x|³ [1/m]: along the axis the
/// centreline bends about, its length the curvature κ.
Vec3 curvatureVector(const Vec3& rx, const Vec3& rxx);
/// The distance from the neutral axis to the farthest fibre of `beam`'s section at
/// sample `sample` when it bends about `curvature` (SceneBeam::bendingStrain) [m].
double fibreDistance(const SceneBeam& beam, size_t sample, const Vec3& curvature);

/// Calls `visit(vertex, F)` with the deformation gradient F at every element corner that
/// is a vertex of `surface` (a solid of `model` at `state`), once for each element holding
/// the vertex: a vertex's stress is the mean over its corners, since the stress of
/// trilinear elements jumps between elements.
void forEachSurfaceCorner(const Model& model, const State& state, const SceneSurface& surface,
                          const std::function<void(size_t vertex, const Mat3& F)>& visit);

/// `scene` with every flexible member's displacement from its reference configuration
/// multiplied by k (points x = X + k (x − X), slopes likewise, normals swept again),
/// ghosts included; the fields (strain, stress) stay those of the state. Rigid bodies and
/// joint markers are not changed.
Scene withExaggeratedDeformation(Scene scene, double k);

/// Where `scene` draws node `node` of flexible body b [m]: a beam's node (its centreline
/// sample node · samplesPerElement, which the cable element's interpolation puts exactly
/// on the node's position), a solid's node on its outer surface. None for a solid's inner
/// node (the surface does not hold it), a node out of range, or a body the scene draws no
/// flexible member for. An exaggerated scene gives the exaggerated place.
std::optional<Vec3> sceneNodePosition(const Scene& scene, BodyIndex b, int node);

/// Unit normals of the section at each sample of `beam`, perpendicular to its slope and
/// carried along the centreline without twist (parallel transport: each normal is the
/// previous one rotated by the smallest rotation taking the previous tangent to this
/// one). The first is the undeformed beam's normal: global y projected off the axis, or
/// global z for a beam within 25° of y. A rectangle's height lies along the normal.
std::vector<Vec3> sweepNormals(const SceneBeam& beam);

}  // namespace looplab
