#include "looplab/analysis/TransmissionAngle.h"

#include "looplab/model/Model.h"
#include "looplab/kinematics/FourBarAnalysis.h"
#include "looplab/model/State.h"

#include <algorithm>
#include <cmath>

namespace looplab {

namespace {

JointIndex jointNamed(const Model& model, const std::string& name) {
    for (size_t j = 0; j < model.joints.size(); ++j)
        if (model.joints[j].name == name) return JointIndex(static_cast<int>(j));
    return JointIndex();
}

Vec3 pin(const Model& model, const State& s, JointIndex j) {
    const BodyFrame& f = model.joints[static_cast<size_t>(j.value())].frame2;
    return pointPosition(model, s, f.body, f.origin);
}

}  // namespace

std::optional<FourBarTransmission> FourBarTransmission::find(const Model& model) {
    const std::optional<FourBarLinkage> fourBar = findPlanarFourBar(model);
    if (!fourBar || fourBar->joints.size() != 4) return std::nullopt;
    // Loop order from the ground: A (ground–crank), B (crank–coupler), C (coupler–rocker),
    // D (rocker–ground).
    FourBarTransmission t;
    t.b_ = jointNamed(model, fourBar->joints[1]);
    t.c_ = jointNamed(model, fourBar->joints[2]);
    t.d_ = jointNamed(model, fourBar->joints[3]);
    if (!t.b_.valid() || !t.c_.valid() || !t.d_.valid()) return std::nullopt;
    return t;
}

double FourBarTransmission::angle(const Model& model, const State& s) const {
    const Vec3 C = pin(model, s, c_);
    const Vec3 cb = pin(model, s, b_) - C, cd = pin(model, s, d_) - C;
    // atan2 of |cross| and dot keeps full precision near 0 and π, where acos does not.
    return std::atan2(cb.cross(cd).norm(), cb.dot(cd));
}

Status transmissionAngle(const Model& model, const State& s, double* angle) {
    const std::optional<FourBarTransmission> t = FourBarTransmission::find(model);
    if (!t)
        return Status::failure("the model is not a planar four-bar (one loop of four parallel revolutes "
                               "through three moving links): it has no transmission angle");
    *angle = t->angle(model, s);
    return {};
}

}  // namespace looplab
