// `looplab-cli check`: mobility report of a model at its assembled initial configuration.
#include "CliCommon.h"
#include "CheckReport.h"

#include "looplab/kinematics/NodeJoints.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <sstream>

namespace looplab::cli {

using namespace looplab::reports;

int runCheck(const CheckOptions& o) {
    LoadedModel lm;
    std::string failure;
    if (const int rc = loadModel(o.model, lm, &failure)) {
        while (!failure.empty() && failure.back() == '\n') failure.pop_back();
        const DocumentResult doc = readModelDocument(o.model);
        const std::optional<AssemblyExplanation> why =
            doc.document ? explainFailure(*doc.document, o.model) : std::nullopt;
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
            printJsonReport(j);
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
    const std::string meshes = meshesText(model);
    if (o.json) {
        nlohmann::json j = checkJson(model, r, why);
        j["ok"] = true;
        j["file"] = o.model;
        printJsonReport(j);
    } else {
        std::cout << "model:                 " << model.name << "\n"
                  << "moving bodies:         " << model.movingBodyCount() << "\n"
                  << (meshes.empty() ? "" : "meshes:\n" + meshes)
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
        for (const JointNote& n : beamNodeJointNotes(model)) std::cout << "note: " << n.message << "\n";
        std::cout << camsText(model);
        std::cout << motorsText(model);
        std::cout << stopsText(model);
        const std::vector<std::string> findings = why.sentences();
        if (!findings.empty()) std::cout << "findings:\n";
        for (const std::string& f : findings) std::cout << "  " << f << "\n";
    }
    return kSuccess;
}

}  // namespace looplab::cli
