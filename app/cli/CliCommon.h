#pragma once
// Shared pieces of the command-line tool: exit codes, model loading with diagnostics,
// option checks and the failure report (stderr, and one JSON object with --json).

#include "looplab/Version.h"
#include "looplab/files/ModelFile.h"
#include "looplab/simulation/ModelRunSettings.h"
#include "looplab/simulation/SimulationSettings.h"
#include "ModelSize.h"
#include "ReportJson.h"
#include "SimulationRequest.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace looplab::cli {

using reports::Bound;
using reports::checkOption;
using reports::kDefaultMaxRows;
using reports::kDefaultMaxSteps;
using reports::meshesJson;
using reports::meshesText;
using reports::outputRows;
using reports::vec;

/// Exit statuses documented in docs/cli.md.
enum ExitCode : int { kSuccess = 0, kBadInput = 2, kSolverFailure = 3 };
/// Writing an output (a file named by --out, or standard output) failed: reported as a
/// failure of the run, status 3 (docs/cli.md).
inline constexpr int kWriteFailure = kSolverFailure;

/// Prints one JSON report on standard output, stamped with the version that made it, so
/// that a result kept for years says which LoopLab computed it. Bytes of a name that are
/// not UTF-8 are printed as U+FFFD rather than failing the report.
inline void printJsonReport(nlohmann::json& j) {
    j["looplab_version"] = version();
    std::cout << j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
}

/// Reports a failure before or instead of a result: the message on stderr, and with
/// --json the one JSON object on stdout ({"ok": false, "error": message}).
inline int reportFailure(bool json, int status, const std::string& message) {
    std::cerr << "error: " << message << "\n";
    if (json) {
        nlohmann::json j;
        j["ok"] = false;
        j["error"] = message;
        j["exit_status"] = status;
        printJsonReport(j);
    }
    return status;
}

/// Loads and assembles a model; on failure puts every diagnostic into *message and
/// returns kBadInput (an assembly failure is a fault of the model file too).
inline int loadModel(const std::string& path, LoadedModel& out, std::string* message,
                     RunSettingsDoc* run = nullptr, const std::optional<std::string>& start = std::nullopt) {
    DocumentResult doc = readModelDocument(path);
    if (!doc.document) {
        *message = formatDiagnostics(doc.diagnostics);
        return kBadInput;
    }
    if (const std::string w = largeModelWarning(*doc.document); !w.empty()) std::cerr << "warning: " << w << "\n";
    if (run) *run = doc.document->run;
    // The start is taken at load time (StartMotion.h): one given on the command line
    // replaces the run block's there.
    if (start) doc.document->run.start = start;
    out = prepareModel(*doc.document, path);
    if (!out.ok()) {
        *message = formatDiagnostics(out.diagnostics);
        return kBadInput;
    }
    return kSuccess;
}

/// Loads a model (and its `run` block into *run); on failure prints the diagnostics (and
/// the JSON failure object).
inline int loadOrReport(const std::string& path, LoadedModel& out, bool json, RunSettingsDoc* run = nullptr,
                        const std::optional<std::string>& start = std::nullopt) {
    std::string message;
    const int rc = loadModel(path, out, &message, run, start);
    if (rc == kSuccess) return rc;
    while (!message.empty() && message.back() == '\n') message.pop_back();
    std::cerr << message << "\n";
    if (json) {
        nlohmann::json j;
        j["ok"] = false;
        j["error"] = message;
        j["exit_status"] = rc;
        printJsonReport(j);
    }
    return rc;
}

/// Default limit on the size of a CSV output (--max-output-bytes).
inline constexpr double kDefaultMaxOutputBytes = 2e9;
/// Characters a CSV value usually takes: 17 significant digits, sign, point, exponent and
/// the comma (integer columns take fewer, so the estimate errs on the large side).
inline constexpr double kCsvBytesPerValue = 22.0;

/// The CSV a run would write (rows × the header's columns, at kCsvBytesPerValue), or why
/// it is refused: more than `limit` bytes.
inline std::string checkOutputBytes(const std::string& header, double rows, double limit) {
    const double columns = double(std::count(header.begin(), header.end(), ',') + 1);
    const double bytes = rows * columns * kCsvBytesPerValue;
    if (!(bytes > limit)) return {};
    char buf[240];
    std::snprintf(buf, sizeof buf,
                  "the output would take about %.3g bytes (%.3g rows of %.0f columns), more than "
                  "--max-output-bytes %.3g: write fewer rows (a longer output step) or raise the limit",
                  bytes, rows, columns, limit);
    return buf;
}

struct CheckOptions {
    std::string model;
    bool json = false;
    std::string linearAlgebra = "automatic";  ///< automatic, dense or sparse
};
int runCheck(const CheckOptions& o);

