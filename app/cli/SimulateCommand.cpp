// `looplab-cli simulate`: forward dynamics with a chosen method and ODE solver.
#include "CliCommon.h"
#include "OutputFile.h"
#include "SimulationRecord.h"

#include "looplab/integrate/MethodRegistry.h"
#include "looplab/simulation/Simulation.h"

#include <nlohmann/json.hpp>

#include <atomic>
#include <cmath>
#include <iomanip>
#include <sstream>

namespace looplab::cli {

using reports::SimulationRecord;

std::string checkSimulateOptions(const SimulateOptions& o) {
    const RunSettingsDoc& g = o.given;
    // A run-block field given on the command line is checked here; one from the model
    // was checked by the model reader.
    auto given = [](const char* option, const std::optional<double>& v, Bound bound, double upper = INFINITY) {
        return v ? checkOption(option, *v, bound, upper) : std::string();
    };
    for (const std::string& e : {given("--t-end", g.tEnd, Bound::NonNegative),
                                 given("--step", g.step, Bound::NonNegative),
                                 given("--rtol", g.rtol, Bound::Positive, 1.0),
                                 given("--atol", g.atol, Bound::Positive),
                                 given("--output-step", g.outputStep, Bound::Positive),
                                 checkOption("--singular-threshold", o.singularThreshold, Bound::NonNegative),
                                 checkOption("--rank-tolerance", o.rankTolerance, Bound::Positive, 1.0, false),
                                 checkOption("--max-wall-time", o.maxWallTime, Bound::NonNegative),
                                 checkOption("--max-output-bytes", o.maxOutputBytes, Bound::Positive)})
        if (!e.empty()) return e;
    if (o.maxRows < 1) return "--max-rows must be at least 1";
    if (o.maxSteps < 1) return "--max-steps must be at least 1";
    for (const auto& [key, value] : g.parameters)
        if (const ParameterInfo* p = findParameter(key))
            if (std::string e = p->check(value, "--" + key); !e.empty()) return e;
    // A pair named wholly on the command line is refused before the model is read.
    std::string unsupported;
    if (g.method && g.integrator && !isSupportedPair(*g.method, *g.integrator, &unsupported)) return unsupported;
    return {};
}

ResolvedRunSettings simulationSettingsFor(const SimulateOptions& o, const RunSettingsDoc& modelRun, double startTime,
                                          std::vector<std::string>* warnings) {
    SimulationSettings base;
    base.ode.step = 0.0;  // automatic, unless a fixed-step integrator is given one
    base.singularThreshold = o.singularThreshold;
    base.constraints.rankTolerance = o.rankTolerance;
    parseLinearAlgebra(o.linearAlgebra, base.constraints.linearAlgebra);
    base.maxSteps = o.maxSteps;
    base.maxWallTime = o.maxWallTime;
    base.maxFrames = o.maxRows;
    base.stopWhenStiff = o.onStiff == "stop";
    ResolvedRunSettings r = resolveRunSettings(o.given, modelRun, base);
    if (!r.error.empty()) return r;
    for (const std::string& note : r.notes) warnings->push_back(note);
    SimulationSettings& s = r.settings;
    if (!o.given.tEnd && !modelRun.tEnd) {
        r.error = "--t-end is needed: the model's run block gives no t_end (the simulated time span)";
        return r;
    }
    const IntegratorInfo& integratorInfo = *findIntegrator(s.integrator);
    const bool fixedStep = integratorInfo.stepControl == StepControl::Fixed;
    if (fixedStep && !(s.ode.step > 0.0)) {
        r.error = s.integrator + " needs --step";
        return r;
    }
    // A parameter the chosen pair does not read would silently change nothing.
    for (const std::string& key : o.givenParameters)
        if (!pairReads(s.method, s.integrator, key))
            warnings->push_back("--" + key + " is ignored: neither the " + s.method + " method nor the " +
                                s.integrator + " integrator reads it");
    char buf[200];
    const double span = s.tEnd;
    const double rows = outputRows(span, s.outputStep);
    if (rows > double(o.maxRows)) {
        std::snprintf(buf, sizeof buf,
                      "--output-step %g over --t-end %g gives %.3g output rows, more than --max-rows %ld",
                      s.outputStep, span, rows, o.maxRows);
        r.error = buf;
        return r;
    }
    if (fixedStep && span / s.ode.step > double(o.maxSteps)) {
        std::snprintf(buf, sizeof buf, "%s --step %g over --t-end %g takes %.3g steps, more than --max-steps %ld",
                      s.integrator.c_str(), s.ode.step, span, std::ceil(span / s.ode.step), o.maxSteps);
        r.error = buf;
        return r;
    }
    s.tEnd = startTime + span;
    return r;
}

int runSimulate(const SimulateOptions& o) {
    if (const std::string e = checkSimulateOptions(o); !e.empty()) return reportFailure(o.json, kBadInput, e);
    if (!o.out.empty()) {
        const std::string clash = OutputFile::checkNotAnInput("--out", o.out, {o.model});
        if (!clash.empty()) return reportFailure(o.json, kBadInput, clash);
    }
    LoadedModel lm;
    RunSettingsDoc modelRun;
    if (int rc = loadOrReport(o.model, lm, o.json, &modelRun)) return rc;
    const Model& model = *lm.model;
    std::vector<std::string> warnings;
    const ResolvedRunSettings resolved = simulationSettingsFor(o, modelRun, lm.initial.t, &warnings);
    if (!resolved.error.empty()) return reportFailure(o.json, kBadInput, resolved.error);
    for (const std::string& w : warnings) std::cerr << "warning: " << w << "\n";
    if (const std::string e = SimulationRecord::checkNodes(model, o.nodes); !e.empty())
        return reportFailure(o.json, kBadInput, e);
    const SimulationSettings& settings = resolved.settings;
    Simulator sim(lm.model, settings);

    OutputFile csvFile;
    SimulationRecord record(model, o.nodes);
    if (!o.out.empty()) {
        std::ostringstream header;
        writeCsvLine(header, record.columns());
        if (const std::string e = checkOutputBytes(header.str(), outputRows(settings.tEnd - lm.initial.t, settings.outputStep),
                                                   o.maxOutputBytes);
            !e.empty())
            return reportFailure(o.json, kBadInput, e);
        std::string error;
        if (!csvFile.open(o.out, &error)) return reportFailure(o.json, kBadInput, error);
        // The settings the rows were computed with, and where each came from, on a comment
        // line before the column names.
        csvFile.stream() << std::setprecision(17) << "# looplab-cli simulate: " << resolved.summary() << "\n"
                         << header.str();
        csvFile.drain();
    }
    // A failed write ends the run: its result could not be kept anyway.
    std::atomic<bool> stop{false};
    const SimulationResult res = sim.run(lm.initial, [&](const SimulationFrame& f) {
        record.add(f);
        if (!csvFile.isOpen()) return;
        writeCsvLine(csvFile.stream(), record.row());
        if (!csvFile.drain()) stop = true;
    }, [&](const SimulationEvent& e) {
        // As they happen: a warning that the model is stiff is worth seeing before the end.
        if (!o.json) std::cerr << "t = " << e.t << ": " << runEventKindName(e.kind) << ": " << e.detail << "\n";
    }, &stop);
    // The rows written so far are kept even when the run failed; a file that could not be
    // written completely is not, nor one without a single row (the old file stays).
    std::string writeError;
    if (record.empty()) csvFile.abandon();
    const bool written = csvFile.commit(&writeError);
    const bool ok = res.ok && written;
    std::string error = res.ok ? std::string() : res.message;
    if (!written) error = writeError;
    if (o.json) {
        nlohmann::json j = record.summary(res, resolved, warnings);
        j["ok"] = ok;
        if (!ok) {
            j["error"] = error;
            j["exit_status"] = written ? kSolverFailure : kWriteFailure;
        }
        std::cout << j.dump(2) << "\n";
    } else {
        std::cout << "settings: " << resolved.summary() << "\n";
        if (const std::string meshes = meshesText(model); !meshes.empty()) std::cout << "meshes:\n" << meshes;
        std::cout << "steps " << res.statistics.steps << " (rejected " << res.statistics.rejectedSteps
                  << "), rhs evaluations " << res.statistics.rhsEvaluations << ", wall time " << res.wallTime
                  << " s\nmax violation: position " << res.maxViolation.position << ", velocity "
                  << res.maxViolation.velocity << ", acceleration " << res.maxViolation.acceleration
                  << "\nenergy: initial " << res.energyInitial << ", final " << res.energyFinal
                  << ", max drift " << res.energyMaxDrift << "\n";
        std::cout << record.camsText();
    }
    if (!written) {
        std::cerr << "error: " << writeError << "\n";
        return kWriteFailure;
    }
    if (!res.ok) {
        std::cerr << o.model << ": simulation failed at t = " << res.tFinal << ": " << res.message << "\n";
        return kSolverFailure;
    }
    return kSuccess;
}

}  // namespace looplab::cli
