// A motor given by its torque–speed curve (an induction motor's or an engine's) through a
// gear on a joint (methods.md, "Motors"): the motor turns at ω_m = n ẋ, gives T(ω_m)
// interpolated linearly in the table (the end torques held beyond it), and the joint gets
// τ = n η T(ω_m); ∂τ/∂ẋ = n²η T′(ω_m) is the damping the implicit integrators see.
#include "JointEffort.h"
#include "ForceLaws.h"

#include <algorithm>

namespace looplab::forces {
namespace {

class TableMotorLaw final : public ForceLaw {
public:
    explicit TableMotorLaw(const ForceElement& e) : e_(e) {}
    ForceType type() const override { return ForceType::TableMotor; }

    void addForces(const Model& m, const State& s, VecX& f) const override {
        const JointEffortJet jet = jointEffortJet(m, s, e_.joint, e_.rotational);
        addJointEffort(m, jet, effortAt(jet.rate).value, f);
    }

    void addDerivatives(const Model& m, const State& s, Triplets& K, Triplets& C) const override {
        const JointEffortJet jet = jointEffortJet(m, s, e_.joint, e_.rotational);
        const Effort tau = effortAt(jet.rate);
        addJointEffortDerivatives(m, s, jet, tau.value, tau.slope, K, C);
    }

    double inputPower(const Model& m, const State& s) const override {
        const JointEffortJet jet = jointEffortJet(m, s, e_.joint, e_.rotational);
        return effortAt(jet.rate).value * jet.rate;
    }
    bool putsInWork() const override { return true; }

    std::vector<std::string> outputNames() const override { return {"torque", "speed", "power"}; }
    std::vector<ForceOutput> outputs(const Model& m, const State& s) const override {
        const double rate = jointEffortJet(m, s, e_.joint, e_.rotational).rate;
        const double tau = effortAt(rate).value;
        return {{"torque", tau}, {"speed", rate}, {"power", tau * rate}};
    }

private:
    struct Effort {
        double value = 0.0, slope = 0.0;  ///< τ [N·m or N], ∂τ/∂ẋ
    };
    // The table holds two points or more, speeds strictly rising (the builder's check).
    Effort effortAt(double rate) const {
        const MotorDoc& d = e_.motor;
        const auto& table = d.table;
        const double n = d.gearRatio, scale = n * d.efficiency, speed = n * rate;
        if (speed <= table.front().first) return {scale * table.front().second, 0.0};
        if (speed >= table.back().first) return {scale * table.back().second, 0.0};
        const auto upper = std::upper_bound(table.begin(), table.end(), speed,
                                            [](double w, const std::pair<double, double>& p) { return w < p.first; });
        const auto lower = upper - 1;
        const double slope = (upper->second - lower->second) / (upper->first - lower->first);
        return {scale * (lower->second + slope * (speed - lower->first)), scale * n * slope};
    }

    ForceElement e_;
};

}  // namespace

std::shared_ptr<const ForceLaw> makeTableMotor(const ForceElement& e) { return std::make_shared<TableMotorLaw>(e); }

}  // namespace looplab::forces
