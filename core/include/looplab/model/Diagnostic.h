#pragma once
// Problems found in a model description. The file loader and the workbench's editors
// report the same diagnostics, so a user sees one wording wherever a model is wrong.

#include <string>
#include <vector>

namespace looplab {

/// One problem with a model, located by a JSON pointer into the model document
/// (for example "/joints/3/axis"), so that the file loader and the editors can both
/// point at the offending field.
struct Diagnostic {
    std::string file;      ///< Model file, empty for a model built in memory.
    std::string location;  ///< JSON pointer, "" for the whole document.
    std::string message;   ///< What is wrong, in words a user can act on.
    int line = 0;          ///< 1-based line for JSON syntax errors and XML elements, else 0.
    int column = 0;        ///< 1-based column for JSON syntax errors, else 0.

    /// "FILE:LINE:COL: message" (JSON syntax), "FILE: /pointer: message", or
    /// "FILE:LINE: element/path: message" (an element of an imported XML file).
    std::string toString() const;
};

using Diagnostics = std::vector<Diagnostic>;

/// Joins diagnostics one per line.
std::string formatDiagnostics(const Diagnostics& diagnostics);

}  // namespace looplab
