#pragma once
// Hairer's stiffness test for explicit Runge–Kutta pairs (Hairer & Wanner, Solving
// Ordinary Differential Equations II, §IV.2, and their DOPRI5 code). Two stages g_i and
// g_j evaluated at the same time give
//     ρ = ‖f(g_i) − f(g_j)‖ / ‖g_i − g_j‖,
// an estimate of |λ| for the eigenvalue of ∂f/∂y that dominates g_i − g_j (the stiff one,
// once the smooth components have been integrated to the tolerance). While h·ρ stays near
// the boundary of the method's stability region on the negative real axis, the step is
// held by stability, not by accuracy: the model is stiff for this integrator. DOPRI5's
// rule is kept: 15 accepted steps with h·ρ above the threshold (3.25 for dopri5, whose
// boundary is 3.3) with no run of 6 steps below it between them. The test is made at
// every accepted step (two vector norms against the step's stages), so a stiff model is
// found within its first few dozen steps.
//
// A model whose fast modes are excited (a flexible body started off its equilibrium) holds
// an explicit step by accuracy instead, h·ρ of order 0.1: the fast motion is resolved to
// the tolerance although it makes many periods between two outputs. Such a step counts
// too when ρ·Δt_out ≥ 2π·kPeriodsPerOutput and h·ρ ≥ kTiedStep (the step is tied to that
// motion), Δt_out the time between outputs.

#include "looplab/common/Types.h"

#include <vector>

namespace looplab {

/// What the test found: where, how stiff, and which components carry the stiff part.
struct StiffnessFinding {
    double t = 0.0;           ///< [s] end of the step that settled it
    long step = 0;            ///< accepted steps so far
    double stepSize = 0.0;    ///< h [s] of that step
    double rho = 0.0;         ///< ρ [1/s], the estimate of |λ|
    double threshold = 0.0;   ///< the h·ρ the test compares with
    bool stabilityBound = true;  ///< h·ρ above the threshold; false: a fast resolved motion
    double outputInterval = 0.0; ///< [s] Δt_out of the run
    /// Each component's share of ‖f(g_i) − f(g_j)‖² (sums to 1): the stiff coordinates.
    VecX share;
};

class StiffnessDetector {
public:
    /// Steps above the threshold that settle stiffness, and steps below it that clear the count.
    static constexpr int kStiffSteps = 15;
    static constexpr int kClearingSteps = 6;
    /// Periods of the fast motion between two outputs from which resolving it counts.
    static constexpr double kPeriodsPerOutput = 10.0;
    /// The least h·ρ of a step tied to the fast motion.
    static constexpr double kTiedStep = 0.05;

    /// `threshold` is the h·ρ above which a step counts as held by stability (a little
    /// below the stability boundary on the negative real axis); 0 disables the test.
    /// `outputInterval` [s] is the time between outputs (0: no such test).
    explicit StiffnessDetector(double threshold = 0.0, double outputInterval = 0.0)
        : threshold_(threshold), outputInterval_(outputInterval) {}

    void reset();
    /// After an accepted step of size h ending at t: df = f(g_i) − f(g_j) and
    /// dg = g_i − g_j for two stages at the same time. True once, at the step that settles
    /// stiffness (finding() then holds it).
    bool observe(double t, double h, const VecX& df, const VecX& dg);
    bool found() const { return found_; }
    const StiffnessFinding& finding() const { return finding_; }
    double threshold() const { return threshold_; }

    /// The largest x with |R(−x')| ≤ 1 for all x' in [0, x] of the explicit Runge–Kutta
    /// method with this Butcher table (A strictly lower triangular, weights b): the real
    /// stability boundary, from the stability polynomial R(z) = 1 + z bᵀ(I − zA)⁻¹ 1.
    static double realStabilityBoundary(const std::vector<std::vector<double>>& a, const std::vector<double>& b);

private:
    double threshold_ = 0.0;
    double outputInterval_ = 0.0;
    int above_ = 0, below_ = 0;
    long steps_ = 0;
    bool found_ = false;
    StiffnessFinding finding_;
};

}  // namespace looplab
