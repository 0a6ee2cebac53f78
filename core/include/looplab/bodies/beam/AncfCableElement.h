#pragma once
// The ANCF cable element in space (gradient-deficient beam; Gerstmayr & Shabana, Nonlinear
// Dyn. 45, 2006): two nodes, each with its global position r and slope r_x = ∂r/∂x (x the
// arc length of the undeformed, straight centreline), 12 coordinates
// e = (r_1, r_x1, r_2, r_x2), cubic Hermite interpolation r(x) = S(x) e. Strain energy
//
//   U = ∫₀ᴸ ½ EA ε² + N₀ ε + ½ EI κ² dx,   ε = ½(r_x·r_x − 1),   κ = |r_x × r_xx| / |r_x|²,
//
// Green's axial strain and the bending strain of Reissner's rod: κ = |dt/dx|, the rate at
// which the unit tangent t = r_x/|r_x| turns per unit undeformed length (the curvature of
// the deformed centreline times its stretch |r_x|). Both are exact for any displacement and
// rotation (U is invariant under rigid motions), and they do not couple stretching with
// bending: a pure moment causes no axial strain, as in the geometrically exact rod. N₀ is an
// axial preload [N]. No shear and no torsion: the section's orientation about the centreline
// is not a coordinate, the bending stiffness is isotropic (EI the same in both directions).
// The mass matrix ρA ∫ SᵀS dx is constant. Everything is integrated with 5 Gauss points per
// element (exact for the mass matrix and gravity, accurate to far below the discretisation
// error for the rational curvature term). See methods.md, "Flexible beams".
//
// Structural damping (β, Kelvin–Voigt): Rayleigh's dissipation function
//
//   R = ½ β ∫₀ᴸ EA ε̇² + EI |ẇ|² dx,   w = r_x × r_xx / |r_x|²   (|w| = κ),
//
// gives the force −C(e) ė with C = ∂²R/∂ė², a Gram matrix (never negative: the damping
// never adds energy). Near the straight configuration C = β K (K the tangent stiffness
// without the axial stress's geometric part), so a mode of frequency ω is damped by
// ζ = βω/2. The axial part is objective (a rigid motion, even of a stretched or preloaded
// element, dissipates nothing); ẇ turns with a bent element, which a rigid rotation at rate
// ω then damps by about βω times its bending force.

#include "looplab/common/Types.h"

namespace looplab::ancf {

inline constexpr int kNodeSize = 6;              ///< r (3), r_x (3) per node
inline constexpr int kElementSize = 2 * kNodeSize;

using ElementVector = Eigen::Matrix<double, kElementSize, 1>;
using ElementMatrix = Eigen::Matrix<double, kElementSize, kElementSize>;

/// The section and material of an element, and its undeformed length.
struct CableProperties {
    double length = 1.0;            ///< undeformed length L [m]
    double axialStiffness = 0.0;    ///< EA [N]
    double bendingStiffness = 0.0;  ///< EI [N·m²]
    double massPerLength = 0.0;     ///< ρA [kg/m]
    double preload = 0.0;           ///< N₀, axial force in the undeformed element [N]
    double stiffnessDamping = 0.0;  ///< β [s]: a mode of frequency ω is damped by ζ = βω/2
};

/// Shape functions at ξ = x/L ∈ [0, 1]: the 4 scalar weights of (r_1, r_x1, r_2, r_x2) in r,
/// and in its first and second derivatives with respect to x.
struct HermiteWeights {
    double s[4], sx[4], sxx[4];
};
HermiteWeights hermiteWeights(double xi, double length);

/// The constant consistent mass matrix ρA ∫ SᵀS dx [kg, kg·m, kg·m²].
ElementMatrix massMatrix(const CableProperties& p);
/// The generalised force of a uniform field g per unit mass, ρA ∫ Sᵀ g dx [N, N·m].
ElementVector gravityForce(const CableProperties& p, const Vec3& g);
/// Strain energy U(e) [J].
double strainEnergy(const CableProperties& p, const ElementVector& e);
/// Generalised elastic force Q = −∂U/∂e [N, N·m].
ElementVector elasticForce(const CableProperties& p, const ElementVector& e);
/// Tangent stiffness K = ∂²U/∂e² = −∂Q/∂e (symmetric), written analytically.
ElementMatrix tangentStiffness(const CableProperties& p, const ElementVector& e);
/// The damping matrix C = ∂²R/∂ė² (symmetric, positive semi-definite); the damping force
/// is −C ė. Zero where β is.
ElementMatrix dampingMatrix(const CableProperties& p, const ElementVector& e);
/// The damping force −C(e) ė [N, N·m], without forming C.
ElementVector dampingForce(const CableProperties& p, const ElementVector& e, const ElementVector& rate);

}  // namespace looplab::ancf
