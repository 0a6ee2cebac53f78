#pragma once
// The mode table as CSV, with the same columns as `looplab-cli modes --out`: mode,
// frequency_hz, damping_ratio, squared_frequency, one shape column per velocity
// coordinate (body.x … body.rz for rigid bodies) and one multiplier column per constraint
// equation. Written to a temporary file renamed into place only when complete
// (QSaveFile), so a failed export never costs the old file.

#include "looplab/model/Model.h"
#include "looplab/analysis/Modes.h"

#include <QString>

namespace looplab::ui {

/// The CSV text of `modes` of `model`.
QString modeTableCsv(const Model& model, const ModesResult& modes);
/// Writes modeTableCsv() to `path`; false with the reason in `error`.
bool writeModeTableCsv(const QString& path, const Model& model, const ModesResult& modes, QString* error);

}  // namespace looplab::ui
