#pragma once
// A cam's law and follower in the property editor (PropertyEditor::addCamFields()).

#include "looplab/model/ModelDocument.h"

#include <QString>

namespace looplab::ui {

/// What a coupler turned into a cam starts with: a roller on a cycloidal rise, dwell,
/// return and dwell (120°, 60°, 120°, 60°) of 10 mm.
CamDoc defaultCam();

/// Changes when the cam's fields change which rows they show (follower, segments and
/// which of them are dwells, table or segments).
QString camSignature(const CamDoc& cam);

}  // namespace looplab::ui
