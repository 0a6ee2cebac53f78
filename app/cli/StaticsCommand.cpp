// `looplab-cli statics`: static equilibrium of a model (Statics.h).
#include "CliCommon.h"
#include "StaticsReport.h"

#include "looplab/kinematics/NodalOutputs.h"
#include "looplab/analysis/Statics.h"

#include <nlohmann/json.hpp>

#include <chrono>

namespace looplab::cli {

using reports::staticsJson;

int runStatics(const StaticsCommandOptions& o) {
    if (std::string e = checkOption("--tolerance", o.tolerance, Bound::Positive, 1.0, false); !e.empty())
        return reportFailure(o.json, kBadInput, e);
    if (std::string e = checkOption("--max-wall-time", o.maxWallTime, Bound::NonNegative); !e.empty())
        return reportFailure(o.json, kBadInput, e);
    LoadedModel lm;
    if (int rc = loadOrReport(o.model, lm, o.json)) return rc;
    const Model& model = *lm.model;
    StaticsOptions so;
    parseStaticsMethod(o.method, so.method);
    so.forceTolerance = o.tolerance;
    so.maxWallTime = o.maxWallTime;
    State s = lm.initial;
    const auto t0 = std::chrono::steady_clock::now();
    const StaticsResult r = findEquilibrium(model, s, so);
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const int rc = r.ok ? kSuccess : kSolverFailure;
    if (!r.ok) std::cerr << "error: " << r.message << "\n";
    if (o.json) {
        nlohmann::json j = staticsJson(model, s, r);
        j["ok"] = r.ok;
        j["model"] = model.name;
        j["file"] = o.model;
        j["wall_time_s"] = wall;
        if (!r.ok) {
            j["error"] = r.message;
            j["exit_status"] = rc;
        }
        printJsonReport(j);
    } else {
        std::cout << "model:                " << model.name << "\n"
                  << "outcome:              " << staticsOutcomeName(r.outcome) << "\n"
                  << "method:               " << r.method << " (" << r.newtonIterations << " Newton iterations, "
                  << r.relaxationSteps << " relaxation steps)\n"
                  << "force residual:       " << r.forceResidual << " N (forces " << r.forceScale << " N, loads "
                  << r.loadScale << " N)" << (r.convergedToRounding ? ", converged to rounding" : "") << "\n"
                  << "constraint residual:  " << r.constraintResidual << " m\n"
                  << "degrees of freedom:   " << r.degreesOfFreedom << "\n";
        if (r.freeDirections > 0)
            std::cout << "free directions:      " << r.freeDirections
                      << " (rigid-body motions held at their start)\n";
        for (int b = 1; b < model.bodyCount(); ++b) {
            if (model.bodies[size_t(b)].nodeSize() > 0) {
                std::cout << "  " << model.bodies[size_t(b)].name << ": centre of mass "
                          << flexibleCentreOfMass(model, s, BodyIndex(b)).transpose();
                for (const NodalPoint& p : nodalPoints(model, BodyIndex(b)))
                    std::cout << ", " << p.name << " " << nodalPointPosition(model, s, BodyIndex(b), p).transpose();
                std::cout << "\n";
                continue;
            }
            const Vec3 p = bodyPosition(model, s, BodyIndex(b));
            const Quat q = bodyOrientation(model, s, BodyIndex(b));
            std::cout << "  " << model.bodies[static_cast<size_t>(b)].name << ": position " << p.transpose()
                      << ", quaternion " << q.w() << " " << q.x() << " " << q.y() << " " << q.z() << "\n";
        }
    }
    return rc;
}

}  // namespace looplab::cli
