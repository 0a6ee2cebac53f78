// `looplab-cli check`: mobility report of a model at its assembled initial configuration.
#include "CliCommon.h"

#include "looplab/model/Cam.h"
#include "looplab/posing/AssemblyExplanation.h"
#include "looplab/kinematics/Mobility.h"
#include "looplab/kinematics/NodeJoints.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <sstream>

namespace looplab::cli {
namespace {

// Each cam's profile over a turn: what a cam designer checks before it is cut.
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

// Why the model does not assemble, if it builds at all.
std::optional<AssemblyExplanation> explainFailure(const std::string& path) {
    const DocumentResult doc = readModelDocument(path);
    if (!doc.document) return std::nullopt;
    const BuildResult b = buildModel(*doc.document, path);
    if (!b.ok()) return std::nullopt;
    AssemblyExplanation e = explainAssembly(*b.model);
    if (e.closed) return std::nullopt;
    return e;
}

}  // namespace

int runCheck(const CheckOptions& o) {
    LoadedModel lm;
    std::string failure;
    if (const int rc = loadModel(o.model, lm, &failure)) {
        while (!failure.empty() && failure.back() == '\n') failure.pop_back();
        const std::optional<AssemblyExplanation> why = explainFailure(o.model);
        // The diagnostic comes first, as for every bad file; the explanation follows it.
        std::cerr << failure << "\n";
        if (why)
            for (const std::string& s : why->sentences()) std::cerr << "  " << s << "\n";
        if (o.json) {
            nlohmann::json j;
            j["ok"] = false;
            j["error"] = failure;
            j["exit_status"] = rc;
            if (why) j["explanation"] = explanationJson(*why);
            std::cout << j.dump(2) << "\n";
        }
        return rc;
    }
    const Model& model = *lm.model;
    const AssemblyExplanation why = explainAssembly(model, lm.initial);
    LinearAlgebra la = LinearAlgebra::Automatic;
    parseLinearAlgebra(o.linearAlgebra, la);
    const MobilityReport r = analyzeMobility(model, lm.initial, kDefaultRankTolerance, la);
    const bool dofOk = !model.expected.dof || *model.expected.dof == r.dof;
    const bool redOk =
        !model.expected.redundant || *model.expected.redundant == static_cast<int>(r.redundant.size());
    // Beam and solid meshes: their node and element counts.
    const nlohmann::json meshes = meshesJson(model);
    // Joints on beam nodes that hold less than their type says.
    const std::vector<JointNote> jointNotes = beamNodeJointNotes(model);
    if (o.json) {
        nlohmann::json j;
        j["ok"] = true;
        j["model"] = model.name;
        j["file"] = o.model;
        j["bodies"] = model.movingBodyCount();
        j["joints"] = model.joints.size();
        j["drivers"] = model.drivers.size();
        j["couplers"] = model.couplers.size();
        if (!r.repeatingCouplers.empty()) j["repeating_couplers"] = r.repeatingCouplers;
        if (const nlohmann::json cams = camsJson(model); !cams.empty()) j["cams"] = cams;
        if (!meshes.empty()) j["meshes"] = meshes;
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
        if (model.expected.dof || model.expected.redundant) j["matches_expected"] = dofOk && redOk;
        j["explanation"] = explanationJson(why);
        nlohmann::json notes = nlohmann::json::array();
        for (const JointNote& n : jointNotes) notes.push_back({{"joint", n.joint}, {"message", n.message}});
        j["notes"] = notes;
        std::cout << j.dump(2) << "\n";
    } else {
        std::cout << "model:                 " << model.name << "\n"
                  << "moving bodies:         " << model.movingBodyCount() << "\n"
                  << (meshes.empty() ? "" : "meshes:\n" + meshesText(model))
                  << "coordinates:           " << r.coordinates << "\n"
                  << "constraint equations:  " << r.equations << "\n"
                  << "rank:                  " << r.rank << "\n"
                  << "degrees of freedom:    " << r.dof << "\n"
                  << "Gruebler count:        " << r.gruebler << "\n"
                  << "smallest sing. value:  " << r.smallestSingularValue << "\n"
                  << "linear algebra:        " << (r.sparse ? "sparse" : "dense") << "\n"
                  << "redundant equations:   " << r.redundant.size() << "\n";
        for (const auto& e : r.redundant) std::cout << "  " << e.joint << ": " << e.equation << "\n";
        if (!dofOk || !redOk)
            std::cout << "note: the model file expects dof " << model.expected.dof.value_or(r.dof)
                      << " and " << model.expected.redundant.value_or(0)
                      << " redundant equations\n";
        for (const JointNote& n : jointNotes) std::cout << "note: " << n.message << "\n";
        std::cout << camsText(model);
        const std::vector<std::string> findings = why.sentences();
        if (!findings.empty()) std::cout << "findings:\n";
        for (const std::string& f : findings) std::cout << "  " << f << "\n";
    }
    return kSuccess;
}

}  // namespace looplab::cli
