// Building the stepper a registered method/integrator pair names: kept apart from the
// registry's tables (MethodRegistry.cpp), which the model-file reader checks names
// against without linking any solver.
#include "looplab/integrate/MethodRegistry.h"

#include "looplab/dynamics/BaumgarteMethod.h"
#include "looplab/integrate/ConstraintMethodStepper.h"
#include "looplab/integrate/CvodeBdf.h"
#include "looplab/integrate/DormandPrince5.h"
#include "looplab/integrate/EmbeddedRungeKutta.h"
#include "looplab/integrate/HhtIndex3Stepper.h"
#include "looplab/dynamics/PenaltyMethod.h"
#include "looplab/dynamics/ProjectionMethod.h"
#include "looplab/integrate/RungeKutta4.h"
#include "looplab/integrate/TlismniStepper.h"

#include <algorithm>

namespace looplab {

namespace {

std::unique_ptr<ConstraintMethod> makeConstraintMethod(const std::string& name, std::shared_ptr<const Model> model,
                                                       const ConstraintMethodSettings& settings) {
    if (name == "projection") return std::make_unique<ProjectionMethod>(model, settings);
    if (name == "baumgarte") return std::make_unique<BaumgarteMethod>(model, settings);
    if (name == "penalty") return std::make_unique<PenaltyMethod>(model, settings, false);
    if (name == "augmented-lagrangian") return std::make_unique<PenaltyMethod>(model, settings, true);
    return nullptr;
}

std::unique_ptr<OdeSolver> makeOdeSolver(const std::string& name) {
    if (name == "rk4") return std::make_unique<RungeKutta4>();
    if (name == "dopri5") return std::make_unique<DormandPrince5>();
    if (name == "verner6") return std::make_unique<EmbeddedRungeKutta>(EmbeddedPair::Verner65, name);
    if (name == "fehlberg8") return std::make_unique<EmbeddedRungeKutta>(EmbeddedPair::Fehlberg78, name);
    if (name == "bdf") return std::make_unique<CvodeBdf>();
    return nullptr;
}

}  // namespace

std::unique_ptr<TimeStepper> makeTimeStepper(std::shared_ptr<const Model> model, const std::string& method,
                                             const std::string& integrator, const OdeSettings& ode,
                                             const ConstraintMethodSettings& constraints, std::string* why) {
    if (!isSupportedPair(method, integrator, why)) return nullptr;
    if (method == "tlismni" || method == "hht-index3") {
        TlismniSettings t;
        t.newmark = integrator == "newmark";
        t.alpha = constraints.hhtAlpha;
        t.beta = constraints.newmarkBeta;
        t.gamma = constraints.newmarkGamma;
        t.ode = ode;
        t.rankTolerance = constraints.rankTolerance;
        t.linearAlgebra = constraints.linearAlgebra;
        if (method == "hht-index3") return std::make_unique<HhtIndex3Stepper>(model, t, integrator);
        return std::make_unique<TlismniStepper>(model, t, integrator);
    }
    return std::make_unique<ConstraintMethodStepper>(model, makeConstraintMethod(method, model, constraints),
                                                     makeOdeSolver(integrator), ode);
}

}  // namespace looplab
