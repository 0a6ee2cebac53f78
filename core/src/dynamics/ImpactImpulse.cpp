#include "looplab/dynamics/ImpactImpulse.h"

#include "looplab/dynamics/Dynamics.h"
#include "looplab/kinematics/Constraints.h"

#include <Eigen/QR>
#include <cmath>
#include <sstream>

namespace looplab {

ImpactImpulse impactImpulse(const Model& model, const State& s, const VecX& gradient, double target) {
    ImpactImpulse out;
    ConstraintValues cv;
    evaluateConstraints(model, s, cv, kJacobian | kPhiT);
    const int m = model.equationCount(), n = model.velocitySize();
    // A = [Φ_q; G], b = [−Φ_t; target]: the rows the velocity after the impact meets.
    MatX A(m + 1, n);
    A.topRows(m) = cv.denseJacobian();
    A.row(m) = gradient.transpose();
    VecX b(m + 1);
    b.head(m) = -cv.phiT;
    b[m] = target;
    // M⁻¹Aᵀ column by column (M is applied, not stored: Dynamics.h).
    MatX MinvAt(n, m + 1);
    for (int r = 0; r <= m; ++r) MinvAt.col(r) = applyInverseMass(model, A.row(r).transpose());
    const MatX W = A * MinvAt;
    const VecX rhs = b - A * s.v;
    // Redundant joint equations make W singular with a consistent right-hand side: the
    // complete orthogonal decomposition gives the multipliers of least norm, whose
    // velocity jump is the unique one.
    Eigen::CompleteOrthogonalDecomposition<MatX> cod(W);
    VecX mu = cod.solve(rhs);
    // One step of refinement takes the residual to rounding.
    mu += cod.solve(rhs - W * mu);
    out.velocity = s.v + MinvAt * mu;
    out.impulse = mu[m];
    const VecX residual = A * out.velocity - b;
    out.closureRate = m > 0 ? residual.head(m).cwiseAbs().maxCoeff() : 0.0;
    const double speedScale = std::max({s.v.cwiseAbs().maxCoeff(), std::abs(target), 1e-300});
    if (!std::isfinite(out.impulse) || !(std::abs(residual[m]) <= 1e-6 * speedScale * (1.0 + gradient.norm()))) {
        std::ostringstream d;
        d << "the impact cannot meet Newton's law with every joint closed: the joints hold the stop's coordinate "
             "(its gap rate stays "
          << (A.row(m) * out.velocity) << " against " << target << " asked)";
        out.ok = false;
        out.message = d.str();
        return out;
    }
    const double before = 0.5 * s.v.dot(applyMass(model, s.v));
    const double after = 0.5 * out.velocity.dot(applyMass(model, out.velocity));
    out.energyLoss = before - after;
    out.ok = true;
    return out;
}

}  // namespace looplab
