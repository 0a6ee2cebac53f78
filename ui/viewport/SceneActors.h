#pragma once
// The VTK side of a mechanism scene: one actor per body and per joint, a line set for
// the springs, an outline for the selected body and optional trails. Poses are applied
// through shared per-body matrices, so moving the mechanism costs one 4×4 copy per body
// plus the springs and trails, never a geometry rebuild.

#include "viewport/SceneDescription.h"

#include <Eigen/Geometry>
#include <vtkSmartPointer.h>

#include <deque>
#include <memory>
#include <vector>

class vtkActor;
class vtkMatrix4x4;
class vtkPolyData;
class vtkProp;
class vtkRenderer;

namespace looplab::ui {

class SceneActors {
public:
    /// Adds the scene's actors to `renderer`, which must outlive this object.
    explicit SceneActors(vtkRenderer* renderer);
    /// Removes every actor this object added.
    ~SceneActors();
    SceneActors(const SceneActors&) = delete;
    SceneActors& operator=(const SceneActors&) = delete;

    /// Replaces the bodies. All poses become the identity; trails are dropped because
    /// they refer to body indices; joints and springs are kept and re-attached by index.
    void setBodies(std::vector<BodyVisual> bodies);
    /// Moves body i to poses[i] (body frame to world). Extra poses are ignored and bodies
    /// without a pose keep their last one. Springs follow and trails get a new point.
    void setBodyPoses(const std::vector<Eigen::Isometry3d>& poses);
    /// Replaces the joint glyphs.
    void setJoints(std::vector<JointVisual> joints);
    /// Replaces the spring lines.
    void setSprings(std::vector<SpringVisual> springs);

    /// Draws body `body` brighter and outlined; -1 (or any invalid index) clears it.
    void setHighlightedBody(int body);
    /// Draws the listed joints in the highlight colour; invalid indices are ignored.
    void setHighlightedJoints(std::vector<int> joints);

    /// Starts (on) or removes (off) a trail of the world positions taken by `localPoint`
    /// of `body` (-1 = world, which gives a single point). A trail starts at the current
    /// pose and gains a point at every setBodyPoses(); it keeps the last trailLength().
    void setTrail(int body, const Eigen::Vector3d& localPoint, bool on);
    /// Removes all trails.
    void clearTrails();
    /// Maximum number of points a trail keeps (at least 2); shortens existing trails.
    void setTrailLength(int points);
    int trailLength() const { return trailLength_; }

    /// Diameter of the joint glyphs [m]; 0 (the default) derives it from the bodies.
    void setJointGlyphSize(double size);
    /// The diameter actually used for joint glyphs [m].
    double jointGlyphSize() const;

    int bodyCount() const { return static_cast<int>(bodies_.size()); }
    int jointCount() const { return static_cast<int>(joints_.size()); }
    /// Current pose of `body`; identity for -1 and for invalid indices.
    Eigen::Isometry3d bodyPose(int body) const;

    /// Index of the body whose solid is `prop`, or -1.
    int bodyOf(const vtkProp* prop) const;
    /// Index of the joint whose glyph is `prop`, or -1.
    int jointOf(const vtkProp* prop) const;

    /// World bounds (xmin, xmax, ymin, ymax, zmin, zmax) of the bodies, joints and
    /// springs at their current poses; false when there is nothing to bound.
    bool bounds(double out[6]) const;

private:
    struct Body {
        BodyVisual visual;
        Eigen::Isometry3d pose = Eigen::Isometry3d::Identity();
        vtkSmartPointer<vtkMatrix4x4> matrix;
        vtkSmartPointer<vtkActor> actor;  // null when the shape draws nothing
        vtkSmartPointer<vtkPolyData> geometry;
    };
    struct Joint {
        JointVisual visual;
        vtkSmartPointer<vtkActor> actor;
    };
    struct Trail {
        int body = -1;
        Eigen::Vector3d localPoint;
        std::deque<Eigen::Vector3d> points;
        vtkSmartPointer<vtkPolyData> line;
        vtkSmartPointer<vtkActor> actor;
    };

    vtkMatrix4x4* matrixOf(int body) const;
    Eigen::Vector3d worldPoint(int body, const Eigen::Vector3d& localPoint) const;
    void removeJointActors();
    void rebuildJoints();
    void updateSprings();
    void updateTrail(Trail& trail);
    void applyBodyColor(int body);
    void applyJointColor(int joint);
    void updateOutline();
    double automaticGlyphSize() const;

    vtkRenderer* renderer_;
    vtkSmartPointer<vtkMatrix4x4> worldMatrix_;
    std::vector<Body> bodies_;
    std::vector<Joint> joints_;
    std::vector<SpringVisual> springs_;
    vtkSmartPointer<vtkPolyData> springLines_;
    vtkSmartPointer<vtkActor> springActor_;
    vtkSmartPointer<vtkActor> outlineActor_;
    std::vector<std::unique_ptr<Trail>> trails_;
    int highlightedBody_ = -1;
    std::vector<int> highlightedJoints_;
    int trailLength_ = 500;
    double glyphSize_ = 0.0;
};

}  // namespace looplab::ui
