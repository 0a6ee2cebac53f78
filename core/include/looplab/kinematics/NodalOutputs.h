#pragma once
// What a flexible body (beam or solid mesh) reports as its motion, where a rigid body
// reports its centre of mass and orientation: its centre of mass and a few named points of
// its mesh, each a weighted mean of node positions. A beam names its root and tip nodes;
// a solid its six faces, at the centroid of each face (the node weights of a uniform
// traction, SolidMesh::faceWeights). `looplab-cli simulate` writes these as CSV columns,
// and any node by the name the model format gives it (`--node`).

#include "looplab/model/Model.h"
#include "looplab/model/State.h"

#include <optional>
#include <string>
#include <vector>

namespace looplab {

/// A weighted mean of nodes of one flexible body; the weights sum to one.
struct NodalPoint {
    std::string name;  ///< e.g. "root", "tip", "xmax" (the body's name is not included)
    std::vector<int> nodes;
    std::vector<double> weights;
};

/// The named points of body b: root and tip for a beam, the six face centroids for a
/// solid, none for a rigid body or the ground.
std::vector<NodalPoint> nodalPoints(const Model& model, BodyIndex b);
/// Current global position of a named point [m].
Vec3 nodalPointPosition(const Model& model, const State& s, BodyIndex b, const NodalPoint& p);
/// One node of a beam or solid mesh.
struct MeshNode {
    BodyIndex body;
    int node = 0;  ///< index in the mesh
};
/// The node a name denotes ("<beam>.node<k>", "<beam>.root", "<beam>.tip",
/// "<solid>.node<i>_<j>_<k>", docs/model-format.md), or none. Indices are written as the
/// format writes them (no sign, no leading zeros).
std::optional<MeshNode> findMeshNode(const Model& model, const std::string& name);
/// Current global position of a node [m].
Vec3 meshNodePosition(const Model& model, const State& s, const MeshNode& node);
/// Current centre of mass of a flexible body, ∫ρ r dV / m [m] (the consistent gravity load
/// of a unit field weighs each coordinate by its share of the mass).
Vec3 flexibleCentreOfMass(const Model& model, const State& s, BodyIndex b);

}  // namespace looplab
