#include "looplab/forces/MotorRating.h"

#include <algorithm>

namespace looplab {

namespace {

// The curve's torque at motor speed w, the end torques held beyond the table.
double tableTorque(const std::vector<std::pair<double, double>>& table, double w) {
    if (w <= table.front().first) return table.front().second;
    if (w >= table.back().first) return table.back().second;
    for (size_t k = 1; k < table.size(); ++k)
        if (w <= table[k].first) {
            const auto& [w0, t0] = table[k - 1];
            const auto& [w1, t1] = table[k];
            return t0 + (t1 - t0) * (w - w0) / (w1 - w0);
        }
    return table.back().second;
}

}  // namespace

std::optional<MotorRating> motorRating(const ForceElement& e, double t) {
    const MotorDoc& d = e.motor;
    const double n = d.gearRatio, scale = n * d.efficiency;
    MotorRating r;
    if (e.type == ForceType::DcMotor) {
        const double V = d.voltage.evaluate(t).value;
        r.noLoadRate = V / (d.torqueConstant * n);
        r.stallEffort = scale * d.torqueConstant * V / d.resistance;
        r.stallCurrent = V / d.resistance;
        return r;
    }
    if (e.type != ForceType::TableMotor || d.table.size() < 2) return std::nullopt;
    r.stallEffort = scale * tableTorque(d.table, 0.0);
    // The first sign change of the torque at or above zero speed (below it for a curve
    // that only falls to zero at negative speeds), interpolated in its segment.
    const auto& tb = d.table;
    for (size_t k = 1; k < tb.size(); ++k) {
        const auto& [w0, t0] = tb[k - 1];
        const auto& [w1, t1] = tb[k];
        if (w1 < 0.0 || (t0 > 0.0) == (t1 > 0.0) || t0 == t1) continue;
        const double w = w0 + (w1 - w0) * t0 / (t0 - t1);
        if (w < 0.0) continue;
        r.noLoadRate = w / n;
        break;
    }
    return r;
}

}  // namespace looplab
