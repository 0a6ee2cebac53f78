#include "looplab/integrate/StepSizeController.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace looplab {

namespace {
double errorFactor(double error, double largest) {
    return error > 0.0 ? std::clamp(0.9 * std::pow(error, -1.0 / 3.0), 0.2, largest) : largest;
}
}  // namespace

void StepSizeController::start(const OdeSettings& settings, bool fixedStep) {
    settings_ = settings;
    fixed_ = fixedStep;
    next_ = settings.step > 0.0 ? settings.step : std::min(1e-2, 0.05 * std::cbrt(settings.rtol));
    if (settings.maxStep > 0.0) next_ = std::min(next_, settings.maxStep);
}

double StepSizeController::limited(double h, double remaining) const {
    if (h >= remaining || (!fixed_ && h > 0.9 * remaining)) h = remaining;
    if (settings_.maxStep > 0.0) h = std::min(h, settings_.maxStep);
    return h;
}

void StepSizeController::accepted(double h, double remaining, double error) {
    if (fixed_) return;
    const bool cut = h == remaining && h < next_;
    if (!cut) next_ = h * errorFactor(error, 2.0);
}

Status StepSizeController::rejected(double& h, const Status& trial, double error, const std::string& where) const {
    h *= trial.ok ? errorFactor(error, 0.9) : 0.25;
    if (h >= settings_.minStep) return {};
    std::ostringstream d;
    d << "step size " << h << " s below the smallest allowed " << settings_.minStep << " s at " << where;
    if (!trial.ok) {
        d << "; last failure: " << trial.message;
    } else {
        // Rejected on its error estimate alone, down to the smallest step: an estimate that
        // does not fall with the step (∝ h³ for a smooth motion) is rounding, not
        // truncation error.
        d << "; the last trial's local error estimate was still " << error << " times the tolerance (rtol "
          << settings_.rtol << ", atol " << settings_.atol
          << "): it no longer falls with the step, so the tolerance asks for less than rounding leaves; loosen "
             "rtol and atol";
    }
    return Status::failure(d.str(), trial.joints);
}

}  // namespace looplab
