#pragma once
// Basic numeric types and typed indices shared by the whole core.

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <cstddef>
#include <functional>

namespace looplab {

using Vec3 = Eigen::Vector3d;
using Mat3 = Eigen::Matrix3d;
using Quat = Eigen::Quaterniond;  ///< Unit quaternion (Euler parameters), w first in storage order of our files.
using VecX = Eigen::VectorXd;
using MatX = Eigen::MatrixXd;

/// An index that cannot be mixed up with another kind of index.
/// Tag is an empty struct that names the kind (bodies, joints, ...).
template <typename Tag>
class TypedIndex {
public:
    constexpr TypedIndex() = default;
    constexpr explicit TypedIndex(int value) : value_(value) {}
    constexpr int value() const { return value_; }
    constexpr bool valid() const { return value_ >= 0; }
    constexpr bool operator==(TypedIndex o) const { return value_ == o.value_; }
    constexpr bool operator!=(TypedIndex o) const { return value_ != o.value_; }
    constexpr bool operator<(TypedIndex o) const { return value_ < o.value_; }

private:
    int value_ = -1;
};

struct BodyTag {};
struct JointTag {};
struct DriverTag {};
struct ForceTag {};
struct MarkerTag {};

/// Index of a body; body 0 is always the ground.
using BodyIndex = TypedIndex<BodyTag>;
using JointIndex = TypedIndex<JointTag>;
using DriverIndex = TypedIndex<DriverTag>;
using ForceIndex = TypedIndex<ForceTag>;
using MarkerIndex = TypedIndex<MarkerTag>;

inline constexpr BodyIndex kGround{0};

}  // namespace looplab
