#include "looplab/analysis/TransmissionAngle.h"

#include "looplab/model/Model.h"
#include "looplab/posing/FourBarAnalysis.h"
#include "looplab/bodies/State.h"

#include <algorithm>
#include <cmath>

namespace looplab {

namespace {

Vec3 jointPoint(const Model& model, const State& s, const std::string& name) {
    for (const Joint& j : model.joints)
        if (j.name == name) return pointPosition(model, s, j.frame2.body, j.frame2.origin);
    return Vec3::Constant(NAN);
}

}  // namespace

Status transmissionAngle(const Model& model, const State& s, double* angle) {
    const std::optional<PlanarFourBar> fourBar = findPlanarFourBar(model);
    if (!fourBar || fourBar->joints.size() != 4)
        return Status::failure("the model is not a planar four-bar (one loop of four parallel revolutes "
                               "through three moving links): it has no transmission angle");
    // Loop order from the ground: A (ground–crank), B (crank–coupler), C (coupler–rocker),
    // D (rocker–ground).
    const Vec3 B = jointPoint(model, s, fourBar->joints[1]);
    const Vec3 C = jointPoint(model, s, fourBar->joints[2]);
    const Vec3 D = jointPoint(model, s, fourBar->joints[3]);
    const Vec3 cb = B - C, cd = D - C;
    if (!(cb.norm() > 0.0) || !(cd.norm() > 0.0))
        return Status::failure("the four-bar's coupler or rocker has no length at this pose");
    // atan2 of |cross| and dot keeps full precision near 0 and π, where acos does not.
    *angle = std::atan2(cb.cross(cd).norm(), cb.dot(cd));
    return {};
}

}  // namespace looplab
