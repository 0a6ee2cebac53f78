#include "looplab/simulation/ViolationMonitor.h"

#include "looplab/kinematics/Constraints.h"
#include "looplab/dynamics/Dynamics.h"
#include "looplab/integrate/MethodRegistry.h"
#include "looplab/integrate/SingularityMonitor.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

namespace looplab {

std::string namingJoints(const std::string& message, const std::vector<std::string>& joints) {
    if (joints.empty()) return message;
    std::string out = message + " (joint" + (joints.size() > 1 ? "s " : " ");
    for (size_t i = 0; i < joints.size(); ++i) out += (i ? ", " : "") + joints[i];
    return out + ")";
}

ViolationBound constraintViolationBound(const Model& m, const SimulationSettings& st) {
    ViolationBound b;
    const double L = m.lengthScale;
    b.gross = 1e-2 * L;
    const ConstraintMethodSettings& c = st.constraints;
    // A fixed-step integrator has no tolerances: it is held to the default ones.
    const OdeSettings defaults;
    const IntegratorInfo* integrator = findIntegrator(st.integrator);
    const bool fixed = integrator && integrator->stepControl == StepControl::Fixed;
    const double rtol = fixed ? defaults.rtol : st.ode.rtol, atol = fixed ? defaults.atol : st.ode.atol;
    // Drift of the methods that stabilise rather than project: the integrator's local
    // error (rtol·L + atol per unit of scaled position) that the constraint feedback does
    // not remove between steps, with a margin of ten.
    const double integration = 10.0 * (rtol * L + atol);
    const ConstraintMethodInfo* method = findConstraintMethod(st.method);
    if (method && method->projects) {
        // Every frame is projected to the rounding floor 8ε·L (ProjectionMethod), within
        // eight times that.
        b.warning = 64.0 * std::numeric_limits<double>::epsilon() * L;
    } else if (st.method == "penalty" || st.method == "augmented-lagrangian") {
        // The penalty force λ̃ = α(Φ̈ + 2ξωΦ̇ + ω²Φ) holds a static error Φ̃ ≈ λ̃ / (α ω²)
        // (α = factor × mean scaled mass); the augmented variant iterates it away to its
        // tolerance but is given the same allowance at its own factor. The margin of a
        // hundred covers the transients of the constraint dynamics and the coupling of
        // the equations through M + αΦ_qᵀΦ_q.
        const int n = m.velocitySize();
        const VecX cs = coordinateScales(m);
        double meanMass = 0.0;
        for (int k = 0; k < n; ++k) meanMass += cs[k] * cs[k] * applyMass(m, VecX::Unit(n, k))[k];
        meanMass = n ? meanMass / n : 1.0;
        const double factor = st.method == "penalty" ? c.penaltyFactor : c.augmentedFactor;
        const double w = c.penaltyFrequency;
        b.warning = integration;
        b.perMultiplier = 100.0 / (factor * meanMass * w * w);
    } else {
        b.warning = integration;
    }
    return b;
}

ViolationMonitor::ViolationMonitor(const Model& model, const SimulationSettings& settings, EventSink emit)
    : model_(model), method_(settings.method), bound_(constraintViolationBound(model, settings)),
      rowScales_(equationScales(model)), emit_(std::move(emit)) {}

std::vector<std::string> ViolationMonitor::violatedJoints(const SimulationFrame& f, double limit) const {
    ConstraintValues cv;
    evaluateConstraints(model_, f.state, cv, kPhi);
    std::vector<int> rows;
    for (int i = 0; i < cv.phi.size(); ++i)
        if (!(std::abs(rowScales_[i] * cv.phi[i]) <= limit)) rows.push_back(i);
    return equationOwners(model_, rows);
}

bool ViolationMonitor::check(const SimulationFrame& f, std::string* failure) {
    const double v = f.violation.positionScaled;
    if (!(v <= bound_.gross)) {
        const std::vector<std::string> joints = violatedJoints(f, bound_.gross);
        std::ostringstream d;
        d << "the mechanism has come apart: constraint violation " << v << " m exceeds 1e-2 x the model's length "
          << "scale (" << bound_.gross << " m)";
        *failure = namingJoints(d.str(), joints);
        emit_({f.state.t, RunEventKind::Failure, joints, *failure});
        return false;
    }
    // The constraint dynamics respond to the forces with a lag of about 1/ω: the
    // largest multiplier so far sets the allowance.
    if (f.multipliers.size() == rowScales_.size() && f.multipliers.size())
        maxScaledMultiplier_ =
            std::max(maxScaledMultiplier_, f.multipliers.cwiseQuotient(rowScales_).cwiseAbs().maxCoeff());
    const double allowed = bound_.warning + bound_.perMultiplier * maxScaledMultiplier_;
    if (!warned_ && v > allowed) {
        warned_ = true;
        const std::vector<std::string> joints = violatedJoints(f, allowed);
        std::ostringstream d;
        d << "constraint violation " << v << " m exceeds the bound " << allowed << " m of the " << method_
          << " method at these tolerances (see docs/methods.md); the results are less accurate than asked for";
        emit_({f.state.t, RunEventKind::ConstraintViolation, joints, namingJoints(d.str(), joints)});
    }
    return true;
}

}  // namespace looplab
