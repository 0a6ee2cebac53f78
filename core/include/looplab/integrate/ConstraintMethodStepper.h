#pragma once
// A constraint method and an ODE solver joined into one time stepper: the method turns
// the constrained equations into v̇ = a(q, v, t) (and, for the projection method, keeps
// (q, v) on the constraint manifolds before every evaluation and after every step); the
// solver integrates y = (q, v) with ẏ = (q̇(v), a).

#include "looplab/dynamics/ConstraintMethod.h"
#include "looplab/model/Model.h"
#include "looplab/integrate/OdeSolver.h"
#include "looplab/integrate/SingularCrossing.h"
#include "looplab/integrate/TimeStepper.h"

#include <memory>

namespace looplab {

class ConstraintMethodStepper final : public TimeStepper {
public:
    ConstraintMethodStepper(std::shared_ptr<const Model> model, std::unique_ptr<ConstraintMethod> method,
                            std::unique_ptr<OdeSolver> solver, const OdeSettings& settings);

    std::string name() const override;
    bool projects() const override { return method_->projects(); }
    Status evaluate(State& state, MotionEvaluation& out) override;
    Status initialize(const State& start) override;
    Status step(double tStop) override;
    double time() const override { return solver_->time(); }
    State state() const override;
    double lastStepSize() const override { return solver_->lastStepSize(); }
    void interpolate(double t, State& out) const override;
    const StepStatistics& statistics() const override { return solver_->statistics(); }
    const ConstraintSpaces* factorizationAt(const State& state) const override {
        return method_->factorizationAt(state);
    }
    /// A "stiffness" event once the solver's stiffness test has found the model stiff
    /// (StiffnessReport.h).
    std::vector<SimulationEvent> takeEvents() override;

private:
    // The solver's message, followed by the method's reason if the method failed inside.
    Status solverFailure(const Status& solverStatus) const;

    std::shared_ptr<const Model> model_;
    std::unique_ptr<ConstraintMethod> method_;
    std::unique_ptr<OdeSolver> solver_;
    OdeSettings settings_;
    OdeSystem system_;
    Status methodFailure_;  // the last failure of the method inside the solver's calls
    SingularCrossingForecast forecast_;  // from the factorisations at accepted step ends
    mutable VecX y_;        // dense-output buffer, reused
    bool stiffnessReported_ = false;
};

}  // namespace looplab
