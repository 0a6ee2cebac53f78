#pragma once
// The two-loop implicit sparse-matrix numerical integration (TLISMNI) of the constrained
// equations, after Shabana & Hussein, "A two-loop sparse matrix numerical integration
// procedure for the solution of differential/algebraic equations: application to multibody
// systems", J. Sound Vib. 327 (2009): the coordinates are partitioned into independent and
// dependent ones (Wehage & Haug), the independent accelerations are integrated by HHT-α
// (Hilber, Hughes & Taylor 1977) or Newmark with Newton iterations on their analytic
// tangent (M, C, K of Linearization.h), and at every outer iterate the dependent positions
// follow from Newton–Raphson on Φ = 0 (the inner loop), the dependent velocities from
// Φ_q v = −Φ_t and all accelerations and multipliers from the sparse augmented system
// [M Φ_qᵀ; Φ_q 0]. docs/methods.md, "Dynamics: the two-loop method", has the equations.

#include "looplab/linalg/AugmentedSystem.h"
#include "looplab/linalg/ConstraintSpaces.h"
#include "looplab/kinematics/ConstraintSpacesAtState.h"
#include "looplab/dynamics/Linearization.h"
#include "looplab/model/Model.h"
#include "looplab/integrate/ErrorScales.h"
#include "looplab/integrate/GeneralizedAlpha.h"
#include "looplab/integrate/ModifiedNewton.h"
#include "looplab/integrate/OdeSolver.h"
#include "looplab/integrate/SimulationEvent.h"
#include "looplab/integrate/StepHermite.h"
#include "looplab/integrate/StepSizeController.h"
#include "looplab/integrate/TimeStepper.h"

#include <Eigen/LU>

#include <memory>
#include <string>
#include <vector>

namespace looplab {

struct TlismniSettings {
    /// HHT-α in [−1/3, 0]: 0 is the trapezoidal rule (no numerical damping); below 0 the
    /// highest frequencies are damped. With `newmark` false, β = (1 − α)²/4, γ = 1/2 − α.
    double alpha = -0.05;
    /// Newmark's β and γ, read when `newmark` is true (α = 0 then). Second order only for
    /// γ = 1/2; unconditionally stable for γ ≥ 1/2, β ≥ (γ + 1/2)²/4.
    bool newmark = false;
    double beta = 0.25;
    double gamma = 0.5;
    /// The user's step (ode.step) kept unchanged: no error control (step-size studies).
    bool fixedStep = false;
    /// rtol, atol of the local error estimate; step: initial (or fixed) step [s];
    /// maxStep, minStep [s].
    OdeSettings ode;
    double rankTolerance = kDynamicsRankTolerance;
    LinearAlgebra linearAlgebra = LinearAlgebra::Automatic;
    int maxOuterIterations = 12;
    int maxInnerIterations = 12;
    /// The coordinates are partitioned again when the reciprocal condition number of the
    /// scaled dependent block falls below this fraction of its value after partitioning.
    double repartitionRatio = 0.1;

    GeneralizedAlpha scheme() const {
        return newmark ? GeneralizedAlpha::newmark(beta, gamma) : GeneralizedAlpha::hht(alpha);
    }
    double effectiveBeta() const { return scheme().beta; }
    double effectiveGamma() const { return scheme().gamma; }
    double effectiveAlpha() const { return scheme().alpha; }
};

class TlismniStepper final : public TimeStepper {
public:
    /// `integrator` is the name the registry gave ("hht" or "newmark").
    TlismniStepper(std::shared_ptr<const Model> model, const TlismniSettings& settings, std::string integrator);
    ~TlismniStepper() override;

    std::string name() const override { return "tlismni/" + integrator_; }
    /// Every state it produces or reports has Φ = 0 and Φ_q v + Φ_t = 0 to the Newton
    /// tolerance (the rounding floor), reached by moving the dependent coordinates only.
    bool projects() const override { return true; }
    /// The converged step's own multipliers of the independent rows (zero on the others).
    bool multipliersAtStepEnd(VecX& out) const override;
    Status evaluate(State& state, MotionEvaluation& out) override;
    Status initialize(const State& start) override;
    Status step(double tStop) override;
    double time() const override { return t_; }
    State state() const override;
    double lastStepSize() const override { return lastStep_; }
    void interpolate(double t, State& out) const override;
    const StepStatistics& statistics() const override { return stats_; }
    const ConstraintSpaces* factorizationAt(const State& state) const override;
    std::vector<SimulationEvent> takeEvents() override;

