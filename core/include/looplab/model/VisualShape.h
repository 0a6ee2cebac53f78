#pragma once
// How a body looks. The core only describes shapes; the workbench turns them into
// VTK actors, and the command-line tool ignores them.

#include "looplab/common/Types.h"

#include <array>
#include <string>

namespace looplab {

/// A simple solid drawn for a body, given in the body frame, or a triangle mesh file.
struct VisualShape {
    enum class Kind { None, Box, Cylinder, Sphere, Mesh };
    Kind kind = Kind::None;
    /// Box: full edge lengths along body x, y, z [m].
    Vec3 size = Vec3::Zero();
    /// Cylinder and sphere radius [m].
    double radius = 0.0;
    /// Cylinder length along the shape's local z axis [m].
    double length = 0.0;
    /// Mesh: the STL or OBJ file (in a document as written, relative to the model file's
    /// folder or absolute; in a built model the path to open), and the factors its
    /// coordinates are multiplied by along the shape's axes (a file in millimetres: 0.001).
    std::string file;
    Vec3 scale = Vec3::Ones();
    /// Placement of the shape in the body frame (the shape's centre and axes; a mesh's
    /// origin and axes).
    Vec3 offset = Vec3::Zero();
    Quat orientation = Quat::Identity();
    /// Colour, components in [0, 1].
    std::array<double, 3> color{{0.6, 0.6, 0.65}};
};

/// Parses "box", "cylinder", "sphere", "mesh", "none"; returns false for anything else.
bool visualShapeKindFromName(const std::string& name, VisualShape::Kind& kind);
/// Inverse of visualShapeKindFromName.
const char* visualShapeKindName(VisualShape::Kind kind);

}  // namespace looplab
