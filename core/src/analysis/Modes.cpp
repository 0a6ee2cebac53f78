#include "looplab/analysis/Modes.h"

#include "analysis/modes/ModesWork.h"

#include "looplab/dynamics/Dynamics.h"
#include "MessageText.h"

#include <cmath>
#include <new>
#include <string>

// The procedure's stages are in analysis/modes/ (ModesWork.h lists them).

namespace looplab {

double modalAssurance(const Model& model, const VecX& a, const VecX& b) {
    const VecX Ma = applyMass(model, a), Mb = applyMass(model, b);
    const double aa = a.dot(Ma), bb = b.dot(Mb);
    if (!(aa > 0.0) || !(bb > 0.0)) return 0.0;
    const double ab = a.dot(Mb);
    return ab * ab / (aa * bb);
}

namespace {

ModesResult computeModesUnguarded(const Model& model, const State& state, const VecX& lambda, const ModesOptions& o,
                                  bool retry = true) {
    ModesResult res;
    modes::ModesWork work(model, o, state);
    if (!modes::setUpProblem(work, lambda, res)) return res;
    std::vector<Mode> rigidModes = modes::rigidBodyModes(work, res);
    if (work.elastic == 0) {
        res.modes = std::move(rigidModes);
        res.ok = true;
        return res;
    }
    if (!modes::factorizeAtReferenceShift(work, res)) return res;
    modes::moveShiftNearLowestMode(work, res);
    if (!modes::iterateShiftInverted(work, res)) return res;
    const modes::RejectedPair rejected = modes::recoverModes(work, res, std::move(rigidModes));
    modes::checkOnTangentSpace(work, res);
    res.factorization = work.lu.methodName();
    res.ok = !res.modes.empty();
    // The pairs rejected lie at some ω²: a shift there is the natural next try, and it is
    // made here rather than advised, since for a model whose frequencies double precision
    // does not resolve (a material far from any real one) it fails there too, and the
    // advice would send the user round in a circle.
    const double nearer = rejected.squaredFrequency;
    if (!res.ok && retry && nearer != 0.0 && std::isfinite(nearer) && nearer != work.sigma) {
        ModesOptions again = o;
        again.shift = nearer;
        ModesResult second = computeModesUnguarded(model, state, lambda, again, false);
        if (second.ok) {
            second.warnings.insert(second.warnings.begin(),
                                   message::format("no physical mode was found near the shift %.3g rad^2/s^2; these "
                                                   "were found at the shift %.3g, the squared frequency of the pairs "
                                                   "rejected there",
                                                   work.sigma, nearer));
            return second;
        }
    }
    if (!res.ok) res.message = modes::noModeMessage(work, res, rejected, retry && nearer != work.sigma);
    return res;
}

}  // namespace

ModesResult computeModes(const Model& model, const State& state, const VecX& lambda, const ModesOptions& o) {
    // Spectra throws when its own decompositions fail (a tridiagonal matrix with non-finite
    // entries, from a model whose numbers leave double precision): a failure with its reason.
    try {
        return computeModesUnguarded(model, state, lambda, o);
    } catch (const std::bad_alloc&) {
        ModesResult res;
        res.message = "out of memory in the eigenvalue iteration (" + std::to_string(model.velocitySize()) +
                      " coordinates)";
        return res;
    } catch (const std::exception& e) {
        ModesResult res;
        res.message = std::string("the eigenvalue iteration failed (") + e.what() +
                      "): the shifted matrix or the mass holds numbers that double precision cannot resolve; check "
                      "the materials and masses";
        return res;
    }
}

}  // namespace looplab
