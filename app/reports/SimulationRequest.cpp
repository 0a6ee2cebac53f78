#include "SimulationRequest.h"

#include "looplab/integrate/MethodRegistry.h"

#include <algorithm>
#include <cstdio>

namespace looplab::reports {

std::string optionName(OptionStyle style, const std::string& key) {
    if (style == OptionStyle::CommandLine) return "--" + key;
    std::string name = key;
    std::replace(name.begin(), name.end(), '-', '_');
    return name;
}

std::string checkOption(const std::string& option, double value, Bound bound, double upper, bool upperInclusive) {
    const bool lowOk = bound == Bound::Positive ? value > 0.0 : value >= 0.0;
    const bool highOk = upperInclusive ? value <= upper : value < upper;
    if (std::isfinite(value) && lowOk && highOk) return {};
    std::string range = bound == Bound::Positive ? "a positive number" : "a number not below 0";
    if (std::isfinite(upper)) {
        char buf[64];
        std::snprintf(buf, sizeof buf, "%g", upper);
        range = range + (upperInclusive ? " not above " : " below ") + buf;
    } else {
        range = "a finite " + range.substr(2);
    }
    char got[64];
    std::snprintf(got, sizeof got, "%g", value);
    return option + " must be " + range + " (got " + got + ")";
}

std::string checkSimulationRequest(const SimulationRequest& r) {
    const RunSettingsDoc& g = r.given;
    auto name = [&](const char* key) { return optionName(r.style, key); };
    // A run-block field given by the caller is checked here; one from the model was
    // checked by the model reader.
    auto given = [&](const char* key, const std::optional<double>& v, Bound bound, double upper = INFINITY) {
        return v ? checkOption(name(key), *v, bound, upper) : std::string();
    };
    for (const std::string& e : {given("t-end", g.tEnd, Bound::NonNegative),
                                 given("step", g.step, Bound::NonNegative),
                                 given("rtol", g.rtol, Bound::Positive, 1.0),
                                 given("atol", g.atol, Bound::Positive),
                                 given("output-step", g.outputStep, Bound::Positive),
                                 checkOption(name("singular-threshold"), r.singularThreshold, Bound::NonNegative),
                                 checkOption(name("rank-tolerance"), r.rankTolerance, Bound::Positive, 1.0, false),
                                 checkOption(name("max-wall-time"), r.maxWallTime, Bound::NonNegative)})
        if (!e.empty()) return e;
    if (r.maxRows < 1) return name("max-rows") + " must be at least 1";
    if (r.maxSteps < 1) return name("max-steps") + " must be at least 1";
    LinearAlgebra la;
    if (!parseLinearAlgebra(r.linearAlgebra, la))
        return name("linear-algebra") + " must be automatic, dense or sparse (got '" + r.linearAlgebra + "')";
    if (r.onStiff != "stop" && r.onStiff != "warn")
        return name("on-stiff") + " must be stop or warn (got '" + r.onStiff + "')";
    for (const auto& [key, value] : g.parameters)
        if (const ParameterInfo* p = findParameter(key))
            if (std::string e = p->check(value, name(key.c_str())); !e.empty()) return e;
    // A pair named wholly by the caller is refused before the model is read.
    std::string unsupported;
    if (g.method && g.integrator && !isSupportedPair(*g.method, *g.integrator, &unsupported)) return unsupported;
    return {};
}

ResolvedRunSettings resolveSimulation(const SimulationRequest& o, const RunSettingsDoc& modelRun, double startTime,
                                      std::vector<std::string>* warnings) {
    auto name = [&](const char* key) { return optionName(o.style, key); };
    SimulationSettings base;
    base.ode.step = 0.0;  // automatic, unless a fixed-step integrator is given one
    base.singularThreshold = o.singularThreshold;
    base.constraints.rankTolerance = o.rankTolerance;
    parseLinearAlgebra(o.linearAlgebra, base.constraints.linearAlgebra);
    base.maxSteps = o.maxSteps;
    base.maxWallTime = o.maxWallTime;
    base.maxFrames = o.maxRows;
    base.stopWhenStiff = o.onStiff == "stop";
    ResolvedRunSettings r = resolveRunSettings(o.given, modelRun, base);
    if (!r.error.empty()) return r;
    for (const std::string& note : r.notes) warnings->push_back(note);
    SimulationSettings& s = r.settings;
    if (!o.given.tEnd && !modelRun.tEnd) {
        r.error = name("t-end") + " is needed: the model's run block gives no t_end (the simulated time span)";
        return r;
    }
    const IntegratorInfo& integratorInfo = *findIntegrator(s.integrator);
    const bool fixedStep = integratorInfo.stepControl == StepControl::Fixed;
    if (fixedStep && !(s.ode.step > 0.0)) {
        r.error = s.integrator + " needs " + name("step");
        return r;
    }
    // A parameter the chosen pair does not read would silently change nothing.
    for (const std::string& key : o.givenParameters)
        if (!pairReads(s.method, s.integrator, key))
            warnings->push_back(name(key.c_str()) + " is ignored: neither the " + s.method + " method nor the " +
                                s.integrator + " integrator reads it");
    char buf[240];
    const double span = s.tEnd;
    const double rows = outputRows(span, s.outputStep);
    if (rows > double(o.maxRows)) {
        std::snprintf(buf, sizeof buf, "%s %g over %s %g gives %.3g output rows, more than %s %ld",
                      name("output-step").c_str(), s.outputStep, name("t-end").c_str(), span, rows,
                      name("max-rows").c_str(), o.maxRows);
        r.error = buf;
        return r;
    }
    if (fixedStep && span / s.ode.step > double(o.maxSteps)) {
        std::snprintf(buf, sizeof buf, "%s %s %g over %s %g takes %.3g steps, more than %s %ld", s.integrator.c_str(),
                      name("step").c_str(), s.ode.step, name("t-end").c_str(), span, std::ceil(span / s.ode.step),
                      name("max-steps").c_str(), o.maxSteps);
        r.error = buf;
        return r;
    }
    s.tEnd = startTime + span;
    return r;
}

}  // namespace looplab::reports
