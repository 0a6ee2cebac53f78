#pragma once
// Stress in a deformed 8-node hexahedron (HexahedronElement.h) at any point of its
// reference cube, for output rather than for the equations of motion: the deformation
// gradient there, the Cauchy (true) stress of the St. Venant–Kirchhoff material, and its
// von Mises equivalent. See methods.md, "Drawing flexible bodies".

#include "looplab/bodies/solid/HexahedronElement.h"

namespace looplab::hex {

/// F = ∂x/∂X at the reference-cube point ξ ∈ [−1, 1]³ (a corner gives the value at that
/// node) for nodal positions x; the undeformed nodes are g.reference. Formed from the
/// displacements, I + Σ (x_a − X_a) ⊗ ∇₀N_a(ξ), like the element's strain.
Mat3 deformationGradientAt(const Geometry& g, const Vec3& xi, const ElementVector& x);
/// σ = J⁻¹ F S Fᵀ, S the second Piola–Kirchhoff stress of E = ½(FᵀF − I), J = det F [Pa].
Mat3 cauchyStress(const Material& m, const Mat3& F);
/// √(3/2 s:s), s the deviator of σ [Pa].
double vonMisesStress(const Mat3& sigma);

}  // namespace looplab::hex
