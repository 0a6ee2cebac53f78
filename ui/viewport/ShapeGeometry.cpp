#include "viewport/ShapeGeometry.h"

#include <vtkAlgorithm.h>
#include <vtkArrowSource.h>
#include <vtkCubeSource.h>
#include <vtkCylinderSource.h>
#include <vtkNew.h>
#include <vtkOBJReader.h>
#include <vtkSTLReader.h>
#include <vtkPolyData.h>
#include <vtkPolyDataNormals.h>
#include <vtkSphereSource.h>
#include <vtkTransform.h>
#include <vtkTransformPolyDataFilter.h>

#include <Eigen/Geometry>

#include "looplab/model/TriangleMesh.h"

#include <algorithm>
#include <cctype>

#include <cmath>

namespace looplab::ui {
namespace {

constexpr double kRadToDeg = 180.0 / 3.14159265358979323846;

// Appends a rotation to a post-multiplying transform. VTK takes angle-axis in degrees;
// the identity has no defined axis, so it is skipped.
void rotate(vtkTransform* transform, const Eigen::Quaterniond& q)
{
    const Eigen::AngleAxisd aa(q.normalized());
    if (std::abs(aa.angle()) < 1e-12)
        return;
    transform->RotateWXYZ(aa.angle() * kRadToDeg, aa.axis().x(), aa.axis().y(), aa.axis().z());
}

// Runs `source` through `transform` and returns a standalone copy, so that the caller does
// not keep a pipeline alive and later pose updates cannot re-execute it.
vtkSmartPointer<vtkPolyData> transformed(vtkAlgorithm* source, vtkTransform* transform,
                                         bool recomputeNormals)
{
    vtkNew<vtkTransformPolyDataFilter> filter;
    filter->SetInputConnection(source->GetOutputPort());
    filter->SetTransform(transform);
    vtkAlgorithm* last = filter;
    vtkNew<vtkPolyDataNormals> normals;
    if (recomputeNormals) {
        // The arrow source has no normals; splitting at sharp edges keeps its cone
        // base and shaft end flat instead of smeared.
        normals->SetInputConnection(filter->GetOutputPort());
        normals->SetFeatureAngle(45.0);
        normals->SplittingOn();
        last = normals;
    }
    last->Update();
    auto out = vtkSmartPointer<vtkPolyData>::New();
    out->DeepCopy(vtkPolyData::SafeDownCast(last->GetOutputDataObject(0)));
    return out;
}

// Rotation that takes the local z axis onto `axis`; a zero axis leaves z unchanged.
Eigen::Quaterniond zTo(const Eigen::Vector3d& axis)
{
    if (axis.norm() < 1e-12)
        return Eigen::Quaterniond::Identity();
    return Eigen::Quaterniond::FromTwoVectors(Eigen::Vector3d::UnitZ(), axis.normalized());
}

}  // namespace

vtkSmartPointer<vtkPolyData> makeShapeGeometry(const looplab::VisualShape& shape)
{
    using Kind = looplab::VisualShape::Kind;
    vtkNew<vtkTransform> placement;
    placement->PostMultiply();

    vtkSmartPointer<vtkAlgorithm> source;
    switch (shape.kind) {
    case Kind::Box: {
        if ((shape.size.array() <= 0.0).any())
            return nullptr;
        vtkNew<vtkCubeSource> cube;
        cube->SetXLength(shape.size.x());
        cube->SetYLength(shape.size.y());
        cube->SetZLength(shape.size.z());
        source = cube;
        break;
    }
    case Kind::Cylinder: {
        if (shape.radius <= 0.0 || shape.length <= 0.0)
            return nullptr;
        vtkNew<vtkCylinderSource> cylinder;
        cylinder->SetRadius(shape.radius);
        cylinder->SetHeight(shape.length);
        cylinder->SetResolution(48);
        cylinder->CappingOn();
        source = cylinder;
        // vtkCylinderSource lies along y; VisualShape cylinders lie along local z.
        placement->RotateX(90.0);
        break;
    }
    case Kind::Sphere: {
        if (shape.radius <= 0.0)
            return nullptr;
        vtkNew<vtkSphereSource> sphere;
        sphere->SetRadius(shape.radius);
        sphere->SetThetaResolution(40);
        sphere->SetPhiResolution(20);
        source = sphere;
        break;
    }
    case Kind::Mesh: {
        // The core reads the file first: a file it cannot read (missing, not STL or OBJ) is
        // not handed to VTK's readers, which would only log an error.
        looplab::TriangleMesh check;
        std::string why;
        if (!looplab::readTriangleMesh(shape.file, check, &why))
            return nullptr;
        std::string ending = shape.file.substr(shape.file.size() >= 4 ? shape.file.size() - 4 : 0);
        std::transform(ending.begin(), ending.end(), ending.begin(), [](unsigned char c) { return char(std::tolower(c)); });
        const bool stl = ending == ".stl";
        if (stl) {
            vtkNew<vtkSTLReader> reader;
            reader->SetFileName(shape.file.c_str());
            source = reader;
        } else {
            vtkNew<vtkOBJReader> reader;
            reader->SetFileName(shape.file.c_str());
            source = reader;
        }
        placement->Scale(shape.scale.x(), shape.scale.y(), shape.scale.z());
        break;
    }
    case Kind::None:
        return nullptr;
    }

    rotate(placement, shape.orientation);
    placement->Translate(shape.offset.x(), shape.offset.y(), shape.offset.z());
    // A mesh file's normals may be missing or facet-wise: computed here, as for the glyphs.
    return transformed(source, placement, shape.kind == Kind::Mesh);
}

vtkSmartPointer<vtkPolyData> makeJointGlyphGeometry(looplab::SceneJoint::Kind kind,
                                                    const Eigen::Vector3d& point,
                                                    const Eigen::Vector3d& axis, double size)
{
    vtkNew<vtkTransform> placement;
    placement->PostMultiply();
    vtkSmartPointer<vtkAlgorithm> source;
    bool needsNormals = false;

    switch (kind) {
    case looplab::SceneJoint::Kind::Revolute: {
        vtkNew<vtkCylinderSource> pin;
        pin->SetRadius(0.5 * size);
        pin->SetHeight(1.6 * size);
        pin->SetResolution(32);
        source = pin;
        placement->RotateX(90.0);
        break;
    }
    case looplab::SceneJoint::Kind::Prismatic: {
        vtkNew<vtkArrowSource> arrow;
        arrow->SetTipResolution(24);
        arrow->SetShaftResolution(24);
        arrow->SetTipLength(0.3);
        arrow->SetTipRadius(0.18);
        arrow->SetShaftRadius(0.07);
        source = arrow;
        needsNormals = true;
        // The arrow runs from 0 to 1 along x: centre it on the joint point, make it
        // longer than the other glyphs so the direction reads, and turn it onto z.
        placement->Translate(-0.5, 0.0, 0.0);
        placement->Scale(3.0 * size, 3.0 * size, 3.0 * size);
        placement->RotateY(-90.0);
        break;
    }
    case looplab::SceneJoint::Kind::Spherical: {
        vtkNew<vtkSphereSource> ball;
        ball->SetRadius(0.6 * size);
        ball->SetThetaResolution(24);
        ball->SetPhiResolution(12);
        source = ball;
        break;
    }
    case looplab::SceneJoint::Kind::Other: {
        vtkNew<vtkCubeSource> cube;
        cube->SetXLength(0.8 * size);
        cube->SetYLength(0.8 * size);
        cube->SetZLength(0.8 * size);
        source = cube;
        break;
    }
    }

    rotate(placement, zTo(axis));
    placement->Translate(point.x(), point.y(), point.z());
    return transformed(source, placement, needsNormals);
}

}  // namespace looplab::ui
