#include "looplab/analysis/PointMotion.h"

#include "looplab/model/Model.h"
#include "looplab/model/State.h"

namespace looplab {

Status pointMotion(const Model& model, const State& s, const VecX& acceleration, BodyIndex b,
                   const Vec3& local, PointMotion* out) {
    *out = PointMotion{};
    if (b.value() < 0 || b.value() >= model.bodyCount())
        return Status::failure("no body with index " + std::to_string(b.value()));
    const Body& body = model.body(b);
    if (b.value() == 0) {
        out->position = local;
        return {};
    }
    if (!body.formulation->hasBodyFrame())
        return Status::failure("body '" + body.name + "' is flexible: its points move with its nodes, "
                               "pick a node instead of a body point");
    if (acceleration.size() != 0 && acceleration.size() != model.velocitySize())
        return Status::failure("accelerations have " + std::to_string(acceleration.size()) +
                               " numbers, the model has " + std::to_string(model.velocitySize()) +
                               " velocity coordinates");
    const Quat A = bodyOrientation(model, s, b);
    const Vec3 rho = A * local;
    const Vec3 omega = bodyAngularVelocity(model, s, b);
    out->position = bodyPosition(model, s, b) + rho;
    out->velocity = bodyVelocity(model, s, b) + omega.cross(rho);
    out->angularVelocity = omega;
    if (acceleration.size() != 0) {
        const int o = model.velocityOffset(b);
        const Vec3 ac = acceleration.segment<3>(o);
        // Angular accelerations are stored in body axes; ω is the same vector in either
        // frame's rate because ω × ω = 0, so α_global = A α_body.
        const Vec3 alpha = A * Vec3(acceleration.segment<3>(o + 3));
        out->angularAcceleration = alpha;
        out->acceleration = ac + alpha.cross(rho) + omega.cross(omega.cross(rho));
    }
    return {};
}

}  // namespace looplab
