#pragma once
// Unconstrained equations of motion of the rigid bodies, M v̇ = f(q, v, t), in the
// velocity coordinates of the Model (Newton for the centre of mass in the global frame,
// Euler for the rotation in the body frame, with its exact gyroscopic term), and the
// mechanical energy.

#include "looplab/model/Model.h"
#include "looplab/model/State.h"

namespace looplab {

/// The mass matrix M is block diagonal (m·I₃ and the body-frame inertia of each rigid
/// body, the consistent mass matrix of each beam) and constant in these coordinates, so it is applied rather than stored.
/// M·x for a vector x in velocity coordinates.
VecX applyMass(const Model& model, const VecX& x);
/// M⁻¹·x.
VecX applyInverseMass(const Model& model, const VecX& x);
/// Applies the inverse of body b's block of M in place to its velocity slice.
void applyBodyInverseMass(const Model& model, BodyIndex b, double* slice);
/// Dense M (for small models and tests).
MatX denseMass(const Model& model);

/// Generalised forces f: gravity, spring-dampers, rotational spring-dampers, body forces
/// and torques, and the gyroscopic term −ω × Jω of each body.
VecX generalizedForces(const Model& model, const State& s);

/// Energy split into its parts [J].
struct Energy {
    double kinetic = 0.0;
    double gravity = 0.0;  ///< −Σ m g·r
    double springs = 0.0;  ///< elastic energy of spring-dampers, rotational springs and beams
    double total() const { return kinetic + gravity + springs; }
};
Energy mechanicalEnergy(const Model& model, const State& s);

}  // namespace looplab