    /// Coordinates (indices of v) currently integrated as independent.
    const std::vector<int>& independentCoordinates() const { return independent_; }
    /// Whether the model is on the sparse path (usesSparse() of the settings' linear algebra
    /// and the model's size): the rank decisions of ConstraintSpaces; the partition and the
    /// dependent block use sparse LU on both paths.
    bool sparsePartitioning() const { return sparse_; }

private:
    struct Trial;
    class DependentBlock;
    // Chooses independent rows (ConstraintSpaces) and dependent columns (pivoted LU of the
    // scaled independent rows) at s. Raises a "repartition" event if asked and the
    // choice changed.
    Status partitionAt(const State& s, bool announce);
    // The dependent columns: the r pivot columns of the scaled independent rows (r × n).
    Status chooseDependent(const State& s, const ConstraintValues& cv, const std::vector<int>& rows,
                           std::vector<int>& dependent) const;
    // Scaled dependent block D_r Φ_{I,D} D_c at the Jacobian given (that of the state s),
    // LU-factorised into block_; kept while s is the state it was factorised at.
    DependentBlock& dependentBlock(const State& s, const ConstraintValues& cv);
    // Inner loop: Newton–Raphson on Φ_I(q, t) = 0 over the dependent coordinates. With
    // `last`, Φ_q and Φ_t are evaluated with Φ where they are needed, and those of the final
    // positions are left there for the velocities and accelerations that follow; with
    // `reuseBlock`, the dependent block factorised last (at an earlier iterate of the same
    // step) serves as long as the iteration contracts.
    Status correctPositions(State& s, int* iterations, ConstraintValues* last = nullptr, bool reuseBlock = false);
    // Dependent velocities from Φ_I,D v_D = −Φ_t,I − Φ_I,F v_F (with cv: Φ_q and Φ_t at s).
    Status correctVelocities(State& s);
    Status correctVelocities(State& s, const ConstraintValues& cv);
    // All accelerations (and the multipliers of the independent rows) from the sparse
    // augmented system at s (with cv: Φ_q and γ at s).
    Status accelerations(const State& s, VecX& a, VecX& lambdaIndependent);
    Status accelerations(const State& s, const ConstraintValues& cv, VecX& a, VecX& lambdaIndependent);
    // One try of the step h; on success *trial holds the new state.
    Status attempt(double h, Trial& trial);
    // Fills *trial with the converged iterate s, its accelerations a and multipliers.
    void acceptTrial(double h, const State& s, const VecX& a, const VecX& lambda, const VecX& increment,
                     Trial& trial);
    // Forms M̂ = M + (1 + α)(γhC + βh²K) at s with the independent multipliers lambdaI and
    // factorises the scaled iteration matrix [M̂ Φ_Iᵀ; Φ_I 0] with the Jacobian given, that of s (modified Newton).
    Status formIterationMatrix(const State& s, const VecX& lambdaI, const SparseMatrix& jacobian, double h);
    // The local error estimate of a converged trial, filtered by the iteration matrix.
    double estimateError(const Trial& trial);

    std::shared_ptr<const Model> model_;
    TlismniSettings settings_;
    std::string integrator_;
    GeneralizedAlpha scheme_;
    double alpha_, beta_, gamma_;
    VecX rowScales_, colScales_;
    ErrorScales errorScales_;
    SparseColMatrix mass_;

    // Partition.
    bool sparse_ = false;
    std::unique_ptr<DependentBlock> block_;
    bool blockValid_ = false;
    double blockT_ = 0.0;
    VecX blockQ_;
    bool partitioned_ = false;
    std::vector<int> rows_, dependent_, independent_;
    double rcond0_ = 0.0;

    // Sparse augmented systems (accelerations with M, Newton corrections with M̂), their
    // symbolic analysis redone only when the pattern changes.
    AugmentedSolver accelerationSolver_, iterationSolver_;
    // When the iteration matrix is formed again; the rates ‖M⁻¹K‖, ‖M⁻¹C‖ (scaled) at the
    // last forming, for the rounding floor of the outer loop.
    ModifiedNewton newton_;
    double stiffnessRate_ = 0.0, dampingRate_ = 0.0;

    // Accepted state and the one before it (dense output).
    StepSizeController steps_;
    double t_ = 0.0, lastStep_ = 0.0;
    VecX q_, v_, a_, aHat_, lambdaI_;
    // a_n − a_{n−1} and â_n − â_{n−1} of the last accepted step and its length: the outer
    // loop's predictor and the fixed-step estimate of the truncation error (from the
    // second step on).
    VecX lastIncrementA_, lastIncrementHat_;
    double lastIncrementStep_ = 0.0;
    bool historyReady_ = false;
    StepHermite last_;

    // The rank-revealing spaces at the last state asked for (the accepted step's end: also
    // the run's, through factorizationAt()).
    ConstraintSpacesAtState spaces_;

    StepStatistics stats_;
    std::vector<SimulationEvent> events_;
};

}  // namespace looplab
