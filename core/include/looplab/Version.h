#pragma once
// The one version number of LoopLab, from project() in the top CMakeLists.txt: the
// programs' --version, the About box, looplab.__version__, the JSON reports and the
// package all print this.

namespace looplab {

/// "MAJOR.MINOR.PATCH".
const char* version();

}  // namespace looplab
