#include "looplab/model/Diagnostic.h"

namespace looplab {

std::string Diagnostic::toString() const {
    std::string s = file.empty() ? std::string("model") : file;
    if (line > 0 && column == 0) {
        // An element of an XML file (URDF, MJCF): its line, and where it is in the tree.
        s += ":" + std::to_string(line);
        if (!location.empty()) s += ": " + location;
    } else if (line > 0) {
        s += ":" + std::to_string(line) + ":" + std::to_string(column);
    } else if (!location.empty()) {
        s += ": " + location;
    }
    return s + ": " + message;
}

std::string formatDiagnostics(const Diagnostics& diagnostics) {
    std::string out;
    for (const auto& d : diagnostics) out += d.toString() + "\n";
    return out;
}

}  // namespace looplab
