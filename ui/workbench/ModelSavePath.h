#pragma once
// The file a model is saved to when the user types a name in the Save As dialog: the
// open dialog lists *.json only, so a name without that suffix gets it, even one with a
// dot of its own ("crank.v2" becomes "crank.v2.json").

#include <QString>

namespace looplab::ui {

/// `chosen` unchanged if its suffix is json (in any case), else `chosen` + ".json".
QString modelSavePath(const QString& chosen);

}  // namespace looplab::ui
