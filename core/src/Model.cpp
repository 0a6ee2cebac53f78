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

}  // namespace looplab
