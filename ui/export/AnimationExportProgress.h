#pragma once
// Runs an animation export with a progress dialog that can cancel it. The job works in
// event-loop turns (AnimationExportJob), so the window keeps repainting and answering
// while this waits.

#include <QString>

class QWidget;

namespace looplab::ui {

class AnimationExportJob;

/// Starts `job` and returns when it has finished or was cancelled: true if the file was
/// written; otherwise *error says why (empty when the user cancelled).
bool runAnimationExport(AnimationExportJob& job, QWidget* parent, QString* error);

}  // namespace looplab::ui
