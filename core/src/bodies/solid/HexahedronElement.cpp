#include "looplab/bodies/solid/HexahedronElement.h"

#include <cmath>
#include <stdexcept>

namespace looplab::hex {

namespace {

const double kGauss = 1.0 / std::sqrt(3.0);  // 2-point Gauss rule on [−1, 1], weights 1

// Shape functions N_a = ⅛(1 + ξ_a ξ)(1 + η_a η)(1 + ζ_a ζ) and their ξ-derivatives.
void shape(const Vec3& xi, Eigen::Matrix<double, kNodes, 1>& N, Eigen::Matrix<double, 3, kNodes>& dN) {
    for (int a = 0; a < kNodes; ++a) {
        const Vec3 c = cornerOf(a);
        const double f0 = 1.0 + c[0] * xi[0], f1 = 1.0 + c[1] * xi[1], f2 = 1.0 + c[2] * xi[2];
        N[a] = 0.125 * f0 * f1 * f2;
        dN(0, a) = 0.125 * c[0] * f1 * f2;
        dN(1, a) = 0.125 * f0 * c[1] * f2;
        dN(2, a) = 0.125 * f0 * f1 * c[2];
    }
}

Vec3 gaussPoint(int p) { return kGauss * cornerOf(p); }

// The displacement gradient H = F − I.
Mat3 displacementGradient(const Geometry& g, const Gradients& G, const ElementVector& x) {
    Mat3 H = Mat3::Zero();
    for (int a = 0; a < kNodes; ++a)
        H.noalias() += (x.segment<3>(kNodeSize * a) - g.reference.col(a)) * G.col(a).transpose();
    return H;
}

// E = ½(FᵀF − I) = ½(H + Hᵀ + HᵀH), without the cancellation of FᵀF − I.
Mat3 strainOf(const Mat3& H) { return 0.5 * (H + H.transpose() + H.transpose() * H); }

}  // namespace

Vec3 cornerOf(int a) {
    static const double s[kNodes][3] = {{-1, -1, -1}, {1, -1, -1}, {1, 1, -1}, {-1, 1, -1},
                                        {-1, -1, 1},  {1, -1, 1},  {1, 1, 1},  {-1, 1, 1}};
    return Vec3(s[a][0], s[a][1], s[a][2]);
}

Geometry geometry(const Eigen::Matrix<double, 3, kNodes>& X) {
    Geometry g;
    g.reference = X;
    g.massShape.setZero();
    g.volumeShare.setZero();
    for (int p = 0; p < kGaussPoints; ++p) {
        Eigen::Matrix<double, kNodes, 1> N;
        Eigen::Matrix<double, 3, kNodes> dN;
        shape(gaussPoint(p), N, dN);
        const Mat3 J = X * dN.transpose();  // ∂X/∂ξ
        const double det = J.determinant();
        if (!(det > 0.0)) throw std::invalid_argument("hexahedron: inverted or degenerate element");
        g.gradients[size_t(p)] = J.transpose().inverse() * dN;
        g.volume[size_t(p)] = det;  // Gauss weights are 1
        g.massShape.noalias() += det * N * N.transpose();
        g.volumeShare += det * N;
    }
    return g;
}

Mat3 greenStrain(const Geometry& g, int p, const ElementVector& x) {
    return strainOf(displacementGradient(g, g.gradients[size_t(p)], x));
}

Mat3 secondPiolaKirchhoff(const Material& m, const Mat3& E) {
    return m.lambda() * E.trace() * Mat3::Identity() + 2.0 * m.mu() * E;
}

double strainEnergy(const Material& m, const Geometry& g, const ElementVector& x) {
    const double lambda = m.lambda(), mu = m.mu();
    double U = 0.0;
    for (int p = 0; p < kGaussPoints; ++p) {
        const Mat3 E = greenStrain(g, p, x);
        U += g.volume[size_t(p)] * (0.5 * lambda * E.trace() * E.trace() + mu * E.squaredNorm());
    }
    return U;
}

ElementVector elasticForce(const Material& m, const Geometry& g, const ElementVector& x) {
    ElementVector Q = ElementVector::Zero();
    for (int p = 0; p < kGaussPoints; ++p) {
        const Gradients& G = g.gradients[size_t(p)];
        const Mat3 H = displacementGradient(g, G, x);
        const Mat3 F = Mat3::Identity() + H;
        const Mat3 P = F * secondPiolaKirchhoff(m, strainOf(H));  // first Piola–Kirchhoff
        const Eigen::Matrix<double, 3, kNodes> f = g.volume[size_t(p)] * P * G;
        for (int a = 0; a < kNodes; ++a) Q.segment<3>(kNodeSize * a) -= f.col(a);
    }
    return Q;
}

namespace {

// ∂²U/∂x², or with `materialOnly` its material part alone (no stress term).
ElementMatrix stiffness(const Material& m, const Geometry& g, const ElementVector& x, bool materialOnly) {
    const double lambda = m.lambda(), mu = m.mu();
    ElementMatrix K = ElementMatrix::Zero();
    for (int p = 0; p < kGaussPoints; ++p) {
        const Gradients& G = g.gradients[size_t(p)];
        const double w = g.volume[size_t(p)];
        const Mat3 H = displacementGradient(g, G, x);
        const Mat3 F = Mat3::Identity() + H;
        const Mat3 S = materialOnly ? Mat3::Zero() : secondPiolaKirchhoff(m, strainOf(H));
        const Mat3 B = F * F.transpose();
        const Eigen::Matrix<double, 3, kNodes> FG = F * G;   // column a: F ∇₀N_a
        const NodeMatrix GG = G.transpose() * G;              // ∇₀N_a · ∇₀N_b
        const NodeMatrix GSG = G.transpose() * S * G;         // ∇₀N_a · S ∇₀N_b
        for (int b = 0; b < kNodes; ++b)
            for (int a = 0; a < kNodes; ++a) {
                Mat3 k = (lambda * FG.col(a)) * FG.col(b).transpose() + (mu * FG.col(b)) * FG.col(a).transpose();
                k += (mu * GG(a, b)) * B;
                k.diagonal().array() += GSG(a, b);
                K.block<3, 3>(kNodeSize * a, kNodeSize * b) += w * k;
            }
    }
    return K;
}

}  // namespace

ElementMatrix tangentStiffness(const Material& m, const Geometry& g, const ElementVector& x) {
    return stiffness(m, g, x, false);
}

ElementMatrix dampingMatrix(const Material& m, const Geometry& g, const ElementVector& x) {
    if (m.stiffnessDamping == 0.0) return ElementMatrix::Zero();
    return m.stiffnessDamping * stiffness(m, g, x, true);
}

ElementVector dampingForce(const Material& m, const Geometry& g, const ElementVector& x, const ElementVector& rate) {
    ElementVector Q = ElementVector::Zero();
    if (m.stiffnessDamping == 0.0) return Q;
    const Eigen::Map<const Eigen::Matrix<double, 3, kNodes>> rates(rate.data());
    for (int p = 0; p < kGaussPoints; ++p) {
        const Gradients& G = g.gradients[size_t(p)];
        const Mat3 F = Mat3::Identity() + displacementGradient(g, G, x);
        const Mat3 Fdot = rates * G.transpose();
        const Mat3 FtFdot = F.transpose() * Fdot;
        const Mat3 Edot = 0.5 * (FtFdot + FtFdot.transpose());
        const Mat3 Sd = m.stiffnessDamping * secondPiolaKirchhoff(m, Edot);  // linear in the strain
        const Eigen::Matrix<double, 3, kNodes> f = g.volume[size_t(p)] * F * Sd * G;
        for (int a = 0; a < kNodes; ++a) Q.segment<3>(kNodeSize * a) -= f.col(a);
    }
    return Q;
}

}  // namespace looplab::hex
