#include "RunInputs.h"

#include <filesystem>

namespace looplab::cli {

std::vector<std::string> modelInputs(const std::string& modelFile, const Model& model) {
    std::vector<std::string> files{modelFile};
    for (const Body& b : model.bodies)
        if (b.shape.kind == VisualShape::Kind::Mesh && !b.shape.file.empty()) files.push_back(b.shape.file);
    return files;
}

std::vector<std::string> documentInputs(const std::string& modelFile, const ModelDocument& doc) {
    std::vector<std::string> files{modelFile};
    for (const BodyDoc& b : doc.bodies) {
        if (b.shape.kind != VisualShape::Kind::Mesh || b.shape.file.empty()) continue;
        std::filesystem::path p(b.shape.file);
        // As the model builder opens it (ModelBuilder.cpp).
        if (p.is_relative()) p = std::filesystem::path(modelFile).parent_path() / p;
        files.push_back(p.string());
    }
    return files;
}

}  // namespace looplab::cli
