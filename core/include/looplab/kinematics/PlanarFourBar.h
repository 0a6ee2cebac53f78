#pragma once
// Closed-form position analysis of a planar four-bar linkage: ground pivots A (crank) and
// D (rocker), crank AB, coupler BC, rocker DC. Given the crank angle, C is where the
// circle of radius |BC| about B meets the circle of radius |DC| about D; the two
// intersections are the linkage's two assembly branches. This is independent of the
// multibody equations (it never forms a constraint Jacobian), which is what makes it a
// check on them, and it gives coupler curves without a simulation.

#include <Eigen/Core>

#include <optional>

namespace looplab {

struct PlanarFourBar {
    Eigen::Vector2d crankPivot = Eigen::Vector2d::Zero();   ///< A, fixed [m]
    Eigen::Vector2d rockerPivot = Eigen::Vector2d::Zero();  ///< D, fixed [m]
    double crank = 0.0;    ///< |AB| [m]
    double coupler = 0.0;  ///< |BC| [m]
    double rocker = 0.0;   ///< |DC| [m]
};

/// Which intersection of the two circles C is: Left puts C to the left of the directed
/// line B→D (counter-clockwise side), Right to its right.
enum class FourBarBranch { Left, Right };

struct FourBarPose {
    Eigen::Vector2d crankPin;   ///< B [m]
    Eigen::Vector2d rockerPin;  ///< C [m]
};

/// The pose at crank angle `crankAngle` (of AB from the global x axis, counter-clockwise
/// [rad]) on `branch`; nullopt where the linkage cannot close (|BD| beyond |BC| + |DC| or
/// below ||BC| − |DC||): outside the crank's reach limits.
std::optional<FourBarPose> solvePlanarFourBar(const PlanarFourBar& linkage, double crankAngle,
                                              FourBarBranch branch);

/// The branch on which C lies for the pose with crank pin B and rocker pin C.
FourBarBranch fourBarBranch(const PlanarFourBar& linkage, const Eigen::Vector2d& crankPin,
                            const Eigen::Vector2d& rockerPin);

/// A coupler point given by its distances along BC (`along`) and to the left of BC
/// (`across`) from B [m], placed at `pose`.
Eigen::Vector2d couplerPoint(const FourBarPose& pose, double along, double across);

}  // namespace looplab
