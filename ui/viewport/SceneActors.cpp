#include "viewport/SceneActors.h"

#include "viewport/ShapeGeometry.h"

#include <vtkActor.h>
#include <vtkCellArray.h>
#include <vtkMath.h>
#include <vtkMatrix4x4.h>
#include <vtkNew.h>
#include <vtkOutlineSource.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkPolyDataMapper.h>
#include <vtkProperty.h>
#include <vtkRenderer.h>

#include <algorithm>
#include <array>
#include <utility>

namespace looplab::ui {
namespace {

using Color = std::array<double, 3>;

constexpr Color kHighlight{{1.0, 0.85, 0.1}};
constexpr Color kSpringColor{{0.12, 0.12, 0.14}};
constexpr Color kTrailColor{{0.75, 0.2, 0.8}};

Color jointColor(JointVisual::Kind kind)
{
    switch (kind) {
    case JointVisual::Kind::Revolute: return {{0.95, 0.5, 0.1}};
    case JointVisual::Kind::Prismatic: return {{0.15, 0.7, 0.8}};
    case JointVisual::Kind::Spherical: return {{0.85, 0.3, 0.6}};
    case JointVisual::Kind::Other: break;
    }
    return {{0.55, 0.55, 0.6}};
}

// Moves a colour towards white: a selected body keeps its hue, so it can still be told
// apart from its neighbours, yet stands out.
Color brighter(const Color& c)
{
    return {{c[0] + 0.45 * (1.0 - c[0]), c[1] + 0.45 * (1.0 - c[1]), c[2] + 0.45 * (1.0 - c[2])}};
}

void setColor(vtkActor* actor, const Color& c)
{
    actor->GetProperty()->SetColor(c[0], c[1], c[2]);
}

void copyPose(const Eigen::Isometry3d& pose, vtkMatrix4x4* matrix)
{
    // vtkMatrix4x4 stores rows contiguously, Eigen stores columns.
    const Eigen::Matrix<double, 4, 4, Eigen::RowMajor> rows = pose.matrix();
    matrix->DeepCopy(rows.data());
}

vtkSmartPointer<vtkActor> makeSolidActor(vtkPolyData* geometry)
{
    vtkNew<vtkPolyDataMapper> mapper;
    mapper->SetInputData(geometry);
    mapper->ScalarVisibilityOff();
    auto actor = vtkSmartPointer<vtkActor>::New();
    actor->SetMapper(mapper);
    vtkProperty* p = actor->GetProperty();
    p->SetAmbient(0.12);
    p->SetDiffuse(0.8);
    p->SetSpecular(0.25);
    p->SetSpecularPower(25.0);
    return actor;
}

// Unlit, unpickable line actor for overlays that must not hide or steal clicks from the
// solids (springs, trails, the selection outline).
vtkSmartPointer<vtkActor> makeLineActor(vtkPolyData* lines, const Color& color, float width)
{
    vtkNew<vtkPolyDataMapper> mapper;
    mapper->SetInputData(lines);
    mapper->ScalarVisibilityOff();
    auto actor = vtkSmartPointer<vtkActor>::New();
    actor->SetMapper(mapper);
    actor->GetProperty()->LightingOff();
    actor->GetProperty()->SetLineWidth(width);
    // Core-profile contexts (and Mesa) draw plain lines one pixel wide whatever the
    // width; as impostor tubes VTK draws them at the requested width.
    actor->GetProperty()->RenderLinesAsTubesOn();
    setColor(actor, color);
    actor->PickableOff();
    return actor;
}

void mergeBounds(const double* b, double out[6], bool& any)
{
    if (!b || !vtkMath::AreBoundsInitialized(b))
        return;
    for (int i = 0; i < 3; ++i) {
        out[2 * i] = any ? std::min(out[2 * i], b[2 * i]) : b[2 * i];
        out[2 * i + 1] = any ? std::max(out[2 * i + 1], b[2 * i + 1]) : b[2 * i + 1];
    }
    any = true;
}

}  // namespace

SceneActors::SceneActors(vtkRenderer* renderer)
    : renderer_(renderer),
      worldMatrix_(vtkSmartPointer<vtkMatrix4x4>::New()),
      springLines_(vtkSmartPointer<vtkPolyData>::New())
{
    springActor_ = makeLineActor(springLines_, kSpringColor, 3.0f);
    renderer_->AddActor(springActor_);

    outlineActor_ = makeLineActor(vtkNew<vtkPolyData>(), kHighlight, 2.5f);
    outlineActor_->VisibilityOff();
    renderer_->AddActor(outlineActor_);
}

SceneActors::~SceneActors()
{
    clearTrails();
    removeJointActors();
    for (const Body& body : bodies_) {
        if (body.actor)
            renderer_->RemoveActor(body.actor);
    }
    renderer_->RemoveActor(springActor_);
    renderer_->RemoveActor(outlineActor_);
}

void SceneActors::setBodies(std::vector<BodyVisual> bodies)
{
    clearTrails();
    for (const Body& body : bodies_) {
        if (body.actor)
            renderer_->RemoveActor(body.actor);
    }
    bodies_.clear();
    bodies_.reserve(bodies.size());
    for (BodyVisual& visual : bodies) {
        Body body;
        body.visual = std::move(visual);
        body.matrix = vtkSmartPointer<vtkMatrix4x4>::New();
        body.geometry = makeShapeGeometry(body.visual.shape);
        if (body.geometry) {
            body.actor = makeSolidActor(body.geometry);
            // Shared, not copied: updating the matrix in place moves the solid, its
            // joints and its outline together.
            body.actor->SetUserMatrix(body.matrix);
            renderer_->AddActor(body.actor);
        }
        bodies_.push_back(std::move(body));
    }
    if (highlightedBody_ >= bodyCount())
        highlightedBody_ = -1;
    for (int i = 0; i < bodyCount(); ++i)
        applyBodyColor(i);
    // Glyph size depends on the bodies, and the joints' matrices belong to them.
    rebuildJoints();
    updateSprings();
    updateOutline();
}

void SceneActors::setBodyPoses(const std::vector<Eigen::Isometry3d>& poses)
{
    const std::size_t n = std::min(poses.size(), bodies_.size());
    for (std::size_t i = 0; i < n; ++i) {
        bodies_[i].pose = poses[i];
        copyPose(poses[i], bodies_[i].matrix);
    }
    updateSprings();
    for (auto& trail : trails_) {
        trail->points.push_back(worldPoint(trail->body, trail->localPoint));
        updateTrail(*trail);
    }
}

void SceneActors::setJoints(std::vector<JointVisual> joints)
{
    removeJointActors();
    joints_.clear();
    joints_.reserve(joints.size());
    for (JointVisual& visual : joints)
        joints_.push_back(Joint{std::move(visual), nullptr});
    rebuildJoints();
}

void SceneActors::setSprings(std::vector<SpringVisual> springs)
{
    springs_ = std::move(springs);
    updateSprings();
}

void SceneActors::setHighlightedBody(int body)
{
    const int previous = highlightedBody_;
    highlightedBody_ = (body >= 0 && body < bodyCount()) ? body : -1;
    applyBodyColor(previous);
    applyBodyColor(highlightedBody_);
    updateOutline();
}

void SceneActors::setHighlightedJoints(std::vector<int> joints)
{
    std::swap(highlightedJoints_, joints);
    for (int j : joints)
        applyJointColor(j);
    for (int j : highlightedJoints_)
        applyJointColor(j);
}

void SceneActors::setTrail(int body, const Eigen::Vector3d& localPoint, bool on)
{
    auto same = [&](const std::unique_ptr<Trail>& t) {
        return t->body == body && (t->localPoint - localPoint).norm() < 1e-12;
    };
    auto it = std::find_if(trails_.begin(), trails_.end(), same);
    if (!on) {
        if (it != trails_.end()) {
            renderer_->RemoveActor((*it)->actor);
            trails_.erase(it);
        }
        return;
    }
    if (it != trails_.end())
        return;
    auto trail = std::make_unique<Trail>();
    trail->body = body;
    trail->localPoint = localPoint;
    trail->line = vtkSmartPointer<vtkPolyData>::New();
    trail->actor = makeLineActor(trail->line, kTrailColor, 2.0f);
    trail->points.push_back(worldPoint(body, localPoint));
    updateTrail(*trail);
    renderer_->AddActor(trail->actor);
    trails_.push_back(std::move(trail));
}

void SceneActors::clearTrails()
{
    for (const auto& trail : trails_)
        renderer_->RemoveActor(trail->actor);
    trails_.clear();
}

void SceneActors::setTrailLength(int points)
{
    trailLength_ = std::max(points, 2);
    for (auto& trail : trails_)
        updateTrail(*trail);
}

void SceneActors::setJointGlyphSize(double size)
{
    glyphSize_ = std::max(size, 0.0);
    rebuildJoints();
}

double SceneActors::jointGlyphSize() const
{
    return glyphSize_ > 0.0 ? glyphSize_ : automaticGlyphSize();
}

Eigen::Isometry3d SceneActors::bodyPose(int body) const
{
    if (body < 0 || body >= bodyCount())
        return Eigen::Isometry3d::Identity();
    return bodies_[body].pose;
}

int SceneActors::bodyOf(const vtkProp* prop) const
{
    if (!prop)
        return -1;
    for (int i = 0; i < bodyCount(); ++i) {
        if (bodies_[i].actor.GetPointer() == prop)
            return i;
    }
    return -1;
}

int SceneActors::jointOf(const vtkProp* prop) const
{
    if (!prop)
        return -1;
    for (int i = 0; i < jointCount(); ++i) {
        if (joints_[i].actor.GetPointer() == prop)
            return i;
    }
    return -1;
}

bool SceneActors::bounds(double out[6]) const
{
    bool any = false;
    for (const Body& body : bodies_) {
        if (body.actor && body.actor->GetVisibility())
            mergeBounds(body.actor->GetBounds(), out, any);
    }
    for (const Joint& joint : joints_)
        mergeBounds(joint.actor->GetBounds(), out, any);
    if (!springs_.empty())
        mergeBounds(springActor_->GetBounds(), out, any);
    return any;
}

vtkMatrix4x4* SceneActors::matrixOf(int body) const
{
    if (body < 0 || body >= bodyCount())
        return worldMatrix_;
    return bodies_[body].matrix;
}

Eigen::Vector3d SceneActors::worldPoint(int body, const Eigen::Vector3d& localPoint) const
{
    return bodyPose(body) * localPoint;
}

void SceneActors::removeJointActors()
{
    for (Joint& joint : joints_) {
        if (joint.actor)
            renderer_->RemoveActor(joint.actor);
        joint.actor = nullptr;
    }
}

void SceneActors::rebuildJoints()
{
    removeJointActors();
    const double size = jointGlyphSize();
    for (int i = 0; i < jointCount(); ++i) {
        Joint& joint = joints_[i];
        const auto geometry = makeJointGlyphGeometry(joint.visual.kind, joint.visual.localPoint,
                                                     joint.visual.localAxis, size);
        joint.actor = makeSolidActor(geometry);
        joint.actor->SetUserMatrix(matrixOf(joint.visual.body));
        applyJointColor(i);
        renderer_->AddActor(joint.actor);
    }
}

void SceneActors::updateSprings()
{
    auto points = vtkSmartPointer<vtkPoints>::New();
    auto cells = vtkSmartPointer<vtkCellArray>::New();
    for (const SpringVisual& s : springs_) {
        const Eigen::Vector3d a = worldPoint(s.body1, s.localPoint1);
        const Eigen::Vector3d b = worldPoint(s.body2, s.localPoint2);
        const vtkIdType ids[2] = {points->InsertNextPoint(a.data()), points->InsertNextPoint(b.data())};
        cells->InsertNextCell(2, ids);
    }
    springLines_->Initialize();
    springLines_->SetPoints(points);
    springLines_->SetLines(cells);
    springActor_->SetVisibility(!springs_.empty());
}

void SceneActors::updateTrail(Trail& trail)
{
    while (static_cast<int>(trail.points.size()) > trailLength_)
        trail.points.pop_front();
    auto points = vtkSmartPointer<vtkPoints>::New();
    points->SetNumberOfPoints(static_cast<vtkIdType>(trail.points.size()));
    vtkIdType id = 0;
    for (const Eigen::Vector3d& p : trail.points)
        points->SetPoint(id++, p.data());
    auto cells = vtkSmartPointer<vtkCellArray>::New();
    // A polyline needs two points; a lone start point is kept but not drawn.
    if (id >= 2) {
        cells->InsertNextCell(id);
        for (vtkIdType i = 0; i < id; ++i)
            cells->InsertCellPoint(i);
    }
    trail.line->Initialize();
    trail.line->SetPoints(points);
    trail.line->SetLines(cells);
}

void SceneActors::applyBodyColor(int body)
{
    if (body < 0 || body >= bodyCount() || !bodies_[body].actor)
        return;
    const Color& base = bodies_[body].visual.shape.color;
    setColor(bodies_[body].actor, body == highlightedBody_ ? brighter(base) : base);
}

void SceneActors::applyJointColor(int joint)
{
    if (joint < 0 || joint >= jointCount() || !joints_[joint].actor)
        return;
    const bool on = std::find(highlightedJoints_.begin(), highlightedJoints_.end(), joint) !=
                    highlightedJoints_.end();
    setColor(joints_[joint].actor, on ? kHighlight : jointColor(joints_[joint].visual.kind));
}

void SceneActors::updateOutline()
{
    if (highlightedBody_ < 0 || !bodies_[highlightedBody_].geometry) {
        outlineActor_->VisibilityOff();
        return;
    }
    const Body& body = bodies_[highlightedBody_];
    double b[6];
    body.geometry->GetBounds(b);
    // A small gap keeps the outline from sinking into the faces it surrounds.
    const double pad = 0.03 * std::max({b[1] - b[0], b[3] - b[2], b[5] - b[4]});
    for (int i = 0; i < 3; ++i) {
        b[2 * i] -= pad;
        b[2 * i + 1] += pad;
    }
    vtkNew<vtkOutlineSource> outline;
    outline->SetBounds(b);
    outline->Update();
    auto lines = vtkSmartPointer<vtkPolyData>::New();
    lines->DeepCopy(outline->GetOutput());
    vtkPolyDataMapper::SafeDownCast(outlineActor_->GetMapper())->SetInputData(lines);
    outlineActor_->SetUserMatrix(body.matrix);
    outlineActor_->VisibilityOn();
}

double SceneActors::automaticGlyphSize() const
{
    // Per body: a little wider than a slender link's cross-section, but never more than
    // a fraction of a compact body, so a pin neither vanishes inside a bar nor swallows a
    // small block.
    std::vector<double> sizes;
    for (const Body& body : bodies_) {
        if (!body.geometry)
            continue;
        double b[6];
        body.geometry->GetBounds(b);
        std::array<double, 3> d{{b[1] - b[0], b[3] - b[2], b[5] - b[4]}};
        std::sort(d.begin(), d.end());
        sizes.push_back(std::min(1.8 * d[1], 0.3 * d[2]));
    }
    if (sizes.empty())
        return 0.05;
    std::nth_element(sizes.begin(), sizes.begin() + sizes.size() / 2, sizes.end());
    const double median = sizes[sizes.size() / 2];
    return median > 0.0 ? median : 0.05;
}

}  // namespace looplab::ui
