#pragma once
// Kinds of body and where each body's numbers live in the state. What a kind provides is
// BodyFormulation.h; this names the kinds (for files, reports and labels) and the slices.

namespace looplab {

enum class BodyKind {
    Ground,  ///< body 0: fixed, no coordinates (rigid/GroundBody.h)
    Rigid,   ///< centre of mass and unit quaternion (rigid/RigidBody.h)
    Beam,    ///< a mesh of ANCF cable elements, 6 numbers per node (beam/BeamMesh.h)
    Solid    ///< a mesh of 8-node hexahedra, 3 numbers (the position) per node (solid/SolidMesh.h)
};

/// Where one body's numbers live in State::q and State::v.
struct CoordinateSlice {
    int positionOffset = 0;
    int positionSize = 0;
    int velocityOffset = 0;
    int velocitySize = 0;
};

}  // namespace looplab
