#include "looplab/integrate/ConstraintMethodStepper.h"

#include "looplab/integrate/StiffnessReport.h"

namespace looplab {

namespace {

State unpack(double t, const VecX& y, int nq) {
    State s;
    s.t = t;
    s.q = y.head(nq);
    s.v = y.tail(y.size() - nq);
    return s;
}

}  // namespace

ConstraintMethodStepper::ConstraintMethodStepper(std::shared_ptr<const Model> model,
                                                 std::unique_ptr<ConstraintMethod> method,
                                                 std::unique_ptr<OdeSolver> solver, const OdeSettings& settings)
    : model_(std::move(model)), method_(std::move(method)), solver_(std::move(solver)), settings_(settings) {
    const Model& m = *model_;
    const int nq = m.positionSize();
    system_.size = m.positionSize() + m.velocitySize();
    system_.rhs = [this, nq](double t, const VecX& y, VecX& dy) {
        const Model& m = *model_;
        State s = unpack(t, y, nq);
        if (method_->projects()) {
            const Status st = method_->correct(s);
            if (!st.ok) {
                methodFailure_ = st;
                return false;
            }
        } else {
            normalizePositions(m, s.q);
        }
        MotionEvaluation ev;
        ev.computeMultipliers = false;
        const Status st = method_->evaluate(s, ev);
        if (!st.ok) {
            methodFailure_ = st;
            return false;
        }
        dy.resize(y.size());
        dy.head(nq) = positionDerivative(m, s);
        dy.tail(y.size() - nq) = ev.acceleration;
        return true;
    };
    if (method_->projects()) {
        system_.project = [this, nq](double t, VecX& y) {
            State s = unpack(t, y, nq);
            const Status st = method_->correct(s);
            if (!st.ok) {
                methodFailure_ = st;
                return false;
            }
            y << s.q, s.v;
            return true;
        };
    }
    // Only a projected state lies on the branch whose crossing the pivots forecast; the
    // other methods' states drift off it by their violation.
    if (method_->projects())
        system_.singularAhead = [this](double, double& crossingTime) { return forecast_.ahead(crossingTime); };
}

std::string ConstraintMethodStepper::name() const {
    return std::string(method_->name()) + "/" + solver_->name();
}

Status ConstraintMethodStepper::evaluate(State& s, MotionEvaluation& out) {
    if (method_->projects()) {
        const Status st = method_->correct(s);
        if (!st.ok) return st;
    }
    return method_->evaluate(s, out);
}

Status ConstraintMethodStepper::solverFailure(const Status& st) const {
    return Status::failure(st.message + (methodFailure_.ok ? "" : ": " + methodFailure_.message),
                           methodFailure_.joints);
}

Status ConstraintMethodStepper::initialize(const State& start) {
    methodFailure_ = {};
    stiffnessReported_ = false;
    forecast_ = SingularCrossingForecast();
    VecX y0(start.q.size() + start.v.size());
    y0 << start.q, start.v;
    const Status st = solver_->initialize(system_, start.t, y0, settings_);
    return st.ok ? st : solverFailure(st);
}

Status ConstraintMethodStepper::step(double tStop) {
    const Status st = solver_->step(tStop);
    if (!st.ok) return solverFailure(st);
    if (method_->projects())
        if (const ConstraintSpaces* w = method_->factorizationAt(state())) forecast_.record(solver_->time(), *w);
    return st;
}

std::vector<SimulationEvent> ConstraintMethodStepper::takeEvents() {
    const StiffnessFinding* found = solver_->stiffness();
    if (!found || stiffnessReported_) return {};
    stiffnessReported_ = true;
    return {stiffnessEvent(*model_, name(), *found)};
}

State ConstraintMethodStepper::state() const {
    return unpack(solver_->time(), solver_->state(), model_->positionSize());
}

void ConstraintMethodStepper::interpolate(double t, State& out) const {
    solver_->interpolate(t, y_);
    out = unpack(t, y_, model_->positionSize());
}

}  // namespace looplab
