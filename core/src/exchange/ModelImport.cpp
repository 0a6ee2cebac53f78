#include "looplab/exchange/ModelImport.h"
#include "looplab/model/InputFile.h"
#include "ImportReport.h"

#include <algorithm>
#include <cctype>

namespace looplab {

namespace {

std::string extensionOf(const std::string& path) {
    const size_t dot = path.find_last_of('.');
    const size_t slash = path.find_last_of('/');
    if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return "";
    std::string e = path.substr(dot + 1);
    std::transform(e.begin(), e.end(), e.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return e;
}

}  // namespace

bool isImportable(const std::string& path) {
    const std::string e = extensionOf(path);
    return e == "urdf" || e == "xml" || e == "mjcf";
}

ImportResult importModel(const std::string& path) {
    ImportResult out;
    const std::string e = extensionOf(path);
    const bool urdf = e == "urdf", mjcf = e == "xml" || e == "mjcf";
    if (urdf || mjcf) {
        // As a model file is read: a directory, a device or pipe that does not end, and a
        // named pipe with no writer are refused with the reason, not read for ever.
        std::string text, why;
        if (!readInputFile(path, urdf ? "URDF file" : "MJCF file", text, why)) {
            out.diagnostics.push_back(Diagnostic{path, "", why, 0, 0});
            return out;
        }
        ImportResult r = urdf ? importUrdf(text, path) : importMjcf(text, path);
        exchange::makeUtf8(r);
        return r;
    }
    out.diagnostics.push_back(Diagnostic{path, "", "not a file LoopLab imports: it reads .urdf (URDF) and .xml or .mjcf (MJCF)", 0, 0});
    return out;
}

}  // namespace looplab
