#pragma once
// Polygon geometry for the solids bodies carry and for joint glyphs. Geometry is built
// once in the body frame; motion is applied later through the actor's matrix, so a
// pose update never touches these polygons.

#include "looplab/scene/Scene.h"
#include "looplab/model/VisualShape.h"

#include <Eigen/Core>
#include <vtkSmartPointer.h>

class vtkPolyData;

namespace looplab::ui {

/// Surface of `shape` in its body frame, with the shape's offset and orientation applied
/// and normals for lighting. Returns nullptr for Kind::None and for shapes with a zero
/// or negative dimension, which have nothing to draw.
vtkSmartPointer<vtkPolyData> makeShapeGeometry(const looplab::VisualShape& shape);

/// Glyph for a joint of `kind` centred at `point` with its main direction along `axis`
/// (both in the frame the glyph's actor is placed in). `size` is the glyph's overall
/// diameter [m]. Revolute joints get a short pin along the axis, prismatic joints an
/// arrow along it, spherical joints a ball and anything else a small cube.
vtkSmartPointer<vtkPolyData> makeJointGlyphGeometry(looplab::SceneJoint::Kind kind,
                                                    const Eigen::Vector3d& point,
                                                    const Eigen::Vector3d& axis, double size);

}  // namespace looplab::ui
