// libFuzzer target for the URDF and MJCF importers (docs/fuzzing.md,
// docs/import-export.md). An input that starts with "<robot" after blanks is read as URDF,
// any other as MJCF. Rejecting an input with diagnostics is the expected outcome; what
// counts as a finding is a crash, a sanitizer report, or one of these properties failing:
//
//  * a rejected input has at least one diagnostic, each naming the file, with a message;
//  * an accepted input gives model-format JSON that the model reader accepted (the document
//    is there), and that document builds or is refused with diagnostics, never a throw.
#include "looplab/exchange/ModelImport.h"
#include "looplab/model/ModelBuilder.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

using namespace looplab;

namespace {

void failProperty(const char* what) {
    std::fprintf(stderr, "*** fuzz_model_import: %s\n", what);
    std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    const size_t first = text.find_first_not_of(" \t\r\n");
    const bool urdf = first != std::string::npos && text.compare(first, 6, "<robot") == 0;
    const std::string file = urdf ? "fuzz-input.urdf" : "fuzz-input.xml";
    const ImportResult r = urdf ? importUrdf(text, file) : importMjcf(text, file);
    if (!r.ok()) {
        if (r.diagnostics.empty()) failProperty("a rejected input has no diagnostic");
        for (const Diagnostic& d : r.diagnostics)
            if (d.file != file || d.message.empty()) failProperty("a diagnostic without its file or message");
        return 0;
    }
    if (r.modelJson.empty()) failProperty("an accepted input without model JSON");
    const BuildResult b = buildModel(*r.document, file);
    if (!b.ok() && b.diagnostics.empty()) failProperty("a refused build without diagnostics");
    return 0;
}
