#include "looplab/simulation/EnergyMonitor.h"

#include "looplab/bodies/beam/BeamMesh.h"
#include "looplab/bodies/solid/SolidMesh.h"
#include "looplab/integrate/MethodRegistry.h"
#include "looplab/simulation/InputPower.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace looplab {

namespace {

// Whether E − E₀ − W counts every exchange of the model's energy: no damping anywhere
// (springs are in E, loads and motors in W).
bool balanceCountsEverything(const Model& m) {
    for (const Body& b : m.bodies)
        if (b.formulation->damped()) return false;
    for (const ForceElement& f : m.forces)
        if (f.forceLaw->dissipates()) return false;
    return true;
}

}  // namespace

bool isConservative(const Model& m) { return !hasWorkInput(m) && balanceCountsEverything(m); }

EnergyMonitor::EnergyMonitor(const Model& model, const SimulationSettings& settings, EventSink emit)
    : active_(balanceCountsEverything(model)), driven_(hasWorkInput(model)), emit_(std::move(emit)) {
    const double L = model.lengthScale;
    for (const Body& b : model.bodies) scale_ += b.formulation->totalMass() * model.gravity.norm() * L;
    for (const ForceElement& f : model.forces) scale_ += f.forceLaw->energyScale(L);
    // A fixed-step integrator is held to the default tolerance, as for the violation bound.
    const IntegratorInfo* integrator = findIntegrator(settings.integrator);
    const bool fixed = integrator && integrator->stepControl == StepControl::Fixed;
    rtol_ = fixed ? OdeSettings{}.rtol : settings.ode.rtol;
}

double EnergyMonitor::allowedRelativeDrift(long steps) const {
    return std::max(1e-6, 10.0 * rtol_ * double(std::max(1L, steps)));
}

void EnergyMonitor::check(const SimulationFrame& f, long steps) {
    if (!active_ || warned_) return;
    const double e = f.energy.total();
    if (!started_) {
        started_ = true;
        initial_ = e;
    }
    scale_ = std::max(scale_, f.energy.kinetic);
    // With drivers or loads, what they put in counts too (the frame's work, counted over
    // the steps), and the energy they exchange sets the scale.
    const double drift = e - initial_ - f.work + f.dissipated;
    if (driven_) scale_ = std::max(scale_, std::abs(f.work));
    const double allowed = allowedRelativeDrift(steps) * scale_;
    if (std::abs(drift) > allowed) {
        warned_ = true;
        std::ostringstream d;
        if (driven_)
            d << "the energy balance E - E0 - W of this model (W the work of its drivers and loads, " << f.work
              << " J so far) is " << drift << " J";
        else
            d << "the energy of this conservative model " << (drift < 0 ? "fell" : "rose") << " by "
              << std::abs(drift) << " J";
        d << " (" << std::abs(drift) / scale_ << " of the energy the motion exchanges, " << scale_
          << " J), more than the tolerances allow (" << allowed
          << " J); the motion is not accurate (a jump to another assembly branch at a singular posture, or "
             "dissipation by the constraint stabilisation)";
        emit_({f.state.t, RunEventKind::EnergyDrift, {}, d.str()});
    }
}

}  // namespace looplab
