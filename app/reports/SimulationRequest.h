#pragma once
// What a caller asks of a forward-dynamics run besides the model: the run-block fields it
// overrides, the limits, the stiffness policy. Checked and resolved against the model's own
// `run` block in one place, for the command line and for Python alike; messages name the
// settings the way the caller spells them (--t-end or t_end).
#include "looplab/simulation/ModelRunSettings.h"
#include "looplab/simulation/SimulationSettings.h"

#include <cmath>
#include <string>
#include <vector>

namespace looplab::reports {

/// How a caller spells a setting's name in messages.
enum class OptionStyle { CommandLine, Python };
/// "--t-end" for the command line, "t_end" for Python, from a registry key ("t-end").
std::string optionName(OptionStyle style, const std::string& key);

/// Range checks of numeric settings: empty if `value` is finite and in range, else a
/// message naming the setting.
enum class Bound { Positive, NonNegative };
std::string checkOption(const std::string& option, double value, Bound bound, double upper = INFINITY,
                        bool upperInclusive = true);

/// Default limit on output rows.
inline constexpr long kDefaultMaxRows = 10'000'000;
/// Default limit on solver steps.
inline constexpr long kDefaultMaxSteps = 10'000'000;

/// Rows of a run over `span` with output every `step` (the first at the start, the last
/// at the end); HUGE_VAL if beyond counting.
inline double outputRows(double span, double step) {
    const double n = std::ceil(span / step * (1 - 1e-12)) + 1.0;
    return std::isfinite(n) ? n : HUGE_VAL;
}

struct SimulationRequest {
    /// The run settings given by the caller (method, integrator, t_end, step, rtol, atol,
    /// output_step and every method parameter of the registry): each overrides the
    /// model's `run` block, which overrides the method's defaults (resolveRunSettings).
    /// t_end is the span from the initial time.
    RunSettingsDoc given;
    /// Method and integrator parameters given (registry keys, e.g. "penalty-factor"):
    /// one the chosen pair does not read is reported as ignored.
    std::vector<std::string> givenParameters;
    double singularThreshold = SimulationSettings{}.singularThreshold;
    double rankTolerance = ConstraintMethodSettings{}.rankTolerance;
    std::string linearAlgebra = "automatic";  ///< automatic, dense or sparse
    /// What a run does when an explicit integrator finds the model stiff: "stop" (a
    /// failure naming the remedy) or "warn" (an event, the run goes on).
    std::string onStiff = "stop";
    long maxRows = kDefaultMaxRows;
    long maxSteps = kDefaultMaxSteps;
    double maxWallTime = 0.0;  ///< s; 0 = no limit
    OptionStyle style = OptionStyle::CommandLine;
};

/// Checks what needs no model (ranges, limits, a pair named wholly); the first problem,
/// or an empty string.
std::string checkSimulationRequest(const SimulationRequest& r);

/// The run's settings for a model whose `run` block is `modelRun` and whose initial state
/// is at startTime (resolveRunSettings, then the settings that are not run-block fields),
/// checked (a fixed step, rows and steps against the limits). On a problem, the result's
/// error says it; model settings set aside and parameters the pair ignores go to
/// *warnings.
ResolvedRunSettings resolveSimulation(const SimulationRequest& r, const RunSettingsDoc& modelRun, double startTime,
                                      std::vector<std::string>* warnings);

}  // namespace looplab::reports
