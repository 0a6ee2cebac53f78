#include "analysis/modes/ModesWork.h"

#include <Eigen/Eigenvalues>

#include <algorithm>
#include <cmath>
#include <limits>

namespace looplab::modes {

// The eigenvalues of the linearisation projected on the tangent space by dense solvers,
// an independent method, and the largest relative difference of a reported mode from the
// nearest of them; only for models of at most denseCheckLimit coordinates.
void checkOnTangentSpace(ModesWork& w, ModesResult& res) {
    const int n = w.n;
    const double sigma = w.sigma, s0 = w.s0;
    const Linearization& lin = w.lin;
    const SparseColMatrix& stiffnessSkew = w.stiffnessSkew;
    const ConstraintSpaces& spaces = w.spaces;
    const VecX& colScales = w.colScales;
    if (n <= w.options.denseCheckLimit) {
        const auto td = Clock::now();
        const MatX T = colScales.asDiagonal() * spaces.tangentBasis();
        MatX Kd = MatX(lin.stiffness);
        if (stiffnessSkew.nonZeros() > 0) Kd += MatX(stiffnessSkew);
        const MatX Kp = T.transpose() * Kd * T;
        const MatX Mp = T.transpose() * MatX(lin.mass) * T;
        std::vector<Complex> sd;
        if (!res.damped) {
            std::vector<Complex> lamd;
            if (res.symmetric) {
                Eigen::GeneralizedSelfAdjointEigenSolver<MatX> eig(0.5 * (Kp + Kp.transpose()), Mp);
                for (int i = 0; i < eig.eigenvalues().size(); ++i) lamd.emplace_back(eig.eigenvalues()[i], 0.0);
            } else {
                Eigen::EigenSolver<MatX> eig(Mp.ldlt().solve(Kp));
                for (int i = 0; i < eig.eigenvalues().size(); ++i) lamd.push_back(eig.eigenvalues()[i]);
            }
            // Relative to ω_d² itself: against |σ| (as before) a shift far from the lowest
            // modes, e.g. the automatic one of a flexible model at 500 to 15 000 times ω₁²,
            // hid their errors by as much. The floor only keeps zero-frequency modes finite.
            double largest = 0.0;
            for (const Complex& l : lamd) largest = std::max(largest, std::abs(l.real()));
            const double floor = std::max(1e-9 * largest, 1e-12 * std::abs(sigma));
            for (const Mode& m : res.modes) {
                double best = std::numeric_limits<double>::infinity();
                for (const Complex& l : lamd)
                    best = std::min(best, std::abs(m.squaredFrequency - l.real()) / std::max(std::abs(l.real()), floor));
                res.denseDifference = std::max(res.denseDifference, best);
            }
            for (const Complex& l : lamd)
                sd.push_back(l.real() >= 0 ? Complex(0.0, std::sqrt(l.real())) : Complex(std::sqrt(-l.real()), 0.0));
        } else {
            const MatX Cp = T.transpose() * MatX(lin.damping) * T;
            const int dd = static_cast<int>(Kp.rows());
            MatX A = MatX::Zero(2 * dd, 2 * dd);
            A.topRightCorner(dd, dd).setIdentity();
            const auto Mlu = Mp.ldlt();
            A.bottomLeftCorner(dd, dd) = -Mlu.solve(Kp);
            A.bottomRightCorner(dd, dd) = -Mlu.solve(Cp);
            Eigen::EigenSolver<MatX> eig(A);
            for (int i = 0; i < eig.eigenvalues().size(); ++i) sd.push_back(eig.eigenvalues()[i]);
            double largest = 0.0;
            for (const Complex& l : sd) largest = std::max(largest, std::abs(l));
            const double floor = std::max(std::sqrt(1e-9) * largest, 1e-6 * std::abs(s0));
            for (const Mode& m : res.modes) {
                double best = std::numeric_limits<double>::infinity();
                for (const Complex& l : sd) best = std::min(best, std::abs(m.s - l) / std::max(std::abs(l), floor));
                res.denseDifference = std::max(res.denseDifference, best);
            }
        }
        std::sort(sd.begin(), sd.end(), [](Complex a, Complex b) { return std::abs(a) < std::abs(b); });
        res.denseEigenvalues = sd;
        res.denseChecked = true;
        res.denseSeconds = seconds(td);
    }
}

}  // namespace looplab::modes
