#pragma once
// What the force laws share: applying a global force or torque to a body, and forming a
// law's derivatives on the two rigid velocity slices it acts on (slot 0 = body 1, slot 1 =
// body 2) before scattering them into the model's coordinates.

#include "looplab/bodies/rigid/RigidBodyCoordinates.h"
#include "looplab/model/Model.h"
#include "looplab/model/State.h"

#include <vector>

namespace looplab::forces {

constexpr int kSlot = rigid::kVelocitySize;
using PairBlock = Eigen::Matrix<double, 2 * kSlot, 2 * kSlot>;
using PairVector = Eigen::Matrix<double, 2 * kSlot, 1>;
using PairRows = Eigen::Matrix<double, 3, 2 * kSlot>;
using Triplets = std::vector<Eigen::Triplet<double>>;

/// Adds a global force F acting at the global point p of body b.
void addForce(const Model& model, const State& s, BodyIndex b, const Vec3& p, const Vec3& F, VecX& f);
/// Adds a global torque T on body b.
void addTorque(const Model& model, const State& s, BodyIndex b, const Vec3& T, VecX& f);
/// An angle in (−π, π].
double wrapAngle(double a);

/// The pose and velocity of one body as a force element sees it (identity and zero for
/// the ground).
struct BodyPose {
    bool moving = false;
    Mat3 A = Mat3::Identity();       ///< body to global
    Vec3 position = Vec3::Zero();    ///< of the body's frame [m]
    Vec3 velocity = Vec3::Zero();    ///< of the body's frame, global [m/s]
    Vec3 omegaLocal = Vec3::Zero();  ///< body frame
};
BodyPose bodyPose(const Model& m, const State& s, BodyIndex b);

/// Adds X (slot 0 = body b1, slot 1 = body b2) to the model-sized matrix; the ground's
/// rows and columns are dropped.
void scatter(const Model& m, BodyIndex b1, BodyIndex b2, const PairBlock& X, Triplets& out);
/// Adds x (slots as above) to the model-sized vector f.
void scatter(const Model& m, BodyIndex b1, BodyIndex b2, const PairVector& x, VecX& f);
/// Adds a 3 × 3 block at the rotation rows and columns of body b.
void addRotationBlock(const Model& m, BodyIndex b, const Mat3& X, Triplets& out);

}  // namespace looplab::forces
