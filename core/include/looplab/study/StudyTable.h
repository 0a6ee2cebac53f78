#pragma once
// The results of a study as a CSV table: one row per case, in case order. Every number is
// written with 17 significant digits so that reading a row back gives the same doubles,
// which lets a study resume from its own output and MPI ranks send rows as text.
//
// Columns: case, one per parameter, ok, assembled, then (simulate) the event counts
// singular_configurations and branch_changes, one per output ("D.angle.max"), and reason.
// A value a failed case does not have is an empty field.

#include "looplab/study/StudyDescription.h"

#include <string>
#include <vector>

namespace looplab {

struct StudyRow {
    long index = -1;
    std::vector<double> parameters;
    bool ok = false;         ///< the analysis ran to its end
    bool assembled = false;  ///< the model built and its initial configuration closed
    /// Event counts (simulate only) followed by the outputs; NaN when not available.
    std::vector<double> values;
    std::string reason;  ///< why not ok; empty when ok
};

/// Names of the value columns (events, then outputs).
std::vector<std::string> studyValueColumns(const StudyDescription& study);
/// The header line, without its newline.
std::string studyHeader(const StudyDescription& study);
/// A row as one CSV line, without its newline.
std::string formatStudyRow(const StudyRow& row);
/// Parses a line written by formatStudyRow for this study; false with *error if it is not one.
bool parseStudyRow(const StudyDescription& study, const std::string& line, StudyRow& row, std::string* error);

}  // namespace looplab
