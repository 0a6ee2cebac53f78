// Loading: a document built into a Model and assembled into its initial State.
#include "looplab/files/ModelFile.h"

#include "looplab/dynamics/StartEquilibrium.h"
#include "looplab/model/ModelBuilder.h"

namespace looplab {

LoadedModel prepareModel(const ModelDocument& doc, const std::string& file,
                         const AssemblyOptions& options) {
    LoadedModel r;
    try {
        BuildResult b = buildModel(doc, file);
        if (!b.ok()) {
            r.diagnostics = b.diagnostics;
            return r;
        }
        State s = initialState(*b.model);
        const AssemblyResult a = assemble(*b.model, s, options);
        if (!a.ok) {
            r.diagnostics.push_back({file, "/joints", a.message, 0, 0});
            return r;
        }
        StartMotion start = StartMotion::Consistent;
        if (doc.run.start) parseStartMotion(*doc.run.start, start);
        r.start = startModel(*b.model, s, start, options.rankTolerance);
        r.model = b.model;
        r.initial = s;
    } catch (const std::exception& e) {
        r = LoadedModel{};
        r.diagnostics.push_back({file, "", std::string(kInternalErrorPrefix) + e.what(), 0, 0});
    }
    return r;
}

LoadedModel loadModel(const std::string& path, const AssemblyOptions& options) {
    DocumentResult d = readModelDocument(path);
    if (!d.document) {
        LoadedModel r;
        r.diagnostics = d.diagnostics;
        return r;
    }
    return prepareModel(*d.document, path, options);
}

}  // namespace looplab
