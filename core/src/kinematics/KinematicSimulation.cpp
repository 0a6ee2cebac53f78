#include "looplab/kinematics/KinematicSimulation.h"

#include "looplab/kinematics/Constraints.h"
#include "looplab/kinematics/Mobility.h"
#include "looplab/kinematics/FourBarAnalysis.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <sstream>

namespace looplab {

void analyzeKinematicSample(const Model& model, KinematicSample& s, double rankTolerance) {
    projectVelocities(model, s.state, rankTolerance);
    s.acceleration = solveAccelerations(model, s.state, rankTolerance);
    ConstraintValues cv;
    evaluateConstraints(model, s.state, cv, kAllParts);
    auto inf = [](const VecX& x) { return x.size() ? x.cwiseAbs().maxCoeff() : 0.0; };
    s.positionViolation = inf(cv.phi);
    s.velocityViolation = inf(cv.jacobian * s.state.v + cv.phiT);
    s.accelerationViolation = inf(cv.jacobian * s.acceleration - cv.gamma);
}

KinematicResult runKinematics(const Model& model, const State& start, double tEnd, double step,
                              const std::function<void(const KinematicSample&)>& onSample,
                              const AssemblyOptions& options, const KinematicLimits& limits) {
    const auto wall0 = std::chrono::steady_clock::now();
    KinematicResult result;
    if (!(step > 0.0) || !std::isfinite(step) || !std::isfinite(tEnd) || tEnd < start.t) {
        result.message = "the step must be positive and the end time not before the start";
        return result;
    }
    KinematicSample sample;
    sample.state = start;
    AssemblyResult a = assemble(model, sample.state, options);
    if (!a.ok) {
        result.message = "at t = " + std::to_string(start.t) + ": " + a.message;
        return result;
    }
    const MobilityReport mob = analyzeMobility(model, sample.state, options.rankTolerance);
    if (mob.dof > 0) {
        result.message = "the mechanism is not fully driven: " + std::to_string(mob.dof) +
                         " degree(s) of freedom remain; add drivers or use a dynamic simulation";
        return result;
    }
    // Counted in double first: a tiny step must not overflow the integers.
    const double steps = std::floor((tEnd - start.t) / step + 1e-9);
    if (!(steps < double(std::numeric_limits<int>::max()))) {
        result.message = "the step " + std::to_string(step) + " s gives more samples than can be counted";
        return result;
    }
    const long count = static_cast<long>(steps);
    const double t0 = start.t;
    // The last sample is at tEnd even when tEnd is not on the grid of steps: a run ends
    // at its end time.
    const bool partialLast = t0 + double(count) * step < tEnd - 1e-12 * std::max(1.0, std::abs(tEnd));
    const long last = partialLast ? count + 1 : count;
    for (long k = 0; k <= last; ++k) {
        if (k > 0) {
            const double tk = k > count ? tEnd : t0 + k * step;
            // Second-order Taylor prediction keeps Newton on the same assembly branch.
            const double h = tk - sample.state.t;
            VecX dv = h * sample.state.v + 0.5 * h * h * sample.acceleration;
            retract(model, sample.state.q, dv);
            sample.state.v += h * sample.acceleration;
            sample.state.t = tk;
            a = assemble(model, sample.state, options);
            if (!a.ok) {
                result.message = "at t = " + std::to_string(sample.state.t) + ": " + a.message;
                // A four-bar driven at a link that cannot turn fully has met a limit: the
                // cause first, in the mechanism's words.
                if (const std::string cause = drivenLinkLimitSentence(model); !cause.empty())
                    result.message = cause + " (" + result.message + ")";
                return result;
            }
        }
        analyzeKinematicSample(model, sample, options.rankTolerance);
        onSample(sample);
        result.steps = static_cast<int>(k);
        if (limits.stop && limits.stop->load() && k < last) {
            result.message = "stopped";
            return result;
        }
        if (limits.maxWallTime > 0.0 && k < last) {
            const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
            if (wall > limits.maxWallTime) {
                std::ostringstream d;
                d << "wall-time limit reached: " << wall << " s (limit " << limits.maxWallTime << " s) at t = "
                  << sample.state.t << " of " << tEnd << " s";
                result.message = d.str();
                return result;
            }
        }
    }
    result.ok = true;
    return result;
}

}  // namespace looplab
