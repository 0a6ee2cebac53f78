#include "looplab/model/Model.h"

namespace looplab {

Coupler::TermValue Coupler::term(size_t i, double x) const {
    if (cam && i == 0) {
        const CamLaw::Value f = cam->law.evaluate(cam->lawAngle(x));
        return {-f.lift, -f.velocity, -f.acceleration};
    }
    const double a = terms[i].coefficient;
    return {a * x, a, 0.0};
}

std::optional<BodyIndex> Model::findBody(const std::string& n) const {
    for (size_t i = 0; i < bodies.size(); ++i)
        if (bodies[i].name == n) return BodyIndex(static_cast<int>(i));
    return std::nullopt;
}

std::optional<JointIndex> Model::findJoint(const std::string& n) const {
    for (size_t i = 0; i < joints.size(); ++i)
        if (joints[i].name == n) return JointIndex(static_cast<int>(i));
    return std::nullopt;
}

void Model::layOutCoordinates() {
    positionSize_ = velocitySize_ = 0;
    velocityOwner_.clear();
    for (size_t b = 0; b < bodies.size(); ++b) {
        Body& body = bodies[b];
        body.slice.positionOffset = positionSize_;
        body.slice.velocityOffset = velocitySize_;
        body.slice.positionSize = body.formulation->positionSize();
        body.slice.velocitySize = body.formulation->velocitySize();
        positionSize_ += body.slice.positionSize;
        velocitySize_ += body.slice.velocitySize;
        velocityOwner_.insert(velocityOwner_.end(), size_t(body.slice.velocitySize), static_cast<int>(b));
    }
}

}  // namespace looplab
