#pragma once
// The rigid-body directions a model leaves free: rigid motions of a free structure (a group
// of bodies held together by joints, springs or elastic coupling) that neither a
// constraint nor the tangent stiffness resists. A free–free beam has six, a body on a
// revolute joint to the ground without gravity one, a clamped one none. They are the null
// space of the tangent stiffness on the tangent space of the constraints that lies in the
// span of the structures' rigid motions, found structure by structure on at most six
// candidates each (a dense SVD of six columns), so that 200 free beams are recognised at
// once instead of by an iteration that stalls on 1200 zero eigenvalues.
//
// Modes reports them as rigid-body modes (ω = 0) and solves the elastic problem on their
// M-orthogonal complement; statics fails when the loads have a resultant along one of them
// (no equilibrium exists) and otherwise holds them at their start. docs/methods.md,
// "Free structures".

#include "looplab/kinematics/Constraints.h"
#include "looplab/model/Model.h"
#include "looplab/model/State.h"

#include <string>
#include <vector>

namespace looplab {

struct FreeDirections {
    /// n × k, M-orthonormal (basisᵀ M basis = I): the free directions in velocity coordinates.
    /// A structure free in all six directions gets pure translations along x, y, z first, then
    /// rotations about x, y, z made M-orthogonal to them (about its centre of mass).
    MatX basis;
    /// The structure of each column: an index into `structures`.
    std::vector<int> structureOf;
    /// The bodies of each free structure (those with at least one free direction), by name.
    std::vector<std::vector<std::string>> structures;
    int count() const { return static_cast<int>(basis.cols()); }
};

/// A free direction: ‖K x‖ and ‖D_r Φ_q x‖ below `tolerance` times what the rounding of K x
/// and Φ_q x could produce for a rigid motion of that size (their entries' magnitudes
/// summed): an elastic or constraint force of a free direction is rounding only, one of a
/// held direction (a pendulum's gravity stiffness on a steel beam) at least 1e-7 of it.
inline constexpr double kFreeDirectionTolerance = 1e-10;

/// The free directions at `state` given the tangent stiffness K (e.g. Linearization::stiffness)
/// and the constraint Jacobian Φ_q (ConstraintValues::jacobian).
FreeDirections findFreeDirections(const Model& model, const State& state, const SparseColMatrix& stiffness,
                                  const SparseMatrix& jacobian, double tolerance = kFreeDirectionTolerance);

/// The same with K linearised at `state` with the multipliers `lambda` (one per equation).
FreeDirections findFreeDirections(const Model& model, const State& state, const VecX& lambda,
                                  double tolerance = kFreeDirectionTolerance);

/// A relative resultant (relativeResultants) above this is a load along a free direction:
/// balanced loads leave rounding, ~1e-16 to 1e-13 of their magnitudes.
inline constexpr double kUnbalancedLoad = 1e-8;

/// The resultant of the generalised forces Q along each free direction, basisᵀ Q, relative to
/// what rounding leaves of balanced loads, |basis|ᵀ|Q| (0 when there is no load): a value
/// above ~1e-8 is a load the structure cannot balance.
VecX relativeResultants(const FreeDirections& free, const VecX& forces);

/// [S 0; βC 0] extended symmetrically by the k rows C = basisᵀ M (scaled by β): the
/// augmented matrix S (size n + m) of a Newton step or a stability test with the free
/// directions held (δq M-orthogonal to them), regular when they were its only singularity.
SparseColMatrix holdFreeDirections(const SparseColMatrix& augmented, const Model& model, const FreeDirections& free,
                                   double beta);

}  // namespace looplab
