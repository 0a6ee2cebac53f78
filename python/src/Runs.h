#pragma once
// The analyses as Python calls them: each takes a model and settings, solves without the
// GIL, and returns what the command line reports (looplab_reports) as Python objects:
// time series as a NumPy array with its column names, summaries as dicts.
#include "ModelHandle.h"
#include "RunControl.h"
#include "SimulationRequest.h"

#include <pybind11/pybind11.h>

#include <memory>
#include <string>
#include <vector>

namespace looplab::python {

/// check: counts, rank, degrees of freedom, redundant equations, explanation.
pybind11::object check(const ModelHandle& m, const std::string& linearAlgebra);

/// A simulation's settings from Python keywords (t_end, method, integrator, rtol, ...,
/// every method parameter of the registry by its name with underscores, limits, nodes).
/// Raises TypeError for a name that is none of them, ValueError for a value out of range.
reports::SimulationRequest simulationRequest(const pybind11::dict& settings, std::vector<std::string>* nodes);

/// A run's rows and summary.
struct RunRecord {
    std::vector<std::string> columns;
    std::vector<double> values;  ///< rows one after the other
    std::string summary;         ///< JSON text
    bool ok = false;
    std::string message;         ///< why it stopped early
    State last;                  ///< the last frame's state (the start if there was none)
};

/// Runs from `start` under the request's settings (its t_end the span from start.t).
/// Raises ValueError for settings that do not fit the model.
RunRecord simulateFrom(const ModelHandle& m, const RunSettingsDoc& modelRun, const reports::SimulationRequest& request,
                       const std::vector<std::string>& nodes, const State& start, pybind11::object progress,
                       std::shared_ptr<StopFlag> stop);

/// (columns, data, summary JSON, ok, message) of a run from the model's initial state.
pybind11::tuple simulate(const ModelHandle& m, const pybind11::dict& settings, pybind11::object progress,
                         std::shared_ptr<StopFlag> stop);
/// (columns, data, summary JSON, ok, message) of a kinematic run of a fully driven model.
pybind11::tuple kinematics(const ModelHandle& m, double tEnd, double step, double maxWallTime,
                           pybind11::object progress, std::shared_ptr<StopFlag> stop);
/// (report, q at the equilibrium); maxWallTime [s] bounds the search (0: none).
pybind11::tuple statics(const ModelHandle& m, const std::string& method, double tolerance, double maxWallTime);
/// (report, mode shapes one per row, their coordinate names, multipliers one per row);
/// maxWallTime [s] bounds the equilibrium search (0: none).
pybind11::tuple modes(const ModelHandle& m, int count, pybind11::object shift, const std::string& scaling,
                      const std::string& factorization, const std::string& staticsMethod, double maxWallTime);

/// The lowest `count` frequencies along a driver's motion, the driver locked at `steps`
/// values from `from` to `to`: (columns, one row per posture as `modes --along --out`
/// writes it, the report as `modes --along --json` prints it).
pybind11::tuple modesAlong(const ModelHandle& m, int count, const std::string& driver, double from, double to, int steps,
                           pybind11::object shift, const std::string& scaling, const std::string& factorization,
                           const std::string& staticsMethod, double maxWallTime, pybind11::object progress,
                           std::shared_ptr<StopFlag> stop);

/// A design study (a file, or JSON text labelled `label`) on `threads` threads: (columns,
/// one row per case in case order with NaN where a failed case has no value, the reasons
/// of the failed cases, the summary as the command line's --summary writes it). Raises
/// StudyError's parts as (diagnostics) through ValueError when the study cannot be read.
pybind11::tuple study(const std::string& source, bool isText, const std::string& label, int threads,
                      pybind11::object progress, std::shared_ptr<StopFlag> stop);

/// Rows × columns as a NumPy array (a copy).
pybind11::object asArray(const std::vector<double>& values, size_t columns);
/// Diagnostics as a list of dicts {file, location, message, line, column}.
pybind11::list diagnosticsList(const Diagnostics& diagnostics);
/// A JSON text as Python objects.
pybind11::object fromJson(const std::string& text);

}  // namespace looplab::python
