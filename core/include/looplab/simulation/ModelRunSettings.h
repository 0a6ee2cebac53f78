#pragma once
// A model's saved run settings (ModelDocument::run) laid over the settings a run would
// otherwise use.

#include "looplab/model/ModelDocument.h"
#include "looplab/simulation/SimulationSettings.h"

namespace looplab {

/// `base` with every field the model sets replaced by the model's value.
SimulationSettings withModelRunSettings(const RunSettingsDoc& run, SimulationSettings base);

/// The run settings a document would save for `settings` and `pace`: every field set,
/// except a step of 0 (automatic) and the integrator parameters the pair does not read.
RunSettingsDoc runSettingsDocFrom(const SimulationSettings& settings, double pace);

}  // namespace looplab
