#include "looplab/model/ShapeMassProperties.h"

#include "looplab/model/TriangleMesh.h"

#include <cmath>

namespace looplab {

ShapeMassProperties massPropertiesOfShape(const VisualShape& shape, double density) {
    ShapeMassProperties r;
    if (!std::isfinite(density) || !(density > 0.0)) {
        r.message = "density must be positive";
        return r;
    }
    Mat3 local = Mat3::Zero();
    Vec3 centre = Vec3::Zero();  // in the shape's axes, from its origin
    switch (shape.kind) {
    case VisualShape::Kind::None:
        r.message = "a body without a shape has no volume to take its mass from";
        return r;
    case VisualShape::Kind::Box: {
        const double a = shape.size.x(), b = shape.size.y(), c = shape.size.z();
        r.volume = a * b * c;
        r.mass = density * r.volume;
        local.diagonal() << b * b + c * c, a * a + c * c, a * a + b * b;
        local *= r.mass / 12.0;
        break;
    }
    case VisualShape::Kind::Cylinder: {
        const double rr = shape.radius, L = shape.length;
        r.volume = M_PI * rr * rr * L;
        r.mass = density * r.volume;
        const double transverse = r.mass * (3.0 * rr * rr + L * L) / 12.0;
        local.diagonal() << transverse, transverse, 0.5 * r.mass * rr * rr;
        break;
    }
    case VisualShape::Kind::Sphere: {
        const double rr = shape.radius;
        r.volume = 4.0 / 3.0 * M_PI * rr * rr * rr;
        r.mass = density * r.volume;
        local = Mat3::Identity() * (0.4 * r.mass * rr * rr);
        break;
    }
    case VisualShape::Kind::Mesh: {
        TriangleMesh mesh;
        std::string why;
        if (!readTriangleMesh(shape.file, mesh, &why)) {
            r.message = "mesh file " + shape.file + ": " + why;
            return r;
        }
        const MeshVolume v = meshVolume(mesh, shape.scale);
        if (!v.ok) {
            r.message = "mesh file " + shape.file + ": " + v.message;
            return r;
        }
        r.volume = v.volume;
        r.mass = density * v.volume;
        local = density * v.unitInertia;
        centre = v.centroid;
        break;
    }
    }
    if (!std::isfinite(r.mass) || !(r.volume > 0.0)) {
        r.message = "the shape has no volume (a dimension is zero)";
        return r;
    }
    const Mat3 R = shape.orientation.normalized().toRotationMatrix();
    r.inertia = R * local * R.transpose();
    r.inertia = 0.5 * (r.inertia + r.inertia.transpose()).eval();
    r.centreOfMass = shape.offset + R * centre;
    r.ok = true;
    return r;
}

void applyShapeMassProperties(BodyDoc& body) {
    if (!body.density) return;
    const ShapeMassProperties mp = massPropertiesOfShape(body.shape, *body.density);
    if (!mp.ok) return;
    body.mass = mp.mass;
    body.inertia = mp.inertia;
}

void applyShapeMassProperties(ModelDocument& doc) {
    for (BodyDoc& b : doc.bodies) applyShapeMassProperties(b);
}

}  // namespace looplab
