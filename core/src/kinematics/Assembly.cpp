#include "looplab/kinematics/Assembly.h"

#include "looplab/kinematics/Constraints.h"
#include "looplab/kinematics/Mobility.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace looplab {
namespace {

double scaledResidual(const VecX& phi, const VecX& rowScales) {
    return phi.size() ? (rowScales.asDiagonal() * phi).cwiseAbs().maxCoeff() : 0.0;
}

// Factor ≤ 1 that keeps every body's rotation and translation within the limits.
double clampFactor(const Model& model, const VecX& dv, const AssemblyOptions& o, double L) {
    double f = 1.0;
    for (const Body& body : model.bodies)
        f = std::min(f, body.formulation->stepFactor(dv.data() + body.slice.velocityOffset, o.maxRotationStep,
                                                     o.maxTranslationStep * L));
    return f;
}

}  // namespace

AssemblyResult assemble(const Model& model, State& state, const AssemblyOptions& o) {
    AssemblyResult result;
    const VecX rowScales = equationScales(model);
    const VecX colScales = coordinateScales(model);
    const double L = model.lengthScale;
    const double tol = o.tolerance * L;
    // Below this the residual is rounding noise: further steps cannot improve it.
    const double floor = 1e-15 * L;
    normalizePositions(model, state.q);

    ConstraintValues cv;
    ConstraintSpaces spaces;
    evaluateConstraints(model, state, cv, kPhi);
    double res = scaledResidual(cv.phi, rowScales);
    State trial = state;
    for (int it = 0; it < o.maxIterations && res > floor; ++it) {
        evaluateConstraints(model, state, cv, kPhi | kJacobian);
        spaces.factorize(cv.jacobian, rowScales, colScales, o.rankTolerance, o.linearAlgebra);
        const VecX dv = spaces.solveMinimumNorm(-cv.phi);
        double alpha = clampFactor(model, dv, o, L);
        bool improved = false;
        // Backtrack until the residual decreases: never leave the user worse off.
        for (int k = 0; k < 30; ++k, alpha *= 0.5) {
            trial.q = state.q;
            retract(model, trial.q, alpha * dv);
            evaluateConstraints(model, trial, cv, kPhi);
            const double r = scaledResidual(cv.phi, rowScales);
            if (r < res) {
                state.q = trial.q;
                res = r;
                improved = true;
                break;
            }
        }
        result.iterations = it + 1;
        if (!improved) break;
    }
    evaluateConstraints(model, state, cv, kPhi);
    result.residual = cv.phi.size() ? cv.phi.cwiseAbs().maxCoeff() : 0.0;
    result.ok = scaledResidual(cv.phi, rowScales) <= tol;
    const std::vector<std::string> wrongRoot = driversOnWrongRoot(model, state);
    if (result.ok && !wrongRoot.empty()) {
        result.ok = false;
        result.message = "assembly reached a configuration where driver";
        for (const std::string& d : wrongRoot) {
            result.message += " " + d;
            result.openJoints.emplace_back(d, M_PI);
        }
        result.message += " is half a turn from its prescribed angle; start from a guess "
                           "nearer the driven position";
        return result;
    }
    if (!result.ok) {
        for (auto& [owner, r] : residualsByOwner(model, cv.phi)) {
            if (r > tol) result.openJoints.emplace_back(owner, r);
        }
        std::sort(result.openJoints.begin(), result.openJoints.end(),
                  [](const auto& a, const auto& b) { return a.second > b.second; });
        std::ostringstream msg;
        msg << "assembly failed after " << result.iterations
            << " iterations: the constraints cannot all be met near the given configuration; "
               "joints that do not close:";
        for (const auto& [owner, r] : result.openJoints) msg << " " << owner << " (" << r << ")";
        result.message = msg.str();
    }
    return result;
}

double projectVelocities(const Model& model, State& state, double rankTolerance,
                         LinearAlgebra linearAlgebra) {
    ConstraintValues cv;
    evaluateConstraints(model, state, cv, kJacobian | kPhiT);
    ConstraintSpaces spaces;
    spaces.factorize(cv.jacobian, equationScales(model), coordinateScales(model), rankTolerance,
                     linearAlgebra);
    double residual = 0.0;
    const VecX err = cv.jacobian * state.v + cv.phiT;
    state.v -= spaces.solveMinimumNorm(err, &residual);
    return residual;
}

VecX solveAccelerations(const Model& model, const State& state, double rankTolerance,
                        LinearAlgebra linearAlgebra) {
    ConstraintValues cv;
    evaluateConstraints(model, state, cv, kJacobian | kGamma);
    ConstraintSpaces spaces;
    spaces.factorize(cv.jacobian, equationScales(model), coordinateScales(model), rankTolerance,
                     linearAlgebra);
    return spaces.solveMinimumNorm(cv.gamma);
}

}  // namespace looplab
