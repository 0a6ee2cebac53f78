// libFuzzer target for the model-file reader and the model builder (docs/fuzzing.md).
//
// Every input is read as a model file. Rejecting it with diagnostics is the expected
// outcome for almost all inputs; what counts as a finding is a crash, a sanitizer report
// (AddressSanitizer, UndefinedBehaviorSanitizer, LeakSanitizer), an exception that the
// loader had to report as an internal error, or one of the properties below failing:
//
//  * a rejected file has at least one diagnostic, each naming the file, with a message,
//    and either a line and column (syntax) or a JSON pointer (everything else);
//  * an accepted document saves to text that reads back, and saving that gives the same
//    text again (docs/model-format.md, "Saving");
//  * a model that builds holds only finite numbers, unit joint axes, and a finite initial
//    state.
#include "looplab/model/ModelBuilder.h"
#include "looplab/files/ModelFile.h"
#include "looplab/model/State.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

using namespace looplab;

namespace {

const char* const kFile = "fuzz-input.json";

[[noreturn]] void finding(const char* what, const std::string& detail) {
    std::fprintf(stderr, "\n*** fuzz_model_loader: %s\n%s\n", what, detail.c_str());
    std::abort();
}

void checkDiagnostics(const Diagnostics& diagnostics, const char* stage) {
    if (diagnostics.empty()) finding("rejected without a diagnostic", stage);
    for (const Diagnostic& d : diagnostics) {
        if (d.message.rfind(kInternalErrorPrefix, 0) == 0)
            finding("an exception escaped", d.toString());
        if (d.file != kFile) finding("diagnostic without the file name", d.toString());
        if (d.message.empty()) finding("diagnostic without a message", d.toString());
        const bool positioned = d.line > 0 && d.column > 0;
        const bool pointed = d.location.empty() || d.location[0] == '/';
        if (!pointed || (positioned && !d.location.empty()))
            finding("diagnostic with a malformed location", d.toString());
    }
}

bool finiteFrame(const BodyFrame& f) {
    return f.origin.allFinite() && f.axes.allFinite() &&
           (f.axes.transpose() * f.axes - Mat3::Identity()).cwiseAbs().maxCoeff() < 1e-12;
}

// What the builder checks for, so that the solvers never see an infinity or a NaN.
std::string modelProblem(const Model& m) {
    if (!m.gravity.allFinite()) return "gravity";
    if (!std::isfinite(m.lengthScale) || !(m.lengthScale > 0.0)) return "length scale";
    for (std::size_t i = 1; i < m.bodies.size(); ++i) {
        const Body& b = m.bodies[i];
        const double mass = b.formulation->totalMass();
        if (!(std::isfinite(mass) && mass > 0.0 && std::isfinite(1.0 / mass))) return "mass of " + b.name;
        if (const RigidBody* rigid = b.rigid())
            if (!rigid->inertia().allFinite() || !rigid->inertiaInverse().allFinite()) return "inertia of " + b.name;
    }
    for (const Joint& j : m.joints)
        if (!finiteFrame(j.frame1) || !finiteFrame(j.frame2) || !std::isfinite(j.length))
            return "frames of joint " + j.name;
    for (const ForceElement& f : m.forces)
        if (!f.point1.origin.allFinite() || !f.point2.origin.allFinite() ||
            !f.localPoint.allFinite() || !f.vector.allFinite() ||
            !std::isfinite(f.stiffness) || !std::isfinite(f.damping) ||
            !std::isfinite(f.freeLength) || !std::isfinite(f.preload) ||
            !std::isfinite(f.freeAngle))
            return "force " + f.name;
    return {};
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    const DocumentResult read = parseModelDocument(text, kFile);
    if (!read.document) {
        checkDiagnostics(read.diagnostics, "reading");
        return 0;
    }
    if (!read.diagnostics.empty())
        finding("a document came with diagnostics", formatDiagnostics(read.diagnostics));

    const std::string saved = serializeModelDocument(*read.document);
    const DocumentResult reread = parseModelDocument(saved, kFile);
    if (!reread.document)
        finding("a saved document does not read back",
                saved + "\n" + formatDiagnostics(reread.diagnostics));
    if (serializeModelDocument(*reread.document) != saved)
        finding("saving a saved document changes it", saved);

    const BuildResult built = buildModel(*read.document, kFile);
    if (!built.ok()) {
        checkDiagnostics(built.diagnostics, "building");
        return 0;
    }
    const std::string problem = modelProblem(*built.model);
    if (!problem.empty()) finding("a model that builds has a non-finite or skewed", problem);
    const State initial = initialState(*built.model);
    if (!initial.q.allFinite() || !initial.v.allFinite())
        finding("a model that builds has a non-finite initial state", text);
    return 0;
}
