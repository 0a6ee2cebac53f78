// `looplab-cli simulate`: forward dynamics with a chosen method and ODE solver.
#include "CliCommon.h"
#include "OutputFile.h"

#include "looplab/analysis/EnergyBalance.h"
#include "looplab/analysis/TransmissionAngle.h"
#include "looplab/kinematics/JointCoordinates.h"
#include "looplab/integrate/MethodRegistry.h"
#include "looplab/bodies/NodalOutputs.h"
#include "looplab/simulation/Simulation.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <atomic>
#include <iomanip>
#include <limits>
#include <map>
#include <sstream>

namespace looplab::cli {

namespace {

// Gear pairs and racks: their teeth's force along the line of action is reported too.
bool hasTeeth(const Coupler& c) { return c.type == CouplerType::Gear || c.type == CouplerType::RackAndPinion; }


// The nodes named by --node that get columns of their own: each once, and not those a
// beam already writes as its root and tip. Empty with an error naming the first unknown one.
struct NamedNodes {
    std::vector<std::string> names;
    std::vector<MeshNode> nodes;
};
std::string resolveNodes(const Model& model, const std::vector<std::string>& requested, NamedNodes& out) {
    for (const std::string& name : requested) {
        const std::optional<MeshNode> node = findMeshNode(model, name);
        if (!node)
            return "--node '" + name + "' is not a node of the model's beams or solids (nodes are named " +
                   "BEAM.node<k>, BEAM.root, BEAM.tip or SOLID.node<i>_<j>_<k>)";
        if (std::find(out.names.begin(), out.names.end(), name) != out.names.end()) continue;
        bool written = false;
        for (const NodalPoint& p : nodalPoints(model, node->body))
            written = written || model.body(node->body).name + "." + p.name == name;
        if (written) continue;
        out.names.push_back(name);
        out.nodes.push_back(*node);
    }
    return {};
}

void writeHeader(std::ostream& csv, const Model& model, const JointCoordinateTracker& coords, const NamedNodes& nodes) {
    csv << "t";
    for (int b = 1; b < model.bodyCount(); ++b) {
        const std::string& n = model.bodies[size_t(b)].name;
        if (model.bodies[size_t(b)].nodeSize() > 0) {  // centre of mass and named points of the mesh
            for (const char* c : {"x", "y", "z"}) csv << "," << n << "." << c;
            for (const NodalPoint& p : nodalPoints(model, BodyIndex(b)))
                for (const char* c : {"x", "y", "z"}) csv << "," << n << "." << p.name << "." << c;
            continue;
        }
        for (const char* c : {"x", "y", "z", "qw", "qx", "qy", "qz"}) csv << "," << n << "." << c;
    }
    for (const std::string& n : nodes.names)
        for (const char* c : {"x", "y", "z"}) csv << "," << n << "." << c;
    for (const auto& c : coords.coordinates()) csv << "," << c.name;
    csv << ",position_violation,velocity_violation,acceleration_violation,energy";
    for (const Joint& j : model.joints)
        for (const char* c : {"fx", "fy", "fz", "tx", "ty", "tz"}) csv << "," << j.name << "." << c;
    for (const Driver& d : model.drivers) csv << "," << d.name << ".effort";
    for (const Coupler& c : model.couplers) {
        csv << "," << c.name << ".effort,";
        if (c.cam)
            csv << c.name << ".contact_force," << c.name << ".pressure_angle";
        else if (hasTeeth(c))
            csv << c.name << ".pitch_force," << c.name << ".tooth_force";
        else
            csv << c.name << ".pitch_force";
    }
    csv << ",rank,smallest_singular_value,step_size,steps,rejected_steps,rhs_evaluations\n";
}

}  // namespace

std::string checkSimulateOptions(const SimulateOptions& o) {
    const RunSettingsDoc& g = o.given;
    // A run-block field given on the command line is checked here; one from the model
    // was checked by the model reader.
    auto given = [](const char* option, const std::optional<double>& v, Bound bound, double upper = INFINITY) {
        return v ? checkOption(option, *v, bound, upper) : std::string();
    };
    for (const std::string& e : {given("--t-end", g.tEnd, Bound::NonNegative),
                                 given("--step", g.step, Bound::NonNegative),
                                 given("--rtol", g.rtol, Bound::Positive, 1.0),
                                 given("--atol", g.atol, Bound::Positive),
                                 given("--output-step", g.outputStep, Bound::Positive),
                                 checkOption("--singular-threshold", o.singularThreshold, Bound::NonNegative),
                                 checkOption("--rank-tolerance", o.rankTolerance, Bound::Positive, 1.0, false),
                                 checkOption("--max-wall-time", o.maxWallTime, Bound::NonNegative),
                                 checkOption("--max-output-bytes", o.maxOutputBytes, Bound::Positive)})
        if (!e.empty()) return e;
    if (o.maxRows < 1) return "--max-rows must be at least 1";
    if (o.maxSteps < 1) return "--max-steps must be at least 1";
    for (const auto& [key, value] : g.parameters)
        if (const ParameterInfo* p = findParameter(key))
            if (std::string e = p->check(value, "--" + key); !e.empty()) return e;
    // A pair named wholly on the command line is refused before the model is read.
    std::string unsupported;
    if (g.method && g.integrator && !isSupportedPair(*g.method, *g.integrator, &unsupported)) return unsupported;
    return {};
}

ResolvedRunSettings simulationSettingsFor(const SimulateOptions& o, const RunSettingsDoc& modelRun, double startTime,
                                          std::vector<std::string>* warnings) {
    SimulationSettings base;
    base.ode.step = 0.0;  // automatic, unless a fixed-step integrator is given one
    base.singularThreshold = o.singularThreshold;
    base.constraints.rankTolerance = o.rankTolerance;
    parseLinearAlgebra(o.linearAlgebra, base.constraints.linearAlgebra);
    base.maxSteps = o.maxSteps;
    base.maxWallTime = o.maxWallTime;
    base.maxFrames = o.maxRows;
    base.stopWhenStiff = o.onStiff == "stop";
    ResolvedRunSettings r = resolveRunSettings(o.given, modelRun, base);
    if (!r.error.empty()) return r;
    for (const std::string& note : r.notes) warnings->push_back(note);
    SimulationSettings& s = r.settings;
    if (!o.given.tEnd && !modelRun.tEnd) {
        r.error = "--t-end is needed: the model's run block gives no t_end (the simulated time span)";
        return r;
    }
    const IntegratorInfo& integratorInfo = *findIntegrator(s.integrator);
    const bool fixedStep = integratorInfo.stepControl == StepControl::Fixed;
    if (fixedStep && !(s.ode.step > 0.0)) {
        r.error = s.integrator + " needs --step";
        return r;
    }
    // A parameter the chosen pair does not read would silently change nothing.
    for (const std::string& key : o.givenParameters)
        if (!pairReads(s.method, s.integrator, key))
            warnings->push_back("--" + key + " is ignored: neither the " + s.method + " method nor the " +
                                s.integrator + " integrator reads it");
    char buf[200];
    const double span = s.tEnd;
    const double rows = outputRows(span, s.outputStep);
    if (rows > double(o.maxRows)) {
        std::snprintf(buf, sizeof buf,
                      "--output-step %g over --t-end %g gives %.3g output rows, more than --max-rows %ld",
                      s.outputStep, span, rows, o.maxRows);
        r.error = buf;
        return r;
    }
    if (fixedStep && span / s.ode.step > double(o.maxSteps)) {
        std::snprintf(buf, sizeof buf, "%s --step %g over --t-end %g takes %.3g steps, more than --max-steps %ld",
                      s.integrator.c_str(), s.ode.step, span, std::ceil(span / s.ode.step), o.maxSteps);
        r.error = buf;
        return r;
    }
    s.tEnd = startTime + span;
    return r;
}

int runSimulate(const SimulateOptions& o) {
    if (const std::string e = checkSimulateOptions(o); !e.empty()) return reportFailure(o.json, kBadInput, e);
    if (!o.out.empty()) {
        const std::string clash = OutputFile::checkNotAnInput("--out", o.out, {o.model});
        if (!clash.empty()) return reportFailure(o.json, kBadInput, clash);
    }
    LoadedModel lm;
    RunSettingsDoc modelRun;
    if (int rc = loadOrReport(o.model, lm, o.json, &modelRun)) return rc;
    const Model& model = *lm.model;
    std::vector<std::string> warnings;
    const ResolvedRunSettings resolved = simulationSettingsFor(o, modelRun, lm.initial.t, &warnings);
    if (!resolved.error.empty()) return reportFailure(o.json, kBadInput, resolved.error);
    for (const std::string& w : warnings) std::cerr << "warning: " << w << "\n";
    NamedNodes nodes;
    if (const std::string e = resolveNodes(model, o.nodes, nodes); !e.empty()) return reportFailure(o.json, kBadInput, e);
    const SimulationSettings& settings = resolved.settings;
    Simulator sim(lm.model, settings);

    OutputFile csvFile;
    JointCoordinateTracker tracker(model);
    if (!o.out.empty()) {
        std::ostringstream header;
        writeHeader(header, model, tracker, nodes);
        if (const std::string e = checkOutputBytes(header.str(), outputRows(settings.tEnd - lm.initial.t, settings.outputStep),
                                                   o.maxOutputBytes);
            !e.empty())
            return reportFailure(o.json, kBadInput, e);
        std::string error;
        if (!csvFile.open(o.out, &error)) return reportFailure(o.json, kBadInput, error);
        // The settings the rows were computed with, and where each came from, on a comment
        // line before the column names.
        csvFile.stream() << std::setprecision(17) << "# looplab-cli simulate: " << resolved.summary() << "\n"
                         << header.str();
        csvFile.drain();
    }
    // A failed write ends the run: its result could not be kept anyway.
    std::atomic<bool> stop{false};
    SimulationFrame last;
    bool anyFrame = false;
    std::vector<double> lastCoords;
    // The work of the drivers and loads and E − E₀ − W over the output frames
    // (EnergyBalance.h), and a four-bar's transmission angle range.
    EnergyBalance balance;
    double maxBalance = 0.0;
    double muMin = 0.0, muMax = 0.0;
    bool haveMu = false;
    const std::optional<FourBarTransmission> fourBar = FourBarTransmission::find(model);
    // Each cam's smallest contact force over the frames, and when it first turned
    // negative: there a real follower would leave the cam (lift-off is not modelled).
    struct CamContact {
        double smallest = std::numeric_limits<double>::infinity(), at = 0.0;
        double leaves = NAN, largestPressureAngle = 0.0;
    };
    std::map<std::string, CamContact> cams;
    const SimulationResult res = sim.run(lm.initial, [&](const SimulationFrame& f) {
        for (size_t k = 0; k < f.couplers.size(); ++k) {
            const CouplerEffort& c = f.couplers[k];
            if (!model.couplers[k].cam) continue;
            CamContact& w = cams[c.coupler];
            if (c.contactForce < w.smallest) {
                w.smallest = c.contactForce;
                w.at = f.state.t;
            }
            if (c.contactForce < 0.0 && std::isnan(w.leaves)) w.leaves = f.state.t;
            w.largestPressureAngle = std::max(w.largestPressureAngle, c.pressureAngle);
        }
        lastCoords = f.jointCoordinates;
        balance.add(f.state.t, f.energy.total(), driverPower(model, f.state, f.drivers) + appliedLoadPower(model, f.state));
        maxBalance = std::max(maxBalance, std::abs(balance.balance()));
        if (fourBar) {
            const double mu = fourBar->angle(model, f.state);
            muMin = haveMu ? std::min(muMin, mu) : mu;
            muMax = haveMu ? std::max(muMax, mu) : mu;
            haveMu = true;
        }
        last = f;
        anyFrame = true;
        if (!csvFile.isOpen()) return;
        std::ostream& csv = csvFile.stream();
        csv << f.state.t;
        for (int b = 1; b < model.bodyCount(); ++b) {
            if (model.bodies[size_t(b)].nodeSize() > 0) {
                const Vec3 c = flexibleCentreOfMass(model, f.state, BodyIndex(b));
                csv << "," << c.x() << "," << c.y() << "," << c.z();
                for (const NodalPoint& p : nodalPoints(model, BodyIndex(b))) {
                    const Vec3 r = nodalPointPosition(model, f.state, BodyIndex(b), p);
                    csv << "," << r.x() << "," << r.y() << "," << r.z();
                }
                continue;
            }
            const Vec3 p = bodyPosition(model, f.state, BodyIndex(b));
            const Quat q = bodyOrientation(model, f.state, BodyIndex(b));
            csv << "," << p.x() << "," << p.y() << "," << p.z() << "," << q.w() << "," << q.x() << ","
                << q.y() << "," << q.z();
        }
        for (const MeshNode& n : nodes.nodes) {
            const Vec3 r = meshNodePosition(model, f.state, n);
            csv << "," << r.x() << "," << r.y() << "," << r.z();
        }
        for (double c : lastCoords) csv << "," << c;
        csv << "," << f.violation.position << "," << f.violation.velocity << "," << f.violation.acceleration
            << "," << f.energy.total();
        for (const JointReaction& r : f.reactions)
            csv << "," << r.forceGlobal.x() << "," << r.forceGlobal.y() << "," << r.forceGlobal.z() << ","
                << r.torqueGlobal.x() << "," << r.torqueGlobal.y() << "," << r.torqueGlobal.z();
        for (const DriverEffort& d : f.drivers) csv << "," << d.value;
        for (size_t k = 0; k < f.couplers.size(); ++k) {
            const CouplerEffort& c = f.couplers[k];
            csv << "," << c.value << ",";
            if (model.couplers[k].cam)
                csv << c.contactForce << "," << c.pressureAngle;
            else if (hasTeeth(model.couplers[k]))
                csv << c.pitchForce << "," << c.contactForce;
            else
                csv << c.pitchForce;
        }
        csv << "," << f.rank << "," << f.smallestSingularValue << "," << f.stepSize << "," << f.statistics.steps
            << "," << f.statistics.rejectedSteps << "," << f.statistics.rhsEvaluations << "\n";
        if (!csvFile.drain()) stop = true;
    }, [&](const SimulationEvent& e) {
        // As they happen: a warning that the model is stiff is worth seeing before the end.
        if (!o.json) std::cerr << "t = " << e.t << ": " << runEventKindName(e.kind) << ": " << e.detail << "\n";
    }, &stop);
    // The rows written so far are kept even when the run failed; a file that could not be
    // written completely is not, nor one without a single row (the old file stays).
    std::string writeError;
    if (!anyFrame) csvFile.abandon();
    const bool written = csvFile.commit(&writeError);
    const bool ok = res.ok && written;
    std::string error = res.ok ? std::string() : res.message;
    if (!written) error = writeError;
    if (o.json) {
        nlohmann::json j;
        j["ok"] = ok;
        if (!ok) {
            j["error"] = error;
            j["exit_status"] = written ? kSolverFailure : kWriteFailure;
        }
        j["method"] = settings.method;
        j["integrator"] = settings.integrator;
        nlohmann::json used = nlohmann::json::object();
        for (const ResolvedSetting& f : resolved.fields) {
            const bool text = f.key == "method" || f.key == "integrator";
            used[f.key] = {{"value", text ? nlohmann::json(f.value) : nlohmann::json(std::stod(f.value))},
                           {"from", settingSourceName(f.source)}};
        }
        j["settings"] = used;
        j["warnings"] = warnings;
        if (const nlohmann::json meshes = meshesJson(model); !meshes.empty()) j["meshes"] = meshes;
        j["steps"] = res.statistics.steps;
        j["rejected_steps"] = res.statistics.rejectedSteps;
        j["rhs_evaluations"] = res.statistics.rhsEvaluations;
        // Implicit steppers on the constrained equations (tlismni, hht-index3); 0 for the others.
        j["jacobian_evaluations"] = res.statistics.jacobianEvaluations;
        j["outer_iterations"] = res.statistics.outerIterations;
        j["inner_iterations"] = res.statistics.innerIterations;
        j["repartitions"] = res.statistics.repartitions;
        j["wall_time_s"] = res.wallTime;
        j["max_violation"] = {{"position", res.maxViolation.position},
                              {"velocity", res.maxViolation.velocity},
                              {"acceleration", res.maxViolation.acceleration}};
        j["energy"] = {{"initial", res.energyInitial}, {"final", res.energyFinal}, {"max_abs_drift", res.energyMaxDrift},
                       {"work", balance.work()}, {"max_abs_balance", maxBalance}};
        if (haveMu) j["transmission_angle"] = {{"min", muMin}, {"max", muMax}};
        nlohmann::json camJson = nlohmann::json::object();
        for (const auto& [name, w] : cams)
            camJson[name] = {{"smallest_contact_force", w.smallest},
                             {"at", w.at},
                             {"contact_force_negative_from", std::isnan(w.leaves) ? nlohmann::json(nullptr) : nlohmann::json(w.leaves)},
                             {"largest_pressure_angle", w.largestPressureAngle}};
        if (!camJson.empty()) j["cams"] = camJson;
        nlohmann::json bodies = nlohmann::json::object();
        for (int b = 1; anyFrame && b < model.bodyCount(); ++b) {
            if (model.bodies[size_t(b)].nodeSize() > 0) {
                nlohmann::json points = nlohmann::json::object();
                for (const NodalPoint& p : nodalPoints(model, BodyIndex(b)))
                    points[p.name] = vec(nodalPointPosition(model, last.state, BodyIndex(b), p));
                bodies[model.bodies[size_t(b)].name] = {
                    {"position", vec(flexibleCentreOfMass(model, last.state, BodyIndex(b)))}, {"points", points}};
                continue;
            }
            const Quat q = bodyOrientation(model, last.state, BodyIndex(b));
            bodies[model.bodies[size_t(b)].name] = {
                {"position", vec(bodyPosition(model, last.state, BodyIndex(b)))},
                {"quaternion", {q.w(), q.x(), q.y(), q.z()}},
                {"velocity", vec(bodyVelocity(model, last.state, BodyIndex(b)))},
                {"angular_velocity", vec(bodyAngularVelocity(model, last.state, BodyIndex(b)))}};
        }
        // Every node asked for, under the name it was asked by (a root or tip too).
        nlohmann::json namedNodes = nlohmann::json::object();
        for (const std::string& name : o.nodes)
            if (anyFrame) namedNodes[name] = vec(meshNodePosition(model, last.state, *findMeshNode(model, name)));
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
        nlohmann::json couplers = nlohmann::json::object();
        for (const CouplerEffort& c : last.couplers)
            couplers[c.coupler] =
                std::isnan(c.pitchForce)
                    ? nlohmann::json{{"effort", c.value}}
                    : nlohmann::json{{"effort", c.value}, {"pitch_force", c.pitchForce}};
        for (size_t k = 0; k < last.couplers.size() && k < model.couplers.size(); ++k) {
            const CouplerEffort& c = last.couplers[k];
            if (model.couplers[k].cam) {
                couplers[c.coupler]["contact_force"] = c.contactForce;
                couplers[c.coupler]["pressure_angle"] = c.pressureAngle;
            } else if (hasTeeth(model.couplers[k])) {
                couplers[c.coupler]["tooth_force"] = c.contactForce;
            } else if (model.couplers[k].type == CouplerType::Linear) {
                couplers[c.coupler]["pitch_force"] = nullptr;
            }
        }
        // A run that fails before its first frame has no final state to show.
        nlohmann::json finalState = {{"t", last.state.t}, {"bodies", bodies}, {"joints", joints}, {"drivers", drivers}};
        if (!couplers.empty()) finalState["couplers"] = couplers;
        if (!o.nodes.empty()) finalState["nodes"] = namedNodes;
        j["final"] = anyFrame ? finalState : nlohmann::json(nullptr);
        nlohmann::json events = nlohmann::json::array();
        for (const SimulationEvent& e : res.events)
            events.push_back({{"t", e.t}, {"kind", runEventKindName(e.kind)}, {"joints", e.joints}, {"detail", e.detail}});
        j["events"] = events;
        std::cout << j.dump(2) << "\n";
    } else {
        std::cout << "settings: " << resolved.summary() << "\n";
        if (const std::string meshes = meshesText(model); !meshes.empty()) std::cout << "meshes:\n" << meshes;
        std::cout << "steps " << res.statistics.steps << " (rejected " << res.statistics.rejectedSteps
                  << "), rhs evaluations " << res.statistics.rhsEvaluations << ", wall time " << res.wallTime
                  << " s\nmax violation: position " << res.maxViolation.position << ", velocity "
                  << res.maxViolation.velocity << ", acceleration " << res.maxViolation.acceleration
                  << "\nenergy: initial " << res.energyInitial << ", final " << res.energyFinal
                  << ", max drift " << res.energyMaxDrift << "\n";
        for (const auto& [name, w] : cams)
            std::cout << "cam " << name << ": contact force down to " << w.smallest << " N at t = " << w.at
                      << ", pressure angle up to " << w.largestPressureAngle * 180.0 / M_PI << " deg\n";
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
