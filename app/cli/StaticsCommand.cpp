// `looplab-cli statics`: static equilibrium of a model (Statics.h).
#include "CliCommon.h"

#include "looplab/bodies/NodalOutputs.h"
#include "looplab/analysis/Statics.h"

#include <nlohmann/json.hpp>

#include <chrono>

namespace looplab::cli {

nlohmann::json staticsJson(const Model& model, const State& s, const StaticsResult& r) {
    nlohmann::json j;
    j["outcome"] = staticsOutcomeName(r.outcome);
    j["method"] = r.method;
    j["newton_iterations"] = r.newtonIterations;
    j["relaxation_steps"] = r.relaxationSteps;
    j["force_residual"] = r.forceResidual;
    j["force_scale"] = r.forceScale;
    j["load_scale"] = r.loadScale;
    j["constraint_residual"] = r.constraintResidual;
    j["rank"] = r.rank;
    j["dof"] = r.degreesOfFreedom;
    j["free_directions"] = r.freeDirections;
    j["squared_frequencies"] = std::vector<double>(r.squaredFrequencies.data(),
                                                   r.squaredFrequencies.data() + r.squaredFrequencies.size());
    if (!r.ok) j["message"] = r.message;
    nlohmann::json bodies = nlohmann::json::object();
    for (int b = 1; b < model.bodyCount(); ++b) {
        if (model.bodies[size_t(b)].nodeSize() > 0) {  // a mesh: centre of mass and named points
            nlohmann::json points = nlohmann::json::object();
            for (const NodalPoint& p : nodalPoints(model, BodyIndex(b))) {
                const Vec3 r = nodalPointPosition(model, s, BodyIndex(b), p);
                points[p.name] = {r.x(), r.y(), r.z()};
            }
            const Vec3 c = flexibleCentreOfMass(model, s, BodyIndex(b));
            bodies[model.bodies[size_t(b)].name] = {{"position", {c.x(), c.y(), c.z()}}, {"points", points}};
            continue;
        }
        const Vec3 p = bodyPosition(model, s, BodyIndex(b));
        const Quat q = bodyOrientation(model, s, BodyIndex(b));
        bodies[model.bodies[static_cast<size_t>(b)].name] = {{"position", {p.x(), p.y(), p.z()}},
                                                            {"quaternion", {q.w(), q.x(), q.y(), q.z()}}};
    }
    j["bodies"] = bodies;
    return j;
}

int runStatics(const StaticsCommandOptions& o) {
    if (std::string e = checkOption("--tolerance", o.tolerance, Bound::Positive, 1.0, false); !e.empty())
        return reportFailure(o.json, kBadInput, e);
    LoadedModel lm;
    if (int rc = loadOrReport(o.model, lm, o.json)) return rc;
    const Model& model = *lm.model;
    StaticsOptions so;
    parseStaticsMethod(o.method, so.method);
    so.forceTolerance = o.tolerance;
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
        std::cout << j.dump(2) << "\n";
    } else {
        std::cout << "model:                " << model.name << "\n"
                  << "outcome:              " << staticsOutcomeName(r.outcome) << "\n"
                  << "method:               " << r.method << " (" << r.newtonIterations << " Newton iterations, "
                  << r.relaxationSteps << " relaxation steps)\n"
                  << "force residual:       " << r.forceResidual << " N (forces " << r.forceScale << " N, loads "
                  << r.loadScale << " N)\n"
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
