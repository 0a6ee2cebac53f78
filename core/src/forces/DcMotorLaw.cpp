// A DC motor without inductance through a gear on a joint (methods.md, "Motors"): with the
// joint's rate ẋ the motor turns at ω_m = n ẋ, draws i = (V(t) − k ω_m)/R and gives the
// joint τ = n η k i; the effort falls with speed at ∂τ/∂ẋ = −n²η k²/R, the damping the
// implicit integrators see.
#include "JointEffort.h"
#include "ForceLaws.h"

namespace looplab::forces {
namespace {

class DcMotorLaw final : public ForceLaw {
public:
    explicit DcMotorLaw(const ForceElement& e) : e_(e) {}
    ForceType type() const override { return ForceType::DcMotor; }

    void addForces(const Model& m, const State& s, VecX& f) const override {
        const JointEffortJet jet = jointEffortJet(m, s, e_.joint, e_.rotational);
        addJointEffort(m, jet, effort(current(s.t, jet.rate)), f);
    }

    void addDerivatives(const Model& m, const State& s, Triplets& K, Triplets& C) const override {
        const JointEffortJet jet = jointEffortJet(m, s, e_.joint, e_.rotational);
        const MotorDoc& d = e_.motor;
        const double n = d.gearRatio;
        const double slope = -n * n * d.efficiency * d.torqueConstant * d.torqueConstant / d.resistance;
        addJointEffortDerivatives(m, s, jet, effort(current(s.t, jet.rate)), slope, K, C);
    }

    double inputPower(const Model& m, const State& s) const override {
        const JointEffortJet jet = jointEffortJet(m, s, e_.joint, e_.rotational);
        return effort(current(s.t, jet.rate)) * jet.rate;
    }
    bool putsInWork() const override { return true; }

    std::vector<std::string> outputNames() const override { return {"torque", "speed", "power", "current", "heat"}; }
    std::vector<ForceOutput> outputs(const Model& m, const State& s) const override {
        const double rate = jointEffortJet(m, s, e_.joint, e_.rotational).rate;
        const double i = current(s.t, rate), tau = effort(i);
        return {{"torque", tau}, {"speed", rate}, {"power", tau * rate}, {"current", i},
                {"heat", i * i * e_.motor.resistance}};
    }

private:
    double current(double t, double rate) const {
        const MotorDoc& d = e_.motor;
        return (d.voltage.evaluate(t).value - d.torqueConstant * d.gearRatio * rate) / d.resistance;
    }
    double effort(double current) const {
        const MotorDoc& d = e_.motor;
        return d.gearRatio * d.efficiency * d.torqueConstant * current;
    }

    ForceElement e_;
};

}  // namespace

std::shared_ptr<const ForceLaw> makeDcMotor(const ForceElement& e) { return std::make_shared<DcMotorLaw>(e); }

}  // namespace looplab::forces
