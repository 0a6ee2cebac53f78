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

namespace {

// Where the model holds text that is not UTF-8 (a name in Latin-1, say): JSON pointers with
// the text as it will read.
void notUtf8(const nlohmann::json& j, const std::string& at, std::vector<std::string>& found) {
    if (j.is_string()) {
        const std::string& text = j.get_ref<const std::string&>();
        if (utf8Text(text) != text) found.push_back(at + " '" + utf8Text(text) + "'");
    } else if (j.is_object()) {
        for (auto it = j.begin(); it != j.end(); ++it) notUtf8(it.value(), at + "/" + utf8Text(it.key()), found);
    } else if (j.is_array()) {
        for (size_t i = 0; i < j.size(); ++i) notUtf8(j[i], at + "/" + std::to_string(i), found);
    }
}

}  // namespace

std::string utf8Text(const std::string& text) {
    if (std::all_of(text.begin(), text.end(), [](char c) { return (static_cast<unsigned char>(c) & 0x80) == 0; }))
        return text;  // ASCII, as nearly every name is
    // The JSON writer's replacement is the decoder every reader of the model would use.
    const std::string quoted = nlohmann::json(text).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    return nlohmann::json::parse(quoted).get<std::string>();
}

void makeUtf8(ImportResult& out) {
    for (std::string& line : out.report) line = utf8Text(line);
    for (Diagnostic& d : out.diagnostics) {
        d.location = utf8Text(d.location);
        d.message = utf8Text(d.message);
    }
}

void finishImport(const nlohmann::json& model, const std::string& file, const ImportReport& report, ImportResult& out) {
    report.writeTo(out.report);
    std::vector<std::string> replaced;
    notUtf8(model, "", replaced);
    out.modelJson = model.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
    if (!replaced.empty()) {
        // The model format is UTF-8: each such text is named where it ends up.
        std::string line = "text that is not UTF-8 replaced by U+FFFD (the model format is UTF-8): ";
        for (size_t k = 0; k < replaced.size(); ++k) line += (k ? ", " : "") + replaced[k];
        out.report.push_back(line);
    }
    makeUtf8(out);
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
