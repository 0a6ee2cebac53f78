#pragma once
// A model's saved run settings (ModelDocument::run) laid over the settings a run would
// otherwise use, and the run settings of a command line, a model and a method's defaults
// resolved into one run, each field saying where it came from.

#include "looplab/model/ModelDocument.h"
#include "looplab/simulation/SimulationSettings.h"

#include <string>
#include <vector>

namespace looplab {

/// `base` with every field the model sets replaced by the model's value.
SimulationSettings withModelRunSettings(const RunSettingsDoc& run, SimulationSettings base);

/// The run settings a document would save for `settings` and `pace`: every field set,
/// except a step of 0 (automatic) and the integrator parameters the pair does not read.
RunSettingsDoc runSettingsDocFrom(const SimulationSettings& settings, double pace);

/// Where a run setting came from, highest precedence first.
enum class SettingSource {
    CommandLine,    ///< given for this run (a command-line option)
    Model,          ///< the model's `run` block
    MethodDefault,  ///< the method's defaults in the registry (MethodDefaults)
    Default         ///< the run's general default (SimulationSettings, ConstraintMethodSettings)
};
/// "command line", "model", "method default", "default".
const char* settingSourceName(SettingSource source);

/// One resolved field: its `run`-block key ("method", "rtol", "hht_alpha", ...), its value
/// as text (numbers in the shortest form that reads back to the same double) and where it
/// came from.
struct ResolvedSetting {
    std::string key;
    std::string value;
    SettingSource source = SettingSource::Default;
};

struct ResolvedRunSettings {
    SimulationSettings settings;
    /// The fields the run reads, in the `run` block's order: method, integrator, t_end,
    /// output_step, step, then rtol and atol for an adaptive integrator and the method's
    /// and the integrator's own parameters (parametersRead: penalty_factor, hht_alpha,
    /// max_step, ...).
    std::vector<ResolvedSetting> fields;
    /// A model setting set aside because it does not pair with what the command line
    /// chose, one sentence each.
    std::vector<std::string> notes;
    /// Empty, or why these settings make no run (a method and integrator that do not pair).
    std::string error;

    const ResolvedSetting* field(const std::string& key) const;
    /// "method tlismni (model); integrator hht (method default); ..." (no commas, so that
    /// it can head a CSV file as a comment line).
    std::string summary() const;
};

/// The run settings with the precedence command line > model's `run` block > the
/// method's defaults (MethodRegistry.h) > `base`, field by field. `commandLine` holds
/// the fields given for this run. The method is the command line's, else the model's
/// unless it does not take an integrator the command line names, else the default method
/// of the integrator named (defaultMethodFor), else the registry's default method; the
/// integrator is the command line's, else the model's if it pairs with that method, else
/// the method's default integrator. `t_end` is the end time as the fields give it.
/// `pace` is not a run setting here (the caller's).
ResolvedRunSettings resolveRunSettings(const RunSettingsDoc& commandLine, const RunSettingsDoc& model,
                                       SimulationSettings base);

}  // namespace looplab
