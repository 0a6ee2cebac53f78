#pragma once
// Reading study files (JSON, format "looplab-study", docs/study-format.md). Like the model
// loader it never half-loads: a complete description, or diagnostics naming the file, the
// JSON location and the problem. The model the study names is read and built once here,
// so that a parameter pointing nowhere or an output naming no quantity is reported before
// any case runs.

#include "looplab/model/Diagnostic.h"
#include "looplab/study/StudyDescription.h"

#include <optional>
#include <string>

namespace looplab {

inline constexpr const char* kStudyFormatName = "looplab-study";
inline constexpr int kStudyFormatVersion = 1;

struct StudyFileResult {
    std::optional<StudyDescription> study;
    Diagnostics diagnostics;
};

/// Parses study JSON text; `file` labels the diagnostics and anchors a relative model path.
StudyFileResult parseStudyFile(const std::string& text, const std::string& file);
/// Reads and parses a study file.
StudyFileResult readStudyFile(const std::string& path);

}  // namespace looplab
