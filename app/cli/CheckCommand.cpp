// `looplab-cli check`: mobility report of a model at its assembled initial configuration.
#include "CliCommon.h"

#include "looplab/Mobility.h"

#include <nlohmann/json.hpp>

#include <sstream>

namespace looplab::cli {

int runCheck(const CheckOptions& o) {
    LoadedModel lm;
    if (int rc = loadOrReport(o.model, lm, o.json)) return rc;
    const Model& model = *lm.model;
    LinearAlgebra la = LinearAlgebra::Automatic;
    parseLinearAlgebra(o.linearAlgebra, la);
    const MobilityReport r = analyzeMobility(model, lm.initial, kDefaultRankTolerance, la);
    const bool dofOk = !model.expected.dof || *model.expected.dof == r.dof;
    const bool redOk =
        !model.expected.redundant || *model.expected.redundant == static_cast<int>(r.redundant.size());
    // Beam and solid meshes: their node and element counts.
    nlohmann::json meshes = nlohmann::json::object();
    std::ostringstream meshText;
    for (const Body& b : model.bodies) {
        if (b.kind == BodyKind::Beam)
            meshes[b.name] = {{"kind", "beam"}, {"nodes", b.beam->nodeCount()}, {"elements", b.beam->elementCount()}};
        else if (b.kind == BodyKind::Solid)
            meshes[b.name] = {{"kind", "solid"}, {"nodes", b.solid->nodeCount()}, {"elements", b.solid->elementCount()}};
        else
            continue;
        meshText << "  " << b.name << ": " << meshes[b.name]["kind"].get<std::string>() << ", "
                 << meshes[b.name]["nodes"].get<int>() << " nodes, " << meshes[b.name]["elements"].get<int>() << " elements\n";
    }
    if (o.json) {
        nlohmann::json j;
        j["ok"] = true;
        j["model"] = model.name;
        j["file"] = o.model;
        j["bodies"] = model.movingBodyCount();
        j["joints"] = model.joints.size();
        j["drivers"] = model.drivers.size();
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
        std::cout << j.dump(2) << "\n";
    } else {
        std::cout << "model:                 " << model.name << "\n"
                  << "moving bodies:         " << model.movingBodyCount() << "\n"
                  << (meshes.empty() ? "" : "meshes:\n" + meshText.str())
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
    }
    return kSuccess;
}

}  // namespace looplab::cli
