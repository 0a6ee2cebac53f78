// libFuzzer target for static equilibrium and eigenanalysis (docs/fuzzing.md).
//
// Every input is read as a model file; a model that builds and assembles, and is small
// (the bounds below keep each input to milliseconds), goes through findEquilibrium() and,
// at an equilibrium, through computeModes(), as `looplab-cli statics` and `modes` run them.
// A rejected file, a failed equilibrium or failed modes are expected outcomes; what counts as
// a finding is a crash, a sanitizer report (AddressSanitizer, UndefinedBehaviorSanitizer,
// LeakSanitizer), an exception, or one of these properties failing:
//
//  * a result that is not ok says why (a non-empty message);
//  * an ok equilibrium has a finite state and multipliers, meets its constraints and has a
//    force residual small against its loads (Statics.h, loadResidualTolerance);
//  * ok modes have finite frequencies and shapes, in ascending order.
#include "looplab/analysis/Modes.h"
#include "looplab/analysis/Statics.h"
#include "looplab/files/ModelFile.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

using namespace looplab;

namespace {

const char* const kFile = "fuzz-input.json";

// Larger models are skipped: they add run time per input, not new code paths.
constexpr int kMaxCoordinates = 150;
constexpr size_t kMaxEquations = 120;

[[noreturn]] void finding(const char* what, const std::string& detail) {
    std::fprintf(stderr, "\n*** fuzz_statics_modes: %s\n%s\n", what, detail.c_str());
    std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    const DocumentResult read = parseModelDocument(text, kFile);
    if (!read.document) return 0;
    // Cheap bounds on the description before anything is built or assembled.
    const ModelDocument& doc = *read.document;
    if (doc.bodies.size() > 12 || doc.beams.size() > 3 || doc.solids.size() > 2 || doc.joints.size() > 16) return 0;
    for (const BeamDoc& b : doc.beams)
        if (b.elements > 8) return 0;
    for (const SolidDoc& s : doc.solids)
        if (s.elements[0] * 1LL * s.elements[1] * s.elements[2] > 4) return 0;
    AssemblyOptions assembly;
    assembly.maxIterations = 30;
    const LoadedModel lm = prepareModel(doc, kFile, assembly);
    if (!lm.ok()) return 0;
    const Model& model = *lm.model;
    if (model.velocitySize() > kMaxCoordinates || model.equations.size() > kMaxEquations) return 0;

    StaticsOptions so;
    so.maxNewtonIterations = 20;
    so.maxRelaxationSteps = 300;
    State s = lm.initial;
    const StaticsResult st = findEquilibrium(model, s, so);
    if (!st.ok && st.message.empty())
        finding("statics failed without a reason", std::string(staticsOutcomeName(st.outcome)) + "\n" + text);
    if (st.ok) {
        if (!s.q.allFinite() || !st.lambda.allFinite())
            finding("an equilibrium with numbers that are not finite", text);
        if (!(st.forceResidual <= so.loadResidualTolerance * st.loadScale) && st.loadScale > 0.0)
            finding("an equilibrium whose residual is not small against its loads", text);
    }
    const bool equilibrium = st.ok || st.outcome == StaticsOutcome::Mechanism || st.outcome == StaticsOutcome::Unstable;
    if (!equilibrium) return 0;

    ModesOptions mo;
    mo.count = 3;
    const ModesResult modes = computeModes(model, s, st.lambda, mo);
    if (!modes.ok) {
        if (modes.message.empty()) finding("modes failed without a reason", text);
        return 0;
    }
    for (const Mode& m : modes.modes)
        if (!std::isfinite(m.frequencyHz) || !std::isfinite(m.s.real()) || !std::isfinite(m.s.imag()) ||
            !m.shape.allFinite())
            finding("a mode that is not finite", text);
    return 0;
}
