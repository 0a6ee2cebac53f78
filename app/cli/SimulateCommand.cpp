// `looplab-cli simulate`: forward dynamics with a chosen method and ODE solver.
#include "CliCommon.h"

#include "looplab/JointCoordinates.h"
#include "looplab/Simulation.h"

#include <nlohmann/json.hpp>

#include <fstream>
#include <iomanip>

namespace looplab::cli {

namespace {

nlohmann::json vec(const Vec3& v) { return {v.x(), v.y(), v.z()}; }

void writeHeader(std::ostream& csv, const Model& model, const JointCoordinateTracker& coords) {
    csv << "t";
    for (int b = 1; b < model.bodyCount(); ++b) {
        const std::string& n = model.bodies[size_t(b)].name;
        for (const char* c : {"x", "y", "z", "qw", "qx", "qy", "qz"}) csv << "," << n << "." << c;
    }
    for (const auto& c : coords.coordinates()) csv << "," << c.name;
    csv << ",position_violation,velocity_violation,acceleration_violation,energy";
    for (const Joint& j : model.joints)
        for (const char* c : {"fx", "fy", "fz", "tx", "ty", "tz"}) csv << "," << j.name << "." << c;
    for (const Driver& d : model.drivers) csv << "," << d.name << ".effort";
    csv << ",rank,smallest_singular_value,step_size,steps,rejected_steps,rhs_evaluations\n";
}

}  // namespace

int runSimulate(const SimulateOptions& o) {
    if (!(o.tEnd >= 0.0) || !(o.outputStep > 0.0) || !(o.rtol > 0.0) || !(o.atol > 0.0) || o.step < 0.0) {
        std::cerr << "error: --t-end must not be negative; --output-step, --rtol and --atol must be positive\n";
        return kBadInput;
    }
    if (o.integrator == "rk4" && !(o.step > 0.0)) {
        std::cerr << "error: rk4 needs --step\n";
        return kBadInput;
    }
    LoadedModel lm;
    if (int rc = loadOrReport(o.model, lm)) return rc;
    const Model& model = *lm.model;
    SimulationSettings settings;
    settings.method = o.method;
    settings.integrator = o.integrator;
    settings.tEnd = lm.initial.t + o.tEnd;
    settings.outputStep = o.outputStep;
    settings.ode.step = o.step;
    settings.ode.rtol = o.rtol;
    settings.ode.atol = o.atol;
    settings.singularThreshold = o.singularThreshold;
    settings.constraints.rankTolerance = o.rankTolerance;
    parseLinearAlgebra(o.linearAlgebra, settings.constraints.linearAlgebra);
    settings.constraints.baumgarteAlpha = o.baumgarteAlpha;
    settings.constraints.baumgarteBeta = o.baumgarteBeta;
    settings.constraints.penaltyFactor = o.penaltyFactor;
    Simulator sim(lm.model, settings);

    std::ofstream csv;
    JointCoordinateTracker tracker(model);
    if (!o.out.empty()) {
        csv.open(o.out);
        if (!csv) {
            std::cerr << "error: cannot write '" << o.out << "'\n";
            return kBadInput;
        }
        csv << std::setprecision(17);
        writeHeader(csv, model, tracker);
    }
    SimulationFrame last;
    bool anyFrame = false;
    std::vector<double> lastCoords;
    const SimulationResult res = sim.run(lm.initial, [&](const SimulationFrame& f) {
        lastCoords = tracker.update(f.state);
        last = f;
        anyFrame = true;
        if (!csv.is_open()) return;
        csv << f.state.t;
        for (int b = 1; b < model.bodyCount(); ++b) {
            const Vec3 p = bodyPosition(model, f.state, BodyIndex(b));
            const Quat q = bodyOrientation(model, f.state, BodyIndex(b));
            csv << "," << p.x() << "," << p.y() << "," << p.z() << "," << q.w() << "," << q.x() << ","
                << q.y() << "," << q.z();
        }
        for (double c : lastCoords) csv << "," << c;
        csv << "," << f.violation.position << "," << f.violation.velocity << "," << f.violation.acceleration
            << "," << f.energy.total();
        for (const JointReaction& r : f.reactions)
            csv << "," << r.forceGlobal.x() << "," << r.forceGlobal.y() << "," << r.forceGlobal.z() << ","
                << r.torqueGlobal.x() << "," << r.torqueGlobal.y() << "," << r.torqueGlobal.z();
        for (const DriverEffort& d : f.drivers) csv << "," << d.value;
        csv << "," << f.rank << "," << f.smallestSingularValue << "," << f.stepSize << "," << f.statistics.steps
            << "," << f.statistics.rejectedSteps << "," << f.statistics.rhsEvaluations << "\n";
    });
    for (const SimulationEvent& e : res.events) {
        if (o.json) continue;
        std::cerr << "t = " << e.t << ": " << e.kind << ": " << e.detail << "\n";
    }
    if (o.json) {
        nlohmann::json j;
        j["ok"] = res.ok;
        if (!res.ok) j["error"] = res.message;
        j["method"] = o.method;
        j["integrator"] = o.integrator;
        j["steps"] = res.statistics.steps;
        j["rejected_steps"] = res.statistics.rejectedSteps;
        j["rhs_evaluations"] = res.statistics.rhsEvaluations;
        j["wall_time_s"] = res.wallTime;
        j["max_violation"] = {{"position", res.maxViolation.position},
                              {"velocity", res.maxViolation.velocity},
                              {"acceleration", res.maxViolation.acceleration}};
        j["energy"] = {{"initial", res.energyInitial}, {"final", res.energyFinal}, {"max_abs_drift", res.energyMaxDrift}};
        nlohmann::json bodies = nlohmann::json::object();
        for (int b = 1; anyFrame && b < model.bodyCount(); ++b) {
            const Quat q = bodyOrientation(model, last.state, BodyIndex(b));
            bodies[model.bodies[size_t(b)].name] = {
                {"position", vec(bodyPosition(model, last.state, BodyIndex(b)))},
                {"quaternion", {q.w(), q.x(), q.y(), q.z()}},
                {"velocity", vec(bodyVelocity(model, last.state, BodyIndex(b)))},
                {"angular_velocity", vec(bodyAngularVelocity(model, last.state, BodyIndex(b)))}};
        }
        nlohmann::json joints = nlohmann::json::object();
        for (const JointReaction& r : last.reactions)
            joints[r.joint] = {{"force", vec(r.forceGlobal)}, {"torque", vec(r.torqueGlobal)},
                               {"force_joint_frame", vec(r.forceJoint)}, {"torque_joint_frame", vec(r.torqueJoint)},
                               {"statically_indeterminate", r.indeterminate}};
        const auto& coords = tracker.coordinates();
        for (size_t k = 0; k < coords.size() && k < lastCoords.size(); ++k)
            joints[model.joint(coords[k].joint).name][coords[k].angular ? "angle" : "displacement"] = lastCoords[k];
        nlohmann::json drivers = nlohmann::json::object();
        for (const DriverEffort& d : last.drivers) drivers[d.driver] = d.value;
        // A run that fails before its first frame has no final state to show.
        j["final"] = anyFrame ? nlohmann::json{{"t", last.state.t}, {"bodies", bodies}, {"joints", joints}, {"drivers", drivers}}
                              : nlohmann::json(nullptr);
        nlohmann::json events = nlohmann::json::array();
        for (const SimulationEvent& e : res.events)
            events.push_back({{"t", e.t}, {"kind", e.kind}, {"joints", e.joints}, {"detail", e.detail}});
        j["events"] = events;
        std::cout << j.dump(2) << "\n";
    } else {
        std::cout << "steps " << res.statistics.steps << " (rejected " << res.statistics.rejectedSteps
                  << "), rhs evaluations " << res.statistics.rhsEvaluations << ", wall time " << res.wallTime
                  << " s\nmax violation: position " << res.maxViolation.position << ", velocity "
                  << res.maxViolation.velocity << ", acceleration " << res.maxViolation.acceleration
                  << "\nenergy: initial " << res.energyInitial << ", final " << res.energyFinal
                  << ", max drift " << res.energyMaxDrift << "\n";
    }
    if (!res.ok) {
        std::cerr << o.model << ": simulation failed at t = " << res.tFinal << ": " << res.message << "\n";
        return kSolverFailure;
    }
    return kSuccess;
}

}  // namespace looplab::cli
