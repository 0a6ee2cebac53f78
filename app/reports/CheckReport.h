#pragma once
// What `check` reports of a model: its mobility at the assembled configuration, what the
// assembly found (gaps, a four-bar's Grashof class, repeated joints, a singular posture),
// its meshes and cams. One JSON shape for the command line's --json and for Python.
#include "looplab/kinematics/Mobility.h"
#include "looplab/model/ModelDocument.h"
#include "looplab/posing/AssemblyExplanation.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

namespace looplab::reports {

/// Each cam's profile over a turn (base radius, largest pressure angle, smallest radius
/// of curvature, undercut); empty without cams.
nlohmann::json camsJson(const Model& model);
/// The same as lines of text, with a warning for an undercut or a steep profile.
std::string camsText(const Model& model);
/// The joint limits and distance stops the run enforces, with their restitution: JSON
/// (an array of {name, kind, unit, lower/upper or min/max, restitution}) and text lines.
nlohmann::json stopsJson(const Model& model);
std::string stopsText(const Model& model);

/// Each motor's no-load speed and stall torque (or force) at its joint at t = 0, and a DC
/// motor's stall current (MotorRating.h); empty without motors.
nlohmann::json motorsJson(const Model& model);
/// The same as lines of text.
std::string motorsText(const Model& model);

nlohmann::json explanationJson(const AssemblyExplanation& e);

/// Why a document that builds does not assemble; nothing if it does not build or if it
/// assembles.
std::optional<AssemblyExplanation> explainFailure(const ModelDocument& doc, const std::string& file);

/// The report of a model that assembled: counts, rank, degrees of freedom, redundant
/// equations, the explanation, notes on joints on beam nodes, meshes and cams.
nlohmann::json checkJson(const Model& model, const MobilityReport& mobility, const AssemblyExplanation& why);

}  // namespace looplab::reports
