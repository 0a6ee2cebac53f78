#pragma once
// The VTK side of a mechanism scene (looplab::Scene): one actor per body and per joint,
// a line set for the springs, an outline for the selected body and optional trails.
// Geometry is built once, in the body or joint frame; placements are applied through
// per-body and per-joint matrices, so moving the mechanism costs one 4×4 copy per body
// and joint plus the springs and trails, never a geometry rebuild.

#include "looplab/scene/Scene.h"
#include "viewport/FlexibleActors.h"

#include <Eigen/Geometry>
#include <vtkSmartPointer.h>

#include <deque>
#include <memory>
#include <optional>
#include <vector>

class vtkActor;
class vtkMatrix4x4;
class vtkPolyData;
class vtkProp;
class vtkRenderer;
class vtkTubeFilter;

namespace looplab::ui {

class SceneActors {
public:
    /// Adds the scene's actors to `renderer`, which must outlive this object.
    explicit SceneActors(vtkRenderer* renderer);
    /// Removes every actor this object added.
    ~SceneActors();
    SceneActors(const SceneActors&) = delete;
    SceneActors& operator=(const SceneActors&) = delete;

    /// Draws `scene`: body i is scene.bodies[i], joint j is scene.joints[j]. The solids
    /// are rebuilt only when the scene's differ from the ones drawn (their number or a
    /// shape, or the flexible members' number or sample counts); then trails are dropped, since they refer to body indices, and this returns
    /// true. Joint glyphs are rebuilt only when their number or kinds change (or the
    /// solids, which size them). Otherwise everything is just moved. Active trails gain a
    /// point.
    bool setScene(const looplab::Scene& scene);

    /// Draws body `body` brighter and outlined; -1 (or any invalid index) clears it.
    void setHighlightedBody(int body);
    /// Draws the listed joints in the highlight colour; invalid indices are ignored.
    void setHighlightedJoints(std::vector<int> joints);

    /// Multiplies the widths of springs, trails and the selection outline (projector mode).
    void setLineScale(float scale);
    float lineScale() const { return lineScale_; }

    /// Starts (on) or removes (off) a trail of the world positions taken by `localPoint`
    /// of `body` (-1 = world, which gives a single point). A trail starts at the current
    /// pose and gains a point at every setScene(); it keeps the last trailLength().
    void setTrail(int body, const Eigen::Vector3d& localPoint, bool on);
    /// Starts (on) or removes (off) a trail of the places where the scene draws node
    /// `node` of the flexible member of `body` (a Scene::bodies index, as for setTrail):
    /// a beam's node, a solid's node on its surface (sceneNodePosition(), FlexibleScene.h).
    /// It starts at the node's place in the scene drawn last and gains a point at every
    /// setScene(). Returns false, starting nothing, if that scene does not draw the node.
    bool setNodeTrail(int body, int node, bool on);
    /// The points of every trail, oldest first, in the order the trails were started.
    std::vector<std::vector<Eigen::Vector3d>> trailPoints() const;
    /// Removes all trails.
    void clearTrails();
    /// Maximum number of points a trail keeps (at least 2); shortens existing trails.
    void setTrailLength(int points);
    int trailLength() const { return trailLength_; }

    /// Diameter of the joint glyphs [m]; 0 (the default) derives it from the bodies.
    void setJointGlyphSize(double size);
    /// The diameter actually used for joint glyphs [m].
    double jointGlyphSize() const;

    /// Colours the flexible members (beams, solid meshes) by a field, with its legend.
    void setFlexibleField(FlexibleField field) { flexible_->setField(field); }
    /// The flexible members as drawn (their field, legend and bounds).
    const FlexibleActors& flexible() const { return *flexible_; }

    int bodyCount() const { return static_cast<int>(bodies_.size()); }
    /// Translucent reference copies drawn (Scene::ghosts that have a solid).
    int ghostCount() const { return static_cast<int>(ghosts_.size()); }
    /// Current pose of ghost `index`; identity for invalid indices.
    Eigen::Isometry3d ghostPose(int index) const;
    int jointCount() const { return static_cast<int>(joints_.size()); }
    /// Current pose of `body`; identity for -1 and for invalid indices.
    Eigen::Isometry3d bodyPose(int body) const;

    /// Index of the body whose solid is `prop`, or -1. Flexible members are not picked:
    /// posing drags a point fixed in a body's frame, which a beam or solid mesh has not.
    int bodyOf(const vtkProp* prop) const;
    /// Index of the joint whose glyph is `prop`, or -1.
    int jointOf(const vtkProp* prop) const;

