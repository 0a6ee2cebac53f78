#pragma once
// Shared pieces of the command-line tool: exit codes and model loading with diagnostics.

#include "looplab/ModelFile.h"

#include <iostream>
#include <string>

namespace looplab::cli {

/// Exit statuses documented in docs/cli.md.
enum ExitCode : int { kSuccess = 0, kBadInput = 2, kSolverFailure = 3 };

/// Loads and assembles a model; on failure prints every diagnostic to stderr and
/// returns kBadInput (an assembly failure is a fault of the model file too).
inline int loadOrReport(const std::string& path, LoadedModel& out) {
    DocumentResult doc = readModelDocument(path);
    if (!doc.document) {
        std::cerr << formatDiagnostics(doc.diagnostics);
        return kBadInput;
    }
    out = prepareModel(*doc.document, path);
    if (!out.ok()) {
        std::cerr << formatDiagnostics(out.diagnostics);
        return kBadInput;
    }
    return kSuccess;
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
    std::string out;
    bool json = false;
};
int runKinematics(const KinematicsOptions& o);

struct SimulateOptions {
    std::string model;
    std::string method = "projection";
    std::string integrator = "dopri5";
    double tEnd = 1.0;
    double step = 0.0;        ///< rk4 step, or initial step of the adaptive solvers; 0 = automatic
    double rtol = 1e-8;
    double atol = 1e-10;
    double outputStep = 0.01;
    double singularThreshold = 1e-2;
    double rankTolerance = kDynamicsRankTolerance;
    double baumgarteAlpha = 10.0, baumgarteBeta = 10.0;
    double penaltyFactor = 1e7;
    std::string linearAlgebra = "automatic";  ///< automatic, dense or sparse
    std::string out;
    bool json = false;
};
int runSimulate(const SimulateOptions& o);

}  // namespace looplab::cli
