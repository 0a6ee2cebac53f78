#include "looplab/Model.h"

namespace looplab {

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
        body.slice.positionSize = beam ? body.beam->coordinateCount() : positionSizeOf(body.kind);
        body.slice.velocitySize = beam ? body.beam->coordinateCount() : velocitySizeOf(body.kind);
        positionSize_ += body.slice.positionSize;
        velocitySize_ += body.slice.velocitySize;
        velocityOwner_.insert(velocityOwner_.end(), size_t(body.slice.velocitySize), static_cast<int>(b));
    }
}

}  // namespace looplab
