#pragma once
// Every way LoopLab can move a mechanism in time, with what each takes, in one place. The
// command-line tool checks its options against it, the workbench fills its run panel
// from it, and the conformance test runs every supported pair from it: a new method or
// integrator is offered, checked and tested by being registered here.

#include "looplab/dynamics/ConstraintMethod.h"
#include "looplab/model/Model.h"
#include "looplab/integrate/MethodParameter.h"
#include "looplab/integrate/OdeSolver.h"
#include "looplab/integrate/TimeStepper.h"

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace looplab {

enum class StepControl {
    Fixed,    ///< the user's step, unchanged (rk4)
    Adaptive  ///< the step follows an error estimate against rtol and atol
};

struct IntegratorInfo {
    std::string name;         ///< as in files, on the command line and in the workbench
    std::string description;  ///< one line
    StepControl stepControl = StepControl::Adaptive;
    bool implicit = false;    ///< solves a nonlinear system per step (suits stiff models)
    /// Order of the global error in the step (fixed step) or, for an adaptive
    /// integrator, of the method that is propagated.
    int order = 0;
    /// What it reads, from the registry's one list (methodParameters()).
    std::vector<ParameterInfo> parameters;
    /// True for a solver of y' = f(t, y) that pairs with every constraint method; false
    /// for the time integration of a stepper on the constrained equations themselves
    /// (ConstraintMethodInfo::integrators names which).
    bool odeSolver = true;
};

/// What a run of a method uses where neither the command line nor the model's `run`
/// block says otherwise (precedence: command line > model > these).
struct MethodDefaults {
    std::string integrator;  ///< a registered integrator the method pairs with
    double rtol = 1e-8;      ///< relative tolerance of the local error
    double atol = 1e-10;     ///< absolute tolerance [coordinate units]
};

struct ConstraintMethodInfo {
    std::string name;
    std::string description;
    /// True if every state is projected onto the constraint manifolds (no drift).
    bool projects = false;
    /// What it reads, from the registry's one list (methodParameters()).
    std::vector<ParameterInfo> parameters;
    /// Empty for a method that gives v' = a(q, v, t) to any ODE solver; otherwise the
    /// method is a stepper on the constrained equations (a DAE) with its own time
    /// integration, and these are the only integrators it takes.
    std::vector<std::string> integrators;
    MethodDefaults defaults;
};

/// Registered constraint methods and integrators, in the order a user should meet them
/// (the default first).
const std::vector<ConstraintMethodInfo>& constraintMethods();
const std::vector<IntegratorInfo>& integrators();
/// The entry of that name, or nullptr.
const ConstraintMethodInfo* findConstraintMethod(const std::string& name);
const IntegratorInfo* findIntegrator(const std::string& name);

/// Every parameter of every method and integrator, each once, in the order the run panel
/// and `looplab-cli methods` show them.
const std::vector<ParameterInfo>& methodParameters();
/// The parameter of this key ("hht-alpha") or `run`-block key ("hht_alpha"), or nullptr.
const ParameterInfo* findParameter(const std::string& key);
/// What a method and an integrator read together: the method's parameters, then the
/// integrator's, each once (in a supported pair no key is read by both).
std::vector<const ParameterInfo*> parametersRead(const std::string& method, const std::string& integrator);

/// The method a run uses when nothing names one (the first registered).
const ConstraintMethodInfo& defaultConstraintMethod();

/// The method a run takes with this integrator when nothing names a method: the default
/// method if it pairs with the integrator, else the first registered one that does;
/// nullptr for an unknown integrator.
const ConstraintMethodInfo* defaultMethodFor(const std::string& integrator);

/// The methods to use instead of an explicit integrator on a stiff model, best first, as
/// (method, integrator) pairs: each method's own default integrator, and an implicit ODE
/// solver with the default method.
std::vector<std::pair<std::string, std::string>> stiffRemedies();

/// Whether the method or the integrator reads the parameter of this key
/// (ParameterInfo::key); false for unknown names. A parameter the pair does not read
/// changes nothing: the command line warns about it, the workbench hides its field.
bool pairReads(const std::string& method, const std::string& integrator, const std::string& key);

/// Whether a method and an integrator make a stepper; if not, why (one sentence).
bool isSupportedPair(const std::string& method, const std::string& integrator, std::string* why = nullptr);

/// The stepper of a registered, supported pair, or nullptr with *why set.
std::unique_ptr<TimeStepper> makeTimeStepper(std::shared_ptr<const Model> model, const std::string& method,
                                             const std::string& integrator, const OdeSettings& ode,
                                             const ConstraintMethodSettings& constraints,
                                             std::string* why = nullptr);

}  // namespace looplab