    /// World bounds (xmin, xmax, ymin, ymax, zmin, zmax) of the bodies, flexible members,
    /// joints, springs and rods at their current poses; false when there is nothing to bound.
    bool bounds(double out[6]) const;

    /// The distance joints' rods drawn (Scene::rods), and the attachments: a rod from a
    /// body's solid to each of its joints that lies away from it (a pendulum's pivot above
    /// its bob). Their actor (one for all) and radius [m], 0 without rods.
    const vtkActor* rodActor() const;
    double rodRadius() const;
    int attachmentCount() const { return static_cast<int>(attachments_.size()); }
    /// The springs' coils (for tests), and their radius [m] (0 without springs).
    const vtkActor* springActor() const;
    double springCoilRadius() const;

private:
    struct Body {
        looplab::VisualShape shape;
        Eigen::Isometry3d pose = Eigen::Isometry3d::Identity();
        vtkSmartPointer<vtkMatrix4x4> matrix;
        vtkSmartPointer<vtkActor> actor;  // null when the shape draws nothing
        vtkSmartPointer<vtkPolyData> geometry;
    };
    struct Ghost {
        looplab::VisualShape shape;
        Eigen::Isometry3d pose = Eigen::Isometry3d::Identity();
        vtkSmartPointer<vtkMatrix4x4> matrix;
        vtkSmartPointer<vtkActor> actor;
    };
    struct Joint {
        looplab::SceneJoint::Kind kind;
        Eigen::Isometry3d placement = Eigen::Isometry3d::Identity();  // joint frame to world
        vtkSmartPointer<vtkMatrix4x4> matrix;
        vtkSmartPointer<vtkActor> actor;
    };
    struct Trail {
        int body = -1;
        int node = -1;  // a flexible member's node, or -1 for localPoint of a rigid body
        Eigen::Vector3d localPoint;
        std::deque<Eigen::Vector3d> points;
        vtkSmartPointer<vtkPolyData> line;
        vtkSmartPointer<vtkActor> actor;
    };

    bool sameSolids(const std::vector<looplab::SceneBody>& bodies) const;
    bool sameJoints(const std::vector<looplab::SceneJoint>& joints) const;
    void rebuildBodies(const std::vector<looplab::SceneBody>& bodies);
    Eigen::Vector3d worldPoint(int body, const Eigen::Vector3d& localPoint) const;
    /// Where the scene drawn last has node `node` of body `body` (a Scene::bodies index).
    std::optional<Eigen::Vector3d> nodePoint(int body, int node) const;
    void removeJointActors();
    void setGhosts(const std::vector<looplab::SceneBody>& ghosts);
    void rebuildJoints();
    void updateSprings();
    void updateAttachments(const std::vector<looplab::SceneJoint>& joints);
    void updateRods();
    void updateTrail(Trail& trail);
    void applyBodyColor(int body);
    void applyJointColor(int joint);
    void updateOutline();
    double automaticGlyphSize() const;

    vtkRenderer* renderer_;
    std::vector<Body> bodies_;
    std::vector<Ghost> ghosts_;
    std::vector<Joint> joints_;
    std::unique_ptr<FlexibleActors> flexible_;
    std::vector<looplab::SceneSpring> springs_;
    vtkSmartPointer<vtkPolyData> springLines_;
    vtkSmartPointer<vtkActor> springActor_;
    std::vector<looplab::SceneRod> rods_;
    std::vector<looplab::SceneRod> attachments_;
    vtkSmartPointer<vtkPolyData> rodLines_;
    vtkSmartPointer<vtkTubeFilter> rodTubes_;
    vtkSmartPointer<vtkActor> rodActor_;
    vtkSmartPointer<vtkPolyData> couplerLines_;
    vtkSmartPointer<vtkActor> couplerActor_;
    int couplerCount_ = 0;
    vtkSmartPointer<vtkActor> outlineActor_;
    std::vector<std::unique_ptr<Trail>> trails_;
    float lineScale_ = 1.0f;
    /// The flexible members of the scene drawn last (beams and surfaces only): where node
    /// trails find their nodes, also when one starts between two scenes.
    looplab::Scene drawnMembers_;
    int highlightedBody_ = -1;
    std::vector<int> highlightedJoints_;
    int trailLength_ = 500;
    /// The automatic joint glyph size of the joints drawn (automaticGlyphSize()).
    double automaticSize_ = 0.0;
    double glyphSize_ = 0.0;
};

}  // namespace looplab::ui
