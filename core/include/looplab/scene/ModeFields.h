#pragma once
// A vibration mode's strain and stress as a viewer colours the mode: the first-order
// change of each field of the flexible members along the mode's shape x at the
// equilibrium, d/dh field(q_eq ⊕ h x) at h = 0, by central differences. A rigid turn
// changes Green's strain and the second Piola–Kirchhoff stress only to second order, so
// it colours nothing: a cantilever's free tip, which turns most in its first mode, is
// not coloured as stressed. A mode has a shape but no amplitude of its own, so each field
// is divided by its largest magnitude over the model. See methods.md, "Drawing flexible
// bodies".

#include "looplab/common/Types.h"
#include "looplab/scene/Scene.h"

#include <vector>

namespace looplab {

struct Model;
struct State;

struct ModeFields {
    /// Per beam (Scene::beams order), per sample: the axial strain's change, in [−1, 1].
    std::vector<std::vector<double>> axialStrain;
    /// Per beam, per sample: the outer fibre's bending strain change, |δκ|·c, in [0, 1];
    /// δκ the curvature's change less the turn of the tangent (δθ × κ, δθ = t × δt).
    std::vector<std::vector<double>> bendingStrain;
    /// Per surface (Scene::surfaces order), per vertex: the von Mises equivalent of the
    /// second Piola–Kirchhoff stress's change, in [0, 1].
    std::vector<std::vector<double>> vonMises;
    /// The largest magnitudes the fields were divided by, per unit of modal amplitude
    /// (strain [1], stress [Pa]); 0 for a field the mode does not change, whose values are
    /// then all 0: below a millionth of the mode's largest strain of any kind or of the
    /// strain u / size its largest displacement u would give over the model's size (stress:
    /// times the stiffest solid's E), which is the central differences' rounding.
    double largestAxialStrain = 0.0, largestBendingStrain = 0.0, largestVonMises = 0.0;
};

/// The mode fields of `shape` (velocity coordinates, Modes.h) about `equilibrium`.
ModeFields modeFields(const Model& model, const State& equilibrium, const VecX& shape);

/// Replaces the fields of `scene`, a frame of the mode at sin(phase) = `sine`: strains
/// times `sine`, stress times |sine|; sets Scene::modeFields.
void applyModeFields(Scene& scene, const ModeFields& fields, double sine);

}  // namespace looplab
