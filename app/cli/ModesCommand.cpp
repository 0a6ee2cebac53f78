// `looplab-cli modes`: vibration modes about the static equilibrium (Modes.h), or the
// lowest frequencies along a driver's motion (ModesAlongMotion.h).
#include "CliCommon.h"
#include "ModesReport.h"
#include "StaticsReport.h"
#include "OutputFile.h"
#include "RunInputs.h"

#include "looplab/analysis/Modes.h"
#include "looplab/analysis/ModesAlongMotion.h"
#include "looplab/analysis/Statics.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <iomanip>

namespace looplab::cli {

using reports::staticsJson;
using reports::modesJson;
using reports::modeCoordinateNames;

namespace {

// Most frequencies (steps × curves) one `modes --along` run reports.
constexpr long kMaxAlongFrequencies = 1000000;

std::string csvField(const std::string& s) {
    if (s.find_first_of(",\"\n") == std::string::npos) return s;
    std::string q = "\"";
    for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
    return q + "\"";
}

}  // namespace

int runModes(const ModesCommandOptions& o) {
    // Every option checked before anything is loaded.
    if (o.count < 1 || o.count > 100000)
        return reportFailure(o.json, kBadInput, "--count must be an integer from 1 to 100000 (got " + std::to_string(o.count) + ")");
    if (std::string e = checkOption("--max-wall-time", o.maxWallTime, Bound::NonNegative); !e.empty())
        return reportFailure(o.json, kBadInput, e);
    if (o.shiftGiven && !std::isfinite(o.shift))
        return reportFailure(o.json, kBadInput, "--shift must be a finite number");
    ModesOptions mo;
    mo.count = o.count;
    if (o.shiftGiven) mo.shift = o.shift;
    std::string error;
    if (!reports::parseModeScaling(o.scaling, "--scaling", mo, &error)) return reportFailure(o.json, kBadInput, error);
    mo.factorization = o.factorization == "lu" ? ShiftedFactorization::LU : ShiftedFactorization::Automatic;
    const bool along = !o.along.empty();
    if (!along && (o.fromGiven || o.toGiven || o.stepsGiven))
        return reportFailure(o.json, kBadInput, "--from, --to and --steps need --along DRIVER");
    if (along) {
        if (!o.fromGiven) return reportFailure(o.json, kBadInput, "--along needs --from");
        if (!o.toGiven) return reportFailure(o.json, kBadInput, "--along needs --to");
        if (!o.stepsGiven) return reportFailure(o.json, kBadInput, "--along needs --steps");
        if (!std::isfinite(o.from)) return reportFailure(o.json, kBadInput, "--from must be a finite number");
        if (!std::isfinite(o.to)) return reportFailure(o.json, kBadInput, "--to must be a finite number");
        if (o.steps < 1 || o.steps > 100000)
            return reportFailure(o.json, kBadInput,
                                 "--steps must be an integer from 1 to 100000 (got " + std::to_string(o.steps) + ")");
        // Each step writes a frequency and a damping ratio per curve, to the CSV and the
        // JSON: the product bounds the output (about 50 MB of CSV at the limit), which the
        // two bounds alone (10¹⁰ numbers) did not.
        if (long(o.steps) * long(o.count) > kMaxAlongFrequencies)
            return reportFailure(o.json, kBadInput,
                                 "--steps × --count must be at most 1000000 with --along (got " + std::to_string(o.steps) +
                                     " × " + std::to_string(o.count) + "): the output has a frequency and a damping "
                                     "ratio per step and curve; ask for fewer steps or modes");
    }
    LoadedModel lm;
    if (int rc = loadOrReport(o.model, lm, o.json)) return rc;
    const Model& model = *lm.model;
    // Once loaded: the model's mesh files are inputs too.
    if (const std::string clash = OutputFile::checkNotAnInput("--out", o.out, modelInputs(o.model, model)); !clash.empty())
        return reportFailure(o.json, kBadInput, clash);
    if (along && std::none_of(model.drivers.begin(), model.drivers.end(),
                              [&](const Driver& d) { return d.name == o.along; }))
        return reportFailure(o.json, kBadInput, "--along: the model has no driver named '" + o.along + "'");
    StaticsOptions so;
    parseStaticsMethod(o.method, so.method);
    so.maxWallTime = o.maxWallTime;
    OutputFile csvFile;
    if (!o.out.empty() && !csvFile.open(o.out, &error)) return reportFailure(o.json, kBadInput, error);
    const auto t0 = std::chrono::steady_clock::now();

    if (along) {
        AlongMotionOptions ao;
        ao.driver = o.along;
        ao.from = o.from;
        ao.to = o.to;
        ao.steps = o.steps;
        ao.statics = so;
        ao.modes = mo;
        if (csvFile.isOpen()) {
            std::vector<std::string> columns = reports::alongColumns(o.along, o.count);
            columns[0] = csvField(o.along);
            csvFile.stream() << std::setprecision(17);
            writeCsvLine(csvFile.stream(), columns);
        }
        nlohmann::json steps = nlohmann::json::array();
        const AlongMotionResult r = modesAlongMotion(model, lm.initial, ao, [&](const AlongMotionStep& st) {
            steps.push_back(reports::alongStepJson(st));
            if (!o.json) {
                std::cout << o.along << " = " << st.coordinate << ":";
                for (double f : st.frequenciesHz) std::cout << " " << f;
                std::cout << (st.ok ? "" : "  (" + st.message + ")") << "\n";
            }
            if (csvFile.isOpen() && csvFile.good()) {
                writeCsvLine(csvFile.stream(), reports::alongRow(st, o.count));
                csvFile.drain();
            }
        });
        int rc = r.ok ? kSuccess : kSolverFailure;
        std::string writeError;
        if (csvFile.isOpen() && !csvFile.commit(&writeError)) rc = kWriteFailure;
        if (!r.ok) std::cerr << "error: " << r.message << "\n";
        if (!writeError.empty()) std::cerr << "error: " << writeError << "\n";
        if (o.json) {
            nlohmann::json j;
            j["ok"] = rc == kSuccess;
            j["model"] = model.name;
            j["file"] = o.model;
            j["along"] = {{"driver", o.along}, {"from", o.from}, {"to", o.to}, {"steps", o.steps}};
            j["steps"] = steps;
            j["wall_time_s"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            if (rc != kSuccess) {
                j["error"] = !r.ok ? r.message : writeError;
                j["exit_status"] = rc;
            }
            printJsonReport(j);
        }
        return rc;
    }

    State s = lm.initial;
    const StaticsResult st = findEquilibrium(model, s, so);
    const bool equilibrium =
        st.ok || st.outcome == StaticsOutcome::Mechanism || st.outcome == StaticsOutcome::Unstable;
    nlohmann::json eq = staticsJson(model, s, st);
    if (!equilibrium) {
        csvFile.abandon();
        const std::string why = "no static equilibrium: " + st.message;
        std::cerr << "error: " << why << "\n";
        if (o.json) {
            nlohmann::json j = {{"ok", false}, {"error", why}, {"exit_status", kSolverFailure}, {"equilibrium", eq}};
            printJsonReport(j);
        }
        return kSolverFailure;
    }
    if (!st.ok) std::cerr << "warning: " << st.message << "\n";
    const ModesResult r = computeModes(model, s, st.lambda, mo);
    for (const std::string& w : r.warnings) std::cerr << "warning: " << w << "\n";
    int rc = r.ok ? kSuccess : kSolverFailure;
    if (!r.ok) std::cerr << "error: " << r.message << "\n";
    std::string writeError;
    if (csvFile.isOpen()) {
        if (r.ok) {
            std::ostream& csv = csvFile.stream();
            csv << std::setprecision(17) << "mode,frequency_hz,damping_ratio,squared_frequency";
            for (const std::string& n : modeCoordinateNames(model)) csv << "," << csvField("shape." + n);
            for (const EquationLabel& e : model.equations)
                csv << "," << csvField("lambda." + e.owner + "." + e.component);
            csv << "\n";
            for (size_t k = 0; k < r.modes.size(); ++k) {
                const Mode& m = r.modes[k];
                csv << k + 1 << "," << m.frequencyHz << "," << m.dampingRatio << "," << m.squaredFrequency;
                for (int i = 0; i < m.shape.size(); ++i) csv << "," << m.shape[i];
                for (int i = 0; i < m.multipliers.size(); ++i) csv << "," << m.multipliers[i];
                csv << "\n";
            }
            if (!csvFile.commit(&writeError)) rc = kWriteFailure;
        } else {
            csvFile.abandon();
        }
    }
    if (!writeError.empty()) std::cerr << "error: " << writeError << "\n";
    if (o.json) {
        nlohmann::json j = modesJson(r);
        j["ok"] = rc == kSuccess;
        j["model"] = model.name;
        j["file"] = o.model;
        j["equilibrium"] = eq;
        j["wall_time_s"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        if (rc != kSuccess) {
            j["error"] = !r.ok ? r.message : writeError;
            j["exit_status"] = rc;
        }
        printJsonReport(j);
    } else if (r.ok) {
        std::cout << "model:        " << model.name << "\n"
                  << "equilibrium:  " << staticsOutcomeName(st.outcome) << " (force residual " << st.forceResidual
                  << " N)\n"
                  << "scaling:      " << r.scaling << "\n"
                  << "shift:        " << r.shift << " rad^2/s^2\n"
                  << "condition:    " << r.conditionUnscaled << " unscaled, " << r.conditionScaled << " scaled\n";
        if (r.denseChecked) std::cout << "dense check:  largest difference " << r.denseDifference << "\n";
        if (r.rigidBodyModes > 0) {
            std::cout << "rigid-body:   " << r.rigidBodyModes << " mode(s) at 0 Hz, free direction(s) of";
            if (r.freeStructures.size() > 4) {
                std::cout << " " << r.freeStructures.size() << " free structures";
            } else {
                for (size_t i = 0; i < r.freeStructures.size(); ++i) {
                    std::cout << (i ? ";" : "");
                    for (const std::string& name : r.freeStructures[i]) std::cout << " " << name;
                }
            }
            std::cout << "\n";
        }
        std::cout << " mode   frequency [Hz]   damping ratio\n";
        // Many rigid-body modes (a model of many free parts) are one line.
        const size_t listedRigid = r.rigidBodyModes > 12 ? 0 : static_cast<size_t>(r.rigidBodyModes);
        if (listedRigid == 0 && r.rigidBodyModes > 0)
            std::cout << std::setw(5) << 1 << " - " << r.rigidBodyModes << "   0 Hz  rigid body\n";
        for (size_t k = 0; k < r.modes.size(); ++k) {
            if (r.modes[k].rigidBody && k >= listedRigid) continue;
            std::cout << std::setw(5) << k + 1 << "   " << std::setw(14) << r.modes[k].frequencyHz << "   "
                      << std::setw(13) << r.modes[k].dampingRatio << (r.modes[k].unstable ? "  unstable" : "")
                      << (r.modes[k].accurate ? "" : "  inaccurate") << (r.modes[k].rigidBody ? "  rigid body" : "")
                      << "\n";
        }
    }
    return rc;
}

}  // namespace looplab::cli
