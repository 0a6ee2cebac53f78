#pragma once
// The 8-node hexahedron (trilinear brick) in absolute nodal coordinates: each node's global
// position x_a is a coordinate, 24 per element, and the element carries no rotations.
// Material: St. Venant–Kirchhoff, the strain energy density
//
//   W(E) = ½ λ (tr E)² + μ E:E,   E = ½(FᵀF − I),   F = Σ_a x_a ⊗ ∇₀N_a,
//
// with Lamé's λ = Eν/((1+ν)(1−2ν)) and μ = E/(2(1+ν)). S = ∂W/∂E = λ tr(E) I + 2μE is the
// second Piola–Kirchhoff stress. W depends on x only through E = FᵀF, so the energy, the
// internal forces f_a = ∫ F S ∇₀N_a dV and the tangent stiffness are exact for any
// displacement and rotation (a rigid motion gives E = 0 and no force). The tangent
// stiffness is written analytically in 3×3 blocks
//
//   K_ab = (∇₀N_a · S ∇₀N_b) I + λ (F∇₀N_a)(F∇₀N_b)ᵀ + μ [(∇₀N_a·∇₀N_b) FFᵀ + (F∇₀N_b)(F∇₀N_a)ᵀ].
//
// Every integral uses 2×2×2 Gauss points in the reference cube [−1, 1]³ (full integration:
// exact for the constant mass matrix ρ ∫ N_a N_b dV I and the gravity load of a
// parallelepiped element; the stiffness of a fully integrated trilinear brick locks in
// bending, see methods.md "Solid elements").

#include "looplab/common/Types.h"

#include <array>

namespace looplab::hex {

inline constexpr int kNodes = 8;
inline constexpr int kNodeSize = 3;  ///< a node's coordinates: its position
inline constexpr int kElementSize = kNodes * kNodeSize;
inline constexpr int kGaussPoints = 8;

using ElementVector = Eigen::Matrix<double, kElementSize, 1>;
using ElementMatrix = Eigen::Matrix<double, kElementSize, kElementSize>;
using NodeMatrix = Eigen::Matrix<double, kNodes, kNodes>;
using Gradients = Eigen::Matrix<double, 3, kNodes>;  ///< column a: ∇₀N_a

/// St. Venant–Kirchhoff material.
struct Material {
    double youngModulus = 0.0;  ///< E [Pa]
    double poissonRatio = 0.0;  ///< ν [1], in (−1, 0.5)
    double density = 0.0;       ///< ρ [kg/m³]
    double stiffnessDamping = 0.0;  ///< β [s]: Kelvin–Voigt, a mode of frequency ω damped by ζ = βω/2
    double lambda() const { return youngModulus * poissonRatio / ((1.0 + poissonRatio) * (1.0 - 2.0 * poissonRatio)); }
    double mu() const { return youngModulus / (2.0 * (1.0 + poissonRatio)); }
};

/// Reference-cube corner of node a (±1 each): the node order of an element is
/// (−−−, +−−, ++−, −+−, −−+, +−+, +++, −++) in (ξ, η, ζ).
Vec3 cornerOf(int a);

/// What the undeformed element gives each Gauss point: ∇₀N_a (with respect to the
/// undeformed global position X) and the volume weight det(∂X/∂ξ) w.
struct Geometry {
    std::array<Gradients, kGaussPoints> gradients;
    std::array<double, kGaussPoints> volume;
    /// The scalar consistent mass ∫ N_a N_b dV (times ρ: the mass matrix, per component).
    NodeMatrix massShape;
    /// ∫ N_a dV [m³].
    Eigen::Matrix<double, kNodes, 1> volumeShare;
    /// The undeformed nodal positions X (columns). F is formed as I + Σ (x_a − X_a) ⊗ ∇₀N_a:
    /// from displacements, the strain keeps its digits where Σ x_a ⊗ ∇₀N_a would cancel
    /// terms of size |x|/h down to F.
    Eigen::Matrix<double, 3, kNodes> reference;
};

/// The geometry of an element with undeformed nodal positions X (columns, node order
/// above). Throws std::invalid_argument if the element is inverted or degenerate
/// (det ∂X/∂ξ ≤ 0 at a Gauss point).
Geometry geometry(const Eigen::Matrix<double, 3, kNodes>& X);

/// Green–Lagrange strain E at Gauss point p for nodal positions x (24 numbers, node by node).
Mat3 greenStrain(const Geometry& g, int p, const ElementVector& x);
/// Second Piola–Kirchhoff stress of St. Venant–Kirchhoff for a strain E [Pa].
Mat3 secondPiolaKirchhoff(const Material& m, const Mat3& E);

/// Strain energy U(x) [J].
double strainEnergy(const Material& m, const Geometry& g, const ElementVector& x);
/// Generalised internal force Q = −∂U/∂x [N].
ElementVector elasticForce(const Material& m, const Geometry& g, const ElementVector& x);
/// Tangent stiffness K = ∂²U/∂x² = −∂Q/∂x (symmetric), analytic.
ElementMatrix tangentStiffness(const Material& m, const Geometry& g, const ElementVector& x);
/// The damping matrix of Kelvin–Voigt's viscous stress S_d = β(λ tr Ė I + 2μĖ),
/// Ė = sym(FᵀḞ): C = β K_m, K_m the tangent stiffness without its stress part (the
/// ∇₀N_a·S∇₀N_b I blocks); the damping force −C ẋ is that of S_d exactly, and a rigid
/// rotation (Ė = 0) feels none. Zero where β is.
ElementMatrix dampingMatrix(const Material& m, const Geometry& g, const ElementVector& x);
/// The damping force −C ẋ for nodal velocities `rate`, formed from the viscous stress S_d
/// at each Gauss point as the elastic force is from S (Σ −w F S_d ∇₀N_a), without the
/// 24 × 24 matrix: what a force evaluation needs. Zero where β is.
ElementVector dampingForce(const Material& m, const Geometry& g, const ElementVector& x, const ElementVector& rate);

}  // namespace looplab::hex
