#pragma once
// Reading study files (JSON, format "looplab-study", docs/study-format.md). Like the model
// loader it never half-loads: a complete description, or diagnostics naming the file, the
// JSON location and the problem. The model the study names is read and built once here,
// so that a parameter pointing nowhere or an output naming no quantity is reported before
// any case runs.

#include "looplab/model/Diagnostic.h"
#include "looplab/model/ModelDocument.h"
#include "looplab/study/StudyDescription.h"

#include <functional>
#include <optional>
#include <string>

namespace looplab {

inline constexpr const char* kStudyFormatName = "looplab-study";
inline constexpr int kStudyFormatVersion = 1;

struct StudyFileResult {
    std::optional<StudyDescription> study;
    Diagnostics diagnostics;
};

/// Called with the model's document once it is read, before it is built (building a model
/// of hundreds of thousands of coordinates takes seconds to minutes): a caller may say so.
using StudyModelRead = std::function<void(const ModelDocument&)>;

/// Parses study JSON text; `file` labels the diagnostics and anchors a relative model path.
StudyFileResult parseStudyFile(const std::string& text, const std::string& file, const StudyModelRead& onModel = {});
/// Reads and parses a study file.
StudyFileResult readStudyFile(const std::string& path, const StudyModelRead& onModel = {});

}  // namespace looplab
