#pragma once
// A model in MJCF or URDF, so that a mechanism built in LoopLab can go on into a robotics
// toolchain (docs/import-export.md). The bodies' frames are their centres of mass at the
// given state (the assembled initial one); joints along a spanning tree from the ground
// become the format's joints, the others close loops (MJCF's `connect` and `weld`
// equalities, LoopLab's <loop_joint> in URDF). What the format cannot say is reported.
#include "looplab/model/State.h"
#include "looplab/model/Model.h"

#include <string>
#include <vector>

namespace looplab {

struct ExportResult {
    std::string text;  ///< the file's contents; empty when the model cannot be written
    std::string error; ///< why not
    std::vector<std::string> report;  ///< what was left out or changed, a sentence each
    bool ok() const { return error.empty(); }
};

ExportResult exportMjcf(const Model& model, const State& state);
ExportResult exportUrdf(const Model& model, const State& state);

}  // namespace looplab
