#pragma once
// Reading a JSON input file (a model, a study) so that every problem is reported where it
// is: the parser gives the line and column of a syntax error and the JSON pointer of a
// number too large for a double; the locator checks fields of the parsed tree and records
// each problem with the JSON pointer of the offending value. The model and study readers
// build on it, so both files word their problems alike.

#include "looplab/model/Diagnostic.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace looplab::json_input {

using nlohmann::json;

/// A key as one reference token of a JSON pointer (RFC 6901): '~' and '/' escaped.
std::string pointerToken(const std::string& key);

/// 1-based line and column of a byte offset.
void lineColumn(const std::string& text, std::size_t byte, int& line, int& column);

/// Parses `text` into `root`; on failure adds to `diags` the line and column of the last
/// character read and the problem in words. `numbersOf` names the input in the message
/// for a number beyond a double's range ("a model file").
bool parseJson(const std::string& text, const std::string& file, const char* numbersOf, json& root,
               Diagnostics& diags);

/// Checks the fields of a parsed tree, each problem a diagnostic at its JSON pointer.
class JsonLocator {
public:
    JsonLocator(std::string file, Diagnostics& diags) : file_(std::move(file)), diags_(diags) {}

    void error(const std::string& where, const std::string& what);
    static std::string typeName(const json& j) { return j.type_name(); }

    /// Whether j is an object whose keys are all in `allowed` (each other key an error).
    bool object(const json& j, const std::string& where, const std::vector<std::string>& allowed);
    /// The field, or nullptr (an error if it is required).
    const json* field(const json& obj, const char* key, const std::string& where, bool required);
    /// A number field into `out`; false if absent or not a number (then an error).
    bool number(const json& obj, const char* key, const std::string& where, double& out, bool required = false);
    bool optionalNumber(const json& obj, const char* key, const std::string& where, std::optional<double>& out);
    /// A string field into `out`.
    bool text(const json& obj, const char* key, const std::string& where, std::string& out, bool required = false);

    const std::string& file() const { return file_; }

protected:
    /// Problems recorded so far (a reader compares counts to see whether a part was clean).
    std::size_t errorCount() const { return diags_.size(); }

private:
    std::string file_;
    Diagnostics& diags_;
};

}  // namespace looplab::json_input
