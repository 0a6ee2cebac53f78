#include "workbench/ModelSavePath.h"

#include <QFileInfo>

namespace looplab::ui {

QString modelSavePath(const QString& chosen)
{
    if (QFileInfo(chosen).suffix().compare("json", Qt::CaseInsensitive) == 0)
        return chosen;
    // "crank." has an empty suffix too: no second dot.
    return chosen + (chosen.endsWith('.') ? "json" : ".json");
}

}  // namespace looplab::ui
