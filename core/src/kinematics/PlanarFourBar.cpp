#include "looplab/kinematics/PlanarFourBar.h"

#include <cmath>

namespace looplab {

namespace {
Eigen::Vector2d leftNormal(const Eigen::Vector2d& u) { return {-u.y(), u.x()}; }
}  // namespace

std::optional<FourBarPose> solvePlanarFourBar(const PlanarFourBar& l, double crankAngle, FourBarBranch branch) {
    const Eigen::Vector2d B = l.crankPivot + l.crank * Eigen::Vector2d(std::cos(crankAngle), std::sin(crankAngle));
    const Eigen::Vector2d BD = l.rockerPivot - B;
    const double d = BD.norm();
    if (!(d > 0.0) || d > l.coupler + l.rocker || d < std::abs(l.coupler - l.rocker)) return std::nullopt;
    const Eigen::Vector2d u = BD / d;
    // Law of cosines in triangle BCD: the foot of C on BD lies x from B.
    const double x = (l.coupler * l.coupler - l.rocker * l.rocker + d * d) / (2.0 * d);
    const double h = std::sqrt(std::max(0.0, l.coupler * l.coupler - x * x));
    const double side = branch == FourBarBranch::Left ? 1.0 : -1.0;
    return FourBarPose{B, B + x * u + side * h * leftNormal(u)};
}

FourBarBranch fourBarBranch(const PlanarFourBar& l, const Eigen::Vector2d& B, const Eigen::Vector2d& C) {
    const Eigen::Vector2d BD = l.rockerPivot - B;
    const Eigen::Vector2d BC = C - B;
    return BD.x() * BC.y() - BD.y() * BC.x() >= 0.0 ? FourBarBranch::Left : FourBarBranch::Right;
}

Eigen::Vector2d couplerPoint(const FourBarPose& pose, double along, double across) {
    const Eigen::Vector2d u = (pose.rockerPin - pose.crankPin).normalized();
    return pose.crankPin + along * u + across * leftNormal(u);
}

}  // namespace looplab
