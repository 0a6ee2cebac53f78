#pragma once
// Directions typed or read at any scale: a model file's axis [1e200, 0, 1e200] is the
// 45° axis and [1e-200, 0, 0] the x axis. Only an exact zero has no direction. The
// model builder and the workbench's editors decide with the same function, so an axis
// the editor takes is one the builder takes.

#include "looplab/common/Types.h"

namespace looplab {

enum class VectorLength { NonZero, Zero, NotFinite };

/// Unit vector along v, for any finite non-zero v (out unchanged otherwise). v is first
/// divided by its largest component, so that its length neither overflows nor underflows.
template <typename V>
VectorLength unitVector(const V& v, V& out) {
    if (!v.allFinite()) return VectorLength::NotFinite;
    const double largest = v.cwiseAbs().maxCoeff();
    if (largest == 0.0) return VectorLength::Zero;
    const V scaled = v / largest;
    out = scaled / scaled.norm();
    return VectorLength::NonZero;
}

/// Unit quaternion of the same rotation as q (any finite, non-zero length).
inline VectorLength unitQuaternion(const Quat& q, Quat& out) {
    Eigen::Vector4d c;
    const VectorLength l = unitVector(Eigen::Vector4d(q.coeffs()), c);
    if (l == VectorLength::NonZero) out.coeffs() = c;
    return l;
}

}  // namespace looplab
