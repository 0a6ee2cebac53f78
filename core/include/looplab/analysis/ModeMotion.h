#pragma once
// Which way a vibration mode moves the model: the share of its first-order motion along
// each global axis. Two modes of one repeated frequency (the two bending planes of a beam
// with a square or round section) have the same frequency and differ only here.

#include "looplab/common/Types.h"

#include <string>

namespace looplab {

struct Model;
struct State;

/// The squared first-order displacements of the drawn points (rigid bodies' centres of
/// mass, joint points, beams' centreline samples, solids' surface vertices) along x, y
/// and z for a motion along `shape` (velocity coordinates) about `equilibrium`, each over
/// their sum; zero for a shape that moves nothing.
Vec3 modeMotionShares(const Model& model, const State& equilibrium, const VecX& shape);

/// "z", or "x 70 %, y 30 %": the axes holding at least 5 % of the motion, largest first;
/// "none" when nothing moves.
std::string motionSharesText(const Vec3& shares);

}  // namespace looplab
