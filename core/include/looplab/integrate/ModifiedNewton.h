#pragma once
// When an implicit stepper forms and factorises its iteration matrix anew (modified Newton,
// as production HHT codes do): the matrix M + (1 + α)(γhC + βh²K) with its Jacobian and
// multipliers at some state is kept over the iterations of a step and over later steps,
// and formed again only when
// - there is none (first step, a new coordinate partition, a failed step),
// - the step has changed too much since it was formed: on a stiff mode (βh²ω² ≫ 1) an
//   iteration matrix formed at step h_f contracts the error of a step h by
//   |1 − (h/h_f)²| per iteration, so h/h_f is kept within [0.8, 1.15] (a factor at most 0.36
//   and 0.32 each way);
// - an iteration slows: the contraction θ = ‖δ_k‖/‖δ_{k−1}‖ of two successive corrections
//   (or residuals) exceeds 0.3, the rate at which the few iterations a step may take no
//   longer reach the iteration tolerance (Hairer & Wanner's simplified Newton, IV.8, and
//   the θ ≥ 1 divergence test);
// - a matrix kept from earlier steps has not converged in 4 iterations (slow but steady
//   contraction, or a stagnation at the accuracy of stale pivots): then at the current
//   iterate, once per step.
// docs/methods.md, "Modified Newton", gives the rule with the counts it produces.

namespace looplab {

class ModifiedNewton {
public:
    static constexpr double kSlowContraction = 0.3;
    static constexpr double kShortestRatio = 0.8, kLongestRatio = 1.15;
    static constexpr int kIterationsOnAKeptMatrix = 4;

    /// Whether a step of size h needs a fresh iteration matrix before its first iteration.
    bool needsFactorization(double h) const {
        if (!valid_) return true;
        const double ratio = h / step_;
        return !(ratio >= kShortestRatio && ratio <= kLongestRatio);
    }
    /// Whether an iteration whose last two corrections (or residuals) have norms `previous`
    /// and `current` has slowed enough to form the matrix again at the current iterate.
    static bool slowed(double previous, double current) {
        return previous > 0.0 && current > kSlowContraction * previous;
    }
    /// Whether iteration `iteration` (from 0) of a step whose matrix was kept from earlier
    /// steps (not formed during this one) has gone on long enough to form it again.
    static bool keptTooLong(int iteration, bool formedThisStep) {
        return !formedThisStep && iteration + 1 >= kIterationsOnAKeptMatrix;
    }
    /// Records a new factorisation for the step h.
    void factorized(double h) {
        valid_ = true;
        step_ = h;
        ++count_;
    }
    /// Forgets the matrix (a new partition or rows, a failed trial).
    void invalidate() { valid_ = false; }
    bool valid() const { return valid_; }
    /// The step the matrix was formed for.
    double step() const { return step_; }
    /// Factorisations recorded since construction.
    long count() const { return count_; }

private:
    bool valid_ = false;
    double step_ = 0.0;
    long count_ = 0;
};

}  // namespace looplab
