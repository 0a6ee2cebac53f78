#include "ModelHandle.h"

#include "CheckReport.h"

#include "looplab/exchange/ModelImport.h"

#include <nlohmann/json.hpp>

namespace looplab::python {

namespace {

LoadOutcome prepare(DocumentResult doc, const std::string& file) {
    LoadOutcome out;
    if (!doc.document) {
        out.diagnostics = std::move(doc.diagnostics);
        return out;
    }
    LoadedModel lm = prepareModel(*doc.document, file);
    if (!lm.ok()) {
        out.diagnostics = std::move(lm.diagnostics);
        if (const auto why = reports::explainFailure(*doc.document, file)) out.explanation = why->sentences();
        return out;
    }
    out.model = std::make_shared<ModelHandle>(ModelHandle{std::move(*doc.document), file, lm.model, lm.initial, lm.start});
    return out;
}

}  // namespace

LoadOutcome loadFile(const std::string& path) { return prepare(readModelDocument(path), path); }

LoadOutcome importFile(const std::string& path) {
    ImportResult imported = importModel(path);
    if (!imported.ok()) {
        LoadOutcome out;
        out.diagnostics = std::move(imported.diagnostics);
        out.report = std::move(imported.report);
        return out;
    }
    DocumentResult doc;
    doc.document = std::move(imported.document);
    LoadOutcome out = prepare(std::move(doc), path);
    out.report = std::move(imported.report);
    return out;
}

LoadOutcome loadText(const std::string& text, const std::string& label) {
    return prepare(parseModelDocument(text, label), "");
}

LoadOutcome withNumber(const ModelHandle& m, const std::string& pointer, double value) {
    LoadOutcome out;
    auto fail = [&](const std::string& message) {
        out.diagnostics.push_back(Diagnostic{m.file, pointer, message, 0, 0});
        return out;
    };
    nlohmann::json j = nlohmann::json::parse(serializeModelDocument(m.document));
    nlohmann::json::json_pointer p;
    try {
        p = nlohmann::json::json_pointer(pointer);
    } catch (const nlohmann::json::exception&) {
        return fail("not a JSON pointer (write it as /drivers/0/law/speed)");
    }
    if (!j.contains(p)) return fail("the model has no value here");
    if (!j[p].is_number()) return fail("the value here is not a number");
    j[p] = value;
    DocumentResult doc = parseModelDocument(j.dump(), m.file);
    if (!doc.document) {
        out.diagnostics = std::move(doc.diagnostics);
        return out;
    }
    BuildResult b = buildModel(*doc.document, m.file);
    if (!b.ok()) {
        out.diagnostics = std::move(b.diagnostics);
        return out;
    }
    if (b.model->positionSize() != m.model->positionSize() || b.model->velocitySize() != m.model->velocitySize())
        return fail("changing this number changes the model's coordinates: load the changed model instead");
    out.model = std::make_shared<ModelHandle>(ModelHandle{std::move(*doc.document), m.file, b.model, m.initial, m.start});
    return out;
}

}  // namespace looplab::python
