#pragma once
// What the viewport draws, in the solver's terms. Kept free of VTK and Qt so that the
// code that translates a compiled model into a scene does not need either.

#include "looplab/VisualShape.h"

#include <Eigen/Core>

#include <string>

namespace looplab::ui {

/// One rigid body as the viewport shows it. Its index in the list passed to
/// VtkViewport::setBodies() is the index used by poses, joints, springs and picking.
struct BodyVisual {
    std::string name;
    /// Solid drawn in the body frame; Kind::None draws nothing (the body can still carry
    /// joints, springs and trails).
    looplab::VisualShape shape;
};

/// A joint drawn as a small glyph fixed on one body.
struct JointVisual {
    enum class Kind { Revolute, Prismatic, Spherical, Other };
    std::string name;
    /// Body the glyph moves with (index into the body list); -1 keeps it fixed in the world.
    int body = -1;
    /// Glyph centre in the frame of `body` [m].
    Eigen::Vector3d localPoint = Eigen::Vector3d::Zero();
    /// Rotation or sliding axis in the frame of `body`; need not be normalised. Ignored for
    /// spherical joints.
    Eigen::Vector3d localAxis = Eigen::Vector3d::UnitZ();
    Kind kind = Kind::Other;
};

/// A point-to-point force element drawn as a straight line between its two attachment
/// points, each fixed on a body (-1 = world).
struct SpringVisual {
    int body1 = -1;
    Eigen::Vector3d localPoint1 = Eigen::Vector3d::Zero();
    int body2 = -1;
    Eigen::Vector3d localPoint2 = Eigen::Vector3d::Zero();
};

}  // namespace looplab::ui
