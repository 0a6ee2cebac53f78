#include "looplab/bodies/AncfCableElement.h"

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

// With `materialOnly` the Hessian leaves out the axial stress's geometric part, (EAε + N₀)I.
PointEnergy pointEnergy(const CableProperties& p, const Vec3& a, const Vec3& b, bool hessian, bool materialOnly = false) {
    PointEnergy out;
    const double g = a.squaredNorm();
    const double eps = 0.5 * (g - 1.0);
    const double EA = p.axialStiffness, EI = p.bendingStiffness;
    // Axial: ½ EA ε² + N₀ ε.
    out.value = 0.5 * EA * eps * eps + p.preload * eps;
    out.ga = (EA * eps + p.preload) * a;
    out.gb.setZero();
    if (hessian) {
        out.haa = EA * a * a.transpose();
        if (!materialOnly) out.haa += (EA * eps + p.preload) * Mat3::Identity();
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

// U, −∂U/∂e and ∂²U/∂e² by Gauss integration (the last two only if asked for). S_x and
// S_xx are four scalar weights times the identity, so the products with them are written
// out node slot by node slot: forming the 3 × 12 matrices cost most of the time of an
// evaluation with a tangent stiffness.
double integrate(const CableProperties& p, const ElementVector& e, ElementVector* force, ElementMatrix* K,
                 bool materialOnly = false) {
    double U = 0.0;
    if (force) force->setZero();
    if (K) K->setZero();
    for (int i = 0; i < kGaussPoints; ++i) {
        const HermiteWeights w = hermiteWeights(kGaussXi[i], p.length);
        const double dx = kGaussWeight[i] * p.length;
        const Vec3 a = combine(w.sx, e), b = combine(w.sxx, e);
        const PointEnergy pe = pointEnergy(p, a, b, K != nullptr, materialOnly);
        U += dx * pe.value;
        if (force)
            for (int k = 0; k < 4; ++k) force->segment<3>(3 * k) -= dx * (w.sx[k] * pe.ga + w.sxx[k] * pe.gb);
        if (K)
            for (int c = 0; c < 4; ++c)
                for (int r = 0; r < 4; ++r)
                    K->block<3, 3>(3 * r, 3 * c) +=
                        dx * (w.sx[r] * w.sx[c] * pe.haa + w.sx[r] * w.sxx[c] * pe.hab +
                              w.sxx[r] * w.sx[c] * pe.hab.transpose() + w.sxx[r] * w.sxx[c] * pe.hbb);
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
    if (p.stiffnessDamping == 0.0) return ElementMatrix::Zero();
    ElementMatrix K;
    integrate(p, e, nullptr, &K, true);
    return p.stiffnessDamping * K;
}

ElementVector dampingForce(const CableProperties& p, const ElementVector& e, const ElementVector& rate) {
    ElementVector f = ElementVector::Zero();
    if (p.stiffnessDamping == 0.0) return f;
    // −β K_m ė point by point: the 3 × 3 Hessian blocks applied to the rates of r_x and r_xx.
    for (int i = 0; i < kGaussPoints; ++i) {
        const HermiteWeights w = hermiteWeights(kGaussXi[i], p.length);
        const double dx = p.stiffnessDamping * kGaussWeight[i] * p.length;
        const PointEnergy pe = pointEnergy(p, combine(w.sx, e), combine(w.sxx, e), true, true);
        const Vec3 aRate = combine(w.sx, rate), bRate = combine(w.sxx, rate);
        const Vec3 ga = pe.haa * aRate + pe.hab * bRate, gb = pe.hab.transpose() * aRate + pe.hbb * bRate;
        for (int k = 0; k < 4; ++k) f.segment<3>(3 * k) -= dx * (w.sx[k] * ga + w.sxx[k] * gb);
    }
    return f;
}

}  // namespace looplab::ancf
