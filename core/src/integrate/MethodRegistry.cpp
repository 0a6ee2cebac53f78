#include "looplab/integrate/MethodRegistry.h"

#include <algorithm>
#include <limits>
#include <stdexcept>

namespace looplab {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr ParameterRange kNonNegative{0.0, kInf, true, "[0, inf)"};
constexpr ParameterRange kPositive{0.0, kInf, false, "(0, inf)"};
constexpr ParameterRange kFraction{0.0, 1.0, false, "(0, 1]"};
// Iterations per evaluation: a bound keeps a typed 1e12 from meaning "forever".
constexpr ParameterRange kIterations{1.0, 1000.0, true, "[1, 1000]"};

using C = ConstraintMethodSettings;
using O = OdeSettings;

// Every parameter once. Defaults are not here: they are the settings structs' own
// (ParameterInfo::defaultValue).
const std::vector<ParameterInfo>& parameterTable() {
    static const std::vector<ParameterInfo> table{
        {"rtol", "Relative tolerance", "relative tolerance of the local error", ParameterType::Real, kFraction, 0.0,
         true, &O::rtol},
        {"atol", "Absolute tolerance", "absolute tolerance of the local error [coordinate units]",
         ParameterType::Real, kPositive, 0.0, true, &O::atol},
        {"step", "Step", "rk4: the step; adaptive integrators: the first step (0: automatic) [s]",
         ParameterType::Real, kNonNegative, 1e-3, true, &O::step},
        {"projection-iterations", "Projection iterations", "Gauss-Newton iterations allowed per position projection",
         ParameterType::Count, kIterations, 1.0, false, &C::projectionIterations},
        {"baumgarte-alpha", "Baumgarte α", "damping of the constraint drift alpha [1/s]", ParameterType::Real,
         kNonNegative, 1.0, false, &C::baumgarteAlpha},
        {"baumgarte-beta", "Baumgarte β", "stiffness of the constraint drift beta [1/s]", ParameterType::Real,
         kNonNegative, 1.0, false, &C::baumgarteBeta},
        {"penalty-factor", "Penalty factor", "penalty factor, relative to the mean generalised mass",
         ParameterType::Real, kPositive, 0.0, false, &C::penaltyFactor},
        {"augmented-factor", "Augmented factor",
         "penalty factor of the augmented Lagrangian, relative to the mean generalised mass", ParameterType::Real,
         kPositive, 0.0, false, &C::augmentedFactor},
        {"penalty-damping", "Penalty damping ξ", "damping ratio xi of the constraint dynamics", ParameterType::Real,
         kNonNegative, 0.1, false, &C::penaltyDamping},
        {"penalty-frequency", "Penalty frequency ω", "natural frequency omega of the constraint dynamics [rad/s]",
         ParameterType::Real, kPositive, 1.0, false, &C::penaltyFrequency},
        {"augmented-iterations", "Multiplier iterations", "multiplier iterations allowed per evaluation",
         ParameterType::Count, kIterations, 1.0, false, &C::augmentedIterations},
        {"augmented-tolerance", "Multiplier tolerance",
         "relative change of the scaled accelerations that ends the multiplier iteration", ParameterType::Real,
         kFraction, 0.0, false, &C::augmentedTolerance},
        {"hht-alpha", "HHT α",
         "numerical damping of the high frequencies alpha (0: none; hht-index3 needs alpha < 0)",
         ParameterType::Real, kHhtAlphaRange, 0.01, false, &C::hhtAlpha},
        {"newmark-beta", "Newmark β", "weight of the new acceleration in the position update beta (1/4: trapezoidal)",
         ParameterType::Real, kNewmarkBetaRange, 0.01, false, &C::newmarkBeta},
        {"newmark-gamma", "Newmark γ",
         "weight of the new acceleration in the velocity update gamma (second order only at 1/2)",
         ParameterType::Real, kNewmarkGammaRange, 0.01, false, &C::newmarkGamma},
        {"max-step", "Largest step", "largest step of an adaptive integrator (0: none) [s]", ParameterType::Real,
         kNonNegative, 1e-3, false, &O::maxStep},
    };
    return table;
}

// The table's entries of these keys, for a method's or an integrator's list.
std::vector<ParameterInfo> parameters(std::initializer_list<const char*> keys) {
    std::vector<ParameterInfo> out;
    for (const char* key : keys) {
        const ParameterInfo* p = findParameter(key);
        if (!p) throw std::logic_error(std::string("unregistered method parameter '") + key + "'");
        out.push_back(*p);
    }
    return out;
}

}  // namespace

