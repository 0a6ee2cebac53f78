#pragma once
// What `statics` reports of an equilibrium (and `modes` of the one it linearises about).
#include "looplab/analysis/Statics.h"

#include <nlohmann/json.hpp>

namespace looplab::reports {

/// Outcome, iterations, residuals, rank, free directions, the squared frequencies the
/// stability test found, and every body's place at the equilibrium `s`.
nlohmann::json staticsJson(const Model& model, const State& s, const StaticsResult& r);

}  // namespace looplab::reports
