#pragma once
// The last word of an export started from a dialog: which file was written and where,
// with a button that opens its folder, so that a video is never lost in an unknown
// folder. It does not block: the box is shown window-modal and deletes itself when closed.

#include <QString>

class QMessageBox;
class QWidget;

namespace looplab::ui {

/// Shows that `path` was written; `what` says what it holds ("26 frames, H.264").
/// Returns the box (objectName "exportDoneMessage"; its folder button
/// "openExportFolder").
QMessageBox* showExportDone(QWidget* parent, const QString& path, const QString& what);

}  // namespace looplab::ui
