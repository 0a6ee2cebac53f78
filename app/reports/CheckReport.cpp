#include "CheckReport.h"
#include "ReportJson.h"

#include "looplab/forces/MotorRating.h"
#include "looplab/kinematics/NodeJoints.h"
#include "looplab/model/Cam.h"
#include "looplab/model/ModelBuilder.h"

#include <cmath>
#include <optional>
#include <sstream>

namespace looplab::reports {

nlohmann::json camsJson(const Model& model) {
    nlohmann::json out = nlohmann::json::object();
    for (const Coupler& c : model.couplers) {
        if (!c.cam) continue;
        const CamCycle k = camCycle(*c.cam);
        out[c.name] = {{"follower", camFollowerName(c.cam->follower)},
                       {"base_radius", k.baseRadius},
                       {"largest_pressure_angle_deg", k.largestPressureAngle * 180.0 / M_PI},
                       {"largest_pressure_angle_at_deg", k.largestPressureAt * 180.0 / M_PI},
                       {"smallest_radius_of_curvature", k.smallestRadius},
                       {"smallest_radius_at_deg", k.smallestRadiusAt * 180.0 / M_PI},
                       {"undercut", k.undercut}};
        if (k.undercut) out[c.name]["undercut_at_deg"] = k.undercutAt * 180.0 / M_PI;
    }
    return out;
}

std::string camsText(const Model& model) {
    std::ostringstream out;
    for (const Coupler& c : model.couplers) {
        if (!c.cam) continue;
        const CamCycle k = camCycle(*c.cam);
        const double deg = 180.0 / M_PI;
        out << "cam " << c.name << " (" << camFollowerName(c.cam->follower) << "): base radius " << k.baseRadius
            << " m, pressure angle up to " << k.largestPressureAngle * deg << " deg at " << k.largestPressureAt * deg
            << " deg, smallest radius of curvature " << k.smallestRadius << " m at " << k.smallestRadiusAt * deg
            << " deg\n";
        if (k.undercut)
            out << "warning: cam " << c.name << " is undercut at " << k.undercutAt * deg
                << " deg of its law: the profile cusps there (a "
                << (c.cam->follower == CamFollower::Roller ? "smaller roller" : "larger base circle")
                << " or a gentler law avoids it) and a real follower could not follow the law\n";
        else if (k.largestPressureAngle > 30.0 / deg && !c.cam->oscillating)
            out << "note: cam " << c.name << ": a pressure angle above 30 deg pushes a translating follower "
                   "hard against its guide (a larger base circle or a longer rise lowers it)\n";
    }
    return out.str();
}

nlohmann::json motorsJson(const Model& model) {
    nlohmann::json out = nlohmann::json::object();
    for (const ForceElement& e : model.forces) {
        const std::optional<MotorRating> r = motorRating(e, 0.0);
        if (!r) continue;
        nlohmann::json m = {{"type", forceTypeName(e.type)},
                            {"joint", model.joint(e.joint).name},
                            {"no_load_speed", r->noLoadRate ? nlohmann::json(*r->noLoadRate) : nlohmann::json(nullptr)},
                            {e.rotational ? "stall_torque" : "stall_force", r->stallEffort}};
        if (r->stallCurrent) m["stall_current"] = *r->stallCurrent;
        out[e.name] = m;
    }
    return out;
}

namespace {

// A stop's bounds as a user gives them: a joint's limits in its coordinate, a distance
// stop's min and max.
struct StopBounds {
    const char* kind;
    const char* unit;
    std::optional<double> lower, upper;
};

StopBounds stopBounds(const Stop& s) {
    StopBounds b{s.kind == Stop::Kind::JointLimit ? "joint_limit" : "distance",
                 s.kind == Stop::Kind::JointLimit && s.angular ? "rad" : "m", std::nullopt, std::nullopt};
    if (std::isfinite(s.lower)) b.lower = s.lower;
    if (std::isfinite(s.upper)) b.upper = s.upper;
    return b;
}

}  // namespace

nlohmann::json stopsJson(const Model& model) {
    nlohmann::json out = nlohmann::json::array();
    for (const Stop& s : model.stops) {
        const StopBounds b = stopBounds(s);
        nlohmann::json j = {{"name", s.name}, {"kind", b.kind}, {"unit", b.unit}, {"restitution", s.restitution}};
        const bool limit = s.kind == Stop::Kind::JointLimit;
        j[limit ? "lower" : "min"] = b.lower ? nlohmann::json(*b.lower) : nlohmann::json(nullptr);
        j[limit ? "upper" : "max"] = b.upper ? nlohmann::json(*b.upper) : nlohmann::json(nullptr);
        out.push_back(j);
    }
    return out;
}

std::string motorsText(const Model& model) {
    std::ostringstream out;
    for (const ForceElement& e : model.forces) {
        const std::optional<MotorRating> r = motorRating(e, 0.0);
        if (!r) continue;
        const char* rate = e.rotational ? " rad/s" : " m/s";
        out << "motor " << e.name << " on " << model.joint(e.joint).name << " (at t = 0): no-load speed ";
        if (r->noLoadRate)
            out << *r->noLoadRate << rate;
        else
            out << "none (the torque never falls to zero)";
        out << ", stall " << (e.rotational ? "torque " : "force ") << r->stallEffort << (e.rotational ? " N·m" : " N");
        if (r->stallCurrent) out << ", stall current " << *r->stallCurrent << " A";
        out << "\n";
    }
    return out.str();
}

std::string stopsText(const Model& model) {
    std::ostringstream out;
    if (!model.stops.empty()) out << "limits and stops:\n";
    for (const Stop& s : model.stops) {
        const StopBounds b = stopBounds(s);
        if (s.kind == Stop::Kind::JointLimit)
            out << "  joint " << s.name << ": " << (s.angular ? "angle" : "slide") << " in [" << *b.lower << ", "
                << *b.upper << "] " << b.unit;
        else {
            out << "  stop " << s.name << ": distance";
            if (b.lower) out << " at least " << *b.lower << " m";
            if (b.lower && b.upper) out << " and";
            if (b.upper) out << " at most " << *b.upper << " m";
        }
        out << ", restitution " << s.restitution << "\n";
    }
    return out.str();
}

nlohmann::json explanationJson(const AssemblyExplanation& e) {
    nlohmann::json j;
    j["closed"] = e.closed;
    nlohmann::json gaps = nlohmann::json::array();
    for (const JointGap& g : e.gaps)
        gaps.push_back({{"joint", g.name}, {"distance_m", g.distance}, {"angle_deg", g.angle * 180.0 / M_PI},
                        {"point1", vec(g.point1)}, {"point2", vec(g.point2)}, {"label", g.label()}});
    j["gaps"] = gaps;
    if (e.fourBar) {
        nlohmann::json links = nlohmann::json::array();
        for (const FourBarLink& l : e.fourBar->links)
            links.push_back({{"name", l.name}, {"length_m", l.length}, {"grounded", l.grounded}});
        j["four_bar"] = {{"links", links},
                         {"joints", e.fourBar->joints},
                         {"closes", !e.fourBar->tooLong()},
                         {"grashof", e.fourBar->grashof()},
                         {"reach", e.fourBar->reachSentence()},
                         {"grashof_sentence", e.fourBar->grashofSentence()}};
    }
    nlohmann::json detached = nlohmann::json::array();
    for (const DetachedJoint& d : e.detached) {
        nlohmann::json x{{"joint", d.name}, {"message", d.sentence}};
        x["distance1_m"] = d.distance1 >= 0.0 ? nlohmann::json(d.distance1) : nlohmann::json();
        x["distance2_m"] = d.distance2 >= 0.0 ? nlohmann::json(d.distance2) : nlohmann::json();
        detached.push_back(x);
    }
    j["detached_joints"] = detached;
    if (e.redundancy)
        j["redundancy_advice"] = {{"joints", e.redundancy->joints}, {"message", e.redundancy->sentence}};
    if (e.singular)
        j["singular"] = {{"links", {e.singular->link1, e.singular->link2}},
                         {"joint", e.singular->joint},
                         {"point", vec(e.singular->point)},
                         {"direction", vec(e.singular->direction)},
                         {"smallest_singular_value", e.singular->smallestSingularValue},
                         {"message", e.singular->sentence}};
    j["findings"] = e.sentences();
    return j;
}

std::optional<AssemblyExplanation> explainFailure(const ModelDocument& doc, const std::string& file) {
    const BuildResult b = buildModel(doc, file);
    if (!b.ok()) return std::nullopt;
    AssemblyExplanation e = explainAssembly(*b.model);
    if (e.closed) return std::nullopt;
    return e;
}

nlohmann::json checkJson(const Model& model, const MobilityReport& r, const AssemblyExplanation& why) {
    nlohmann::json j;
    j["model"] = model.name;
    j["bodies"] = model.movingBodyCount();
    j["joints"] = model.joints.size();
    j["drivers"] = model.drivers.size();
    j["couplers"] = model.couplers.size();
    if (!r.repeatingCouplers.empty()) j["repeating_couplers"] = r.repeatingCouplers;
    if (const nlohmann::json cams = camsJson(model); !cams.empty()) j["cams"] = cams;
    if (const nlohmann::json motors = motorsJson(model); !motors.empty()) j["motors"] = motors;
    if (!model.stops.empty()) j["stops"] = stopsJson(model);
    if (const nlohmann::json meshes = meshesJson(model); !meshes.empty()) j["meshes"] = meshes;
    j["coordinates"] = r.coordinates;
    j["equations"] = r.equations;
    j["rank"] = r.rank;
    j["dof"] = r.dof;
    j["gruebler"] = r.gruebler;
    j["rank_tolerance"] = r.rankTolerance;
    j["smallest_singular_value"] = r.smallestSingularValue;
    j["linear_algebra"] = r.sparse ? "sparse" : "dense";
    nlohmann::json red = nlohmann::json::array();
    for (const auto& e : r.redundant) red.push_back({{"joint", e.joint}, {"equation", e.equation}});
    j["redundant"] = red;
    const bool dofOk = !model.expected.dof || *model.expected.dof == r.dof;
    const bool redOk = !model.expected.redundant || *model.expected.redundant == static_cast<int>(r.redundant.size());
    if (model.expected.dof || model.expected.redundant) j["matches_expected"] = dofOk && redOk;
    j["explanation"] = explanationJson(why);
    nlohmann::json notes = nlohmann::json::array();
    for (const JointNote& n : beamNodeJointNotes(model)) notes.push_back({{"joint", n.joint}, {"message", n.message}});
    j["notes"] = notes;
    return j;
}

}  // namespace looplab::reports
