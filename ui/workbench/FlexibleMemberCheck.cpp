#include "workbench/FlexibleMemberCheck.h"

#include "looplab/model/ModelBuilder.h"

#include <algorithm>
#include <cmath>

namespace looplab::ui {

std::optional<Diagnostic> flexibleMemberProblem(const ModelDocument& doc, ItemRef item)
{
    if (item.index < 0 || item.index >= itemCount(doc, item.kind))
        return std::nullopt;
    const auto i = static_cast<size_t>(item.index);
    ModelDocument alone;
    alone.name = doc.name;
    std::string list;
    // A valid element count is meshed as one element: the builder's other checks do not
    // depend on the count, and meshing a long beam or a fine box only to check a modulus
    // would make each edit cost a second build.
    if (item.kind == ItemKind::Beam) {
        BeamDoc beam = doc.beams[i];
        if (beam.elements >= 1 && beam.elements <= kMaxBeamElements)
            beam.elements = 1;
        alone.beams.push_back(beam);
        list = "/beams/";
    } else if (item.kind == ItemKind::Solid) {
        SolidDoc solid = doc.solids[i];
        const long long total = static_cast<long long>(solid.elements[0]) * solid.elements[1] * solid.elements[2];
        // One element has the volume of the whole box, which passes the builder's check
        // of an element's volume whenever the box's own elements do.
        const double elementVolume = solid.size.prod() / static_cast<double>(std::max(total, 1LL));
        if (std::min({solid.elements[0], solid.elements[1], solid.elements[2]}) >= 1 && total <= kMaxSolidElements &&
            std::isfinite(solid.size.prod()) && elementVolume > 1e-300)
            solid.elements[0] = solid.elements[1] = solid.elements[2] = 1;
        alone.solids.push_back(solid);
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

std::optional<Diagnostic> nodeSetProblem(const ModelDocument& doc, ItemRef item)
{
    if (item.kind != ItemKind::NodeSet || item.index < 0 || item.index >= itemCount(doc, item.kind))
        return std::nullopt;
    ModelDocument alone = doc;
    alone.joints.clear();
    alone.drivers.clear();
    alone.couplers.clear();
    alone.forces.clear();
    alone.markers.clear();
    alone.traces.clear();
    const BuildResult built = buildModel(alone);
    const std::string where = "/node_sets/" + std::to_string(item.index);
    for (const Diagnostic& d : built.diagnostics)
        if (d.location == where || d.location.compare(0, where.size() + 1, where + "/") == 0)
            return d;
    return std::nullopt;
}

}  // namespace looplab::ui
