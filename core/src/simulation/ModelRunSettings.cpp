#include "looplab/simulation/ModelRunSettings.h"

#include "looplab/integrate/MethodRegistry.h"

#include <cstdio>
#include <cstdlib>

namespace looplab {

SimulationSettings withModelRunSettings(const RunSettingsDoc& run, SimulationSettings base) {
    if (run.method) base.method = *run.method;
    if (run.integrator) base.integrator = *run.integrator;
    if (run.tEnd) base.tEnd = *run.tEnd;
    if (run.rtol) base.ode.rtol = *run.rtol;
    if (run.atol) base.ode.atol = *run.atol;
    if (run.step) base.ode.step = *run.step;
    if (run.outputStep) base.outputStep = *run.outputStep;
    for (const auto& [key, value] : run.parameters)
        if (const ParameterInfo* p = findParameter(key)) p->setValue(base.constraints, base.ode, value);
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
    for (const ParameterInfo* p : parametersRead(settings.method, settings.integrator))
        if (!p->runField) r.parameters[p->key] = p->value(settings.constraints, settings.ode);
    return r;
}

}  // namespace looplab

namespace looplab {

namespace {

// The shortest text that reads back to the same double.
std::string shortest(double x) {
    char buf[40];
    for (int digits = 1; digits <= 17; ++digits) {
        std::snprintf(buf, sizeof buf, "%.*g", digits, x);
        if (std::strtod(buf, nullptr) == x) break;
    }
    return buf;
}

}  // namespace

const char* settingSourceName(SettingSource source) {
    switch (source) {
    case SettingSource::CommandLine: return "command line";
    case SettingSource::Model: return "model";
    case SettingSource::MethodDefault: return "method default";
    case SettingSource::Default: return "default";
    }
    return "default";
}

const ResolvedSetting* ResolvedRunSettings::field(const std::string& key) const {
    for (const ResolvedSetting& f : fields)
        if (f.key == key) return &f;
    return nullptr;
}

std::string ResolvedRunSettings::summary() const {
    std::string text;
    for (const ResolvedSetting& f : fields)
        text += (text.empty() ? "" : "; ") + f.key + " " + f.value + " (" + settingSourceName(f.source) + ")";
    return text;
}

ResolvedRunSettings resolveRunSettings(const RunSettingsDoc& commandLine, const RunSettingsDoc& model,
                                       SimulationSettings base) {
    ResolvedRunSettings r;
    SimulationSettings& s = r.settings;
    s = std::move(base);

    // The method, then the integrator that goes with it.
    SettingSource methodSource = SettingSource::Default;
    if (commandLine.method) {
        s.method = *commandLine.method;
        methodSource = SettingSource::CommandLine;
    } else if (model.method && (!commandLine.integrator || isSupportedPair(*model.method, *commandLine.integrator))) {
        s.method = *model.method;
        methodSource = SettingSource::Model;
    } else {
        const std::optional<std::string>& named = commandLine.integrator ? commandLine.integrator : model.integrator;
        const ConstraintMethodInfo* m = named ? defaultMethodFor(*named) : nullptr;
        s.method = m ? m->name : defaultConstraintMethod().name;
        if (model.method)
            r.notes.push_back("the model's method " + *model.method + " does not take the integrator " +
                              *commandLine.integrator + " given on the command line: method " + s.method +
                              " instead (give --method to choose another)");
    }
    const ConstraintMethodInfo* method = findConstraintMethod(s.method);
    if (!method) {
        r.error = "unknown method '" + s.method + "'";
        return r;
    }
    SettingSource integratorSource = SettingSource::MethodDefault;
    if (commandLine.integrator) {
        s.integrator = *commandLine.integrator;
        integratorSource = SettingSource::CommandLine;
    } else if (model.integrator && isSupportedPair(s.method, *model.integrator)) {
        s.integrator = *model.integrator;
        integratorSource = SettingSource::Model;
    } else {
        s.integrator = method->defaults.integrator;
        if (model.integrator)
            r.notes.push_back("the model's integrator " + *model.integrator + " does not pair with the method " +
                              s.method + ": its default integrator " + s.integrator + " instead");
    }
    if (!isSupportedPair(s.method, s.integrator, &r.error)) return r;
    r.error.clear();
    r.fields.push_back({"method", s.method, methodSource});
    r.fields.push_back({"integrator", s.integrator, integratorSource});

    // Every other field on its own: the command line's, else the model's, else the default.
    auto pick = [&](const char* key, const std::optional<double>& given, const std::optional<double>& saved,
                    double fallback, SettingSource fallbackSource, double& target) {
        if (given) {
            target = *given;
            r.fields.push_back({key, shortest(target), SettingSource::CommandLine});
        } else if (saved) {
            target = *saved;
            r.fields.push_back({key, shortest(target), SettingSource::Model});
        } else {
            target = fallback;
            r.fields.push_back({key, shortest(target), fallbackSource});
        }
    };
    pick("t_end", commandLine.tEnd, model.tEnd, s.tEnd, SettingSource::Default, s.tEnd);
    pick("output_step", commandLine.outputStep, model.outputStep, s.outputStep, SettingSource::Default, s.outputStep);
    pick("step", commandLine.step, model.step, s.ode.step, SettingSource::Default, s.ode.step);
    const IntegratorInfo* integrator = findIntegrator(s.integrator);
    if (integrator->stepControl == StepControl::Adaptive) {
        pick("rtol", commandLine.rtol, model.rtol, method->defaults.rtol, SettingSource::MethodDefault, s.ode.rtol);
        pick("atol", commandLine.atol, model.atol, method->defaults.atol, SettingSource::MethodDefault, s.ode.atol);
    }
    for (const ParameterInfo* p : parametersRead(s.method, s.integrator)) {
        if (p->runField) continue;
        double value = 0.0;
        pick(p->fileKey().c_str(), commandLine.parameter(p->key), model.parameter(p->key),
             p->value(s.constraints, s.ode), SettingSource::Default, value);
        p->setValue(s.constraints, s.ode, value);
    }
    return r;
}

}  // namespace looplab
