#include "analysis/modes/ModesWork.h"

#include "looplab/dynamics/Dynamics.h"

#include <algorithm>
#include <cmath>

namespace looplab::modes {

std::vector<Mode> rigidBodyModes(ModesWork& w, ModesResult& res) {
    const Model& model = w.model;
    const ModesOptions& o = w.options;
    const Linearization& lin = w.lin;
    const ConstraintValues& cv = w.constraints;
    const ConstraintSpaces& spaces = w.spaces;
    const VecX &rowScales = w.rowScales, &colScales = w.colScales;
    const double kMax = w.kMax, mMax = w.mMax, sigma = w.sigma;
    // The free directions (rigid motions of free structures that nothing holds) are rigid-body
    // modes, ω = 0 exactly: reported from their construction and removed from the iteration,
    // which otherwise spends its basis on a cluster of equal eigenvalues (1200 of them on 200
    // free beams) before it reaches an elastic mode. With damping a free direction may still
    // be damped (a dashpot to the ground): the state-space iteration then finds it as before.
    FreeDirections& free = w.free;
    if (!res.damped) free = findFreeDirections(model, w.state, lin.stiffness, cv.jacobian);
    const int freeCount = free.count();
    MatX& freeM = w.freeM;
    freeM.resize(w.n, freeCount);
    for (int j = 0; j < freeCount; ++j) freeM.col(j) = applyMass(model, free.basis.col(j));
    res.rigidBodyModes = freeCount;
    res.freeStructures = free.structures;
    std::vector<Mode> rigidModes;
    for (int j = 0; j < freeCount; ++j) {
        Mode m;
        m.shape = free.basis.col(j);
        m.s = Complex(0.0, 0.0);
        m.rigidBody = true;
        const VecX Kx = lin.stiffness * m.shape;
        m.multipliers = spaces.solveTransposed(-Kx);
        const double xs = largestMagnitude(VecX(m.shape.cwiseQuotient(colScales)));
        m.constraintResidual = xs > 0 ? largestMagnitude(VecX(rowScales.cwiseProduct(cv.jacobian * m.shape))) / xs : 0.0;
        const double scale = std::max(kMax, std::abs(sigma) * mMax) * m.shape.norm();
        m.residual = scale > 0 ? (Kx + cv.jacobian.transpose() * m.multipliers).norm() / scale : 0.0;
        m.accurate = m.residual <= o.residualTolerance;
        rigidModes.push_back(std::move(m));
    }
    w.elastic = w.d - freeCount;  // degrees of freedom left to the iteration
    return rigidModes;
}

}  // namespace looplab::modes
