#pragma once
// What `modes` reports of an eigenanalysis about an equilibrium.
#include "looplab/analysis/Modes.h"
#include "looplab/analysis/ModesAlongMotion.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace looplab::reports {

/// Scaling, shift, conditioning, factorisation, counts, timings, warnings and every mode's
/// frequency, damping, eigenvalue and residuals.
nlohmann::json modesJson(const ModesResult& r);

/// Names of the velocity coordinates a mode shape is given in: BODY.x … BODY.rz for a rigid
/// body (translation along the global axes, rotation about the body's), BODY.q<k> for a
/// beam's or a solid's nodal coordinates.
std::vector<std::string> modeCoordinateNames(const Model& model);

/// One posture of a sweep along a driver's motion: the driver's value, ok, the equilibrium's
/// outcome, each track's frequency, damping ratio and correlation, the condition, why not.
nlohmann::json alongStepJson(const AlongMotionStep& step);
/// The sweep's table: the driver's value, f1_hz … fK_hz, zeta1 … zetaK, ok; −1 where a track
/// has no mode at a posture.
std::vector<std::string> alongColumns(const std::string& driver, int count);
std::vector<double> alongRow(const AlongMotionStep& step, int count);

/// Sets mo's scaling from "auto", "none" or a positive number; false with *error naming
/// `option` otherwise.
bool parseModeScaling(const std::string& text, const std::string& option, ModesOptions& mo, std::string* error);

}  // namespace looplab::reports
