#pragma once
// How a run's flexible members started (StartMotion.h), in the command-line tool's words and
// in its JSON report.

#include "looplab/kinematics/StartMotion.h"

#include <nlohmann/json.hpp>

#include <string>

namespace looplab::reports {

/// {"motion", "rigid_field", "vibration_energy" [J], "member", "message"?}
nlohmann::json startJson(const StartReport& r, const std::string& motion);
/// One line: the motion and the vibration the start gave the members.
std::string startText(const StartReport& r, const std::string& motion);

}  // namespace looplab::reports
