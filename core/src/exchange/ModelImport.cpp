#include "looplab/exchange/ModelImport.h"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <sstream>

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
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        out.diagnostics.push_back(Diagnostic{path, "", "cannot open the file", 0, 0});
        return out;
    }
    std::ostringstream text;
    text << in.rdbuf();
    const std::string e = extensionOf(path);
    if (e == "urdf") return importUrdf(text.str(), path);
    if (e == "xml" || e == "mjcf") return importMjcf(text.str(), path);
    out.diagnostics.push_back(Diagnostic{path, "", "not a file LoopLab imports: it reads .urdf (URDF) and .xml or .mjcf (MJCF)", 0, 0});
    return out;
}

}  // namespace looplab
