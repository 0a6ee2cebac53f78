#pragma once
// The start of a model: the positions and velocities of its flexible members at t = 0 as
// the run block's `start` says (StartMotion.h).
//
// `Equilibrium` first deforms the members into quasi-static equilibrium with their initial
// motion: with v₀ the rigid mechanism's velocities (Consistent) and a₀ its accelerations
// (rigidAcceleration), positions q with
//
//   Q(q, 0, t₀) + [Q(q₀, v₀, t₀) − Q(q₀, 0, t₀)] − M a₀ − Φ_qᵀλ = 0,   Φ(q, t₀) = 0,
//
// the drivers held at t₀: the configuration at which the equations of motion give the
// rigid mechanism's accelerations, so that neither gravity nor the inertia of the motion
// sets the members' modes ringing when the run begins. Solved by Newton's method on the
// β-scaled augmented system of statics (Statics.h: the constrained tangent stiffness of
// Linearization.h, independent rows of Φ_q) with the inertial and velocity terms as a
// constant load; then v₀ and a₀ again at the new positions, until the positions stop
// moving. docs/methods.md, "The start of a flexible mechanism".

#include "looplab/kinematics/StartMotion.h"

#include <string>

namespace looplab {

/// The accelerations of the rigid mechanism at a state whose velocities are a rigid field
/// (startVelocities with Consistent): every flexible member moving as a rigid body, the
/// accelerations nearest M⁻¹Q in the kinetic metric (Gauss's principle) among those that
/// satisfy Φ_q a = γ. Empty, with *why, where no such field meets the equations.
VecX rigidAcceleration(const Model& model, const State& state, std::string* why = nullptr,
                       double rankTolerance = kDefaultRankTolerance,
                       LinearAlgebra linearAlgebra = LinearAlgebra::Automatic);

/// Sets state.q (Equilibrium only) and state.v at an assembled state, whose v holds the
/// velocities given. Where no equilibrium is found the members start as with Consistent,
/// and the report's message says why.
StartReport startModel(const Model& model, State& state, StartMotion motion,
                       double rankTolerance = kDefaultRankTolerance,
                       LinearAlgebra linearAlgebra = LinearAlgebra::Automatic);

}  // namespace looplab
