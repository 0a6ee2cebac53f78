#include "looplab/simulation/InputPower.h"

#include "looplab/model/Model.h"
#include "looplab/model/State.h"

namespace looplab {

double appliedLoadPower(const Model& model, const State& s) {
    double p = 0.0;
    for (const ForceElement& e : model.forces) {
        if (e.type != ForceType::BodyForce && e.type != ForceType::BodyTorque) continue;
        if (!e.body.valid() || model.velocitySliceSize(e.body) == 0) continue;  // the ground
        const double scale = e.law ? e.law->evaluate(s.t).value : 1.0;
        if (const int size = model.body(e.body).nodeSize()) {
            // A force on a beam or solid node (the builder gives nodes no torques) acts on
            // the node's position, whose rate is the first 3 of its velocity numbers.
            if (e.type == ForceType::BodyForce)
                p += scale * e.vector.dot(s.v.segment<3>(model.velocityOffset(e.body) + size * e.node));
            continue;
        }
        if (e.type == ForceType::BodyForce)
            p += scale * e.vector.dot(pointVelocity(model, s, e.body, e.localPoint));
        else
            p += scale * e.vector.dot(bodyAngularVelocity(model, s, e.body));
    }
    return p;
}

double inputPower(const Model& model, const State& s, const VecX& multipliers) {
    double p = appliedLoadPower(model, s);
    for (const Driver& d : model.drivers)
        if (d.equation < multipliers.size()) p -= multipliers[d.equation] * d.law.evaluate(s.t).rate;
    return p;
}

bool hasWorkInput(const Model& model) {
    if (!model.drivers.empty()) return true;
    for (const ForceElement& e : model.forces)
        if (e.type == ForceType::BodyForce || e.type == ForceType::BodyTorque) return true;
    return false;
}

}  // namespace looplab
