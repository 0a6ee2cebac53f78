// `looplab-cli methods`: what `simulate --method` and `--integrator` accept, from the
// registry the simulator itself uses.
#include "CliCommon.h"

#include "looplab/integrate/MethodRegistry.h"

#include <nlohmann/json.hpp>

#include <sstream>

namespace looplab::cli {

namespace {

// rtol and atol take the method's defaults, and an adaptive integrator's first step is
// automatic: those three have no one default of their own.
std::string defaultText(const ParameterInfo& p) {
    if (p.runField) return p.key == "step" ? "none (rk4 needs one; adaptive: automatic)" : "the method's";
    std::ostringstream out;
    out << p.defaultValue();
    return out.str();
}

nlohmann::json parameters(const std::vector<ParameterInfo>& ps) {
    nlohmann::json out = nlohmann::json::array();
    for (const ParameterInfo& p : ps) {
        nlohmann::json j{{"option", "--" + p.key},
                         {"run_key", p.fileKey()},
                         {"description", p.description},
                         {"type", p.type == ParameterType::Count ? "count" : "real"},
                         {"range", p.range.text}};
        if (!p.runField) j["default"] = p.defaultValue();
        out.push_back(j);
    }
    return out;
}

void printParameters(const std::vector<ParameterInfo>& ps) {
    for (const ParameterInfo& p : ps)
        std::cout << "      --" << p.key << "  " << p.description << "; " << p.rangeText() << ", default "
                  << defaultText(p) << "\n";
}

}  // namespace

int runMethods(const MethodsOptions& o) {
    if (o.json) {
        nlohmann::json methods = nlohmann::json::array(), integrators = nlohmann::json::array();
        for (const ConstraintMethodInfo& m : constraintMethods())
            methods.push_back({{"name", m.name}, {"description", m.description}, {"projects", m.projects},
                               {"parameters", parameters(m.parameters)},
                               // Empty: every ODE solver; else the method's own integrators.
                               {"integrators", m.integrators},
                               {"defaults",
                                {{"integrator", m.defaults.integrator},
                                 {"rtol", m.defaults.rtol},
                                 {"atol", m.defaults.atol}}}});
        for (const IntegratorInfo& i : looplab::integrators())
            integrators.push_back({{"name", i.name},
                                   {"description", i.description},
                                   {"step_control", i.stepControl == StepControl::Fixed ? "fixed" : "adaptive"},
                                   {"implicit", i.implicit},
                                   {"order", i.order},
                                   {"ode_solver", i.odeSolver},
                                   {"parameters", parameters(i.parameters)}});
        nlohmann::json pairs = nlohmann::json::array();
        for (const ConstraintMethodInfo& m : constraintMethods())
            for (const IntegratorInfo& i : looplab::integrators())
                if (isSupportedPair(m.name, i.name)) pairs.push_back({m.name, i.name});
        nlohmann::json j;
        j["ok"] = true;
        j["methods"] = methods;
        j["integrators"] = integrators;
        j["supported_pairs"] = pairs;
        printJsonReport(j);
        return kSuccess;
    }
    std::cout << "Constraint methods (--method):\n";
    for (const ConstraintMethodInfo& m : constraintMethods()) {
        std::cout << "  " << m.name << (m.projects ? " (no drift)" : "") << "\n    " << m.description
                  << "\n    defaults: --integrator " << m.defaults.integrator << " --rtol " << m.defaults.rtol
                  << " --atol " << m.defaults.atol << "\n";
        printParameters(m.parameters);
    }
    std::cout << "Integrators (--integrator):\n";
    for (const IntegratorInfo& i : looplab::integrators()) {
        std::cout << "  " << i.name << " (" << (i.stepControl == StepControl::Fixed ? "fixed step" : "adaptive step")
                  << (i.implicit ? ", implicit" : ", explicit") << ", order " << i.order << ")\n    "
                  << i.description << "\n";
        printParameters(i.parameters);
    }
    std::cout << "Supported pairs:";
    for (const ConstraintMethodInfo& m : constraintMethods())
        for (const IntegratorInfo& i : looplab::integrators())
            if (isSupportedPair(m.name, i.name)) std::cout << " " << m.name << "/" << i.name;
    std::cout << "\n";
    return kSuccess;
}

}  // namespace looplab::cli
