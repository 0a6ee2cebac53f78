#include "looplab/integrate/MethodRegistry.h"

#include <algorithm>

namespace looplab {

const std::vector<ConstraintMethodInfo>& constraintMethods() {
    static const std::vector<ConstraintMethodInfo> methods{
        {"projection",
         "null-space projection: positions and velocities projected onto the constraint manifolds before "
         "every evaluation; no drift",
         true,
         {{"projection-iterations", "Gauss-Newton iterations allowed per position projection"}},
         {},
         {"dopri5", 1e-8, 1e-10}},
        {"baumgarte",
         "multipliers with Baumgarte stabilisation of the constraint drift, phi'' + 2 alpha phi' + beta^2 phi = 0",
         false,
         {{"baumgarte-alpha", "damping of the constraint drift alpha [1/s]"},
          {"baumgarte-beta", "stiffness of the constraint drift beta [1/s]"}},
         {},
         {"dopri5", 1e-8, 1e-10}},
        {"penalty",
         "Bayo's penalty formulation: constraint forces from a stiff spring-damper on the violations",
         false,
         {{"penalty-factor", "penalty factor, relative to the mean generalised mass"},
          {"penalty-damping", "damping ratio xi of the constraint dynamics"},
          {"penalty-frequency", "natural frequency omega of the constraint dynamics [rad/s]"}},
         {},
         {"dopri5", 1e-8, 1e-10}},
        {"augmented-lagrangian",
         "penalty formulation whose multipliers are iterated until the constraints are met to a tolerance",
         false,
         {{"augmented-factor", "penalty factor, relative to the mean generalised mass"},
          {"penalty-damping", "damping ratio xi of the constraint dynamics"},
          {"penalty-frequency", "natural frequency omega of the constraint dynamics [rad/s]"},
          {"augmented-iterations", "multiplier iterations allowed per evaluation"},
          {"augmented-tolerance", "relative change of the scaled accelerations that ends the iteration"}},
         {},
         {"dopri5", 1e-8, 1e-10}},
        {"tlismni",
         "two-loop implicit method (Shabana & Hussein 2009): coordinate partitioning, HHT or Newmark on the "
         "independent accelerations, Newton-Raphson on phi = 0 for the dependent positions; no drift",
         true,
         {},
         {"hht", "newmark"},
         // The step and the tolerances of the second-order steppers on the constrained
         // equations are theirs to choose: these two numbers are where they are set. A
         // second-order method's global error sums many more local errors than dopri5's at
         // equal rtol: 1e-6 holds 1 s of the shipped rigid examples' motion to 1e-5 … 6e-4
         // of its amplitude, the flexible four-bar's to 2e-4, for 1/5 to 1/9 of the steps of
         // rtol 1e-8 (docs/methods.md, error control of the implicit steppers).
         {"hht", 1e-6, 1e-8}},
        {"hht-index3",
         "HHT-alpha on the full index-3 DAE (Negrut et al. 2007), as most commercial codes integrate: all "
         "accelerations and multipliers per Newton iteration, positions closed at the step's end, velocities "
         "not projected (they drift by the integration error); needs alpha < 0",
         false,
         {},
         {"hht"},
         {"hht", 1e-6, 1e-8}},  // as tlismni's
    };
    return methods;
}

const std::vector<IntegratorInfo>& integrators() {
    static const std::vector<IntegratorInfo> list{
        {"dopri5",
         "Dormand-Prince 5(4): explicit, adaptive step, 4th-order dense output",
         StepControl::Adaptive,
         false,
         5,
         {{"rtol", "relative tolerance of the local error"},
          {"atol", "absolute tolerance of the local error [coordinate units]"},
          {"step", "initial step [s] (0: automatic)"},
          {"max-step", "largest step [s] (0: none)"}}},
        {"verner6",
         "Verner 6(5), Butcher table from SUNDIALS ARKODE: explicit, adaptive step, 8 stages, 6th-order "
         "steps, output held to the tolerance",
         StepControl::Adaptive,
         false,
         6,
         {{"rtol", "relative tolerance of the local error"},
          {"atol", "absolute tolerance of the local error [coordinate units]"},
          {"step", "initial step [s] (0: automatic)"},
          {"max-step", "largest step [s] (0: none)"}}},
        {"fehlberg8",
         "Fehlberg 7(8), Butcher table from SUNDIALS ARKODE: explicit, adaptive step, 13 stages, 8th-order "
         "steps, output held to the tolerance",
         StepControl::Adaptive,
         false,
         8,
         {{"rtol", "relative tolerance of the local error"},
          {"atol", "absolute tolerance of the local error [coordinate units]"},
          {"step", "initial step [s] (0: automatic)"},
          {"max-step", "largest step [s] (0: none)"}}},
        {"bdf",
         "SUNDIALS CVODE, variable-order BDF (1 to 5) with Newton iterations: for stiff models",
         StepControl::Adaptive,
         true,
         5,
         {{"rtol", "relative tolerance of the local error"},
          {"atol", "absolute tolerance of the local error [coordinate units]"},
          {"step", "initial step [s] (0: automatic)"},
          {"max-step", "largest step [s] (0: none)"}}},
        {"rk4",
         "classic Runge-Kutta, fixed step: for teaching and step-size studies",
         StepControl::Fixed,
         false,
         4,
         {{"step", "the step [s]"}}},
        {"hht",
         "Hilber-Hughes-Taylor alpha on the constrained equations, Newton iterations, adaptive step: "
         "for steppers on the constrained equations (tlismni, hht-index3)",
         StepControl::Adaptive,
         true,
         2,
         {{"hht-alpha", "numerical damping alpha in [-1/3, 0] (0: none)"},
          {"rtol", "relative tolerance of the local error"},
          {"atol", "absolute tolerance of the local error [coordinate units]"},
          {"step", "initial step [s] (0: automatic)"},
          {"max-step", "largest step [s] (0: none)"}},
         false},
        {"newmark",
         "Newmark beta-gamma on the constrained equations, Newton iterations, adaptive step: "
         "for steppers on the constrained equations (tlismni, hht-index3)",
         StepControl::Adaptive,
         true,
         2,
         {{"newmark-beta", "Newmark beta in (0, 1/2]"},
          {"newmark-gamma", "Newmark gamma in [1/2, 1] (second order only at 1/2)"},
          {"rtol", "relative tolerance of the local error"},
          {"atol", "absolute tolerance of the local error [coordinate units]"},
          {"step", "initial step [s] (0: automatic)"},
          {"max-step", "largest step [s] (0: none)"}},
         false},
    };
    return list;
}

const ConstraintMethodInfo* findConstraintMethod(const std::string& name) {
    for (const ConstraintMethodInfo& m : constraintMethods())
        if (m.name == name) return &m;
    return nullptr;
}

const IntegratorInfo* findIntegrator(const std::string& name) {
    for (const IntegratorInfo& i : integrators())
        if (i.name == name) return &i;
    return nullptr;
}

const ConstraintMethodInfo& defaultConstraintMethod() { return constraintMethods().front(); }

const ConstraintMethodInfo* defaultMethodFor(const std::string& integrator) {
    if (!findIntegrator(integrator)) return nullptr;
    if (isSupportedPair(defaultConstraintMethod().name, integrator)) return &defaultConstraintMethod();
    for (const ConstraintMethodInfo& m : constraintMethods())
        if (isSupportedPair(m.name, integrator)) return &m;
    return nullptr;
}

std::vector<std::pair<std::string, std::string>> stiffRemedies() {
    std::vector<std::pair<std::string, std::string>> remedies;
    // Steppers on the constrained equations first: they are implicit by construction and
    // damp what they do not resolve.
    for (const ConstraintMethodInfo& m : constraintMethods())
        if (!m.integrators.empty()) remedies.emplace_back(m.name, m.defaults.integrator);
    for (const IntegratorInfo& i : integrators())
        if (i.implicit && i.odeSolver) remedies.emplace_back(defaultConstraintMethod().name, i.name);
    return remedies;
}

bool pairReads(const std::string& method, const std::string& integrator, const std::string& key) {
    auto lists = [&key](const std::vector<ParameterInfo>& ps) {
        return std::any_of(ps.begin(), ps.end(), [&](const ParameterInfo& p) { return p.key == key; });
    };
    const ConstraintMethodInfo* m = findConstraintMethod(method);
    const IntegratorInfo* i = findIntegrator(integrator);
    return (m && lists(m->parameters)) || (i && lists(i->parameters));
}

bool isSupportedPair(const std::string& method, const std::string& integrator, std::string* why) {
    auto fail = [&](std::string reason) {
        if (why) *why = std::move(reason);
        return false;
    };
    const ConstraintMethodInfo* m = findConstraintMethod(method);
    const IntegratorInfo* i = findIntegrator(integrator);
    if (!m) return fail("unknown method '" + method + "'");
    if (!i) return fail("unknown integrator '" + integrator + "'");
    // A constraint method gives an explicit ODE v' = a(q, v, t) that every ODE solver can
    // integrate; a stepper on the constrained equations pairs only with its own
    // integrators, which in turn cannot integrate an ODE.
    if (m->integrators.empty()) {
        if (!i->odeSolver)
            return fail("the integrator '" + integrator + "' integrates the constrained equations of a stepper " +
                        "such as tlismni or hht-index3, not the ODE of the method '" + method + "'");
        return true;
    }
    if (std::find(m->integrators.begin(), m->integrators.end(), integrator) == m->integrators.end()) {
        std::string list;
        for (const std::string& name : m->integrators) list += (list.empty() ? "" : ", ") + name;
        return fail("the method '" + method + "' integrates the constrained equations itself and takes only the " +
                    "integrators " + list + ", not the ODE solver '" + integrator + "'");
    }
    return true;
}

}  // namespace looplab
