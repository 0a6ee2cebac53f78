#pragma once
// How a model's flexible members start, in the workbench (StartMotion.h): the start a
// document builds its model with, and what that start gave the members, in the words of
// the Warnings panel's row at the start of each run.

#include "looplab/kinematics/StartMotion.h"
#include "looplab/model/ModelDocument.h"

#include <QString>

namespace looplab::ui {

/// The document's run block's start, else the default (consistent), as prepareModel()
/// takes it.
StartMotion modelStart(const ModelDocument& doc);

/// Whether a run has a start to report: flexible members in motion at t = 0, or a start
/// the joints did not allow (its message).
bool startWorthReporting(const StartReport& report);

/// "The rest start gave the members 7.2e-4 J of vibration energy, most in rod: ..."
QString startReportText(const StartReport& report, StartMotion start);

}  // namespace looplab::ui
