#pragma once
// Kinds of body and where each body's numbers live in the state.
//
// Every body owns a slice of the position vector q and a slice of the velocity vector v;
// the compiled Model holds the slices, and everything that reads or moves a body's numbers
// asks its kind how (State.cpp dispatches on the kind). A kind provides, for its slices:
//   - the sizes of the position and velocity slices, and the initial numbers from the
//     model document;
//   - q̇ from v, and the retraction q ⊕ dv that the constraint Jacobian (taken with
//     respect to v) is the derivative of, and a re-normalisation of q where q is
//     redundant (unit quaternions);
//   - the position, velocity and frame of a point given in the body, with the Jacobian
//     of the point and of a body-fixed direction with respect to the body's velocity
//     slice, so that joint equations are written once for frames on any kind of body
//     (FrameKinematics.h, which also gives the curvature of the constraints);
//   - its block of the mass matrix, its generalised inertial and gravity forces, its
//     kinetic and potential energy, and the scale of each velocity coordinate.
// Rigid was the first kind (7 position numbers: centre of mass and unit quaternion;
// 6 velocity numbers: centre-of-mass velocity, body-frame angular velocity). A flexible
// kind (beam or solid mesh in absolute nodal coordinates) has position and slopes per node
// as both its position and its velocity slice (no quaternion, so q̇ = v and the retraction
// is an addition), and its frames depend on the nodes of the element that holds them.

namespace looplab {

enum class BodyKind {
    Ground,  ///< body 0: fixed, no coordinates
    Rigid,
    Beam,    ///< a mesh of ANCF cable elements, 6 numbers per node (BeamMesh.h)
    Solid    ///< a mesh of 8-node hexahedra, 3 numbers (the position) per node (SolidMesh.h)
};

/// Where one body's numbers live in State::q and State::v.
struct CoordinateSlice {
    int positionOffset = 0;
    int positionSize = 0;
    int velocityOffset = 0;
    int velocitySize = 0;
};

/// Number of position and velocity coordinates of a body of this kind (a rigid body's; a
/// beam's slice is as large as its mesh: Model::layOutCoordinates asks the mesh).
int positionSizeOf(BodyKind kind);
int velocitySizeOf(BodyKind kind);

}  // namespace looplab
