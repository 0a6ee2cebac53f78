#include "SimulationRecord.h"
#include "ReportJson.h"

#include "looplab/integrate/MethodRegistry.h"
#include "looplab/kinematics/JointCoordinates.h"

#include <algorithm>
#include <cmath>

namespace looplab::reports {

namespace {

// Gear pairs and racks: their teeth's force along the line of action is reported too.
bool hasTeeth(const Coupler& c) { return c.type == CouplerType::Gear || c.type == CouplerType::RackAndPinion; }

// Named points a mesh body's own columns already give (its root, tip, ...).
bool writtenByItsBody(const Model& model, const MeshNode& node, const std::string& name) {
    for (const NodalPoint& p : nodalPoints(model, node.body))
        if (model.body(node.body).name + "." + p.name == name) return true;
    return false;
}

}  // namespace

std::string SimulationRecord::checkNodes(const Model& model, const std::vector<std::string>& nodes,
                                         OptionStyle style) {
    for (const std::string& name : nodes)
        if (!findMeshNode(model, name))
            return (style == OptionStyle::CommandLine ? "--node '" : "nodes: '") + name + "' is not a node of the model's beams or solids (nodes are named " +
                   "BEAM.node<k>, BEAM.root, BEAM.tip or SOLID.node<i>_<j>_<k>)";
    return {};
}

SimulationRecord::SimulationRecord(const Model& model, const std::vector<std::string>& nodes)
    : model_(model), fourBar_(FourBarTransmission::find(model)) {
    for (const std::string& name : nodes) {
        const std::optional<MeshNode> node = findMeshNode(model, name);
        if (!node || std::find(nodeNames_.begin(), nodeNames_.end(), name) != nodeNames_.end()) continue;
        nodeNames_.push_back(name);
        if (writtenByItsBody(model, *node, name)) continue;
        nodeColumns_.push_back(name);
        columnNodes_.push_back(*node);
    }
    auto add = [&](const std::string& prefix, std::initializer_list<const char*> parts) {
        for (const char* c : parts) columns_.push_back(prefix + "." + c);
    };
    columns_.push_back("t");
    for (int b = 1; b < model.bodyCount(); ++b) {
        const std::string& n = model.bodies[size_t(b)].name;
        if (model.bodies[size_t(b)].nodeSize() > 0) {  // centre of mass and named points of the mesh
            add(n, {"x", "y", "z"});
            for (const NodalPoint& p : nodalPoints(model, BodyIndex(b))) add(n + "." + p.name, {"x", "y", "z"});
            continue;
        }
        add(n, {"x", "y", "z", "qw", "qx", "qy", "qz"});
    }
    for (const std::string& n : nodeColumns_) add(n, {"x", "y", "z"});
    const JointCoordinateTracker tracker(model);
    for (const auto& c : tracker.coordinates()) columns_.push_back(c.name);
    for (const char* c : {"position_violation", "velocity_violation", "acceleration_violation", "energy"})
        columns_.push_back(c);
    // The energy the impacts took, only where there are stops to strike.
    if (!model.stops.empty()) columns_.push_back("dissipated");
    for (const Joint& j : model.joints) add(j.name, {"fx", "fy", "fz", "tx", "ty", "tz"});
    for (const Driver& d : model.drivers) columns_.push_back(d.name + ".effort");
    for (const Coupler& c : model.couplers) {
        columns_.push_back(c.name + ".effort");
        if (c.cam)
            add(c.name, {"contact_force", "pressure_angle"});
        else if (hasTeeth(c))
            add(c.name, {"pitch_force", "tooth_force"});
        else
            add(c.name, {"pitch_force"});
    }
    // The outputs of force laws that have some (a motor's torque, speed, power ...).
    for (const ForceElement& e : model.forces)
        for (const std::string& o : e.forceLaw->outputNames()) columns_.push_back(e.name + "." + o);
    for (const char* c : {"rank", "smallest_singular_value", "step_size", "steps", "rejected_steps", "rhs_evaluations"})
        columns_.push_back(c);
    row_.reserve(columns_.size());
}

void SimulationRecord::add(const SimulationFrame& f) {
    const Model& model = model_;
    for (size_t k = 0; k < f.couplers.size(); ++k) {
        const CouplerEffort& c = f.couplers[k];
        if (!model.couplers[k].cam) continue;
        CamContact& w = cams_[c.coupler];
        if (c.contactForce < w.smallest) {
            w.smallest = c.contactForce;
            w.at = f.state.t;
        }
        if (c.contactForce < 0.0 && std::isnan(w.leaves)) w.leaves = f.state.t;
        w.largestPressureAngle = std::max(w.largestPressureAngle, c.pressureAngle);
    }
    // The work as the run counted it over its steps (WorkCounter.h): the same at any
    // output step.
    if (!initialEnergy_) initialEnergy_ = f.energy.total();
    maxBalance_ = std::max(maxBalance_, std::abs(f.energy.total() - *initialEnergy_ - f.work + f.dissipated));
    if (fourBar_) {
        const double mu = fourBar_->angle(model, f.state);
        muMin_ = haveMu_ ? std::min(muMin_, mu) : mu;
        muMax_ = haveMu_ ? std::max(muMax_, mu) : mu;
        haveMu_ = true;
    }
    last_ = f;

    std::vector<double>& r = row_;
    r.clear();
    auto put = [&](const Vec3& v) { r.insert(r.end(), {v.x(), v.y(), v.z()}); };
    r.push_back(f.state.t);
    for (int b = 1; b < model.bodyCount(); ++b) {
        if (model.bodies[size_t(b)].nodeSize() > 0) {
            put(flexibleCentreOfMass(model, f.state, BodyIndex(b)));
            for (const NodalPoint& p : nodalPoints(model, BodyIndex(b)))
                put(nodalPointPosition(model, f.state, BodyIndex(b), p));
            continue;
        }
        put(bodyPosition(model, f.state, BodyIndex(b)));
        const Quat q = bodyOrientation(model, f.state, BodyIndex(b));
        r.insert(r.end(), {q.w(), q.x(), q.y(), q.z()});
    }
    for (const MeshNode& n : columnNodes_) put(meshNodePosition(model, f.state, n));
    r.insert(r.end(), f.jointCoordinates.begin(), f.jointCoordinates.end());
    r.insert(r.end(), {f.violation.position, f.violation.velocity, f.violation.acceleration, f.energy.total()});
    if (!model_.stops.empty()) r.push_back(f.dissipated);
    for (const JointReaction& j : f.reactions) {
        put(j.forceGlobal);
        put(j.torqueGlobal);
    }
    for (const DriverEffort& d : f.drivers) r.push_back(d.value);
    for (size_t k = 0; k < f.couplers.size(); ++k) {
        const CouplerEffort& c = f.couplers[k];
        r.push_back(c.value);
        if (model.couplers[k].cam)
            r.insert(r.end(), {c.contactForce, c.pressureAngle});
        else if (hasTeeth(model.couplers[k]))
            r.insert(r.end(), {c.pitchForce, c.contactForce});
        else
            r.push_back(c.pitchForce);
    }
    for (const ForceElement& e : model.forces)
        for (const ForceOutput& o : e.forceLaw->outputs(model, f.state)) r.push_back(o.value);
    r.insert(r.end(), {double(f.rank), f.smallestSingularValue, f.stepSize, double(f.statistics.steps),
                       double(f.statistics.rejectedSteps), double(f.statistics.rhsEvaluations)});
}

nlohmann::json SimulationRecord::summary(const SimulationResult& res, const ResolvedRunSettings& resolved,
                                         const std::vector<std::string>& warnings) const {
    const Model& model = model_;
    nlohmann::json j;
    j["method"] = resolved.settings.method;
    j["integrator"] = resolved.settings.integrator;
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
                   {"work", last_ ? last_->work : 0.0}, {"max_abs_balance", maxBalance_}};
    if (!model_.stops.empty()) j["energy"]["dissipated"] = last_ ? last_->dissipated : 0.0;
    if (haveMu_) j["transmission_angle"] = {{"min", muMin_}, {"max", muMax_}};
    nlohmann::json camJson = nlohmann::json::object();
    for (const auto& [name, w] : cams_)
        camJson[name] = {{"smallest_contact_force", w.smallest},
                         {"at", w.at},
                         {"contact_force_negative_from", std::isnan(w.leaves) ? nlohmann::json(nullptr) : nlohmann::json(w.leaves)},
                         {"largest_pressure_angle", w.largestPressureAngle}};
    if (!camJson.empty()) j["cams"] = camJson;
    // A run that fails before its first frame has no final state to show.
    if (last_) {
        const SimulationFrame& last = *last_;
        // Every node asked for, under the name it was asked by (a root or tip too).
        nlohmann::json namedNodes = nlohmann::json::object();
        for (const std::string& name : nodeNames_)
            namedNodes[name] = vec(meshNodePosition(model, last.state, *findMeshNode(model, name)));
        nlohmann::json joints = nlohmann::json::object();
        for (const JointReaction& r : last.reactions)
            joints[r.joint] = {{"force", vec(r.forceGlobal)}, {"torque", vec(r.torqueGlobal)},
                               {"force_joint_frame", vec(r.forceJoint)}, {"torque_joint_frame", vec(r.torqueJoint)},
                               {"statically_indeterminate", r.indeterminate}};
        const JointCoordinateTracker tracker(model);
        const auto& coords = tracker.coordinates();
        for (size_t k = 0; k < coords.size() && k < last.jointCoordinates.size(); ++k)
            joints[model.joint(coords[k].joint).name][coords[k].angular ? "angle" : "displacement"] =
                last.jointCoordinates[k];
        nlohmann::json drivers = nlohmann::json::object();
        for (const DriverEffort& d : last.drivers) drivers[d.driver] = d.value;
        nlohmann::json couplers = nlohmann::json::object();
        for (const CouplerEffort& c : last.couplers)
            couplers[c.coupler] = std::isnan(c.pitchForce)
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
        nlohmann::json finalState = {{"t", last.state.t},
                                     {"bodies", bodiesJson(model, last.state, true)},
                                     {"joints", joints},
                                     {"drivers", drivers}};
        if (!couplers.empty()) finalState["couplers"] = couplers;
        nlohmann::json forceOutputs = nlohmann::json::object();
        for (const ForceElement& e : model.forces)
            for (const ForceOutput& o : e.forceLaw->outputs(model, last.state)) forceOutputs[e.name][o.name] = o.value;
        if (!forceOutputs.empty()) finalState["forces"] = forceOutputs;
        if (!nodeNames_.empty()) finalState["nodes"] = namedNodes;
        j["final"] = finalState;
    } else {
        j["final"] = nullptr;
    }
    nlohmann::json events = nlohmann::json::array();
    for (const SimulationEvent& e : res.events)
        events.push_back({{"t", e.t}, {"kind", runEventKindName(e.kind)}, {"joints", e.joints}, {"detail", e.detail}});
    j["events"] = events;
    return j;
}

std::string SimulationRecord::camsText() const {
    std::string text;
    char buf[320];
    for (const auto& [name, w] : cams_) {
        std::snprintf(buf, sizeof buf, "cam %s: contact force down to %g N at t = %g, pressure angle up to %g deg\n",
                      name.c_str(), w.smallest, w.at, w.largestPressureAngle * 180.0 / M_PI);
        text += buf;
    }
    return text;
}

}  // namespace looplab::reports
