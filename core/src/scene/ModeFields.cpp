#include "looplab/scene/ModeFields.h"

#include "looplab/bodies/solid/HexahedronElement.h"
#include "looplab/bodies/solid/HexahedronStress.h"
#include "looplab/model/State.h"
#include "looplab/model/Model.h"
#include "looplab/scene/FlexibleScene.h"

#include <algorithm>
#include <cmath>

namespace looplab {

namespace {

// Second Piola–Kirchhoff stress S = J F⁻¹ σ F⁻ᵀ at each vertex of `surface` (the mean over
// the elements holding the vertex, at their corner), unchanged by a rigid turn.
std::vector<Mat3> vertexStress(const Model& model, const State& state, const SceneSurface& surface) {
    const hex::Material& material = model.body(surface.body).solid()->material();
    std::vector<Mat3> sum(surface.nodes.size(), Mat3::Zero());
    std::vector<int> shares(surface.nodes.size(), 0);
    forEachSurfaceCorner(model, state, surface, [&](size_t v, const Mat3& F) {
        const Mat3 Finv = F.inverse();
        sum[v] += F.determinant() * Finv * hex::cauchyStress(material, F) * Finv.transpose();
        ++shares[v];
    });
    for (size_t v = 0; v < sum.size(); ++v) sum[v] /= std::max(shares[v], 1);
    return sum;
}

double largestOf(const std::vector<std::vector<double>>& fields) {
    double m = 0.0;
    for (const auto& f : fields)
        for (double v : f) m = std::max(m, std::abs(v));
    return m;
}

void divide(std::vector<std::vector<double>>& fields, double by) {
    for (auto& f : fields)
        for (double& v : f) v = by > 0.0 ? v / by : 0.0;
}

}  // namespace

ModeFields modeFields(const Model& model, const State& equilibrium, const VecX& shape) {
    ModeFields out;
    const double largest = shape.cwiseAbs().maxCoeff();
    if (!(largest > 0.0) || !std::isfinite(largest)) return out;
    // A step whose displacement is a ten-millionth of the model's size: the second-order
    // terms (a turn's strain) are 1e-7 of the first, rounding about 1e-9 of it.
    const double h = 1e-7 * model.lengthScale / largest;
    State plus = equilibrium, minus = equilibrium;
    retract(model, plus.q, h * shape);
    retract(model, minus.q, -h * shape);
    const Scene at = buildScene(model, equilibrium), up = buildScene(model, plus), down = buildScene(model, minus);
    const double twoH = 2.0 * h;
    for (size_t b = 0; b < at.beams.size(); ++b) {
        const SceneBeam &e = at.beams[b], &p = up.beams[b], &m = down.beams[b];
        std::vector<double> axial(e.axialStrain.size()), bending(e.axialStrain.size());
        for (size_t i = 0; i < axial.size(); ++i) {
            axial[i] = (p.axialStrain[i] - m.axialStrain[i]) / twoH;
            const Vec3 t = e.slopes[i].normalized();
            const Vec3 dt = (p.slopes[i].normalized() - m.slopes[i].normalized()) / twoH;
            const Vec3 dk = (p.curvatures[i] - m.curvatures[i]) / twoH - t.cross(dt).cross(e.curvatures[i]);
            bending[i] = dk.norm() * fibreDistance(e, i, dk);
        }
        out.axialStrain.push_back(std::move(axial));
        out.bendingStrain.push_back(std::move(bending));
    }
    for (size_t s = 0; s < at.surfaces.size(); ++s) {
        const std::vector<Mat3> p = vertexStress(model, plus, up.surfaces[s]);
        const std::vector<Mat3> m = vertexStress(model, minus, down.surfaces[s]);
        std::vector<double> vm(p.size());
        for (size_t v = 0; v < vm.size(); ++v) vm[v] = hex::vonMisesStress((p[v] - m[v]) / twoH);
        out.vonMises.push_back(std::move(vm));
    }
    out.largestAxialStrain = largestOf(out.axialStrain);
    out.largestBendingStrain = largestOf(out.bendingStrain);
    out.largestVonMises = largestOf(out.vonMises);
    // What the differences' rounding leaves (about 5e-10 u / size: a turn's strain is even
    // in h and cancels): below a millionth of the mode's largest strain, or below a
    // millionth of the strain u / size its displacement u would give spread over the model
    // (a rigid mode moves without straining), a field is zero. Stress likewise, through E.
    const double floor = 1e-6 * largest / model.lengthScale;
    const double strainFloor = std::max(1e-6 * std::max(out.largestAxialStrain, out.largestBendingStrain), floor);
    if (out.largestAxialStrain <= strainFloor) out.largestAxialStrain = 0.0;
    if (out.largestBendingStrain <= strainFloor) out.largestBendingStrain = 0.0;
    double stiffest = 0.0;
    for (const SceneSurface& surface : at.surfaces)
        stiffest = std::max(stiffest, model.body(surface.body).solid()->material().youngModulus);
    if (out.largestVonMises <= stiffest * floor) out.largestVonMises = 0.0;
    divide(out.axialStrain, out.largestAxialStrain);
    divide(out.bendingStrain, out.largestBendingStrain);
    divide(out.vonMises, out.largestVonMises);
    return out;
}

void applyModeFields(Scene& scene, const ModeFields& fields, double sine) {
    for (size_t b = 0; b < scene.beams.size() && b < fields.axialStrain.size(); ++b) {
        SceneBeam& beam = scene.beams[b];
        beam.axialStrain = fields.axialStrain[b];
        beam.bendingStrain = fields.bendingStrain[b];
        for (double& v : beam.axialStrain) v *= sine;
        for (double& v : beam.bendingStrain) v *= std::abs(sine);
    }
    for (size_t s = 0; s < scene.surfaces.size() && s < fields.vonMises.size(); ++s) {
        scene.surfaces[s].vonMises = fields.vonMises[s];
        for (double& v : scene.surfaces[s].vonMises) v *= std::abs(sine);
    }
    scene.modeFields = true;
}

}  // namespace looplab
