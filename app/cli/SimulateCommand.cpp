// `looplab-cli simulate`: forward dynamics with a chosen method and ODE solver.
#include "CliCommon.h"
#include "OutputFile.h"
#include "RunInputs.h"
#include "SimulationRecord.h"
#include "StartReport.h"

#include "looplab/integrate/MethodRegistry.h"
#include "looplab/simulation/Simulation.h"

#include <nlohmann/json.hpp>

#include <atomic>
#include <optional>
#include <cmath>
#include <iomanip>
#include <sstream>

namespace looplab::cli {

using reports::SimulationRecord;

std::string checkSimulateOptions(const SimulateOptions& o) {
    if (std::string e = reports::checkSimulationRequest(o); !e.empty()) return e;
    return checkOption("--max-output-bytes", o.maxOutputBytes, Bound::Positive);
}

int runSimulate(const SimulateOptions& o) {
    if (const std::string e = checkSimulateOptions(o); !e.empty()) return reportFailure(o.json, kBadInput, e);
    LoadedModel lm;
    RunSettingsDoc modelRun;
    if (int rc = loadOrReport(o.model, lm, o.json, &modelRun, o.given.start)) return rc;
    const Model& model = *lm.model;
    // Once loaded: the model's mesh files are inputs too.
    if (const std::string clash = OutputFile::checkNotAnInput("--out", o.out, modelInputs(o.model, model)); !clash.empty())
        return reportFailure(o.json, kBadInput, clash);
    if (!lm.start.message.empty()) std::cerr << "warning: " << lm.start.message << "\n";
    // A start that gives the members vibration energy: which of the mechanism's modes ring.
    std::optional<StartModes> startModes;
    if (!lm.start.member.empty() && lm.start.vibrationEnergy > 0.0) startModes = excitedModes(model, lm.initial);
    const StartModes* excited = startModes ? &*startModes : nullptr;
    std::vector<std::string> warnings;
    const ResolvedRunSettings resolved = reports::resolveSimulation(o, modelRun, lm.initial.t, &warnings);
    if (!resolved.error.empty()) return reportFailure(o.json, kBadInput, resolved.error);
    for (const std::string& w : warnings) std::cerr << "warning: " << w << "\n";
    if (const std::string e = SimulationRecord::checkNodes(model, o.nodes, reports::OptionStyle::CommandLine); !e.empty())
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
        // The column names on the first line, as CSV readers expect by default (pandas,
        // numpy, spreadsheets): the settings the rows were computed with are in the report.
        csvFile.stream() << std::setprecision(17) << header.str();
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
        j["start"] = reports::startJson(lm.start, o.given.start ? *o.given.start : modelRun.start.value_or("consistent"),
                                        excited);
        j["ok"] = ok;
        if (!ok) {
            j["error"] = error;
            j["exit_status"] = written ? kSolverFailure : kWriteFailure;
        }
        printJsonReport(j);
    } else {
        std::cout << "settings: " << resolved.summary() << "\n"
                  << "start: " << reports::startText(lm.start, o.given.start ? *o.given.start
                                                                             : modelRun.start.value_or("consistent"),
                                                     excited)
                  << "\n";
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
