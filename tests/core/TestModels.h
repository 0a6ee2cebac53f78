#pragma once
// Helpers shared by the core tests: loading examples and building small models.

#include "looplab/model/ModelBuilder.h"
#include "looplab/files/ModelFile.h"
#include "looplab/model/State.h"

#include <QDir>
#include <QtTest>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>

namespace looplab::test {

// Built with AddressSanitizer and UndefinedBehaviorSanitizer (tests/CMakeLists.txt): the
// arithmetic runs 10–15 times slower, so long accuracy studies skip or shorten there.
#ifdef LOOPLAB_UNDER_SANITIZERS
constexpr bool kUnderSanitizers = true;
#else
constexpr bool kUnderSanitizers = false;
#endif

inline std::string examplePath(const char* name) {
    return std::string(LOOPLAB_EXAMPLES_DIR) + "/" + name;
}

/// The shipped examples' directory, and their file names in name order.
inline QString examplesDir() { return QStringLiteral(LOOPLAB_EXAMPLES_DIR); }
inline QStringList exampleFiles() { return QDir(examplesDir()).entryList({"*.json"}, QDir::Files, QDir::Name); }

/// A file's whole content (empty if it cannot be read).
inline std::string readText(const QString& path) {
    std::ifstream in(path.toStdString(), std::ios::binary);
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
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

/// Builds a model the test wrote itself; a diagnostic is a bug in the test, so it stops.
inline Model buildOrStop(const ModelDocument& doc) {
    const BuildResult built = buildModel(doc);
    if (!built.ok()) qFatal("%s", formatDiagnostics(built.diagnostics).c_str());
    return *built.model;
}

/// Largest difference of the bodies' positions [m] and of their orientations (angle of the
/// relative rotation times the model's length scale) between two states.
inline double poseDistance(const Model& m, const State& a, const State& b) {
    double d = 0.0;
    for (int k = 1; k < m.bodyCount(); ++k) {
        const BodyIndex body(k);
        d = std::max(d, (bodyPosition(m, a, body) - bodyPosition(m, b, body)).cwiseAbs().maxCoeff());
        d = std::max(d, m.lengthScale * bodyOrientation(m, a, body).angularDistance(bodyOrientation(m, b, body)));
    }
    return d;
}

}  // namespace looplab::test
