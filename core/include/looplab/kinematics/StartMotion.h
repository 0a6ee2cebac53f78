#pragma once
// How a model's flexible members start moving: the velocities of beams and solids at t = 0.
//
// A model file gives velocities to rigid bodies only; beams and solids are written at
// rest. Projected on the velocity constraints by the minimum-norm correction, a driven
// mechanism then starts with only the nodes at its joints moving: the jump between those
// nodes and the rest of the member is a vibration that nothing damps (the flexible
// slider-crank's rod rang at 0.93 kHz, ±7.1e-5 m at the slider, for the whole run).
//
// `Consistent` starts every flexible member with no strain rate where the joints allow it:
// among the velocities that satisfy Φ_q v = −Φ_t, the one that minimises the strain-rate
// energy (zero: each member moving as a rigid body) and then the kinetic energy of the
// departure from the velocities given, ½ (v − v₀)ᵀ M (v − v₀). docs/methods.md, "The
// start of a flexible mechanism".

#include "looplab/linalg/ConstraintSpaces.h"
#include "looplab/model/Model.h"
#include "looplab/model/State.h"

#include <string>
#include <vector>

namespace looplab {

enum class StartMotion {
    Rest,        ///< members at rest, the velocities projected by the minimum-norm correction
    Consistent,  ///< members moving with the rigid mechanism's velocity field (above)
    /// As Consistent, the members first deformed into quasi-static equilibrium with gravity,
    /// the loads and the inertial loads of the rigid motion (StartEquilibrium.h; here the
    /// velocities are those of Consistent).
    Equilibrium,
};
/// "rest", "consistent", "equilibrium".
const char* startMotionName(StartMotion m);
bool parseStartMotion(const std::string& name, StartMotion& m);

/// A start a user can choose: its name in the run block's `start` and what it does, in
/// the words a list of choices shows (the workbench's run panel, its tooltips).
struct StartMotionChoice {
    StartMotion motion;
    const char* name;
    const char* description;
};
/// Every start, in the order a list offers them; a new start is one more row.
const std::vector<StartMotionChoice>& startMotionChoices();

struct StartReport {
    /// The rigid field was found (Consistent); false where the joints need the members to
    /// deform to move, and the velocities are then those of Rest.
    bool rigidField = false;
    /// Kinetic energy of the flexible members' motion that is not a rigid motion of each
    /// member [J]: what the start puts into their vibration.
    double vibrationEnergy = 0.0;
    /// The member with most of that energy ("" if none).
    std::string member;
    /// Why the rigid field (or, for Equilibrium, the equilibrium) was not taken, for the
    /// user ("" when it was, or for Rest).
    std::string message;
    /// Equilibrium: the members were moved to their quasi-static equilibrium, in that many
    /// rounds (equilibrium, then the rigid field's velocities and accelerations again).
    bool equilibrium = false;
    int equilibriumRounds = 0;
    /// The largest move of a node or body from the assembled start [m].
    double equilibriumShift = 0.0;
};

/// Sets state.v at an assembled state.q: the velocities given (state.v on entry), made
/// consistent with the constraints as `motion` says; always ends with Φ_q v = −Φ_t on the
/// independent equations.
StartReport startVelocities(const Model& model, State& state, StartMotion motion,
                            double rankTolerance = kDefaultRankTolerance,
                            LinearAlgebra linearAlgebra = LinearAlgebra::Automatic);

/// The velocities in which no body deforms, v = G y with GᵀMG = I: G block-diagonal, by
/// body, a rigid body's whole velocity (through the Cholesky factor of its mass block), a
/// mesh's rigid motions (translation, rotation) about the centroid c of its nodes, without
/// those that leave its coordinates alone. For a mesh, its block is R C, R the six rigid
/// motions: C (6 × its columns) gives the member's translation rate (of the point c) and
/// rotation rate from its part of y.
struct RigidFieldBasis {
    SparseMatrix G;
    std::vector<MatX> coefficients;  ///< C per body (empty but for meshes)
    std::vector<int> firstColumn;    ///< per body
    bool finite = true;              ///< false where a body's mass block is not positive definite
};
RigidFieldBasis rigidFieldBasis(const Model& model, const State& state);

/// The kinetic energy of the flexible members' motion that is not a rigid motion of each
/// (vibrationEnergy and member of the report above) at the state's velocities.
StartReport memberVibration(const Model& model, const State& state);

}  // namespace looplab
