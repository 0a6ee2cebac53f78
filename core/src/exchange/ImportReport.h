#pragma once
// What an import did not take over, gathered by kind ("joint limits not kept") with the
// names of what it concerns, and written as one sentence per kind.
#include "looplab/exchange/ModelImport.h"

#include <nlohmann/json.hpp>

#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

namespace looplab::exchange {

class ImportReport {
public:
    /// `what` once per kind; `name` (may be empty) added to its list once.
    void add(const std::string& what, const std::string& name);
    /// "joint limits not kept (LoopLab has none): shoulder, elbow".
    void writeTo(std::vector<std::string>& out) const;

private:
    std::vector<std::pair<std::string, std::vector<std::string>>> entries_;
    std::vector<std::unordered_set<std::string>> listed_;  // each entry's names, to find them at once
};

/// `text` with each byte sequence that is not UTF-8 replaced by U+FFFD.
std::string utf8Text(const std::string& text);
/// The report's lines and the diagnostics' locations and messages made UTF-8: they quote
/// names from the file, which JSON writers and Python's strings refuse in another encoding.
void makeUtf8(ImportResult& out);

/// The model JSON as text and as a document (the model reader's diagnostics if it refuses
/// it), and the report written.
void finishImport(const nlohmann::json& model, const std::string& file, const ImportReport& report, ImportResult& out);

}  // namespace looplab::exchange
