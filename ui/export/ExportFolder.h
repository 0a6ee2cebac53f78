#pragma once
// Where the workbench's exports (videos, pictures, tables) go unless the user says
// otherwise: beside the model's file, where a class's material is kept together, and the
// home folder only for a model never saved or kept in a folder that cannot be written.

#include <QString>

namespace looplab::ui {

/// `fileName` in the folder of `modelPath` when it names a file whose folder can be
/// written, else in the home folder.
QString defaultExportPath(const QString& modelPath, const QString& fileName);

}  // namespace looplab::ui
