#include "ImportReport.h"

#include "looplab/files/ModelFile.h"

#include <algorithm>

namespace looplab::exchange {

void ImportReport::add(const std::string& what, const std::string& name) {
    auto it = std::find_if(entries_.begin(), entries_.end(), [&](const auto& e) { return e.first == what; });
    if (it == entries_.end()) {
        it = entries_.insert(entries_.end(), {what, {}});
        listed_.emplace_back();
    }
    if (!name.empty() && listed_[size_t(it - entries_.begin())].insert(name).second) it->second.push_back(name);
}

void ImportReport::writeTo(std::vector<std::string>& out) const {
    for (const auto& [what, names] : entries_) {
        std::string line = what;
        for (size_t k = 0; k < names.size(); ++k) line += (k ? ", " : ": ") + names[k];
        out.push_back(line);
    }
}

void finishImport(const nlohmann::json& model, const std::string& file, const ImportReport& report, ImportResult& out) {
    report.writeTo(out.report);
    try {
        out.modelJson = model.dump(2) + "\n";
    } catch (const nlohmann::json::type_error&) {
        // Names in another encoding than UTF-8 (Latin-1, say): the model format is UTF-8.
        out.modelJson = model.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
        out.report.push_back("text that is not UTF-8 (in names) replaced by U+FFFD");
    }
    DocumentResult doc = parseModelDocument(out.modelJson, file);
    if (!doc.document) {
        for (Diagnostic d : doc.diagnostics) {
            d.message = "the imported model: " + d.message;
            out.diagnostics.push_back(d);
        }
        return;
    }
    out.document = std::move(doc.document);
}

}  // namespace looplab::exchange
