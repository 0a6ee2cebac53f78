#include "workbench/FlexibleMemberCheck.h"

#include "looplab/model/ModelBuilder.h"

namespace looplab::ui {

std::optional<Diagnostic> flexibleMemberProblem(const ModelDocument& doc, ItemRef item)
{
    if (item.index < 0 || item.index >= itemCount(doc, item.kind))
        return std::nullopt;
    const auto i = static_cast<size_t>(item.index);
    ModelDocument alone;
    alone.name = doc.name;
    std::string list;
    if (item.kind == ItemKind::Beam) {
        alone.beams.push_back(doc.beams[i]);
        list = "/beams/";
    } else if (item.kind == ItemKind::Solid) {
        alone.solids.push_back(doc.solids[i]);
        list = "/solids/";
    } else {
        return std::nullopt;
    }
    const BuildResult built = buildModel(alone);
    if (built.diagnostics.empty())
        return std::nullopt;
    // The member is the first of its list in the probe: its pointer names index 0.
    Diagnostic problem = built.diagnostics.front();
    const std::string probeStart = list + "0";
    if (problem.location.compare(0, probeStart.size(), probeStart) == 0)
        problem.location = list + std::to_string(i) + problem.location.substr(probeStart.size());
    return problem;
}

}  // namespace looplab::ui
