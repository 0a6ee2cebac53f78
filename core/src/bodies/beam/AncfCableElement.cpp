#include "looplab/bodies/beam/AncfCableElement.h"

#include "looplab/bodies/Rotation.h"

#include <cmath>

namespace looplab::ancf {

namespace {

// 5-point Gauss–Legendre rule on [0, 1].
constexpr int kGaussPoints = 5;
constexpr double kGaussXi[kGaussPoints] = {0.04691007703066800, 0.23076534494715845, 0.5,
                                           0.76923465505284155, 0.95308992296933200};
constexpr double kGaussWeight[kGaussPoints] = {0.11846344252809454, 0.23931433524968324,
                                               0.28444444444444444, 0.23931433524968324,
                                               0.11846344252809454};

// The 3 × 12 matrix w[0] I, w[1] I, w[2] I, w[3] I.
Eigen::Matrix<double, 3, kElementSize> expand(const double* w) {
    Eigen::Matrix<double, 3, kElementSize> S = Eigen::Matrix<double, 3, kElementSize>::Zero();
    for (int k = 0; k < 4; ++k) S.block<3, 3>(0, 3 * k) = w[k] * Mat3::Identity();
    return S;
}

Vec3 combine(const double* w, const ElementVector& e) {
    return w[0] * e.segment<3>(0) + w[1] * e.segment<3>(3) + w[2] * e.segment<3>(6) + w[3] * e.segment<3>(9);
}

// The strain energy density's value, gradient with respect to (a, b) = (r_x, r_xx) and
// Hessian at one point; energy per length [J/m].
struct PointEnergy {
    double value = 0.0;
    Vec3 ga, gb;
    Mat3 haa, hab, hbb;
};

PointEnergy pointEnergy(const CableProperties& p, const Vec3& a, const Vec3& b, bool hessian) {
    PointEnergy out;
    const double g = a.squaredNorm();
    const double eps = 0.5 * (g - 1.0);
    const double EA = p.axialStiffness, EI = p.bendingStiffness;
    // Axial: ½ EA ε² + N₀ ε.
    out.value = 0.5 * EA * eps * eps + p.preload * eps;
    out.ga = (EA * eps + p.preload) * a;
    out.gb.setZero();
    if (hessian) {
        out.haa = EA * a * a.transpose() + (EA * eps + p.preload) * Mat3::Identity();
        out.hab.setZero();
        out.hbb.setZero();
    }
    // Bending: ½ EI f, f = κ² = h g⁻² with h = |c|², c = a × b.
    const Vec3 c = a.cross(b);
    const double h = c.squaredNorm();
    const double g2 = 1.0 / (g * g), g3 = g2 / g, g4 = g3 / g;
    const Vec3 ha = 2.0 * b.cross(c), hb = 2.0 * c.cross(a);
    const double k = 0.5 * EI;
    out.value += k * h * g2;
    out.ga += k * (g2 * ha - 4.0 * h * g3 * a);
    out.gb += k * g2 * hb;
    if (!hessian) return out;
    const Mat3 A = skew(a), B = skew(b), C = skew(c);
    const Mat3 haa = -2.0 * B * B, hbb = -2.0 * A * A, hab = 2.0 * (-C + B * A);
    out.haa += k * (g2 * haa - 4.0 * g3 * (ha * a.transpose() + a * ha.transpose()) -
                    4.0 * h * g3 * Mat3::Identity() + 24.0 * h * g4 * a * a.transpose());
    out.hab += k * (g2 * hab - 4.0 * g3 * a * hb.transpose());
    out.hbb += k * g2 * hbb;
    return out;
}

// The damping's dissipation density ½β(EA ε̇² + EI |ẇ|²) is a quadratic form in the rates
// (ȧ, ḃ) of (r_x, r_xx); its matrix per unit β, in 3 × 3 blocks. ε̇ = a·ȧ, and the curvature
// vector w = a × b / |a|² (|w| = κ, the bending energy ½EI|w|²) has ẇ = J_a ȧ + J_b ḃ with
// J_a = −b̃/g − 2 w aᵀ/g and J_b = ã/g. A Gram matrix: never negative, so the damping never
// adds energy, where the Hessian of the bending energy is indefinite in a bent element.
struct PointDamping {
    Mat3 aa, ab, bb;
};

PointDamping pointDamping(const CableProperties& p, const Vec3& a, const Vec3& b) {
    const double g = a.squaredNorm();
    const Vec3 w = a.cross(b) / g;
    const Mat3 Ja = -skew(b) / g - (2.0 / g) * w * a.transpose(), Jb = skew(a) / g;
    const double EA = p.axialStiffness, EI = p.bendingStiffness;
    return {EA * a * a.transpose() + EI * Ja.transpose() * Ja, EI * Ja.transpose() * Jb, EI * Jb.transpose() * Jb};
}

// K += dx Σ S_{x or xx}ᵀ block S_{x or xx}, node slot by node slot.
void addBlocks(ElementMatrix& K, const HermiteWeights& w, double dx, const Mat3& aa, const Mat3& ab, const Mat3& bb) {
    for (int c = 0; c < 4; ++c)
        for (int r = 0; r < 4; ++r)
            K.block<3, 3>(3 * r, 3 * c) += dx * (w.sx[r] * w.sx[c] * aa + w.sx[r] * w.sxx[c] * ab +
                                                 w.sxx[r] * w.sx[c] * ab.transpose() + w.sxx[r] * w.sxx[c] * bb);
}

// U, −∂U/∂e and ∂²U/∂e² by Gauss integration (the last two only if asked for). S_x and
// S_xx are four scalar weights times the identity, so the products with them are written
// out node slot by node slot: forming the 3 × 12 matrices cost most of the time of an
// evaluation with a tangent stiffness.
double integrate(const CableProperties& p, const ElementVector& e, ElementVector* force, ElementMatrix* K) {
    double U = 0.0;
    if (force) force->setZero();
    if (K) K->setZero();
    for (int i = 0; i < kGaussPoints; ++i) {
        const HermiteWeights w = hermiteWeights(kGaussXi[i], p.length);
        const double dx = kGaussWeight[i] * p.length;
        const Vec3 a = combine(w.sx, e), b = combine(w.sxx, e);
        const PointEnergy pe = pointEnergy(p, a, b, K != nullptr);
        U += dx * pe.value;
        if (force)
            for (int k = 0; k < 4; ++k) force->segment<3>(3 * k) -= dx * (w.sx[k] * pe.ga + w.sxx[k] * pe.gb);
        if (K) addBlocks(*K, w, dx, pe.haa, pe.hab, pe.hbb);
    }
    return U;
}

}  // namespace

HermiteWeights hermiteWeights(double xi, double L) {
    const double x2 = xi * xi, x3 = x2 * xi;
    HermiteWeights w;
    w.s[0] = 1.0 - 3.0 * x2 + 2.0 * x3;
    w.s[1] = L * (xi - 2.0 * x2 + x3);
    w.s[2] = 3.0 * x2 - 2.0 * x3;
    w.s[3] = L * (x3 - x2);
    w.sx[0] = (6.0 * x2 - 6.0 * xi) / L;
    w.sx[1] = 1.0 - 4.0 * xi + 3.0 * x2;
    w.sx[2] = (6.0 * xi - 6.0 * x2) / L;
    w.sx[3] = 3.0 * x2 - 2.0 * xi;
    w.sxx[0] = (12.0 * xi - 6.0) / (L * L);
    w.sxx[1] = (6.0 * xi - 4.0) / L;
    w.sxx[2] = (6.0 - 12.0 * xi) / (L * L);
    w.sxx[3] = (6.0 * xi - 2.0) / L;
    return w;
}

ElementMatrix massMatrix(const CableProperties& p) {
    ElementMatrix M = ElementMatrix::Zero();
    for (int i = 0; i < kGaussPoints; ++i) {
        const auto S = expand(hermiteWeights(kGaussXi[i], p.length).s);
        M.noalias() += (kGaussWeight[i] * p.length * p.massPerLength) * S.transpose() * S;
    }
    return M;
}

ElementVector gravityForce(const CableProperties& p, const Vec3& g) {
    ElementVector f = ElementVector::Zero();
    for (int i = 0; i < kGaussPoints; ++i) {
        const auto S = expand(hermiteWeights(kGaussXi[i], p.length).s);
        f.noalias() += (kGaussWeight[i] * p.length * p.massPerLength) * S.transpose() * g;
    }
    return f;
}

double strainEnergy(const CableProperties& p, const ElementVector& e) { return integrate(p, e, nullptr, nullptr); }

ElementVector elasticForce(const CableProperties& p, const ElementVector& e) {
    ElementVector f;
    integrate(p, e, &f, nullptr);
    return f;
}

ElementMatrix tangentStiffness(const CableProperties& p, const ElementVector& e) {
    ElementMatrix K;
    integrate(p, e, nullptr, &K);
    return K;
}

ElementMatrix dampingMatrix(const CableProperties& p, const ElementVector& e) {
    ElementMatrix C = ElementMatrix::Zero();
    if (p.stiffnessDamping == 0.0) return C;
    for (int i = 0; i < kGaussPoints; ++i) {
        const HermiteWeights w = hermiteWeights(kGaussXi[i], p.length);
        const PointDamping d = pointDamping(p, combine(w.sx, e), combine(w.sxx, e));
        addBlocks(C, w, p.stiffnessDamping * kGaussWeight[i] * p.length, d.aa, d.ab, d.bb);
    }
    return C;
}

ElementVector dampingForce(const CableProperties& p, const ElementVector& e, const ElementVector& rate) {
    ElementVector f = ElementVector::Zero();
    if (p.stiffnessDamping == 0.0) return f;
    // −C ė point by point without forming C: with ε̇ = a·ȧ and ẇ = J_a ȧ + J_b ḃ,
    // ∂R/∂ȧ = β(EA ε̇ a + EI J_aᵀẇ), J_aᵀẇ = (b × ẇ − 2 (w·ẇ) a)/g, and ∂R/∂ḃ = β EI J_bᵀẇ,
    // J_bᵀẇ = (ẇ × a)/g (pointDamping's blocks applied to the rates, in vector products).
    const double EA = p.axialStiffness, EI = p.bendingStiffness;
    for (int i = 0; i < kGaussPoints; ++i) {
        const HermiteWeights w = hermiteWeights(kGaussXi[i], p.length);
        const double dx = p.stiffnessDamping * kGaussWeight[i] * p.length;
        const Vec3 a = combine(w.sx, e), b = combine(w.sxx, e);
        const Vec3 aRate = combine(w.sx, rate), bRate = combine(w.sxx, rate);
        const double g = a.squaredNorm(), strainRate = a.dot(aRate);
        const Vec3 curvature = a.cross(b) / g;
        const Vec3 curvatureRate = (aRate.cross(b) + a.cross(bRate)) / g - (2.0 * strainRate / g) * curvature;
        const Vec3 ga = EA * strainRate * a + (EI / g) * (b.cross(curvatureRate) - 2.0 * curvature.dot(curvatureRate) * a);
        const Vec3 gb = (EI / g) * curvatureRate.cross(a);
        for (int k = 0; k < 4; ++k) f.segment<3>(3 * k) -= dx * (w.sx[k] * ga + w.sxx[k] * gb);
    }
    return f;
}

}  // namespace looplab::ancf
