#include "looplab/analysis/ModeMotion.h"

#include "looplab/model/State.h"
#include "looplab/model/Model.h"
#include "looplab/scene/Scene.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <vector>

namespace looplab {

namespace {

std::vector<Vec3> drawnPoints(const Scene& scene) {
    std::vector<Vec3> points;
    for (const SceneBody& b : scene.bodies) points.push_back(b.position);
    for (const SceneJoint& j : scene.joints) points.push_back(j.point);
    for (const SceneBeam& beam : scene.beams) points.insert(points.end(), beam.points.begin(), beam.points.end());
    for (const SceneSurface& s : scene.surfaces) points.insert(points.end(), s.points.begin(), s.points.end());
    return points;
}

}  // namespace

Vec3 modeMotionShares(const Model& model, const State& equilibrium, const VecX& shape) {
    const double largest = shape.size() ? shape.cwiseAbs().maxCoeff() : 0.0;
    if (!(largest > 0.0) || !std::isfinite(largest)) return Vec3::Zero();
    // Central differences through the retraction, a step small against the model.
    const double h = 1e-6 * model.lengthScale / largest;
    State plus = equilibrium, minus = equilibrium;
    retract(model, plus.q, h * shape);
    retract(model, minus.q, -h * shape);
    const std::vector<Vec3> p = drawnPoints(buildScene(model, plus)), m = drawnPoints(buildScene(model, minus));
    Vec3 sum = Vec3::Zero();
    for (size_t i = 0; i < p.size() && i < m.size(); ++i) sum += (p[i] - m[i]).cwiseAbs2();
    const double total = sum.sum();
    return total > 0.0 ? Vec3(sum / total) : Vec3::Zero();
}

std::string motionSharesText(const Vec3& shares) {
    std::array<int, 3> axes{0, 1, 2};
    std::sort(axes.begin(), axes.end(), [&](int a, int b) { return shares[a] > shares[b]; });
    if (!(shares[axes[0]] > 0.0)) return "none";
    const char* names[3] = {"x", "y", "z"};
    if (shares[axes[0]] >= 0.995) return names[axes[0]];
    std::string out;
    for (int a : axes) {
        if (shares[a] < 0.05) continue;
        char part[32];
        std::snprintf(part, sizeof part, "%s%s %.0f %%", out.empty() ? "" : ", ", names[a], 100.0 * shares[a]);
        out += part;
    }
    return out;
}

}  // namespace looplab
