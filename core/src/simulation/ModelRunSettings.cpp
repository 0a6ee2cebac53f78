#include "looplab/simulation/ModelRunSettings.h"

#include "looplab/integrate/MethodRegistry.h"

namespace looplab {

SimulationSettings withModelRunSettings(const RunSettingsDoc& run, SimulationSettings base) {
    if (run.method) base.method = *run.method;
    if (run.integrator) base.integrator = *run.integrator;
    if (run.tEnd) base.tEnd = *run.tEnd;
    if (run.rtol) base.ode.rtol = *run.rtol;
    if (run.atol) base.ode.atol = *run.atol;
    if (run.step) base.ode.step = *run.step;
    if (run.outputStep) base.outputStep = *run.outputStep;
    if (run.hhtAlpha) base.constraints.hhtAlpha = *run.hhtAlpha;
    if (run.newmarkBeta) base.constraints.newmarkBeta = *run.newmarkBeta;
    if (run.newmarkGamma) base.constraints.newmarkGamma = *run.newmarkGamma;
    return base;
}

RunSettingsDoc runSettingsDocFrom(const SimulationSettings& settings, double pace) {
    RunSettingsDoc r;
    r.method = settings.method;
    r.integrator = settings.integrator;
    r.tEnd = settings.tEnd;
    r.rtol = settings.ode.rtol;
    r.atol = settings.ode.atol;
    // Step 0 means "automatic", which the file says by leaving the step out: the reader
    // takes only a positive step.
    if (settings.ode.step > 0.0) r.step = settings.ode.step;
    r.outputStep = settings.outputStep;
    r.pace = pace;
    // Only what the pair reads, so that a file does not carry, for a projection run, an α
    // that would silently change nothing.
    if (pairReads(settings.method, settings.integrator, "hht-alpha")) r.hhtAlpha = settings.constraints.hhtAlpha;
    if (pairReads(settings.method, settings.integrator, "newmark-beta"))
        r.newmarkBeta = settings.constraints.newmarkBeta;
    if (pairReads(settings.method, settings.integrator, "newmark-gamma"))
        r.newmarkGamma = settings.constraints.newmarkGamma;
    return r;
}

}  // namespace looplab
