// libFuzzer target for the study-file reader (docs/fuzzing.md, docs/study-format.md).
//
// Every input is read as a study file placed in resources/studies, so that the model paths
// of the shipped studies ("../examples/four-bar.json", "toggle-clamp-workpiece.json")
// resolve and the reader goes on to the parameters, the analysis and the outputs, which it
// checks against the model. Rejecting an input with diagnostics is the expected outcome;
// what counts as a finding is a crash, a sanitizer report, an exception the reader had to
// report as an internal error, or one of these properties failing:
//
//  * a rejected file has at least one diagnostic, each naming a file, with a message, and
//    either a line and column (syntax) or a JSON pointer (everything else);
//  * an accepted study has between 1 and 10 000 000 cases, every parameter's pointer
//    names a number of the model, and its first and last cases have finite values;
//  * every output of an accepted study names a quantity of its analysis.
//
// The model a study names may be any path: a directory, a device that never ends
// (/dev/zero) or standard input (run with it closed or from /dev/null) must give a
// diagnostic, not hang or exhaust the memory.
#include "looplab/model/ModelBuilder.h"
#include "looplab/files/ModelFile.h"
#include "looplab/study/StudyCases.h"
#include "looplab/study/StudyFile.h"
#include "looplab/study/StudyQuantities.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

using namespace looplab;

namespace {

const std::string kFile = std::string(LOOPLAB_FUZZ_STUDIES_DIR) + "/fuzz-input.json";
const char* const kInternalStudyError = "internal error while reading the study";

[[noreturn]] void finding(const char* what, const std::string& detail) {
    std::fprintf(stderr, "\n*** fuzz_study_file: %s\n%s\n", what, detail.c_str());
    std::abort();
}

void checkDiagnostics(const Diagnostics& diagnostics) {
    if (diagnostics.empty()) finding("rejected without a diagnostic", "");
    for (const Diagnostic& d : diagnostics) {
        // At the start only: messages quote the file's own text, which may say anything.
        if (d.message.rfind(kInternalStudyError, 0) == 0 || d.message.rfind(kInternalErrorPrefix, 0) == 0)
            finding("an exception escaped", d.toString());
        if (d.file.empty()) finding("diagnostic without a file name", d.toString());
        if (d.message.empty()) finding("diagnostic without a message", d.toString());
        const bool positioned = d.line > 0 && d.column > 0;
        const bool pointed = d.location.empty() || d.location[0] == '/';
        if (!pointed || (positioned && !d.location.empty()))
            finding("diagnostic with a malformed location", d.toString());
    }
}

bool allFinite(const std::vector<double>& values) {
    return std::all_of(values.begin(), values.end(), [](double x) { return std::isfinite(x); });
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    const StudyFileResult read = parseStudyFile(text, kFile);
    if (!read.study) {
        checkDiagnostics(read.diagnostics);
        return 0;
    }
    if (!read.diagnostics.empty()) finding("a study came with diagnostics", formatDiagnostics(read.diagnostics));
    const StudyDescription& s = *read.study;

    const long cases = studyCaseCount(s);
    if (cases < 1 || cases > 10'000'000) finding("an accepted study has a case count out of range", std::to_string(cases));
    for (const long index : {0L, cases - 1}) {
        const std::vector<double> values = studyCaseValues(s, index);
        if (values.size() != s.parameters.size())
            finding("a case has not one value per parameter", std::to_string(index));
        if (!allFinite(values)) finding("a case has a non-finite parameter value", std::to_string(index));
    }

    const nlohmann::json model = nlohmann::json::parse(s.modelText, nullptr, false);
    if (model.is_discarded()) finding("an accepted study's model text is not JSON", s.modelPath);
    for (const StudyParameter& p : s.parameters) {
        const nlohmann::json::json_pointer pointer(p.path);
        if (!model.contains(pointer) || !model.at(pointer).is_number())
            finding("a parameter's pointer names no number of the model", p.path);
    }

    const DocumentResult doc = parseModelDocument(s.modelText, s.modelPath);
    const BuildResult built = doc.document ? buildModel(*doc.document, s.modelPath) : BuildResult{};
    if (!built.ok()) finding("an accepted study's model does not build", s.modelPath);
    const std::vector<std::string> quantities = studyQuantities(*built.model, s.analysis);
    for (const StudyOutput& o : s.outputs)
        if (std::find(quantities.begin(), quantities.end(), o.quantity) == quantities.end())
            finding("an output names no quantity of the analysis", o.quantity);
    return 0;
}
