#pragma once
// How a run's flexible members started (StartMotion.h), in the command-line tool's words and
// in its JSON report.

#include "looplab/analysis/StartModes.h"
#include "looplab/kinematics/StartMotion.h"

#include <nlohmann/json.hpp>

#include <string>

namespace looplab::reports {

/// {"motion", "rigid_field", "vibration_energy" [J], "member", "message"?,
/// "equilibrium_rounds"?, "equilibrium_shift"? [m], "excited_modes"? (with `modes`:
/// {"jump_energy" [J], "modes": [{"frequency_hz", "energy" [J], "share"}], "computed",
/// "covered"} or {"message"})}
nlohmann::json startJson(const StartReport& r, const std::string& motion, const StartModes* modes = nullptr);
/// One line: the motion and the vibration the start gave the members; with `modes`, the
/// modes its jump rings.
std::string startText(const StartReport& r, const std::string& motion, const StartModes* modes = nullptr);

}  // namespace looplab::reports
