#pragma once
// Explicit Runge–Kutta methods with an embedded error estimate, defined by a Butcher table
// that SUNDIALS ARKODE supplies (arkode_butcher_erk.h), so that no coefficient is typed
// here:
//   verner6    Verner's 6(5) pair, 8 stages (ARKODE_VERNER_8_5_6; Verner 1978)
//   fehlberg8  Fehlberg's 7(8) pair, 13 stages (ARKODE_FEHLBERG_13_7_8; Fehlberg 1968)
// Both propagate the higher-order solution (local extrapolation) and control the step
// with the difference to the embedded one, as dopri5 does: the same error norm, safety
// factor and bounds, with the exponent 1/(min(q, p) + 1) of the pair. The derivative at
// the end of a step is the last stage where the table is first-same-as-last, otherwise one
// more evaluation at the projected end state, which the next step starts from.
//
// Output between steps is held to the steps' tolerance. The first choice is the Hermite
// interpolant of the values and derivatives at the last m = ⌈q/2⌉ + 1 step ends (the last
// step's two and the m − 2 before it: degree 2m − 1, 7 for verner6 and 9 for fehlberg8),
// which costs no evaluation and whose local error O(h^2m) on a smooth motion is of higher
// order than the step's own, O(h^(q+1)). Over a few steps the motion need not be that
// smooth (a toggle passage within three of fehlberg8's long steps), so the interpolant is
// kept only where the one through one node fewer agrees with it within the tolerance
// (the weighted norm of the steps' error test at most 1), as the steps keep the
// higher-order solution of their pair. Otherwise, and after the first step, the output
// is a step of the method itself from the last step's start to the output time (one
// evaluation per stage but the first more for each such output, counted in the
// statistics): as accurate as the steps. Near a forecast singular configuration, where
// such a step could put its stages in the rank window the steps were planned around, the
// interpolant stands. Step ends farther back than kHistorySpan lengths of the last step
// are not interpolated, since polynomial interpolation over widely uneven nodes amplifies
// rounding. A step over a forecast singular configuration is planned as dopri5 plans it
// (SingularCrossing.h), with the table's abscissae.

#include "looplab/integrate/OdeSolver.h"
#include "looplab/integrate/SingularCrossing.h"

#include <deque>
#include <string>
#include <vector>

namespace looplab {

/// The Butcher tables ARKODE supplies that LoopLab offers.
enum class EmbeddedPair {
    Verner65,   ///< order 6, embedding 5, 8 stages
    Fehlberg78  ///< order 8, embedding 7, 13 stages
};

class EmbeddedRungeKutta final : public OdeSolver {
public:
    /// `name` is the integrator's registered name, used in messages.
    EmbeddedRungeKutta(EmbeddedPair pair, std::string name);

    const char* name() const override { return name_.c_str(); }
    Status initialize(const OdeSystem& system, double t0, const VecX& y0,
                         const OdeSettings& settings) override;
    Status step(double tStop) override;
    double time() const override { return t_; }
    const VecX& state() const override { return y_; }
    double lastStepSize() const override { return hLast_; }
    void interpolate(double t, VecX& y) const override;

    /// Order of the propagated solution (q) and of the embedded one (p), and the stages.
    int order() const { return order_; }
    int embeddedOrder() const { return embeddedOrder_; }
    int stages() const { return static_cast<int>(c_.size()); }
    /// Whether the last stage is evaluated at the propagated solution (first same as last).
    bool firstSameAsLast() const { return firstSameAsLast_; }
    /// Step ends the dense output interpolates at most (the last step's two included).
    int outputNodes() const { return outputNodes_; }
    /// Earlier step ends farther back than this many last steps are not interpolated.
    static constexpr double kHistorySpan = 8.0;
    /// Outputs so far given by a step of the method rather than by interpolation.
    long outputSteps() const { return outputSteps_; }

private:
    bool eval(double t, const VecX& y, VecX& dy) const;
    /// The Hermite interpolant at t through the step ends history_[first …].
    void hermite(int first, double t, VecX& y) const;
    /// y at t by one step of the method from the last step's start; false if an
    /// evaluation failed.
    bool stepTo(double t, VecX& y) const;
    Status failure(const std::string& what) const { return Status::failure(name_ + ": " + what); }

    std::string name_;
    // The table: a_ (row i holds the i coefficients of the stages before stage i), the
    // abscissae c_, the weights b_ of the propagated solution and e_ = b − d of the error.
    std::vector<std::vector<double>> a_;
    std::vector<double> c_, b_, e_;
    int order_ = 0, embeddedOrder_ = 0;
    bool firstSameAsLast_ = false;

    OdeSystem sys_;
    OdeSettings settings_;
    double t_ = 0.0, h_ = 0.0, hLast_ = 0.0;
    VecX y_, f_;              // state and derivative at t_
    // The last step ends (time, state, derivative), the newest (t_, y_, f_) last: the
    // dense output's nodes.
    struct Node {
        double t;
        VecX y, f;
    };
    std::deque<Node> history_;
    int outputNodes_ = 2;
    mutable long outputSteps_ = 0;
    bool nearCrossing_ = false;  // the last step was taken near a forecast singular configuration
    std::vector<VecX> k_;     // stage derivatives, k_[0] = f_
    // Two stages at the same time for Hairer's stiffness test (-1: the table has none),
    // and their arguments in the last step.
    int stiffStageA_ = -1, stiffStageB_ = -1;
    double stiffnessThreshold_ = 0.0;
    VecX stiffArgA_, stiffArgB_;
    SingularCrossingPassage passage_;
};

}  // namespace looplab
