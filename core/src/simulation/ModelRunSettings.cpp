#include "looplab/simulation/ModelRunSettings.h"

namespace looplab {

SimulationSettings withModelRunSettings(const RunSettingsDoc& run, SimulationSettings base) {
    if (run.method) base.method = *run.method;
    if (run.integrator) base.integrator = *run.integrator;
    if (run.tEnd) base.tEnd = *run.tEnd;
    if (run.rtol) base.ode.rtol = *run.rtol;
    if (run.atol) base.ode.atol = *run.atol;
    if (run.step) base.ode.step = *run.step;
    if (run.outputStep) base.outputStep = *run.outputStep;
    return base;
}

RunSettingsDoc runSettingsDocFrom(const SimulationSettings& settings, double pace) {
    RunSettingsDoc r;
    r.method = settings.method;
    r.integrator = settings.integrator;
    r.tEnd = settings.tEnd;
    r.rtol = settings.ode.rtol;
    r.atol = settings.ode.atol;
    r.step = settings.ode.step;
    r.outputStep = settings.outputStep;
    r.pace = pace;
    return r;
}

}  // namespace looplab
