#include "looplab/integrate/StiffnessReport.h"

#include "looplab/integrate/MethodRegistry.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace looplab {

std::vector<StiffBody> stiffBodies(const Model& model, const StiffnessFinding& finding) {
    const VecX& share = finding.share;
    const int nq = model.positionSize();
    if (share.size() != nq + model.velocitySize()) return {};
    std::vector<StiffBody> all;
    for (int b = 1; b < model.bodyCount(); ++b) {
        const Body& body = model.bodies[size_t(b)];
        const CoordinateSlice& sl = body.slice;
        StiffBody s;
        s.name = body.name;
        s.share = share.segment(sl.positionOffset, sl.positionSize).sum() +
                  share.segment(nq + sl.velocityOffset, sl.velocitySize).sum();
        // A beam's nodes hold the same numbers in q and v (6 each): name the node whose
        // coordinates carry the most.
        if (body.beam()) {
            const int n = body.nodeSize();
            double best = -1.0;
            for (int k = 0; k * n < sl.velocitySize; ++k) {
                const double w = share.segment(sl.positionOffset + k * n, n).sum() +
                                 share.segment(nq + sl.velocityOffset + k * n, n).sum();
                if (w > best) {
                    best = w;
                    s.beamNode = k;
                }
            }
        }
        all.push_back(s);
    }
    std::sort(all.begin(), all.end(), [](const StiffBody& a, const StiffBody& b) { return a.share > b.share; });
    std::vector<StiffBody> out;
    double covered = 0.0;
    for (const StiffBody& s : all) {
        if (out.size() == 3 || covered >= 0.9 || !(s.share > 0.0)) break;
        out.push_back(s);
        covered += s.share;
    }
    return out;
}

SimulationEvent stiffnessEvent(const Model& model, const std::string& stepperName, const StiffnessFinding& f) {
    std::string where;
    for (const StiffBody& b : stiffBodies(model, f)) {
        char share[32];
        std::snprintf(share, sizeof share, "%.0f %%", 100.0 * b.share);
        where += (where.empty() ? "" : ", ") + b.name +
                 (b.beamNode >= 0 ? " (mostly " + b.name + ".node" + std::to_string(b.beamNode) + ")" : "") + " " +
                 share;
    }
    std::string remedies;
    for (const auto& [method, integrator] : stiffRemedies())
        remedies += (remedies.empty() ? "" : ", ") + method + "/" + integrator;
    char figures[400];
    if (f.stabilityBound)
        std::snprintf(figures, sizeof figures,
                      "%s is held by stability, not accuracy: h*rho stayed above %.3g (its stability boundary) over "
                      "%d steps, with rho = %.3g 1/s (a motion near %.3g Hz) and h = %.3g s at step %ld",
                      stepperName.c_str(), f.threshold, StiffnessDetector::kStiffSteps, f.rho, f.rho / (2.0 * M_PI),
                      f.stepSize, f.step);
    else
        std::snprintf(figures, sizeof figures,
                      "%s is held by a fast motion near %.3g Hz (rho = %.3g 1/s) that makes %.0f periods between two "
                      "outputs %.3g s apart: steps of h = %.3g s resolve it, %d in a row, by step %ld",
                      stepperName.c_str(), f.rho / (2.0 * M_PI), f.rho, f.rho * f.outputInterval / (2.0 * M_PI),
                      f.outputInterval, f.stepSize, StiffnessDetector::kStiffSteps, f.step);
    SimulationEvent e;
    e.t = f.t;
    e.kind = RunEventKind::Stiffness;
    e.detail = "the model is stiff for an explicit integrator: " + std::string(figures) +
               (where.empty() ? "" : "; the stiff motion is in " + where + " (share of the fast part)") +
               ". Use instead: " + remedies + " (implicit: they step over fast motion they need not resolve)";
    return e;
}

}  // namespace looplab
