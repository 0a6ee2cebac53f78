#pragma once
// Mass, centre of mass and inertia of a body made of one homogeneous solid: the body's
// visual shape filled with a material of a given density. Bodies that name a density
// (BodyDoc::density) take their mass properties from here instead of typed numbers, so
// a link drawn longer or thicker weighs and turns as it should.

#include "looplab/model/ModelDocument.h"
#include "looplab/model/VisualShape.h"

#include <string>

namespace looplab {

struct ShapeMassProperties {
    bool ok = false;
    std::string message;             ///< why not, when !ok
    double mass = 0.0;               ///< kg
    double volume = 0.0;             ///< m³
    Vec3 centreOfMass = Vec3::Zero();  ///< body frame [m]: the shape's centre (a mesh's centroid)
    Mat3 inertia = Mat3::Zero();     ///< kg·m² about the centre of mass, body frame axes
};

/// Mass properties of `shape` filled with `density` [kg/m³]:
///   box a×b×c:        m = ρabc,        I = m/12 · diag(b²+c², a²+c², a²+b²)
///   cylinder r, L(z): m = ρπr²L,       I = diag(m(3r²+L²)/12, m(3r²+L²)/12, m r²/2)
///   sphere r:         m = ρ·4πr³/3,    I = 2/5 m r² · 1
///   mesh (closed):    the volume integrals of TriangleMesh.h, about the mesh's centroid
/// in the shape's axes, turned into the body frame by the shape's orientation R
/// (I_body = R I Rᵀ). Fails for no shape, a shape of zero volume, a mesh file that cannot
/// be read or is not closed, or a density that is not positive. A mesh's file is opened as
/// given: a built model's shapes carry the path resolved against the model file's folder.
ShapeMassProperties massPropertiesOfShape(const VisualShape& shape, double density);

/// For every body with a density, sets mass and inertia from its shape (they are what the
/// builder uses; this keeps the document's numbers showing the same). Bodies whose shape
/// cannot give mass properties keep their numbers and are reported by the builder.
void applyShapeMassProperties(ModelDocument& doc);
void applyShapeMassProperties(BodyDoc& body);

}  // namespace looplab