const std::vector<ParameterInfo>& methodParameters() { return parameterTable(); }

const ParameterInfo* findParameter(const std::string& key) {
    for (const ParameterInfo& p : parameterTable())
        if (p.key == key || p.fileKey() == key) return &p;
    return nullptr;
}

const std::vector<ConstraintMethodInfo>& constraintMethods() {
    static const std::vector<ConstraintMethodInfo> methods{
        {"projection",
         "null-space projection: positions and velocities projected onto the constraint manifolds before "
         "every evaluation; no drift",
         true,
         parameters({"projection-iterations"}),
         {},
         {"dopri5", 1e-8, 1e-10}},
        {"baumgarte",
         "multipliers with Baumgarte stabilisation of the constraint drift, phi'' + 2 alpha phi' + beta^2 phi = 0",
         false,
         parameters({"baumgarte-alpha", "baumgarte-beta"}),
         {},
         {"dopri5", 1e-8, 1e-10}},
        {"penalty",
         "Bayo's penalty formulation: constraint forces from a stiff spring-damper on the violations",
         false,
         parameters({"penalty-factor", "penalty-damping", "penalty-frequency"}),
         {},
         {"dopri5", 1e-8, 1e-10}},
        {"augmented-lagrangian",
         "penalty formulation whose multipliers are iterated until the constraints are met to a tolerance",
         false,
         parameters({"augmented-factor", "penalty-damping", "penalty-frequency", "augmented-iterations",
                     "augmented-tolerance"}),
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
         parameters({"rtol", "atol", "step", "max-step"})},
        {"verner6",
         "Verner 6(5), Butcher table from SUNDIALS ARKODE: explicit, adaptive step, 8 stages, 6th-order "
         "steps, output held to the tolerance",
         StepControl::Adaptive,
         false,
         6,
         parameters({"rtol", "atol", "step", "max-step"})},
        {"fehlberg8",
         "Fehlberg 7(8), Butcher table from SUNDIALS ARKODE: explicit, adaptive step, 13 stages, 8th-order "
         "steps, output held to the tolerance",
         StepControl::Adaptive,
         false,
         8,
         parameters({"rtol", "atol", "step", "max-step"})},
        {"bdf",
         "SUNDIALS CVODE, variable-order BDF (1 to 5) with Newton iterations: for stiff models",
         StepControl::Adaptive,
         true,
         5,
         parameters({"rtol", "atol", "step", "max-step"})},
        {"rk4",
         "classic Runge-Kutta, fixed step: for teaching and step-size studies",
         StepControl::Fixed,
         false,
         4,
         parameters({"step"})},
        {"hht",
         "Hilber-Hughes-Taylor alpha on the constrained equations, Newton iterations, adaptive step: "
         "for steppers on the constrained equations (tlismni, hht-index3)",
         StepControl::Adaptive,
         true,
         2,
         parameters({"hht-alpha", "rtol", "atol", "step", "max-step"}),
         false},
        {"newmark",
         "Newmark beta-gamma on the constrained equations, Newton iterations, adaptive step: "
         "for steppers on the constrained equations (tlismni, hht-index3)",
         StepControl::Adaptive,
         true,
         2,
         parameters({"newmark-beta", "newmark-gamma", "rtol", "atol", "step", "max-step"}),
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

std::vector<const ParameterInfo*> parametersRead(const std::string& method, const std::string& integrator) {
    std::vector<const ParameterInfo*> read;
    auto add = [&read](const std::vector<ParameterInfo>& ps) {
        for (const ParameterInfo& p : ps) {
            const ParameterInfo* entry = findParameter(p.key);
            if (std::find(read.begin(), read.end(), entry) == read.end()) read.push_back(entry);
        }
    };
    if (const ConstraintMethodInfo* m = findConstraintMethod(method)) add(m->parameters);
    if (const IntegratorInfo* i = findIntegrator(integrator)) add(i->parameters);
    return read;
}

bool pairReads(const std::string& method, const std::string& integrator, const std::string& key) {
    const std::vector<const ParameterInfo*> read = parametersRead(method, integrator);
    return std::any_of(read.begin(), read.end(), [&key](const ParameterInfo* p) { return p->key == key; });
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
