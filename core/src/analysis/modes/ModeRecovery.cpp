#include "analysis/modes/ModesWork.h"

#include "looplab/dynamics/Dynamics.h"

#include "MessageText.h"

#include <Eigen/Eigenvalues>

#include <algorithm>
#include <cmath>
#include <string>

namespace looplab::modes {

using message::format;

RejectedPair recoverModes(ModesWork& w, ModesResult& res, std::vector<Mode> rigidModes) {
    const Model& model = w.model;
    const ModesOptions& o = w.options;
    const int n = w.n;
    const double sigma = w.sigma, s0 = w.s0, kMax = w.kMax, mMax = w.mMax;
    const Linearization& lin = w.lin;
    const SparseColMatrix& stiffnessSkew = w.stiffnessSkew;
    const ConstraintValues& cv = w.constraints;
    const ConstraintSpaces& spaces = w.spaces;
    const VecX &rowScales = w.rowScales, &colScales = w.colScales;
    const std::vector<Complex>& nu = w.nu;
    const std::vector<VecC>& vecs = w.vecs;
    // Undo shift and scaling; recognise constraint modes; residuals and multipliers.
    double nuMax = 0.0;
    for (const Complex& v : nu) nuMax = std::max(nuMax, std::abs(v));
    auto stiffnessTimes = [&](const VecC& x) {  // K x, K as it is (not symmetrised)
        VecC y = lin.stiffness.cast<Complex>() * x;
        if (stiffnessSkew.nonZeros() > 0) y += stiffnessSkew.cast<Complex>() * x;
        return y;
    };
    std::vector<VecC> complexShapes;  // x of each mode kept, for the repeated damped ones
    double rejectedW2 = 0.0, rejectedResidual = 0.0;  // the lowest pair rejected by its residual
    for (size_t k = 0; k < nu.size(); ++k) {
        if (!(std::abs(nu[k]) > 1e-10 * nuMax)) {  // an infinite eigenvalue
            res.spuriousRejected++;
            continue;
        }
        Complex sk;
        double w2;
        if (res.damped) {
            sk = s0 - 1.0 / nu[k];
            w2 = std::norm(sk);
        } else {
            const Complex lam = sigma + 1.0 / nu[k];
            w2 = lam.real();
            sk = w2 >= 0 ? Complex(0.0, std::sqrt(w2)) : Complex(std::sqrt(-w2), 0.0);
        }
        if (res.damped && sk.imag() < -1e-12 * std::abs(sk)) continue;  // the conjugate of a kept mode
        VecC x = vecs[k];
        Eigen::Index big = 0;
        x.cwiseAbs().maxCoeff(&big);
        if (std::abs(x[big]) == 0.0) {
            res.spuriousRejected++;
            continue;
        }
        x *= std::conj(x[big]) / std::abs(x[big]);
        // Constraint residual of the shape (scaled: lengths against lengths).
        const VecC Bx = cv.jacobian.cast<Complex>() * x;
        const double cres = largestMagnitude(VecC(rowScales.cast<Complex>().cwiseProduct(Bx))) /
                            largestMagnitude(VecC(x.cwiseQuotient(colScales.cast<Complex>())));
        if (!(cres <= o.spuriousTolerance)) {
            if (rejectedW2 == 0.0 || std::abs(w2) < std::abs(rejectedW2)) {
                rejectedW2 = w2;
                rejectedResidual = cres;
            }
            res.spuriousRejected++;
            continue;
        }
        // Eigen-equation residual on the tangent space, with the least-squares multipliers.
        const Complex s2 = res.damped ? sk * sk : Complex(-w2, 0.0);
        const VecC g = (stiffnessTimes(x) + s2 * (lin.mass.cast<Complex>() * x) +
                        (res.damped ? VecC(sk * (lin.damping.cast<Complex>() * x)) : VecC::Zero(n)));
        const VecX lre = spaces.solveTransposed(-g.real()), lim = spaces.solveTransposed(-g.imag());
        const VecC rvec = g + cv.jacobian.transpose().cast<Complex>() *
                                  (lre.cast<Complex>() + Complex(0.0, 1.0) * lim.cast<Complex>());
        // Undamped: the residual against the distance from the shift, ‖g‖ |ν| / ‖Mx‖, is the
        // relative error of the pair as an eigenpair of the shift-inverted operator; at most
        // 1e-11 for every converged pair measured. Far from the shift the values ν crowd
        // together and the solves' rounding mixes their vectors into pairs of no eigenvalue
        // (1e-6 to 3e-4 measured with σ at twice the largest ω² of a cantilever): rejected
        // with the spurious tolerance, like a shape off the constraints (methods.md,
        // "Spurious modes").
        if (!res.damped) {
            const double shifted = rvec.norm() * std::abs(nu[k]) / (lin.mass.cast<Complex>() * x).norm();
            if (!(shifted <= o.spuriousTolerance)) {
                if (rejectedW2 == 0.0 || std::abs(w2) < std::abs(rejectedW2)) {
                    rejectedW2 = w2;
                    rejectedResidual = shifted;
                }
                res.spuriousRejected++;
                continue;
            }
        }
        // Relative to the size of the shifted matrix, so that a zero-frequency mode of a
        // model without stiffness is measured against something.
        const double scale = std::max(kMax, (std::abs(s2) + std::abs(sigma)) * mMax) * x.norm();
        Mode m;
        m.s = sk;
        m.squaredFrequency = w2;
        m.frequencyHz = std::abs(sk) / (2.0 * M_PI);
        m.dampingRatio = std::abs(sk) > 0 ? (0.0 - sk.real()) / std::abs(sk) : 0.0;  // never −0
        m.unstable = res.damped ? sk.real() > 0 : w2 < 0;
        m.constraintResidual = cres;
        m.residual = scale > 0 ? rvec.norm() / scale : 0.0;
        m.accurate = m.residual <= o.residualTolerance;
        VecX shape = x.real();
        const double mm = shape.dot(applyMass(model, shape));
        const double norm = mm > 0 ? 1.0 / std::sqrt(mm) : 1.0;
        m.shape = norm * shape;
        m.multipliers = norm * lre;
        res.modes.push_back(std::move(m));
        complexShapes.push_back(x);
    }
    // A damped mode's shape is the real part of its eigenvector; in a repeated eigenspace the
    // eigenvectors found may be complex combinations of real modes whose real parts nearly
    // coincide (three identical damped pendulums: Gram determinant 0.0035). Such a group
    // gets the M-orthonormal basis of the span of its real and imaginary parts instead (its
    // m largest directions: exactly the eigenspace when the damping is classical), and the
    // multipliers of those shapes.
    if (res.damped) {
        std::vector<bool> grouped(res.modes.size(), false);
        for (size_t i = 0; i < res.modes.size(); ++i) {
            if (grouped[i]) continue;
            std::vector<size_t> group{i};
            for (size_t j = i + 1; j < res.modes.size(); ++j)
                if (!grouped[j] && std::abs(res.modes[j].s - res.modes[i].s) <= 1e-8 * std::abs(res.modes[i].s))
                    group.push_back(j);
            for (const size_t j : group) grouped[j] = true;
            const int size = static_cast<int>(group.size());
            if (size < 2) continue;
            MatX R(n, 2 * size), MR(n, 2 * size);
            for (int c = 0; c < size; ++c) {
                R.col(c) = complexShapes[group[static_cast<size_t>(c)]].real();
                R.col(size + c) = complexShapes[group[static_cast<size_t>(c)]].imag();
            }
            for (int c = 0; c < 2 * size; ++c) MR.col(c) = applyMass(model, R.col(c));
            const Eigen::SelfAdjointEigenSolver<MatX> es(R.transpose() * MR);  // ascending
            for (int c = 0; c < size; ++c) {
                const int col = 2 * size - 1 - c;
                const double weight = es.eigenvalues()[col];
                if (!(weight > 0.0)) break;
                Mode& m = res.modes[group[static_cast<size_t>(c)]];
                const VecX shape = R * es.eigenvectors().col(col) / std::sqrt(weight);
                const VecC xs = shape.cast<Complex>();
                const VecC g = stiffnessTimes(xs) + m.s * m.s * (lin.mass.cast<Complex>() * xs) +
                               m.s * (lin.damping.cast<Complex>() * xs);
                m.shape = shape;
                m.multipliers = spaces.solveTransposed(-g.real());
            }
        }
    }
    std::sort(res.modes.begin(), res.modes.end(), [](const Mode& a, const Mode& b) {
        return std::abs(a.s) < std::abs(b.s);
    });
    if (static_cast<int>(res.modes.size()) > o.count) res.modes.resize(static_cast<size_t>(o.count));
    res.modes.insert(res.modes.begin(), rigidModes.begin(), rigidModes.end());
    // Measured, the rejected pairs were modes far from the shift whose shift-inverted values
    // crowd together (methods.md, "Spurious modes"), not the infinite ones: say so.
    if (res.spuriousRejected > 0)
        res.warnings.push_back(std::to_string(res.spuriousRejected) +
                               " constraint mode(s) (shape violating the constraints, or infinite) not reported; "
                               "modes far from the shift can end up so: a shift nearer the modes wanted finds them");
    for (const Mode& m : res.modes)
        if (!m.accurate) {
            res.warnings.push_back(format("a mode at %.6g Hz has a residual of %.3g: inaccurate", m.frequencyHz,
                                          m.residual));
            break;
        }
    res.flagged = res.illConditioned ||
                  std::any_of(res.modes.begin(), res.modes.end(), [](const Mode& m) { return !m.accurate; });
    return {rejectedW2, rejectedResidual};
}

std::string noModeMessage(const ModesWork& w, const ModesResult& res, const RejectedPair& rejected, bool shiftTried) {
    const ModesOptions& o = w.options;
    const double sigma = w.sigma, rejectedW2 = rejected.squaredFrequency, rejectedResidual = rejected.residual;
    return "no physical mode was found near the shift: " +
           (res.spuriousRejected > 0
                ? std::to_string(res.spuriousRejected) +
                      " pair(s) found, each with a shape off the constraints or a residual above " +
                      format("%.3g", o.spuriousTolerance) + " (condition of the shifted matrix " +
                      format("%.3g", res.conditionScaled) + ")" +
                      (rejectedW2 != 0.0
                           ? format("; the lowest at omega^2 = %.3g rad^2/s^2 with a residual of %.3g",
                                    rejectedW2, rejectedResidual) +
                                 format(" against a shift of %.3g: the model's frequencies are not "
                                        "resolved in double precision there (a material or mass out of "
                                        "the range of real structures, such as a modulus over density "
                                        "hundreds of millions of times steel's)",
                                        sigma) +
                                 (shiftTried ? format("; a shift at omega^2 = %.3g was tried as well and found "
                                                      "none: give the material and masses values of real "
                                                      "structures",
                                                      rejectedW2)
                                             : format("; a --shift nearer omega^2 = %.3g may resolve them",
                                                      rejectedW2))
                           : std::string("; try a --shift nearer the modes"))
                : std::string("the iteration returned no pair"));
}

}  // namespace looplab::modes
