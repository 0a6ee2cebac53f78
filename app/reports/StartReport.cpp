#include "StartReport.h"

#include <cstdio>

namespace looplab::reports {

nlohmann::json startJson(const StartReport& r, const std::string& motion) {
    nlohmann::json j;
    j["motion"] = motion;
    j["rigid_field"] = r.rigidField;
    j["vibration_energy"] = r.vibrationEnergy;
    j["member"] = r.member;
    if (!r.message.empty()) j["message"] = r.message;
    if (r.equilibrium) {
        j["equilibrium_rounds"] = r.equilibriumRounds;
        j["equilibrium_shift"] = r.equilibriumShift;
    }
    return j;
}

std::string startText(const StartReport& r, const std::string& motion) {
    std::string text = motion;
    if (r.member.empty()) return text + " (no flexible member in motion)";
    char buf[240];
    std::snprintf(buf, sizeof buf, "; %.3g J of vibration in the members at t = 0, most in '%s'", r.vibrationEnergy,
                  r.member.c_str());
    text += buf;
    if (r.rigidField) text += " (the rigid mechanism's velocities: no strain rate)";
    else if (motion == "rest") text += ": they ring from the start; --start consistent starts them without it";
    if (r.equilibrium) {
        std::snprintf(buf, sizeof buf, "; deformed into quasi-static equilibrium (nodes moved up to %.3g m, %d rounds)",
                      r.equilibriumShift, r.equilibriumRounds);
        text += buf;
    }
    return text;
}

}  // namespace looplab::reports
