#include "recording/ModeShapeAnimation.h"

#include "looplab/model/TriangleMesh.h"

#include <algorithm>
#include <cmath>

namespace looplab::ui {

namespace {

// Bounding-box corners of a solid in its body frame.
std::vector<Vec3> localCorners(const VisualShape& shape)
{
    Vec3 half = Vec3::Zero(), lower, upper;
    switch (shape.kind) {
    case VisualShape::Kind::Box: half = 0.5 * shape.size; break;
    case VisualShape::Kind::Cylinder: half = Vec3(shape.radius, shape.radius, 0.5 * shape.length); break;
    case VisualShape::Kind::Sphere: half = Vec3::Constant(shape.radius); break;
    case VisualShape::Kind::Mesh:
        if (!meshBounds(shape.file, shape.scale, lower, upper)) return {};
        break;
    case VisualShape::Kind::None: return {};
    }
    if (shape.kind != VisualShape::Kind::Mesh) {
        lower = -half;
        upper = half;
    }
    std::vector<Vec3> corners;
    for (int c = 0; c < 8; ++c) {
        const Vec3 local(c & 1 ? upper.x() : lower.x(), c & 2 ? upper.y() : lower.y(), c & 4 ? upper.z() : lower.z());
        corners.push_back(shape.offset + shape.orientation * local);
    }
    return corners;
}

}  // namespace

std::vector<Vec3> ModeShapeAnimation::drawnPoints(const Scene& scene)
{
    std::vector<Vec3> points;
    for (const SceneBody& b : scene.bodies)
        for (const Vec3& c : localCorners(b.shape))
            points.push_back(b.position + b.orientation * c);
    for (const SceneJoint& j : scene.joints)
        points.push_back(j.point);
    // Flexible members: the centreline's samples and the surface's vertices.
    for (const SceneBeam& b : scene.beams)
        points.insert(points.end(), b.points.begin(), b.points.end());
    for (const SceneSurface& s : scene.surfaces)
        points.insert(points.end(), s.points.begin(), s.points.end());
    return points;
}

ModeShapeAnimation::ModeShapeAnimation(std::shared_ptr<const Model> model, const State& equilibrium,
                                       const VecX& shape)
    : model_(std::move(model)), equilibrium_(equilibrium), shape_(shape)
{
    equilibrium_.v.setZero();
    const Scene rest = buildScene(*model_, equilibrium_);
    ghosts_ = rest.bodies;
    ghostBeams_ = rest.beams;
    ghostSurfaces_ = rest.surfaces;
    const std::vector<Vec3> points = drawnPoints(rest);
    if (!points.empty()) {
        Vec3 lo = points.front(), hi = points.front();
        for (const Vec3& p : points) {
            lo = lo.cwiseMin(p);
            hi = hi.cwiseMax(p);
        }
        if ((hi - lo).norm() > 0.0)
            size_ = (hi - lo).norm();
    }
    // First-order motion of the drawn points per unit factor, by a central difference
    // through the retraction with a step small against the model (the map is smooth).
    const double shapeNorm = shape_.lpNorm<Eigen::Infinity>();
    if (shapeNorm > 0.0 && !points.empty()) {
        const double h = 1e-6 * size_ / shapeNorm;
        State plus = equilibrium_, minus = equilibrium_;
        retract(*model_, plus.q, h * shape_);
        retract(*model_, minus.q, -h * shape_);
        const std::vector<Vec3> p = drawnPoints(buildScene(*model_, plus));
        const std::vector<Vec3> m = drawnPoints(buildScene(*model_, minus));
        for (size_t i = 0; i < p.size() && i < m.size(); ++i)
            perUnit_ = std::max(perUnit_, (p[i] - m[i]).norm() / (2.0 * h));
    }
}

const ModeFields& ModeShapeAnimation::fields() const
{
    // Three scenes' worth of work: made when a coloured frame first needs it.
    if (!fields_)
        fields_ = std::make_shared<const ModeFields>(modeFields(*model_, equilibrium_, shape_));
    return *fields_;
}

void ModeShapeAnimation::setAmplitudeFraction(double fraction) { fraction_ = std::max(fraction, 0.0); }

double ModeShapeAnimation::shapeFactor() const
{
    return perUnit_ > 0.0 ? fraction_ * size_ / perUnit_ : 0.0;
}

double ModeShapeAnimation::frameTime(int i) const
{
    return static_cast<double>(i) / (kFramesPerCycle * kVisualFrequency);
}

State ModeShapeAnimation::frameState(int i) const
{
    State s = stateAtPhase(i % kFramesPerCycle, kFramesPerCycle);
    s.t = frameTime(i);
    return s;
}

Scene ModeShapeAnimation::frameScene(int i) const
{
    Scene scene = sceneAtPhase(i % kFramesPerCycle, kFramesPerCycle);
    scene.t = frameTime(i);
    return scene;
}

State ModeShapeAnimation::stateAtPhase(int step, int stepsPerCycle) const
{
    State s = equilibrium_;
    const double sine = sineAtPhase(step, stepsPerCycle);
    if (sine != 0.0)
        retract(*model_, s.q, shapeFactor() * sine * shape_);
    return s;
}

double ModeShapeAnimation::sineAtPhase(int step, int stepsPerCycle)
{
    if (stepsPerCycle <= 0)
        return 0.0;
    // Phases 0 and π from whole numbers, not from a sine that rounds to 1e-16, so that
    // those states are the equilibrium itself, bit for bit.
    const int k = ((step % stepsPerCycle) + stepsPerCycle) % stepsPerCycle;
    if (2 * k == stepsPerCycle || k == 0)
        return 0.0;
    return std::sin(2.0 * M_PI * static_cast<double>(k) / stepsPerCycle);
}

Scene ModeShapeAnimation::sceneAtPhase(int step, int stepsPerCycle) const
{
    Scene scene = buildScene(*model_, stateAtPhase(step, stepsPerCycle));
    // The mode's own strain and stress, normalised: the state's would be those of an
    // amplitude chosen for the eye, with the second-order strain of every turn in them.
    if (!scene.beams.empty() || !scene.surfaces.empty())
        applyModeFields(scene, fields(), sineAtPhase(step, stepsPerCycle));
    scene.ghosts = ghosts_;
    scene.ghostBeams = ghostBeams_;
    scene.ghostSurfaces = ghostSurfaces_;
    return scene;
}

}  // namespace looplab::ui
