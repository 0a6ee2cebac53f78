#include "looplab/dynamics/Linearization.h"

#include <stdexcept>
#include <vector>

namespace looplab {

SparseColMatrix massMatrix(const Model& model) {
    std::vector<Eigen::Triplet<double>> entries;
    for (int b = 1; b < model.bodyCount(); ++b) {
        const Body& body = model.body(BodyIndex(b));
        const int o = model.velocityOffset(BodyIndex(b));
        // --- beams: the constant consistent mass matrix (BeamMesh.h) ---
        if (body.kind == BodyKind::Beam || body.kind == BodyKind::Solid) {
            const auto& Mb = body.kind == BodyKind::Beam ? body.beam->mass() : body.solid->mass();
            for (int k = 0; k < Mb.outerSize(); ++k)
                for (Eigen::SparseMatrix<double>::InnerIterator it(Mb, k); it; ++it)
                    entries.emplace_back(o + int(it.row()), o + int(it.col()), it.value());
        }
        // --- end beams ---
        if (body.kind != BodyKind::Rigid) continue;
        for (int i = 0; i < 3; ++i) entries.emplace_back(o + i, o + i, body.mass);
        for (int i = 0; i < 3; ++i)
            for (int k = 0; k < 3; ++k)
                if (body.inertia(i, k) != 0.0) entries.emplace_back(o + 3 + i, o + 3 + k, body.inertia(i, k));
    }
    SparseColMatrix M(model.velocitySize(), model.velocitySize());
    M.setFromTriplets(entries.begin(), entries.end());
    return M;
}

void linearize(const Model& model, const State& s, const VecX& lambda, Linearization& out) {
    if (lambda.size() != model.equationCount())
        throw std::invalid_argument("linearize: one multiplier per equation expected");
    ForceDerivatives forces;
    forceDerivatives(model, s, forces);
    out.mass = massMatrix(model);
    out.damping = std::move(forces.damping);
    out.stiffness = forces.stiffness + constraintCurvature(model, s, lambda);
}

}  // namespace looplab
