// `looplab-cli kinematics`: kinematic simulation of a fully driven model.
#include "CliCommon.h"
#include "OutputFile.h"

#include "looplab/kinematics/JointCoordinates.h"
#include "looplab/kinematics/KinematicSimulation.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <iomanip>
#include <sstream>

namespace looplab::cli {

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
    if (!o.out.empty()) {
        const std::string clash = OutputFile::checkNotAnInput("--out", o.out, {o.model});
        if (!clash.empty()) return reportFailure(o.json, kBadInput, clash);
    }
    LoadedModel lm;
    if (int rc = loadOrReport(o.model, lm, o.json)) return rc;
    const Model& model = *lm.model;
    OutputFile csvFile;
    if (!o.out.empty()) {
        std::ostringstream header;
        header << "t";
        for (int b = 1; b < model.bodyCount(); ++b) {
            const std::string& n = model.bodies[static_cast<size_t>(b)].name;
            for (const char* c : {"x", "y", "z", "qw", "qx", "qy", "qz"}) header << "," << n << "." << c;
        }
        JointCoordinateTracker coordinates(model);
        for (const auto& c : coordinates.coordinates()) header << "," << c.name;
        header << ",position_violation,velocity_violation,acceleration_violation\n";
        if (const std::string e = checkOutputBytes(header.str(), rows, o.maxOutputBytes); !e.empty())
            return reportFailure(o.json, kBadInput, e);
        std::string error;
        if (!csvFile.open(o.out, &error)) return reportFailure(o.json, kBadInput, error);
        csvFile.stream() << std::setprecision(17) << header.str();
        csvFile.drain();
    }
    JointCoordinateTracker tracker(model);
    double maxPos = 0.0, maxVel = 0.0, maxAcc = 0.0;
    KinematicSample last;
    bool anySample = false;
    std::vector<double> lastCoords;
    const auto t0 = std::chrono::steady_clock::now();
    const KinematicResult res = runKinematics(
        model, lm.initial, lm.initial.t + o.tEnd, o.step, [&](const KinematicSample& s) {
            maxPos = std::max(maxPos, s.positionViolation);
            maxVel = std::max(maxVel, s.velocityViolation);
            maxAcc = std::max(maxAcc, s.accelerationViolation);
            lastCoords = tracker.update(s.state);
            last = s;
            anySample = true;
            if (!csvFile.isOpen() || !csvFile.good()) return;
            std::ostream& csv = csvFile.stream();
            csv << s.state.t;
            for (int b = 1; b < model.bodyCount(); ++b) {
                const Vec3 p = bodyPosition(model, s.state, BodyIndex(b));
                const Quat q = bodyOrientation(model, s.state, BodyIndex(b));
                csv << "," << p.x() << "," << p.y() << "," << p.z() << "," << q.w() << "," << q.x()
                    << "," << q.y() << "," << q.z();
            }
            for (double c : lastCoords) csv << "," << c;
            csv << "," << s.positionViolation << "," << s.velocityViolation << ","
                << s.accelerationViolation << "\n";
            csvFile.drain();
        },
        AssemblyOptions{}, KinematicLimits{o.maxWallTime});
    const double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    // The rows written so far are kept even when the run failed; a file that could not be
    // written completely is not, nor one without a single row (the old file stays).
    std::string writeError;
    if (!anySample) csvFile.abandon();
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
        nlohmann::json j;
        j["ok"] = status == kSuccess;
        if (status != kSuccess) {
            j["error"] = error;
            j["exit_status"] = status;
        }
        j["steps"] = res.steps;
        j["wall_time_s"] = wall;
        j["max_violation"] = {{"position", maxPos}, {"velocity", maxVel}, {"acceleration", maxAcc}};
        nlohmann::json bodies = nlohmann::json::object();
        for (int b = 1; anySample && b < model.bodyCount(); ++b) {
            const Vec3 p = bodyPosition(model, last.state, BodyIndex(b));
            const Quat q = bodyOrientation(model, last.state, BodyIndex(b));
            bodies[model.bodies[static_cast<size_t>(b)].name] = {
                {"position", {p.x(), p.y(), p.z()}}, {"quaternion", {q.w(), q.x(), q.y(), q.z()}}};
        }
        nlohmann::json joints = nlohmann::json::object();
        const auto& coords = tracker.coordinates();
        for (size_t k = 0; k < coords.size() && k < lastCoords.size(); ++k) {
            const std::string& jn = model.joint(coords[k].joint).name;
            joints[jn][coords[k].angular ? "angle" : "displacement"] = lastCoords[k];
        }
        j["final"] = anySample ? nlohmann::json{{"t", last.state.t}, {"bodies", bodies}, {"joints", joints}}
                               : nlohmann::json(nullptr);
        std::cout << j.dump(2) << "\n";
    } else if (res.ok) {
        std::cout << "steps: " << res.steps << ", max violation: position " << maxPos
                  << ", velocity " << maxVel << ", acceleration " << maxAcc << "\n";
    }
    return status;
}

}  // namespace looplab::cli
