#pragma once
// Random orientations and vectors for the suites that check derivatives anywhere (they
// hold at every pose, so the poses need not be assembled): the same draws from the same
// seed on every machine.

#include "looplab/common/Types.h"

#include <random>

namespace looplab::test {

/// A unit quaternion uniform over the rotations (a normalised Gaussian 4-vector).
inline Quat randomQuat(std::mt19937& g) {
    std::normal_distribution<double> n;
    return Quat(n(g), n(g), n(g), n(g)).normalized();
}

/// A vector with components uniform in [−s, s].
inline Vec3 randomVec(std::mt19937& g, double s = 1.0) {
    std::uniform_real_distribution<double> u(-s, s);
    return Vec3(u(g), u(g), u(g));
}

}  // namespace looplab::test
