#pragma once
// A shape given as a triangle mesh file (STL, ASCII or binary, and Wavefront OBJ): read into
// vertices and triangles, and the volume integrals of a closed mesh (divergence theorem) that
// give a solid's mass properties. Only triangles are needed, so the two formats are read
// here rather than through a mesh library (the workbench draws the files with VTK's readers).
#include "looplab/common/Types.h"

#include <array>
#include <string>
#include <vector>

namespace looplab {

struct TriangleMesh {
    std::vector<Vec3> vertices;
    std::vector<std::array<int, 3>> triangles;  ///< vertex indices, counter-clockwise seen from outside
};

/// Reads `path` by its extension (.stl, .obj); false with *why ("cannot open ...", "line 12:
/// ...") otherwise. STL's vertices are merged where they are equal, so that edges can be
/// matched. Polygons of OBJ are split into fans.
bool readTriangleMesh(const std::string& path, TriangleMesh& mesh, std::string* why);

/// Volume, centroid and the inertia about the centroid per unit density of the solid a
/// closed mesh bounds, every vertex scaled by `scale` first.
struct MeshVolume {
    bool ok = false;
    std::string message;  ///< why not: an open mesh (an edge not shared by exactly two triangles), no volume
    double volume = 0.0;
    Vec3 centroid = Vec3::Zero();
    Mat3 unitInertia = Mat3::Zero();  ///< ∫ (|r|² 1 − r rᵀ) dV about the centroid
    Vec3 lower = Vec3::Zero(), upper = Vec3::Zero();  ///< bounding box
};
MeshVolume meshVolume(const TriangleMesh& mesh, const Vec3& scale = Vec3::Ones());

/// The bounding box of a mesh file's vertices times `scale`, for drawing and posing; read
/// once per file (and again when the file changes). False if the file cannot be read.
bool meshBounds(const std::string& path, const Vec3& scale, Vec3& lower, Vec3& upper);

}  // namespace looplab
