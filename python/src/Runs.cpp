#include "Runs.h"

#include "CheckReport.h"
#include "KinematicRecord.h"
#include "ModesReport.h"
#include "SimulationRecord.h"
#include "StartReport.h"
#include "StaticsReport.h"

#include "looplab/Version.h"
#include "looplab/integrate/MethodRegistry.h"
#include "looplab/kinematics/Mobility.h"
#include "looplab/simulation/Simulation.h"
#include "looplab/study/StudyCases.h"
#include "looplab/study/StudyExecution.h"
#include "looplab/study/StudyFile.h"
#include "looplab/study/StudySummary.h"
#include "looplab/study/StudyTable.h"

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <stdexcept>

namespace py = pybind11;

namespace looplab::python {

py::list diagnosticsList(const Diagnostics& diagnostics) {
    py::list out;
    for (const Diagnostic& d : diagnostics)
        out.append(py::dict(py::arg("file") = d.file, py::arg("location") = d.location, py::arg("message") = d.message,
                            py::arg("line") = d.line, py::arg("column") = d.column));
    return out;
}

// A report as Python objects; a dict is stamped with the version, as the command line's
// JSON is (app/cli/CliCommon.h), so that both give the same summary.
py::object fromJson(const std::string& text) {
    py::object out = py::module_::import("json").attr("loads")(text);
    if (py::isinstance<py::dict>(out)) out["looplab_version"] = looplab::version();
    return out;
}

py::object asArray(const std::vector<double>& values, size_t columns) {
    const size_t rows = columns ? values.size() / columns : 0;
    py::array_t<double> a({rows, columns});
    if (!values.empty()) std::memcpy(a.mutable_data(), values.data(), values.size() * sizeof(double));
    return std::move(a);
}

py::object check(const ModelHandle& m, const std::string& linearAlgebra) {
    LinearAlgebra la = LinearAlgebra::Automatic;
    if (!parseLinearAlgebra(linearAlgebra, la))
        throw py::value_error("linear_algebra must be automatic, dense or sparse (got '" + linearAlgebra + "')");
    nlohmann::json j;
    {
        py::gil_scoped_release nogil;
        const AssemblyExplanation why = explainAssembly(*m.model, m.initial);
        const MobilityReport r = analyzeMobility(*m.model, m.initial, kDefaultRankTolerance, la);
        j = reports::checkJson(*m.model, r, why);
        j["file"] = m.file;
    }
    return fromJson(j.dump());
}

reports::SimulationRequest simulationRequest(const py::dict& settings, std::vector<std::string>* nodes) {
    reports::SimulationRequest r;
    r.style = reports::OptionStyle::Python;
    for (const auto& [keyObject, value] : settings) {
        const std::string key = py::str(keyObject);
        if (value.is_none()) continue;
        // What was given, for the messages: pybind11's own conversion error names neither
        // the setting nor the type it wants.
        auto given = [&]() {
            return std::string(py::str(py::type::of(value).attr("__name__"))) + " " + std::string(py::repr(value));
        };
        auto number = [&]() {
            if (py::isinstance<py::bool_>(value)) throw py::type_error(key + " must be a number, not " + given());
            try {
                return value.cast<double>();
            } catch (const py::cast_error&) {
                throw py::type_error(key + " must be a number, not " + given());
            }
        };
        auto whole = [&]() {
            if (py::isinstance<py::bool_>(value) || !py::hasattr(value, "__index__"))
                throw py::type_error(key + " must be a whole number, not " + given());
            return value.attr("__index__")().cast<long>();
        };
        auto text = [&]() {
            if (!py::isinstance<py::str>(value)) throw py::type_error(key + " must be a string, not " + given());
            return value.cast<std::string>();
        };
        auto names = [&]() {
            if (py::isinstance<py::str>(value)) throw py::type_error(key + " must be a list of node names, not " + given());
            try {
                return value.cast<std::vector<std::string>>();
            } catch (const py::cast_error&) {
                throw py::type_error(key + " must be a list of node names (strings), not " + given());
            }
        };
        if (key == "method") r.given.method = text();
        else if (key == "integrator") r.given.integrator = text();
        else if (key == "t_end") r.given.tEnd = number();
        else if (key == "step") r.given.step = number();
        else if (key == "rtol") r.given.rtol = number();
        else if (key == "atol") r.given.atol = number();
        else if (key == "output_step") r.given.outputStep = number();
        else if (key == "singular_threshold") r.singularThreshold = number();
        else if (key == "rank_tolerance") r.rankTolerance = number();
        else if (key == "max_wall_time") r.maxWallTime = number();
        else if (key == "linear_algebra") r.linearAlgebra = text();
        else if (key == "on_stiff") r.onStiff = text();
        else if (key == "max_rows") r.maxRows = whole();
        else if (key == "max_steps") r.maxSteps = whole();
        else if (key == "nodes") *nodes = names();
        else {
            std::string registryKey = key;
            std::replace(registryKey.begin(), registryKey.end(), '_', '-');
            const ParameterInfo* p = findParameter(registryKey);
            if (!p || p->runField) {
                std::string known = "t_end, method, integrator, step, rtol, atol, output_step";
                for (const ParameterInfo& q : methodParameters())
                    if (!q.runField) known += ", " + q.fileKey();
                known += ", singular_threshold, rank_tolerance, linear_algebra, on_stiff, max_rows, max_steps, "
                         "max_wall_time, nodes";
                throw py::type_error("'" + key + "' is not a simulation setting; the settings are " + known);
            }
            r.given.parameters[registryKey] = number();
            r.givenParameters.push_back(registryKey);
        }
    }
    if (const std::string e = reports::checkSimulationRequest(r); !e.empty()) throw py::value_error(e);
    return r;
}

RunRecord simulateFrom(const ModelHandle& m, const RunSettingsDoc& modelRun, const reports::SimulationRequest& request,
                       const std::vector<std::string>& nodes, const State& start, py::object progress,
                       std::shared_ptr<StopFlag> stop) {
    if (const std::string e = reports::SimulationRecord::checkNodes(*m.model, nodes, request.style); !e.empty())
        throw py::value_error(e);
    std::vector<std::string> warnings;
    const ResolvedRunSettings resolved = reports::resolveSimulation(request, modelRun, start.t, &warnings);
    if (!resolved.error.empty()) throw py::value_error(resolved.error);
    std::unique_ptr<Simulator> sim;
    try {
        sim = std::make_unique<Simulator>(m.model, resolved.settings);
    } catch (const std::invalid_argument& e) {
        throw py::value_error(e.what());
    }
    RunRecord out;
    reports::SimulationRecord record(*m.model, nodes);
    out.columns = record.columns();
    RunControl control(std::move(progress), std::move(stop), start.t, resolved.settings.tEnd);
    SimulationResult res;
    {
        py::gil_scoped_release nogil;
        res = sim->run(start, [&](const SimulationFrame& f) {
            record.add(f);
            out.values.insert(out.values.end(), record.row().begin(), record.row().end());
            out.last = f.state;
            control.reached(f.state.t);
        }, {}, control.flag());
    }
    if (record.empty()) out.last = start;
    control.finish(res.tFinal);
    nlohmann::json j = record.summary(res, resolved, warnings);
    // As the command line reports it, for a run from the state the model was loaded in.
    if (start.t == m.initial.t && start.q == m.initial.q && start.v == m.initial.v)
        j["start"] = reports::startJson(m.start, m.document.run.start.value_or("consistent"));
    j["ok"] = res.ok;
    if (!res.ok) j["error"] = res.message;
    out.summary = j.dump();
    out.ok = res.ok;
    out.message = res.message;
    return out;
}

namespace {

py::tuple asTuple(const RunRecord& r) {
    return py::make_tuple(r.columns, asArray(r.values, r.columns.size()), fromJson(r.summary), r.ok, r.message);
}

}  // namespace

py::tuple simulate(const ModelHandle& m, const py::dict& settings, py::object progress, std::shared_ptr<StopFlag> stop) {
    std::vector<std::string> nodes;
    const reports::SimulationRequest request = simulationRequest(settings, &nodes);
    return asTuple(simulateFrom(m, m.document.run, request, nodes, m.initial, std::move(progress), std::move(stop)));
}

py::tuple kinematics(const ModelHandle& m, double tEnd, double step, double maxWallTime, py::object progress,
                     std::shared_ptr<StopFlag> stop) {
    for (const std::string& e : {reports::checkOption("t_end", tEnd, reports::Bound::NonNegative),
                                 reports::checkOption("step", step, reports::Bound::Positive),
                                 reports::checkOption("max_wall_time", maxWallTime, reports::Bound::NonNegative)})
        if (!e.empty()) throw py::value_error(e);
    if (reports::outputRows(tEnd, step) > double(reports::kDefaultMaxRows))
        throw py::value_error("step over t_end gives more than " + std::to_string(reports::kDefaultMaxRows) + " rows");
    RunRecord out;
    reports::KinematicRecord record(*m.model);
    out.columns = record.columns();
    RunControl control(std::move(progress), std::move(stop), m.initial.t, m.initial.t + tEnd);
    KinematicLimits limits;
    limits.maxWallTime = maxWallTime;
    limits.stop = control.flag();
    KinematicResult res;
    double wall = 0.0;
    {
        py::gil_scoped_release nogil;
        const auto t0 = std::chrono::steady_clock::now();
        res = runKinematics(*m.model, m.initial, m.initial.t + tEnd, step, [&](const KinematicSample& s) {
            record.add(s);
            out.values.insert(out.values.end(), record.row().begin(), record.row().end());
            control.reached(s.state.t);
        }, AssemblyOptions{}, limits);
        wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    }
    control.finish(out.values.empty() ? m.initial.t : out.values[out.values.size() - out.columns.size()]);
    nlohmann::json j = record.summary(res, wall);
    j["ok"] = res.ok;
    if (!res.ok) j["error"] = "kinematic simulation failed: " + res.message;
    out.summary = j.dump();
    out.ok = res.ok;
    out.message = res.message;
    return asTuple(out);
}

py::tuple statics(const ModelHandle& m, const std::string& method, double tolerance, double maxWallTime) {
    StaticsOptions so;
    if (!parseStaticsMethod(method, so.method))
        throw py::value_error("method must be automatic, newton or relaxation (got '" + method + "')");
    if (const std::string e = reports::checkOption("tolerance", tolerance, reports::Bound::Positive, 1.0, false);
        !e.empty())
        throw py::value_error(e);
    if (const std::string e = reports::checkOption("max_wall_time", maxWallTime, reports::Bound::NonNegative); !e.empty())
        throw py::value_error(e);
    so.forceTolerance = tolerance;
    so.maxWallTime = maxWallTime;
    State s = m.initial;
    nlohmann::json j;
    {
        py::gil_scoped_release nogil;
        const auto t0 = std::chrono::steady_clock::now();
        const StaticsResult r = findEquilibrium(*m.model, s, so);
        j = reports::staticsJson(*m.model, s, r);
        j["ok"] = r.ok;
        j["model"] = m.model->name;
        j["file"] = m.file;
        j["wall_time_s"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        if (!r.ok) j["error"] = r.message;
    }
    return py::make_tuple(fromJson(j.dump()), py::array_t<double>(s.q.size(), s.q.data()));
}

namespace {

// modes' settings as the command line checks them, named as Python spells them.
void modeSettings(int count, py::object shift, const std::string& scaling, const std::string& factorization,
                  const std::string& staticsMethod, double maxWallTime, ModesOptions& mo, StaticsOptions& so) {
    if (count < 1 || count > 100000)
        throw py::value_error("count must be an integer from 1 to 100000 (got " + std::to_string(count) + ")");
    mo.count = count;
    if (!shift.is_none()) {
        mo.shift = shift.cast<double>();
        if (!std::isfinite(*mo.shift)) throw py::value_error("shift must be a finite number");
    }
    std::string error;
    if (!reports::parseModeScaling(scaling, "scaling", mo, &error)) throw py::value_error(error);
    if (factorization != "auto" && factorization != "lu")
        throw py::value_error("factorization must be auto or lu (got '" + factorization + "')");
    mo.factorization = factorization == "lu" ? ShiftedFactorization::LU : ShiftedFactorization::Automatic;
    if (!parseStaticsMethod(staticsMethod, so.method))
        throw py::value_error("statics_method must be automatic, newton or relaxation (got '" + staticsMethod + "')");
    // Of the equilibrium search, as the command line's modes --max-wall-time.
    if (const std::string e = reports::checkOption("max_wall_time", maxWallTime, reports::Bound::NonNegative); !e.empty())
        throw py::value_error(e);
    so.maxWallTime = maxWallTime;
}

}  // namespace

py::tuple modesAlong(const ModelHandle& m, int count, const std::string& driver, double from, double to, int steps,
                     py::object shift, const std::string& scaling, const std::string& factorization,
                     const std::string& staticsMethod, double maxWallTime, py::object progress,
                     std::shared_ptr<StopFlag> stop) {
    AlongMotionOptions ao;
    modeSettings(count, std::move(shift), scaling, factorization, staticsMethod, maxWallTime, ao.modes, ao.statics);
    if (!std::isfinite(from) || !std::isfinite(to)) throw py::value_error("from_ and to must be finite numbers");
    if (steps < 1 || steps > 100000)
        throw py::value_error("steps must be an integer from 1 to 100000 (got " + std::to_string(steps) + ")");
    if (std::none_of(m.model->drivers.begin(), m.model->drivers.end(), [&](const Driver& d) { return d.name == driver; }))
        throw py::value_error("along: the model has no driver named '" + driver + "'");
    ao.driver = driver;
    ao.from = from;
    ao.to = to;
    ao.steps = steps;
    const std::vector<std::string> columns = reports::alongColumns(driver, count);
    std::vector<double> values;
    nlohmann::json stepsJson = nlohmann::json::array();
    RunControl control(std::move(progress), std::move(stop), 0.0, double(steps));
    AlongMotionResult r;
    double wall = 0.0;
    {
        py::gil_scoped_release nogil;
        const auto t0 = std::chrono::steady_clock::now();
        int done = 0;
        r = modesAlongMotion(*m.model, m.initial, ao, [&](const AlongMotionStep& st) {
            stepsJson.push_back(reports::alongStepJson(st));
            const std::vector<double> row = reports::alongRow(st, count);
            values.insert(values.end(), row.begin(), row.end());
            control.reached(double(++done));
        }, [&] { return control.flag()->load(); });
        wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    }
    control.finish(double(stepsJson.size()));
    nlohmann::json j;
    j["ok"] = r.ok;
    j["model"] = m.model->name;
    j["file"] = m.file;
    j["along"] = {{"driver", driver}, {"from", from}, {"to", to}, {"steps", steps}};
    j["steps"] = stepsJson;
    j["wall_time_s"] = wall;
    if (!r.ok) j["error"] = r.message;
    return py::make_tuple(columns, asArray(values, columns.size()), fromJson(j.dump()));
}

py::tuple modes(const ModelHandle& m, int count, py::object shift, const std::string& scaling,
                const std::string& factorization, const std::string& staticsMethod, double maxWallTime) {
    ModesOptions mo;
    StaticsOptions so;
    modeSettings(count, std::move(shift), scaling, factorization, staticsMethod, maxWallTime, mo, so);
    nlohmann::json j;
    std::vector<double> shapes, multipliers;
    size_t shapeSize = 0, multiplierSize = 0;
    {
        py::gil_scoped_release nogil;
        const auto t0 = std::chrono::steady_clock::now();
        State s = m.initial;
        const StaticsResult st = findEquilibrium(*m.model, s, so);
        const bool equilibrium =
            st.ok || st.outcome == StaticsOutcome::Mechanism || st.outcome == StaticsOutcome::Unstable;
        const nlohmann::json eq = reports::staticsJson(*m.model, s, st);
        if (!equilibrium) {
            j = {{"ok", false}, {"error", "no static equilibrium: " + st.message}, {"equilibrium", eq}};
        } else {
            const ModesResult r = computeModes(*m.model, s, st.lambda, mo);
            j = reports::modesJson(r);
            j["ok"] = r.ok;
            if (!r.ok) j["error"] = r.message;
            j["model"] = m.model->name;
            j["file"] = m.file;
            j["equilibrium"] = eq;
            j["wall_time_s"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            for (const Mode& mode : r.modes) {
                shapeSize = size_t(mode.shape.size());
                multiplierSize = size_t(mode.multipliers.size());
                shapes.insert(shapes.end(), mode.shape.data(), mode.shape.data() + mode.shape.size());
                multipliers.insert(multipliers.end(), mode.multipliers.data(),
                                   mode.multipliers.data() + mode.multipliers.size());
            }
        }
    }
    if (shapeSize == 0) shapeSize = size_t(m.model->velocitySize());
    if (multiplierSize == 0) multiplierSize = m.model->equations.size();
    return py::make_tuple(fromJson(j.dump()), asArray(shapes, shapeSize), reports::modeCoordinateNames(*m.model),
                          asArray(multipliers, multiplierSize));
}

py::tuple study(const std::string& source, bool isText, const std::string& label, int threads, py::object progress,
                std::shared_ptr<StopFlag> stop) {
    if (threads < 1) throw py::value_error("threads must be at least 1");
    const StudyFileResult file = isText ? parseStudyFile(source, label) : readStudyFile(source);
    if (!file.study) {
        return py::make_tuple(py::none(), diagnosticsList(file.diagnostics), py::none(), py::none());
    }
    const StudyDescription& s = *file.study;
    const long total = studyCaseCount(s);
    std::vector<long> cases(static_cast<size_t>(total));
    for (long k = 0; k < total; ++k) cases[size_t(k)] = k;
    std::vector<StudyRow> rows(static_cast<size_t>(total));
    RunControl control(std::move(progress), std::move(stop), 0.0, double(total));
    long done = 0;
    {
        py::gil_scoped_release nogil;
        done = runStudyCases(s, cases, threads, [&](StudyRow&& row, const StudyProgress& p) {
            const size_t k = size_t(row.index);
            rows[k] = std::move(row);
            control.reached(double(p.done));
        }, control.flag());
    }
    control.finish(double(done));
    // Cases a stop left unrun are not rows.
    rows.erase(std::remove_if(rows.begin(), rows.end(), [](const StudyRow& r) { return r.index < 0; }), rows.end());
    std::vector<std::string> columns{"case"};
    for (const StudyParameter& p : s.parameters) columns.push_back(p.name);
    columns.insert(columns.end(), {"ok", "assembled"});
    for (const std::string& c : studyValueColumns(s)) columns.push_back(c);
    std::vector<double> values;
    py::list reasons;
    for (const StudyRow& r : rows) {
        values.push_back(double(r.index));
        values.insert(values.end(), r.parameters.begin(), r.parameters.end());
        values.insert(values.end(), {r.ok ? 1.0 : 0.0, r.assembled ? 1.0 : 0.0});
        values.insert(values.end(), r.values.begin(), r.values.end());
        reasons.append(r.reason);
    }
    return py::make_tuple(columns, asArray(values, columns.size()), reasons,
                          fromJson(studySummaryJson(s, summarizeStudy(s, rows))));
}

}  // namespace looplab::python
