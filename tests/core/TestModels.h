#pragma once
// Helpers shared by the core tests: loading examples and building small models.

#include "looplab/ModelBuilder.h"
#include "looplab/ModelFile.h"

#include <QtTest>
#include <string>

namespace looplab::test {

inline std::string examplePath(const char* name) {
    return std::string(LOOPLAB_EXAMPLES_DIR) + "/" + name;
}

/// Loads and assembles an example; fails the calling test on any diagnostic.
inline LoadedModel loadExample(const char* name) {
    LoadedModel lm = loadModel(examplePath(name));
    if (!lm.ok()) qWarning("%s", formatDiagnostics(lm.diagnostics).c_str());
    return lm;
}

inline ModelDocument exampleDocument(const char* name) {
    DocumentResult r = readModelDocument(examplePath(name));
    if (!r.document) qWarning("%s", formatDiagnostics(r.diagnostics).c_str());
    return r.document.value_or(ModelDocument{});
}

}  // namespace looplab::test
