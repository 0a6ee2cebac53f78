#include "looplab/dynamics/Linearization.h"

#include <stdexcept>
#include <vector>

namespace looplab {

SparseColMatrix massMatrix(const Model& model) {
    MatrixEntries entries;
    for (const Body& body : model.bodies) body.formulation->addMass(body.slice.velocityOffset, entries);
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
