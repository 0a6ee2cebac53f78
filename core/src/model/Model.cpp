#include "looplab/model/Model.h"

namespace looplab {

int Body::nodeSize() const {
    if (kind == BodyKind::Beam) return ancf::kNodeSize;
    if (kind == BodyKind::Solid) return hex::kNodeSize;
    return 0;
}

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
        if (b == 0) body.kind = BodyKind::Ground;
        body.slice.positionOffset = positionSize_;
        body.slice.velocityOffset = velocitySize_;
        const bool beam = body.kind == BodyKind::Beam && body.beam;
        const bool solid = body.kind == BodyKind::Solid && body.solid;
        const int nodal = beam ? body.beam->coordinateCount() : solid ? body.solid->coordinateCount() : -1;
        body.slice.positionSize = nodal >= 0 ? nodal : positionSizeOf(body.kind);
        body.slice.velocitySize = nodal >= 0 ? nodal : velocitySizeOf(body.kind);
        positionSize_ += body.slice.positionSize;
        velocitySize_ += body.slice.velocitySize;
        velocityOwner_.insert(velocityOwner_.end(), size_t(body.slice.velocitySize), static_cast<int>(b));
    }
}

}  // namespace looplab
