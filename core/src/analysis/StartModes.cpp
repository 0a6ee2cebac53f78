#include "looplab/analysis/StartModes.h"

#include "looplab/analysis/Modes.h"
#include "looplab/dynamics/Dynamics.h"
#include "looplab/kinematics/Constraints.h"
#include "looplab/kinematics/StartMotion.h"

#include <algorithm>

namespace looplab {

StartModes excitedModes(const Model& model, const State& start, int count, int reported, double rankTolerance) {
    StartModes r;
    State rigid = start;
    const StartReport rr = startVelocities(model, rigid, StartMotion::Consistent, rankTolerance);
    if (!rr.rigidField) {
        r.message = "no rigid field to measure the jump against" + (rr.message.empty() ? "" : ": " + rr.message);
        return r;
    }
    const VecX dv = start.v - rigid.v;
    const VecX Mdv = applyMass(model, dv);
    r.jumpEnergy = 0.5 * dv.dot(Mdv);
    const double kinetic = 0.5 * start.v.dot(applyMass(model, start.v));
    if (!(r.jumpEnergy > 1e-12 * kinetic)) {
        r.ok = true;
        return r;
    }
    State still = start;
    still.v.setZero();
    ConstraintValues cv;
    evaluateConstraints(model, still, cv, kJacobian);
    VecX lambda = VecX::Zero(model.equationCount());
    if (model.equationCount() > 0) {
        ConstraintSpaces spaces;
        spaces.factorize(cv.jacobian, equationScales(model), coordinateScales(model), rankTolerance);
        lambda = spaces.solveTransposed(generalizedForces(model, still));
    }
    ModesOptions mo;
    mo.count = count;
    mo.ignoreDamping = true;
    mo.denseCheckLimit = 0;
    mo.rankTolerance = rankTolerance;
    const ModesResult modes = computeModes(model, still, lambda, mo);
    if (!modes.ok) {
        r.message = "the modes at the start were not found: " + modes.message;
        return r;
    }
    for (const Mode& m : modes.modes) {
        ExcitedMode e;
        e.frequencyHz = m.frequencyHz;
        const double a = m.shape.dot(Mdv);
        e.energy = 0.5 * a * a;
        e.share = e.energy / r.jumpEnergy;
        r.covered += e.share;
        r.modes.push_back(e);
    }
    r.computed = static_cast<int>(r.modes.size());
    std::sort(r.modes.begin(), r.modes.end(), [](const ExcitedMode& a, const ExcitedMode& b) { return a.energy > b.energy; });
    if (static_cast<int>(r.modes.size()) > reported) r.modes.resize(static_cast<size_t>(reported));
    r.ok = true;
    return r;
}

}  // namespace looplab
