#include "RunInputs.h"

#include "looplab/files/ModelFile.h"

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

std::vector<std::string> studyInputs(const std::string& studyFile, const StudyDescription& study) {
    std::vector<std::string> files{studyFile};
    // The model as the study read it; one that does not parse has no mesh names to add.
    const DocumentResult doc = parseModelDocument(study.modelText, study.modelPath);
    const std::vector<std::string> model =
        doc.document ? documentInputs(study.modelPath, *doc.document) : std::vector<std::string>{study.modelPath};
    files.insert(files.end(), model.begin(), model.end());
    return files;
}

}  // namespace looplab::cli
