// `looplab-cli import` and `export`: models from and to URDF and MJCF
// (docs/import-export.md).
#include "CliCommon.h"
#include "OutputFile.h"
#include "RunInputs.h"

#include "looplab/exchange/ModelExport.h"
#include "looplab/exchange/ModelImport.h"

#include <nlohmann/json.hpp>

namespace looplab::cli {

namespace {

// The report, a line each on stderr ("note: ..."), as everything left out is said.
void printReport(const std::vector<std::string>& report) {
    for (const std::string& r : report) std::cerr << "note: " << r << "\n";
}

int writeOut(const std::string& path, const std::string& text, bool json, const std::vector<std::string>& inputs) {
    if (const std::string clash = OutputFile::checkNotAnInput("--out", path, inputs); !clash.empty())
        return reportFailure(json, kBadInput, clash);
    OutputFile file;
    std::string error;
    if (!file.open(path, &error)) return reportFailure(json, kBadInput, error);
    file.stream() << text;
    if (!file.commit(&error)) return reportFailure(json, kWriteFailure, error);
    return kSuccess;
}

}  // namespace

int runImport(const ImportOptions& o) {
    // Text from the file is made UTF-8 by the import; a path in another encoding is
    // written with U+FFFD for its bytes rather than ending the command on a writer's error.
    const ImportResult r = importModel(o.file);
    if (!r.ok()) {
        const std::string message = formatDiagnostics(r.diagnostics);
        std::cerr << message;
        if (o.json) {
            nlohmann::json j = {{"ok", false}, {"error", message}, {"exit_status", kBadInput}, {"report", r.report}};
            printJsonReport(j);
        }
        return kBadInput;
    }
    // The model must load as LoopLab loads it: built, and its loops closed.
    const LoadedModel lm = prepareModel(*r.document, o.file);
    if (!o.json) printReport(r.report);
    if (!lm.ok()) {
        const std::string message = formatDiagnostics(lm.diagnostics);
        std::cerr << message;
        if (o.json)
            std::cout << nlohmann::json({{"ok", false}, {"error", message}, {"exit_status", kBadInput}, {"report", r.report}})
                             .dump(2, ' ', false, nlohmann::json::error_handler_t::replace)
                      << "\n";
        return kBadInput;
    }
    if (!o.out.empty()) {
        if (const int rc = writeOut(o.out, r.modelJson, o.json, modelInputs(o.file, *lm.model))) return rc;
    } else if (!o.json) {
        std::cout << r.modelJson;
    }
    if (o.json) {
        nlohmann::json j = {{"ok", true},
                            {"bodies", lm.model->movingBodyCount()},
                            {"joints", lm.model->joints.size()},
                            {"report", r.report}};
        if (o.out.empty()) j["model"] = nlohmann::json::parse(r.modelJson);
        printJsonReport(j);
    }
    return kSuccess;
}

int runExport(const ExportOptions& o) {
    LoadedModel lm;
    if (int rc = loadOrReport(o.model, lm, o.json)) return rc;
    const ExportResult r = o.format == "urdf" ? exportUrdf(*lm.model, lm.initial) : exportMjcf(*lm.model, lm.initial);
    if (!r.ok()) return reportFailure(o.json, kBadInput, o.model + ": " + r.error);
    if (!o.json) printReport(r.report);
    if (!o.out.empty()) {
        if (const int rc = writeOut(o.out, r.text, o.json, modelInputs(o.model, *lm.model))) return rc;
    } else if (!o.json) {
        std::cout << r.text;
    }
    if (o.json) {
        nlohmann::json j = {{"ok", true}, {"format", o.format}, {"report", r.report}};
        if (o.out.empty()) j["text"] = r.text;
        printJsonReport(j);
    }
    return kSuccess;
}

}  // namespace looplab::cli
