#include "looplab/OdeSolver.h"

#include "looplab/CvodeBdf.h"
#include "looplab/DormandPrince5.h"
#include "looplab/RungeKutta4.h"

namespace looplab {

std::vector<std::string> odeSolverNames() { return {"rk4", "dopri5", "bdf"}; }

std::unique_ptr<OdeSolver> makeOdeSolver(const std::string& name) {
    if (name == "rk4") return std::make_unique<RungeKutta4>();
    if (name == "dopri5") return std::make_unique<DormandPrince5>();
    if (name == "bdf") return std::make_unique<CvodeBdf>();
    return nullptr;
}

}  // namespace looplab
