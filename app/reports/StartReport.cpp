#include "StartReport.h"

#include <cstdio>

namespace looplab::reports {

nlohmann::json startJson(const StartReport& r, const std::string& motion, const StartModes* modes) {
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
    if (modes && (!modes->ok || !modes->modes.empty())) {
        nlohmann::json e;
        if (!modes->ok) {
            e["message"] = modes->message;
        } else {
            e["jump_energy"] = modes->jumpEnergy;
            e["computed"] = modes->computed;
            e["covered"] = modes->covered;
            e["modes"] = nlohmann::json::array();
            for (const ExcitedMode& m : modes->modes)
                e["modes"].push_back({{"frequency_hz", m.frequencyHz}, {"energy", m.energy}, {"share", m.share}});
        }
        j["excited_modes"] = e;
    }
    return j;
}

std::string startText(const StartReport& r, const std::string& motion, const StartModes* modes) {
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
    if (modes && !modes->ok) {
        text += "; the modes it rings were not found (" + modes->message + ")";
    } else if (modes && !modes->modes.empty()) {
        std::snprintf(buf, sizeof buf, "\n  the jump from the rigid mechanism's velocities, %.3g J, rings the modes (drivers held)",
                      modes->jumpEnergy);
        text += buf;
        for (size_t i = 0; i < modes->modes.size(); ++i) {
            std::snprintf(buf, sizeof buf, "%s %.4g Hz (%.3g%%)", i ? "," : "", modes->modes[i].frequencyHz,
                          100.0 * modes->modes[i].share);
            text += buf;
        }
        std::snprintf(buf, sizeof buf, "; the lowest %d modes hold %.3g%% of it", modes->computed, 100.0 * modes->covered);
        text += buf;
    }
    return text;
}

}  // namespace looplab::reports
