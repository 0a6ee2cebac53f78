#include "looplab/bodies/solid/HexahedronStress.h"

#include <cmath>

namespace looplab::hex {

Mat3 deformationGradientAt(const Geometry& g, const Vec3& xi, const ElementVector& x) {
    // ∂N_a/∂ξ of the trilinear shape functions N_a = ⅛(1 + ξ_a ξ)(1 + η_a η)(1 + ζ_a ζ).
    Eigen::Matrix<double, 3, kNodes> dN;
    for (int a = 0; a < kNodes; ++a) {
        const Vec3 c = cornerOf(a);
        const double f0 = 1.0 + c[0] * xi[0], f1 = 1.0 + c[1] * xi[1], f2 = 1.0 + c[2] * xi[2];
        dN(0, a) = 0.125 * c[0] * f1 * f2;
        dN(1, a) = 0.125 * f0 * c[1] * f2;
        dN(2, a) = 0.125 * f0 * f1 * c[2];
    }
    const Mat3 J = g.reference * dN.transpose();  // ∂X/∂ξ
    const Gradients G = J.transpose().inverse() * dN;
    Mat3 F = Mat3::Identity();
    for (int a = 0; a < kNodes; ++a)
        F.noalias() += (x.segment<3>(kNodeSize * a) - g.reference.col(a)) * G.col(a).transpose();
    return F;
}

Mat3 cauchyStress(const Material& m, const Mat3& F) {
    const Mat3 H = F - Mat3::Identity();
    // E = ½(H + Hᵀ + HᵀH): small strains keep their digits.
    const Mat3 E = 0.5 * (H + H.transpose() + H.transpose() * H);
    return F * secondPiolaKirchhoff(m, E) * F.transpose() / F.determinant();
}

double vonMisesStress(const Mat3& sigma) {
    const Mat3 s = sigma - sigma.trace() / 3.0 * Mat3::Identity();
    return std::sqrt(1.5 * s.cwiseProduct(s).sum());
}

}  // namespace looplab::hex
