#pragma once
// Where the example models are: next to an installed executable
// (<prefix>/share/looplab/examples, or examples/ beside the binary), else the source
// tree's resources/examples given at compile time.

#include <QString>
#include <QStringList>

namespace looplab::ui {

/// The first existing examples directory; empty if none exists.
QString examplesDirectory();
/// Absolute paths of the example models (*.json), sorted by name.
QStringList exampleFiles();

}  // namespace looplab::ui
