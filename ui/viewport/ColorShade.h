#pragma once
// Shades of a body's colour shared by the rigid and the flexible actors.

#include <array>

namespace looplab::ui {

/// Moves a colour towards white: a selected body keeps its hue, so it can still be told
/// apart from its neighbours, yet stands out; a ghost drawn in it reads as the same body.
inline std::array<double, 3> brighter(const std::array<double, 3>& c) {
    return {{c[0] + 0.45 * (1.0 - c[0]), c[1] + 0.45 * (1.0 - c[1]), c[2] + 0.45 * (1.0 - c[2])}};
}

}  // namespace looplab::ui