struct KinematicsOptions {
    std::string model;
    double tEnd = 1.0;
    double step = 0.01;
    long maxRows = kDefaultMaxRows;
    long maxSteps = kDefaultMaxSteps;
    double maxWallTime = 0.0;  ///< s; 0 = no limit
    double maxOutputBytes = kDefaultMaxOutputBytes;
    std::string out;
    bool json = false;
};
int runKinematics(const KinematicsOptions& o);

/// `simulate`'s options: what the run is asked (SimulationRequest: --method, --integrator,
/// --t-end, --step, --rtol, --atol, --output-step and every method parameter of the
/// registry, each overriding the model's `run` block; limits; --on-stiff) and where its
/// results go.
struct SimulateOptions : reports::SimulationRequest {
    std::string model;
    double maxOutputBytes = kDefaultMaxOutputBytes;
    std::string out;
    /// Beam and solid nodes, by their names in the model format, whose positions are
    /// written as CSV columns and in the JSON's final state (--node, repeatable).
    std::vector<std::string> nodes;
    bool json = false;
};
int runSimulate(const SimulateOptions& o);
/// Checks the options that need no model (ranges of the values given, limits); the first
/// problem, or an empty string.
std::string checkSimulateOptions(const SimulateOptions& o);

/// `looplab-cli animate`: a simulation rendered to MP4 or GIF (AnimateCommand.cpp).
struct AnimateOptions {
    SimulateOptions simulation;  ///< model, --t-end and the method options; out = the video
    double fps = 30.0;
    std::string size = "800x600";
    std::vector<std::string> traces;  ///< markers, or BODY:x,y,z points, drawn as traces
    bool tEndGiven = false;
    /// --mode K (1 = the lowest): the K-th vibration mode about the static equilibrium
    /// swinging, instead of a simulation; 0 = a simulation.
    int mode = 0;
    bool modeGiven = false;
    double amplitude = 0.05;  ///< largest displacement of a drawn point / the model's size
    int cycles = 3;           ///< periods of the swing in the video
    int framesPerCycle = 48;
    bool amplitudeGiven = false, cyclesGiven = false, framesPerCycleGiven = false;
    std::string states;  ///< --states FILE.csv: the positions q of every frame (with --mode)
};
int runAnimate(const AnimateOptions& o);
/// `animate` in a looplab-cli without the animation library: replaces this process by
/// `programName` from the same folder with the same arguments; returns (with a message)
/// only if that program cannot be started.
int runAnimateProgram(const char* programName, char** argv, bool json);

/// `looplab-cli import`: a URDF or MJCF file as a model (ExchangeCommands.cpp).
struct ImportOptions {
    std::string file;
    std::string out;  ///< the model file to write; empty: standard output
    bool json = false;
};
int runImport(const ImportOptions& o);
/// `looplab-cli export`: a model as MJCF or URDF.
struct ExportOptions {
    std::string model;
    std::string format = "mjcf";
    std::string out;
    bool json = false;
};
int runExport(const ExportOptions& o);

struct MethodsOptions {
    bool json = false;
};
/// `looplab-cli methods`: the registered constraint methods and integrators.
int runMethods(const MethodsOptions& o);

}  // namespace looplab::cli

// ---- statics and modes (StaticsCommand.cpp, ModesCommand.cpp) ----
namespace looplab::cli {

struct StaticsCommandOptions {
    std::string model;
    std::string method = "automatic";  ///< automatic, newton or relaxation
    double tolerance = 1e-10;          ///< force residual relative to the applied forces
    double maxWallTime = 0.0;          ///< s, between iterations; 0 = no limit
    bool json = false;
};
/// `looplab-cli statics`: static equilibrium.
int runStatics(const StaticsCommandOptions& o);

struct ModesCommandOptions {
    std::string model;
    int count = 6;
    bool shiftGiven = false;
    double shift = 0.0;                ///< σ on ω² [rad²/s²]
    std::string scaling = "auto";      ///< auto, none or a positive number
    std::string factorization = "auto";  ///< auto or lu
    std::string method = "automatic";  ///< statics method
    double maxWallTime = 0.0;          ///< s, of each equilibrium search; 0 = no limit
    std::string along;                 ///< driver to lock, empty = one equilibrium
    bool fromGiven = false, toGiven = false, stepsGiven = false;
    double from = 0.0, to = 0.0;
    int steps = 0;
    std::string out;
    bool json = false;
};
/// `looplab-cli modes`: eigenanalysis about the equilibrium, or along a driver's motion.
int runModes(const ModesCommandOptions& o);

}  // namespace looplab::cli

// ---- design studies (StudyCommand.cpp) ----
namespace looplab::cli {

struct StudyOptions {
    std::string study;
    std::string out;
    std::string summary;
    int threads = 1;
    bool resume = false;
};
/// `looplab-cli study`: every case of a study on a thread pool, or on MPI ranks.
int runStudy(const StudyOptions& o);

}  // namespace looplab::cli
