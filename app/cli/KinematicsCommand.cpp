// `looplab-cli kinematics`: kinematic simulation of a fully driven model.
#include "CliCommon.h"

#include "looplab/JointCoordinates.h"
#include "looplab/KinematicSimulation.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <iomanip>

namespace looplab::cli {

int runKinematics(const KinematicsOptions& o) {
    if (!(o.step > 0.0) || !(o.tEnd >= 0.0)) {
        std::cerr << "error: --step must be positive and --t-end not negative\n";
        return kBadInput;
    }
    LoadedModel lm;
    if (int rc = loadOrReport(o.model, lm)) return rc;
    const Model& model = *lm.model;
    std::ofstream csv;
    if (!o.out.empty()) {
        csv.open(o.out);
        if (!csv) {
            std::cerr << "error: cannot write '" << o.out << "'\n";
            return kBadInput;
        }
        csv << std::setprecision(17) << "t";
        for (int b = 1; b < model.bodyCount(); ++b) {
            const std::string& n = model.bodies[static_cast<size_t>(b)].name;
            for (const char* c : {"x", "y", "z", "qw", "qx", "qy", "qz"}) csv << "," << n << "." << c;
        }
        JointCoordinateTracker header(model);
        for (const auto& c : header.coordinates()) csv << "," << c.name;
        csv << ",position_violation,velocity_violation,acceleration_violation\n";
    }
    JointCoordinateTracker tracker(model);
    double maxPos = 0.0, maxVel = 0.0, maxAcc = 0.0;
    KinematicSample last;
    std::vector<double> lastCoords;
    const auto t0 = std::chrono::steady_clock::now();
    const KinematicResult res = runKinematics(
        model, lm.initial, lm.initial.t + o.tEnd, o.step, [&](const KinematicSample& s) {
            maxPos = std::max(maxPos, s.positionViolation);
            maxVel = std::max(maxVel, s.velocityViolation);
            maxAcc = std::max(maxAcc, s.accelerationViolation);
            lastCoords = tracker.update(s.state);
            last = s;
            if (!csv.is_open()) return;
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
        });
    const double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (!res.ok) {
        std::cerr << o.model << ": kinematic simulation failed: " << res.message << "\n";
        return kSolverFailure;
    }
    if (o.json) {
        nlohmann::json j;
        j["steps"] = res.steps;
        j["wall_time_s"] = wall;
        j["max_violation"] = {{"position", maxPos}, {"velocity", maxVel}, {"acceleration", maxAcc}};
        nlohmann::json bodies = nlohmann::json::object();
        for (int b = 1; b < model.bodyCount(); ++b) {
            const Vec3 p = bodyPosition(model, last.state, BodyIndex(b));
            const Quat q = bodyOrientation(model, last.state, BodyIndex(b));
            bodies[model.bodies[static_cast<size_t>(b)].name] = {
                {"position", {p.x(), p.y(), p.z()}}, {"quaternion", {q.w(), q.x(), q.y(), q.z()}}};
        }
        nlohmann::json joints = nlohmann::json::object();
        const auto& coords = tracker.coordinates();
        for (size_t k = 0; k < coords.size(); ++k) {
            const std::string& jn = model.joint(coords[k].joint).name;
            joints[jn][coords[k].angular ? "angle" : "displacement"] = lastCoords[k];
        }
        j["final"] = {{"t", last.state.t}, {"bodies", bodies}, {"joints", joints}};
        std::cout << j.dump(2) << "\n";
    } else {
        std::cout << "steps: " << res.steps << ", max violation: position " << maxPos
                  << ", velocity " << maxVel << ", acceleration " << maxAcc << "\n";
    }
    return kSuccess;
}

}  // namespace looplab::cli
