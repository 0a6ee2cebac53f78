#include "looplab/analysis/MotionArrows.h"

#include "looplab/analysis/PointMotion.h"
#include "looplab/dynamics/Reactions.h"
#include "looplab/model/Model.h"
#include "looplab/model/State.h"

namespace looplab {

const char* arrowKindName(ArrowKind kind) {
    switch (kind) {
    case ArrowKind::Velocity: return "velocity";
    case ArrowKind::Acceleration: return "acceleration";
    case ArrowKind::ReactionForce: return "reaction force";
    case ArrowKind::ReactionTorque: return "reaction torque";
    case ArrowKind::AppliedForce: return "applied force";
    case ArrowKind::AppliedTorque: return "applied torque";
    }
    return "";
}

const char* arrowKindUnit(ArrowKind kind) {
    switch (kind) {
    case ArrowKind::Velocity: return "m/s";
    case ArrowKind::Acceleration: return "m/s²";
    case ArrowKind::ReactionForce:
    case ArrowKind::AppliedForce: return "N";
    case ArrowKind::ReactionTorque:
    case ArrowKind::AppliedTorque: return "N·m";
    }
    return "";
}

double ArrowScale::of(ArrowKind kind) const {
    switch (kind) {
    case ArrowKind::Velocity: return velocity;
    case ArrowKind::Acceleration: return acceleration;
    case ArrowKind::ReactionForce:
    case ArrowKind::AppliedForce: return force;
    case ArrowKind::ReactionTorque:
    case ArrowKind::AppliedTorque: return torque;
    }
    return 0.0;
}

namespace {

void add(std::vector<MotionArrow>* out, ArrowKind kind, std::string label, const Vec3& origin,
         const Vec3& value, const ArrowScale& scale) {
    out->push_back({kind, std::move(label), origin, value, value * scale.of(kind)});
}

}  // namespace

Status motionArrows(const Model& model, const State& s, const VecX& acceleration,
                    const std::vector<JointReaction>& reactions, const ArrowRequest& request,
                    const ArrowScale& scale, std::vector<MotionArrow>* out) {
    out->clear();
    const bool velocity = request.wants(ArrowKind::Velocity);
    const bool accel = request.wants(ArrowKind::Acceleration) && acceleration.size() == model.velocitySize();
    if (velocity || accel) {
        std::vector<TracedPoint> points = request.points;
        if (points.empty())
            for (int b = 1; b < model.bodyCount(); ++b)
                if (model.body(BodyIndex(b)).movesAsOneFrame())
                    points.push_back({model.body(BodyIndex(b)).name, Vec3::Zero(), model.body(BodyIndex(b)).name});
        for (const TracedPoint& p : points) {
            const std::optional<BodyIndex> b = model.findBody(p.body);
            if (!b) return Status::failure("no body '" + p.body + "' for the arrows of point " + traceLabel(p));
            PointMotion m;
            const Status st = pointMotion(model, s, accel ? acceleration : VecX(), *b, p.localPoint, &m);
            if (!st.ok) return st;
            if (velocity) add(out, ArrowKind::Velocity, traceLabel(p), m.position, m.velocity, scale);
            if (accel) add(out, ArrowKind::Acceleration, traceLabel(p), m.position, m.acceleration, scale);
        }
    }
    const bool force = request.wants(ArrowKind::ReactionForce), torque = request.wants(ArrowKind::ReactionTorque);
    if ((force || torque) && reactions.size() == model.joints.size()) {
        for (size_t j = 0; j < model.joints.size(); ++j) {
            const BodyFrame& f = model.joints[j].frame2;
            if (!model.body(f.body).formulation->hasBodyFrame()) continue;
            const Vec3 at = pointPosition(model, s, f.body, f.origin);
            if (force) add(out, ArrowKind::ReactionForce, model.joints[j].name, at, reactions[j].forceGlobal, scale);
            if (torque) add(out, ArrowKind::ReactionTorque, model.joints[j].name, at, reactions[j].torqueGlobal, scale);
        }
    }
    for (const ForceElement& e : model.forces) {
        const bool isForce = e.type == ForceType::BodyForce, isTorque = e.type == ForceType::BodyTorque;
        if (!(isForce && request.wants(ArrowKind::AppliedForce)) && !(isTorque && request.wants(ArrowKind::AppliedTorque)))
            continue;
        if (!e.body.valid() || !model.body(e.body).movesAsOneFrame()) continue;
        const double k = e.law ? e.law->evaluate(s.t).value : 1.0;
        if (isForce)
            add(out, ArrowKind::AppliedForce, e.name, pointPosition(model, s, e.body, e.localPoint), k * e.vector, scale);
        else
            add(out, ArrowKind::AppliedTorque, e.name, bodyPosition(model, s, e.body), k * e.vector, scale);
    }
    return {};
}

}  // namespace looplab
