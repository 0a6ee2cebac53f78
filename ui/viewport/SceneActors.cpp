#include "viewport/SceneActors.h"

#include "looplab/scene/FlexibleScene.h"
#include "viewport/ColorShade.h"

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
#include <vtkTubeFilter.h>

#include <algorithm>
#include <array>
#include <utility>

namespace looplab::ui {
namespace {

using Color = std::array<double, 3>;

constexpr Color kHighlight{{1.0, 0.85, 0.1}};
constexpr Color kSpringColor{{0.12, 0.12, 0.14}};
// A distance joint's rod: dark steel, apart from the bodies' colours and the background.
constexpr Color kRodColor{{0.28, 0.30, 0.34}};
constexpr Color kTrailColor{{0.75, 0.2, 0.8}};
// Line widths [px] at line scale 1.
// A rod's radius against the joint glyphs' size: thinner than a pin, thick enough to see.
constexpr double kRodRadiusPerGlyph = 0.2;
// Gear teeth, pulleys, belts and racks: dark bronze, apart from springs and bodies.
constexpr Color kCouplerColor{{0.45, 0.32, 0.12}};
constexpr float kCouplerWidth = 2.0f;
// Joint glyphs: at most this fraction of the shortest distance between two joints, at
// least this fraction of the mechanism's extent.
constexpr double kGlyphPerJointSpacing = 0.35, kGlyphPerExtent = 0.008;
// A spring's coil radius, per joint glyph size: as wide as a pin.
constexpr double kCoilRadiusPerGlyph = 0.5;
constexpr float kSpringWidth = 3.0f, kOutlineWidth = 2.5f, kTrailWidth = 2.0f;

using looplab::Scene;
using looplab::SceneBody;
using looplab::SceneJoint;
using looplab::VisualShape;

Color jointColor(SceneJoint::Kind kind)
{
    switch (kind) {
    case SceneJoint::Kind::Revolute: return {{0.95, 0.5, 0.1}};
    case SceneJoint::Kind::Prismatic: return {{0.15, 0.7, 0.8}};
    case SceneJoint::Kind::Spherical: return {{0.85, 0.3, 0.6}};
    case SceneJoint::Kind::Other: break;
    }
    return {{0.55, 0.55, 0.6}};
}

void setColor(vtkActor* actor, const Color& c)
{
    actor->GetProperty()->SetColor(c[0], c[1], c[2]);
}

Eigen::Isometry3d isometry(const Eigen::Vector3d& position, const Eigen::Quaterniond& orientation)
{
    Eigen::Isometry3d pose = Eigen::Isometry3d::Identity();
    pose.linear() = orientation.toRotationMatrix();
    pose.translation() = position;
    return pose;
}

// Exact comparison: a shape edited by the user is a new solid, however small the change.
bool sameShape(const VisualShape& a, const VisualShape& b)
{
    return a.kind == b.kind && a.size == b.size && a.radius == b.radius && a.length == b.length &&
           a.offset == b.offset && a.orientation.coeffs() == b.orientation.coeffs() && a.color == b.color;
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

// Every polyline of every coupler (gear teeth, pulleys, belt spans, racks).
void setPolylines(vtkPolyData* lines, const std::vector<looplab::SceneCoupler>& couplers)
{
    auto points = vtkSmartPointer<vtkPoints>::New();
    auto cells = vtkSmartPointer<vtkCellArray>::New();
    for (const looplab::SceneCoupler& coupler : couplers)
        for (const std::vector<Eigen::Vector3d>& line : coupler.lines) {
            std::vector<vtkIdType> ids;
            ids.reserve(line.size());
            for (const Eigen::Vector3d& p : line)
                ids.push_back(points->InsertNextPoint(p.data()));
            cells->InsertNextCell(static_cast<vtkIdType>(ids.size()), ids.data());
        }
    lines->Initialize();
    lines->SetPoints(points);
    lines->SetLines(cells);
}

// One line segment per item, from its end1 to its end2 (springs, rods).
template <class Segment>
void setSegments(vtkPolyData* lines, const std::vector<Segment>& items)
{
    auto points = vtkSmartPointer<vtkPoints>::New();
    auto cells = vtkSmartPointer<vtkCellArray>::New();
    for (const Segment& item : items) {
        const vtkIdType ids[2] = {points->InsertNextPoint(item.end1.data()), points->InsertNextPoint(item.end2.data())};
        cells->InsertNextCell(2, ids);
    }
    lines->Initialize();
    lines->SetPoints(points);
    lines->SetLines(cells);
}

// A spring as a coil of kSpringTurns turns of `radius` about the line from end1 to end2,
// with a straight lead at each end: a spring reads as one at any size, and its turns
// spread as it stretches.
void setCoils(vtkPolyData* lines, const std::vector<looplab::SceneSpring>& springs, double radius)
{
    constexpr int kSpringTurns = 8, kPointsPerTurn = 12;
    constexpr double kLead = 0.12;  // of the length, at each end
    auto points = vtkSmartPointer<vtkPoints>::New();
    auto cells = vtkSmartPointer<vtkCellArray>::New();
    for (const looplab::SceneSpring& spring : springs) {
        const Eigen::Vector3d axis = spring.end2 - spring.end1;
        const double length = axis.norm();
        std::vector<vtkIdType> ids;
        ids.push_back(points->InsertNextPoint(spring.end1.data()));
        if (length > 0.0) {
            const Eigen::Vector3d along = axis / length;
            // Any two directions across the axis.
            const Eigen::Vector3d u = along.unitOrthogonal(), v = along.cross(u);
            const int n = kSpringTurns * kPointsPerTurn;
            for (int k = 0; k <= n; ++k) {
                const double s = double(k) / n, angle = 2.0 * M_PI * kSpringTurns * s;
                // The coil widens from the axis over its first half turn and back over its
                // last, so that the leads join it without a jump.
                const double r = radius * std::min(1.0, 2.0 * kSpringTurns * std::min(s, 1.0 - s));
                const Eigen::Vector3d p = spring.end1 + (kLead + (1.0 - 2.0 * kLead) * s) * axis +
                                          r * (std::cos(angle) * u + std::sin(angle) * v);
                ids.push_back(points->InsertNextPoint(p.data()));
            }
        }
        ids.push_back(points->InsertNextPoint(spring.end2.data()));
        cells->InsertNextCell(vtkIdType(ids.size()), ids.data());
    }
    lines->Initialize();
    lines->SetPoints(points);
    lines->SetLines(cells);
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
      springLines_(vtkSmartPointer<vtkPolyData>::New()),
      rodLines_(vtkSmartPointer<vtkPolyData>::New()),
      couplerLines_(vtkSmartPointer<vtkPolyData>::New())
{
    flexible_ = std::make_unique<FlexibleActors>(renderer_);
    springActor_ = makeLineActor(springLines_, kSpringColor, kSpringWidth);
    renderer_->AddActor(springActor_);
    couplerActor_ = makeLineActor(couplerLines_, kCouplerColor, kCouplerWidth);
    couplerActor_->VisibilityOff();
    renderer_->AddActor(couplerActor_);

    // Rods are links the user must see turn (a rod coupler): solid tubes sized with the
    // joint glyphs, lit like the bodies, not lines of a fixed pixel width.
    rodTubes_ = vtkSmartPointer<vtkTubeFilter>::New();
    rodTubes_->SetInputData(rodLines_);
    rodTubes_->SetNumberOfSides(16);
    rodTubes_->CappingOn();
    vtkNew<vtkPolyDataMapper> rodMapper;
    rodMapper->SetInputConnection(rodTubes_->GetOutputPort());
    rodMapper->ScalarVisibilityOff();
    rodActor_ = vtkSmartPointer<vtkActor>::New();
    rodActor_->SetMapper(rodMapper);
    setColor(rodActor_, kRodColor);
    rodActor_->PickableOff();
    rodActor_->VisibilityOff();
    renderer_->AddActor(rodActor_);

    outlineActor_ = makeLineActor(vtkNew<vtkPolyData>(), kHighlight, kOutlineWidth);
    outlineActor_->VisibilityOff();
    renderer_->AddActor(outlineActor_);
}

SceneActors::~SceneActors()
{
    clearTrails();
    removeJointActors();
    setGhosts({});
    for (const Body& body : bodies_) {
        if (body.actor)
            renderer_->RemoveActor(body.actor);
    }
    renderer_->RemoveActor(springActor_);
    renderer_->RemoveActor(couplerActor_);
    renderer_->RemoveActor(rodActor_);
    renderer_->RemoveActor(outlineActor_);
}

bool SceneActors::setScene(const Scene& scene)
{
    const bool newMembers = flexible_->setScene(scene);
    const bool newSolids = !sameSolids(scene.bodies) || newMembers;
    if (newSolids)
        rebuildBodies(scene.bodies);
    for (int i = 0; i < bodyCount(); ++i) {
        const SceneBody& b = scene.bodies[static_cast<size_t>(i)];
        bodies_[i].pose = isometry(b.position, b.orientation);
        copyPose(bodies_[i].pose, bodies_[i].matrix);
    }

    if (newSolids || !sameJoints(scene.joints)) {
        removeJointActors();
        joints_.clear();
        joints_.reserve(scene.joints.size());
        // Placed before they are built: their size depends on how far apart they are.
        for (const SceneJoint& j : scene.joints)
            joints_.push_back(
                Joint{j.kind, isometry(j.point, j.orientation), vtkSmartPointer<vtkMatrix4x4>::New(), nullptr});
        rebuildJoints();
    }
    for (int i = 0; i < jointCount(); ++i) {
        const SceneJoint& j = scene.joints[static_cast<size_t>(i)];
        joints_[i].placement = isometry(j.point, j.orientation);
        copyPose(joints_[i].placement, joints_[i].matrix);
    }

    setGhosts(scene.ghosts);

    springs_ = scene.springs;
    updateSprings();
    rods_ = scene.rods;
    updateAttachments(scene.joints);
    updateRods();
    couplerCount_ = static_cast<int>(scene.couplers.size());
    setPolylines(couplerLines_, scene.couplers);
    couplerActor_->SetVisibility(couplerCount_ > 0);
    drawnMembers_.beams = scene.beams;
    drawnMembers_.surfaces = scene.surfaces;
    for (auto& trail : trails_) {
        if (trail->node < 0) {
            trail->points.push_back(worldPoint(trail->body, trail->localPoint));
        } else if (const auto p = nodePoint(trail->body, trail->node)) {
            trail->points.push_back(*p);
        }
        updateTrail(*trail);
    }
    return newSolids;
}

void SceneActors::setGhosts(const std::vector<SceneBody>& ghosts)
{
    // Only ghosts with a solid get an entry; their shapes decide whether to rebuild.
    std::vector<const SceneBody*> drawn;
    for (const SceneBody& g : ghosts)
        if (g.shape.kind != VisualShape::Kind::None)
            drawn.push_back(&g);
    bool same = drawn.size() == ghosts_.size();
    for (size_t i = 0; same && i < drawn.size(); ++i)
        same = sameShape(drawn[i]->shape, ghosts_[i].shape);
    if (!same) {
        for (const Ghost& g : ghosts_)
            renderer_->RemoveActor(g.actor);
        ghosts_.clear();
        for (const SceneBody* b : drawn) {
            vtkSmartPointer<vtkPolyData> geometry = makeShapeGeometry(b->shape);
            if (!geometry)
                continue;
            Ghost g;
            g.shape = b->shape;
            g.matrix = vtkSmartPointer<vtkMatrix4x4>::New();
            g.actor = makeSolidActor(geometry);
            g.actor->SetUserMatrix(g.matrix);
            // A pale, see-through copy that never takes a click from the real solids.
            setColor(g.actor, brighter(b->shape.color));
            g.actor->GetProperty()->SetOpacity(0.3);
            g.actor->PickableOff();
            renderer_->AddActor(g.actor);
            ghosts_.push_back(std::move(g));
        }
    }
    for (size_t i = 0; i < ghosts_.size() && i < drawn.size(); ++i) {
        ghosts_[i].pose = isometry(drawn[i]->position, drawn[i]->orientation);
        copyPose(ghosts_[i].pose, ghosts_[i].matrix);
    }
}

Eigen::Isometry3d SceneActors::ghostPose(int index) const
{
    if (index < 0 || index >= ghostCount())
        return Eigen::Isometry3d::Identity();
    return ghosts_[static_cast<size_t>(index)].pose;
}

bool SceneActors::sameSolids(const std::vector<SceneBody>& bodies) const
{
    if (bodies.size() != bodies_.size())
        return false;
    for (size_t i = 0; i < bodies.size(); ++i)
        if (!sameShape(bodies[i].shape, bodies_[i].shape))
            return false;
    return true;
}

bool SceneActors::sameJoints(const std::vector<SceneJoint>& joints) const
{
    if (joints.size() != joints_.size())
        return false;
    for (size_t i = 0; i < joints.size(); ++i)
        if (joints[i].kind != joints_[i].kind)
            return false;
    return true;
}

void SceneActors::rebuildBodies(const std::vector<SceneBody>& bodies)
{
    clearTrails();
    for (const Body& body : bodies_) {
        if (body.actor)
            renderer_->RemoveActor(body.actor);
    }
    bodies_.clear();
    bodies_.reserve(bodies.size());
    for (const SceneBody& b : bodies) {
        Body body;
        body.shape = b.shape;
        body.matrix = vtkSmartPointer<vtkMatrix4x4>::New();
        body.geometry = makeShapeGeometry(body.shape);
        if (body.geometry) {
            body.actor = makeSolidActor(body.geometry);
            // Shared, not copied: updating the matrix in place moves the solid and its
            // outline together.
            body.actor->SetUserMatrix(body.matrix);
            renderer_->AddActor(body.actor);
        }
        bodies_.push_back(std::move(body));
    }
    if (highlightedBody_ >= bodyCount())
        highlightedBody_ = -1;
    for (int i = 0; i < bodyCount(); ++i)
        applyBodyColor(i);
    updateOutline();
}

void SceneActors::setHighlightedBody(int body)
{
    const int previous = highlightedBody_;
    highlightedBody_ = (body >= 0 && body < bodyCount()) ? body : -1;
    applyBodyColor(previous);
    applyBodyColor(highlightedBody_);
    flexible_->setHighlightedBody(highlightedBody_);
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

void SceneActors::setLineScale(float scale)
{
    lineScale_ = scale;
    springActor_->GetProperty()->SetLineWidth(kSpringWidth * scale);
    couplerActor_->GetProperty()->SetLineWidth(kCouplerWidth * scale);
    outlineActor_->GetProperty()->SetLineWidth(kOutlineWidth * scale);
    for (const auto& trail : trails_)
        trail->actor->GetProperty()->SetLineWidth(kTrailWidth * scale);
}

void SceneActors::setTrail(int body, const Eigen::Vector3d& localPoint, bool on)
{
    auto same = [&](const std::unique_ptr<Trail>& t) {
        return t->node < 0 && t->body == body && (t->localPoint - localPoint).norm() < 1e-12;
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
    trail->actor = makeLineActor(trail->line, kTrailColor, kTrailWidth * lineScale_);
    trail->points.push_back(worldPoint(body, localPoint));
    updateTrail(*trail);
    renderer_->AddActor(trail->actor);
    trails_.push_back(std::move(trail));
}

bool SceneActors::setNodeTrail(int body, int node, bool on)
{
    auto it = std::find_if(trails_.begin(), trails_.end(),
                           [&](const std::unique_ptr<Trail>& t) { return t->node >= 0 && t->body == body && t->node == node; });
    if (!on) {
        if (it != trails_.end()) {
            renderer_->RemoveActor((*it)->actor);
            trails_.erase(it);
        }
        return true;
    }
    if (it != trails_.end())
        return true;
    const std::optional<Eigen::Vector3d> start = nodePoint(body, node);
    if (!start)
        return false;
    auto trail = std::make_unique<Trail>();
    trail->body = body;
    trail->node = node;
    trail->localPoint = Eigen::Vector3d::Zero();
    trail->line = vtkSmartPointer<vtkPolyData>::New();
    trail->actor = makeLineActor(trail->line, kTrailColor, kTrailWidth * lineScale_);
    trail->points.push_back(*start);
    updateTrail(*trail);
    renderer_->AddActor(trail->actor);
    trails_.push_back(std::move(trail));
    return true;
}

std::vector<std::vector<Eigen::Vector3d>> SceneActors::trailPoints() const
{
    std::vector<std::vector<Eigen::Vector3d>> out;
    for (const auto& trail : trails_)
        out.emplace_back(trail->points.begin(), trail->points.end());
    return out;
}

std::optional<Eigen::Vector3d> SceneActors::nodePoint(int body, int node) const
{
    if (body < 0)
        return std::nullopt;
    // Scene::bodies lists every body after the ground in model order (sceneBodyIndex()).
    return sceneNodePosition(drawnMembers_, BodyIndex(body + 1), node);
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
    if (glyphSize_ > 0.0)
        return glyphSize_;
    return automaticSize_ > 0.0 ? automaticSize_ : automaticGlyphSize();
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
    flexible_->mergeBounds(out, any);
    for (const Joint& joint : joints_)
        mergeBounds(joint.actor->GetBounds(), out, any);
    if (!springs_.empty())
        mergeBounds(springActor_->GetBounds(), out, any);
    if (!rods_.empty() || !attachments_.empty())
        mergeBounds(rodActor_->GetBounds(), out, any);
    if (couplerCount_ > 0)
        mergeBounds(couplerActor_->GetBounds(), out, any);
    return any;
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
    // Kept while the same joints are drawn, so that glyphs and rods do not change size as
    // the mechanism moves.
    automaticSize_ = automaticGlyphSize();
    const double size = jointGlyphSize();
    for (int i = 0; i < jointCount(); ++i) {
        Joint& joint = joints_[i];
        // Built in the joint frame (axis along z); the joint's matrix places it.
        const auto geometry =
            makeJointGlyphGeometry(joint.kind, Eigen::Vector3d::Zero(), Eigen::Vector3d::UnitZ(), size);
        joint.actor = makeSolidActor(geometry);
        joint.actor->SetUserMatrix(joint.matrix);
        applyJointColor(i);
        renderer_->AddActor(joint.actor);
    }
}

void SceneActors::updateAttachments(const std::vector<SceneJoint>& joints)
{
    // A joint away from its body's solid (a pendulum's pivot 1 m above its bob) would float
    // unconnected: a rod from the solid's centre to the joint shows what it holds.
    attachments_.clear();
    const double margin = 0.5 * jointGlyphSize();
    for (const SceneJoint& j : joints) {
        const int b = sceneBodyIndex(j.body);
        if (b < 0 || b >= bodyCount() || !bodies_[b].geometry)
            continue;
        double box[6];
        bodies_[b].geometry->GetBounds(box);
        const Eigen::Vector3d local = bodies_[b].pose.inverse() * j.point;
        bool outside = false;
        for (int k = 0; k < 3; ++k)
            outside = outside || local[k] < box[2 * k] - margin || local[k] > box[2 * k + 1] + margin;
        if (!outside)
            continue;
        const Eigen::Vector3d centre(0.5 * (box[0] + box[1]), 0.5 * (box[2] + box[3]), 0.5 * (box[4] + box[5]));
        attachments_.push_back({j.name, bodies_[b].pose * centre, j.point});
    }
}

void SceneActors::updateRods()
{
    std::vector<SceneRod> drawn = rods_;
    drawn.insert(drawn.end(), attachments_.begin(), attachments_.end());
    setSegments(rodLines_, drawn);
    rodTubes_->SetRadius(kRodRadiusPerGlyph * jointGlyphSize());
    rodActor_->SetVisibility(!drawn.empty());
}

const vtkActor* SceneActors::rodActor() const { return rodActor_; }

const vtkActor* SceneActors::springActor() const { return springActor_; }

double SceneActors::springCoilRadius() const { return springs_.empty() ? 0.0 : kCoilRadiusPerGlyph * jointGlyphSize(); }

double SceneActors::rodRadius() const
{
    return rods_.empty() && attachments_.empty() ? 0.0 : rodTubes_->GetRadius();
}

void SceneActors::updateSprings()
{
    setCoils(springLines_, springs_, springCoilRadius());
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
    const Color& base = bodies_[body].shape.color;
    setColor(bodies_[body].actor, body == highlightedBody_ ? brighter(base) : base);
}

void SceneActors::applyJointColor(int joint)
{
    if (joint < 0 || joint >= jointCount() || !joints_[joint].actor)
        return;
    const bool on = std::find(highlightedJoints_.begin(), highlightedJoints_.end(), joint) !=
                    highlightedJoints_.end();
    setColor(joints_[joint].actor, on ? kHighlight : jointColor(joints_[joint].kind));
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
        // A plate (a door: thin in one direction only) is held by pins of its thickness's
        // scale, not of its width.
        sizes.push_back(std::min({1.25 * d[1], 0.3 * d[2], 4.0 * d[0]}));
    }
    double size = 0.05;
    if (!sizes.empty()) {
        std::nth_element(sizes.begin(), sizes.begin() + sizes.size() / 2, sizes.end());
        if (sizes[sizes.size() / 2] > 0.0)
            size = sizes[sizes.size() / 2];
    }
    // Nor larger than a third of the shortest distance between two joints, so that two
    // pins never run into each other or cover the link between them (a short crank, a
    // rack's guide), but never smaller than the eye finds in the whole mechanism.
    // The bodies' and joints' extent (the joints' actors are rebuilt with this size).
    double b[6];
    bool any = false;
    for (const Body& body : bodies_)
        if (body.actor && body.actor->GetVisibility())
            mergeBounds(body.actor->GetBounds(), b, any);
    flexible_->mergeBounds(b, any);
    for (const Joint& joint : joints_) {
        const Eigen::Vector3d p = joint.placement.translation();
        const double point[6] = {p.x(), p.x(), p.y(), p.y(), p.z(), p.z()};
        mergeBounds(point, b, any);
    }
    if (!any)
        return size;
    const double extent = std::max({b[1] - b[0], b[3] - b[2], b[5] - b[4]});
    double shortest = HUGE_VAL;
    for (size_t i = 0; i < joints_.size(); ++i)
        for (size_t j = 0; j < i; ++j) {
            const double d = (joints_[i].placement.translation() - joints_[j].placement.translation()).norm();
            if (d > 1e-6 * extent)
                shortest = std::min(shortest, d);
        }
    size = std::min(size, kGlyphPerJointSpacing * shortest);
    return std::max(size, kGlyphPerExtent * extent);
}

}  // namespace looplab::ui
