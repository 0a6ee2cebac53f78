// `looplab-cli kinematics`: kinematic simulation of a fully driven model.
#include "CliCommon.h"
#include "KinematicRecord.h"
#include "OutputFile.h"
#include "RunInputs.h"

#include "looplab/kinematics/KinematicSimulation.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <iomanip>
#include <sstream>

namespace looplab::cli {

using reports::KinematicRecord;

int runKinematics(const KinematicsOptions& o) {
    for (const std::string& e : {checkOption("--t-end", o.tEnd, Bound::NonNegative),
                                 checkOption("--step", o.step, Bound::Positive),
                                 checkOption("--max-wall-time", o.maxWallTime, Bound::NonNegative),
                                 checkOption("--max-output-bytes", o.maxOutputBytes, Bound::Positive)})
        if (!e.empty()) return reportFailure(o.json, kBadInput, e);
    if (o.maxRows < 1) return reportFailure(o.json, kBadInput, "--max-rows must be at least 1");
    if (o.maxSteps < 1) return reportFailure(o.json, kBadInput, "--max-steps must be at least 1");
    char buf[160];
    const double rows = outputRows(o.tEnd, o.step);
    if (rows > double(o.maxRows)) {
        std::snprintf(buf, sizeof buf, "--step %g over --t-end %g gives %.3g output rows, more than --max-rows %ld",
                      o.step, o.tEnd, rows, o.maxRows);
        return reportFailure(o.json, kBadInput, buf);
    }
    // Every step is a sample, so the steps are known before the run: too many are refused
    // here, as simulate refuses an rk4 --step, not found out hours later.
    if (rows - 1.0 > double(o.maxSteps)) {
        std::snprintf(buf, sizeof buf, "--step %g over --t-end %g takes %.3g steps, more than --max-steps %ld",
                      o.step, o.tEnd, rows - 1.0, o.maxSteps);
        return reportFailure(o.json, kBadInput, buf);
    }
    LoadedModel lm;
    if (int rc = loadOrReport(o.model, lm, o.json)) return rc;
    const Model& model = *lm.model;
    // Once loaded: the model's mesh files are inputs too.
    if (const std::string clash = OutputFile::checkNotAnInput("--out", o.out, modelInputs(o.model, model)); !clash.empty())
        return reportFailure(o.json, kBadInput, clash);
    OutputFile csvFile;
    KinematicRecord record(model);
    if (!o.out.empty()) {
        std::ostringstream header;
        writeCsvLine(header, record.columns());
        if (const std::string e = checkOutputBytes(header.str(), rows, o.maxOutputBytes); !e.empty())
            return reportFailure(o.json, kBadInput, e);
        std::string error;
        if (!csvFile.open(o.out, &error)) return reportFailure(o.json, kBadInput, error);
        csvFile.stream() << std::setprecision(17) << header.str();
        csvFile.drain();
    }
    const auto t0 = std::chrono::steady_clock::now();
    const KinematicResult res = runKinematics(
        model, lm.initial, lm.initial.t + o.tEnd, o.step, [&](const KinematicSample& s) {
            record.add(s);
            if (!csvFile.isOpen() || !csvFile.good()) return;
            writeCsvLine(csvFile.stream(), record.row());
            csvFile.drain();
        },
        AssemblyOptions{}, KinematicLimits{o.maxWallTime});
    const double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    // The rows written so far are kept even when the run failed; a file that could not be
    // written completely is not, nor one without a single row (the old file stays).
    std::string writeError;
    if (record.empty()) csvFile.abandon();
    const bool written = csvFile.commit(&writeError);
    int status = kSuccess;
    std::string error;
    if (!res.ok) {
        status = kSolverFailure;
        error = "kinematic simulation failed: " + res.message;
        std::cerr << o.model << ": " << error << "\n";
    }
    if (!written) {
        status = kWriteFailure;
        error = error.empty() ? writeError : error + "; " + writeError;
        std::cerr << "error: " << writeError << "\n";
    }
    if (o.json) {
        nlohmann::json j = record.summary(res, wall);
        j["ok"] = status == kSuccess;
        if (status != kSuccess) {
            j["error"] = error;
            j["exit_status"] = status;
        }
        printJsonReport(j);
    } else if (res.ok) {
        std::cout << "steps: " << res.steps << ", max violation: position " << record.maxPositionViolation()
                  << ", velocity " << record.maxVelocityViolation() << ", acceleration "
                  << record.maxAccelerationViolation() << "\n";
    }
    return status;
}

}  // namespace looplab::cli
