#include "looplab/simulation/InputPower.h"

#include "looplab/model/Model.h"
#include "looplab/model/State.h"

namespace looplab {

double appliedLoadPower(const Model& model, const State& s) {
    double p = 0.0;
    for (const ForceElement& e : model.forces)
        if (e.forceLaw->putsInWork()) p += e.forceLaw->inputPower(model, s);
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
        if (e.forceLaw->putsInWork()) return true;
    return false;
}

}  // namespace looplab
