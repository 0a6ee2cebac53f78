#include "looplab/integrate/TlismniStepper.h"

#include "looplab/linalg/AugmentedMatrix.h"
#include "looplab/linalg/AugmentedSystem.h"
#include "looplab/kinematics/Constraints.h"
#include "looplab/dynamics/Dynamics.h"
#include "looplab/kinematics/Mobility.h"
#include "looplab/integrate/SingularityMonitor.h"
#include "looplab/model/State.h"

#include "MessageText.h"

#include <Eigen/LU>

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

namespace looplab {

namespace {

constexpr double kEps = std::numeric_limits<double>::epsilon();

// The share of the local error a step is allowed that the outer loop may leave as
// iteration error (the κ of a Newton stopping test, as in Hairer & Wanner's simplified
// Newton iterations, but smaller: the iteration error of every step has the same sign and
// adds up, while truncation errors partly cancel; at 1e-2 the four-bar's end error at
// h = 2.5 ms moved by 17 %, at 1e-3 by 1 %).
constexpr double kIterationShare = 1e-3;

double infNorm(const VecX& x) { return x.size() ? x.cwiseAbs().maxCoeff() : 0.0; }

// max_i Σ_j |D A D|_ij / (D M D)_ii (D = diag(scales)): a bound on ‖M⁻¹A‖ in scaled units
// with M replaced by its diagonal, for A = K (an ω², 1/s²) or C (1/s).
double rateBound(const SparseColMatrix& a, const SparseColMatrix& mass, const VecX& scales) {
    VecX rowSums = VecX::Zero(scales.size());
    for (int col = 0; col < a.outerSize(); ++col)
        for (SparseColMatrix::InnerIterator it(a, col); it; ++it)
            rowSums[it.row()] += std::abs(it.value()) * scales[it.row()] * scales[col];
    const VecX diagonal = mass.diagonal();
    double bound = 0.0;
    for (int i = 0; i < scales.size(); ++i)
        if (diagonal[i] > 0.0) bound = std::max(bound, rowSums[i] / (diagonal[i] * scales[i] * scales[i]));
    return bound;
}

using message::at;

}  // namespace

/// One try of a step: the state at its end and what the loops did.
struct TlismniStepper::Trial {
    double h = 0.0;
    VecX q, v, a, aHat, lambdaI, increment;
    double error = 0.0;  ///< local error estimate, in units of the tolerance
};

/// The scaled dependent block D_r Φ_{I,D} D_c, LU-factorised by KLU at every size: its
/// analysis and pivots are kept while the partition, and so the block's pattern, stays the
/// same (KluFactorization.h). A dense r × r factorisation at every iteration of both loops
/// cost O(r³) (a chain of loops, or beams joined node to node, couple all their coordinates
/// through no more than a few entries per row).
class TlismniStepper::DependentBlock {
public:
    bool factorize(const SparseColMatrix& block) { return lu_.factorize(block); }
    VecX solve(const VecX& b) const { return lu_.solve(b); }
    VecX solveWithoutRefinement(const VecX& b) const { return lu_.solveWithoutRefinement(b); }
    /// Reciprocal 1-norm condition number, estimated (0 if singular).
    double rcond() const {
        const double kappa = lu_.conditionEstimate();
        return std::isfinite(kappa) && kappa > 0.0 ? 1.0 / kappa : 0.0;
    }
    long factorizations() const { return lu_.factorizations() + lu_.refactorizations(); }

private:
    KluFactorization lu_;
};

TlismniStepper::TlismniStepper(std::shared_ptr<const Model> model, const TlismniSettings& settings,
                               std::string integrator)
    : model_(std::move(model)), settings_(settings), integrator_(std::move(integrator)), errorScales_(*model_),
      spaces_(settings_.rankTolerance, settings_.linearAlgebra) {
    const Model& m = *model_;
    sparse_ = usesSparse(settings_.linearAlgebra, m.velocitySize());
    block_ = std::make_unique<DependentBlock>();
    scheme_ = settings_.scheme();
    alpha_ = scheme_.alpha;
    beta_ = scheme_.beta;
    gamma_ = scheme_.gamma;
    rowScales_ = equationScales(m);
    colScales_ = coordinateScales(m);
    mass_ = massMatrix(m);
}

TlismniStepper::~TlismniStepper() = default;

const ConstraintSpaces* TlismniStepper::factorizationAt(const State& s) const { return spaces_.ifAt(s); }

std::vector<SimulationEvent> TlismniStepper::takeEvents() {
    std::vector<SimulationEvent> out;
    out.swap(events_);
    return out;
}

TlismniStepper::DependentBlock& TlismniStepper::dependentBlock(const State& s, const ConstraintValues& cv) {
    if (blockValid_ && blockT_ == s.t && blockQ_.size() == s.q.size() && blockQ_ == s.q) return *block_;
    const int r = static_cast<int>(rows_.size());
    std::vector<int> column(static_cast<size_t>(model_->velocitySize()), -1);
    for (int k = 0; k < r; ++k) column[static_cast<size_t>(dependent_[static_cast<size_t>(k)])] = k;
    std::vector<Eigen::Triplet<double>> t;
    for (int i = 0; i < r; ++i) {
        const int row = rows_[static_cast<size_t>(i)];
        for (SparseMatrix::InnerIterator it(cv.jacobian, row); it; ++it) {
            const int k = column[static_cast<size_t>(it.col())];
            if (k >= 0) t.emplace_back(i, k, rowScales_[row] * it.value() * colScales_[it.col()]);
        }
    }
    SparseColMatrix block(r, r);
    block.setFromTriplets(t.begin(), t.end());
    block.makeCompressed();
    // A singular block leaves no factorisation: its solves are not finite and rcond() 0,
    // which the loops report.
    blockValid_ = block_->factorize(block);
    blockT_ = s.t;
    blockQ_ = s.q;
    return *block_;
}

Status TlismniStepper::chooseDependent(const State& s, const ConstraintValues& cv, const std::vector<int>& rows,
                                       std::vector<int>& dependent) const {
    const int n = model_->velocitySize();
    const int r = static_cast<int>(rows.size());
    dependent.clear();
    if (r == 0) return {};
    int rank = 0;
    // Wehage & Haug's choice by a sparse LU: the transposed scaled rows (n × r) with strict
    // partial pivoting, whose pivot rows are the coordinates of the largest pivots left,
    // constraint by constraint (UMFPACK). SuiteSparseQR, which ConstraintSpaces uses for the
    // rank, was not taken: its column order is chosen for fill alone and it sets aside only
    // columns that fall below its rank tolerance, so the block it leaves may be as badly
    // conditioned as that tolerance allows. A dense full-pivot LU of the r × n rows, which
    // small models used before, chose alike on the shipped examples at O(r²n).
    {
        std::vector<Eigen::Triplet<double>> t;
        for (int i = 0; i < r; ++i) {
            const int row = rows[static_cast<size_t>(i)];
            for (SparseMatrix::InnerIterator it(cv.jacobian, row); it; ++it)
                t.emplace_back(static_cast<int>(it.col()), i, rowScales_[row] * it.value() * colScales_[it.col()]);
        }
        SparseColMatrix transposed(n, r);
        transposed.setFromTriplets(t.begin(), t.end());
        dependent = partialPivotRows(transposed, settings_.rankTolerance, &rank);
    }
    if (rank < r) {
        std::ostringstream d;
        d << "cannot partition the coordinates at " << at(s.t) << ": the " << r
          << " independent constraint rows have rank " << rank << " in the pivoted LU";
        return Status::failure(d.str());
    }
    return {};
}

Status TlismniStepper::partitionAt(const State& s, bool announce) {
    const Model& m = *model_;
    const int n = m.velocitySize();
    // The set matters, not the pivot order (which changes from one factorisation to the next).
    std::vector<int> rows = spaces_.at(m, s).independentEquations();
    std::sort(rows.begin(), rows.end());
    const int r = static_cast<int>(rows.size());
    ConstraintValues cv;
    evaluateConstraints(m, s, cv, kJacobian);
    std::vector<int> dependent, independent;
    if (Status st = chooseDependent(s, cv, rows, dependent); !st.ok) return st;
    std::sort(dependent.begin(), dependent.end());
    for (int k = 0, d = 0; k < n; ++k) {
        if (d < r && dependent[static_cast<size_t>(d)] == k) ++d;
        else independent.push_back(k);
    }
    // The current choice on the new rows, for the hysteresis below.
    const std::vector<int> oldDependent = dependent_, oldIndependent = independent_;
    double currentRcond = 0.0;
    const bool comparable = partitioned_ && r > 0 && static_cast<int>(oldDependent.size()) == r;
    rows_ = rows;
    blockValid_ = false;
    if (comparable) currentRcond = dependentBlock(s, cv).rcond();
    dependent_ = dependent;
    independent_ = independent;
    rcond0_ = 1.0;
    blockValid_ = false;
    if (r > 0) rcond0_ = dependentBlock(s, cv).rcond();
    // Hysteresis: another choice must be clearly better conditioned (twice), or two
    // coordinates of nearly equal pivots (a parallelogram's crank and rocker) would
    // swap at every step.
    if (comparable && independent_ != oldIndependent && !(rcond0_ > 2.0 * currentRcond)) {
        dependent_ = oldDependent;
        independent_ = oldIndependent;
        rcond0_ = currentRcond;
    }
    // A new set of independent rows alone (the rank decision among the redundant
    // equations) changes no coordinate: not a re-partitioning.
    const bool changed = partitioned_ && independent_ != oldIndependent;
    if (changed) {
        ++stats_.repartitions;
        if (announce) {
            std::ostringstream d;
            d << "independent coordinates re-chosen: now v[";
            for (size_t k = 0; k < independent_.size(); ++k) d << (k ? ", " : "") << independent_[k];
            d << "], the dependent block's reciprocal condition number " << rcond0_;
            events_.push_back({s.t, RunEventKind::Repartition, {}, d.str()});
        }
    }
    partitioned_ = true;
    // The iteration matrix holds the rows and their multipliers, the block the dependent
    // columns: both formed again.
    newton_.invalidate();
    blockValid_ = false;
    return {};
}

Status TlismniStepper::correctPositions(State& s, int* iterations, ConstraintValues* last, bool reuseBlock) {
    const Model& m = *model_;
    const int n = m.velocitySize();
    const int r = static_cast<int>(rows_.size());
    const double floor = 8.0 * kEps * m.lengthScale;
    ConstraintValues own;
    ConstraintValues& cv = last ? *last : own;
    double previous = std::numeric_limits<double>::infinity();
    // Modified Newton (ModifiedNewton.h): a block factorised earlier serves while each
    // correction contracts the residual by 0.3 or better. Within a step the positions move
    // little from one outer iteration to the next, so the block the previous iterate's
    // velocities were solved with serves the next inner loop too (`reuseBlock`); the
    // corrections after the first are small (the predictor is O(h²) off), so it rarely
    // needs forming again. A step's first inner loop forms it at its first iterate: a block
    // kept from the last step would carry the loop through a configuration where the
    // partition's block is singular (a column that vanishes), which must fail there and
    // choose the partition again (tst_tlismni repartitionsThroughTheBottom).
    bool haveBlock = reuseBlock && blockValid_;
    int it = 0;
    for (;; ++it) {
        // Most calls take one correction: Φ alone at the first iterate where the block is
        // held, Φ with Φ_q and Φ_t at the next, which the block (if formed) and the caller
        // need, in one pass over the joints.
        const bool full = last && (it > 0 || !haveBlock);
        evaluateConstraints(m, s, cv, full ? (kPhi | kJacobian | kPhiT) : kPhi);
        VecX residual(r);
        for (int i = 0; i < r; ++i) residual[i] = rowScales_[rows_[static_cast<size_t>(i)]] * cv.phi[rows_[static_cast<size_t>(i)]];
        const double norm = infNorm(residual);
        if (!std::isfinite(norm)) {
            if (iterations) *iterations = it;
            return Status::failure("the inner loop (dependent positions) met a non-finite residual at " + at(s.t));
        }
        // Converged at the rounding floor, or when Newton stops gaining close to it.
        if (norm <= floor || (norm >= 0.5 * previous && norm <= 1e-12 * m.lengthScale) || r == 0) {
            if (last && !full) evaluateConstraints(m, s, cv, kJacobian | kPhiT);
            break;
        }
        if (it >= settings_.maxInnerIterations) {
            if (iterations) *iterations = it;
            std::ostringstream d;
            d << "the inner loop (Newton-Raphson on the dependent positions) did not converge at " << at(s.t)
              << ": scaled residual " << norm << " m after " << it << " iterations";
            std::vector<int> worst;
            for (int i = 0; i < r; ++i)
                if (std::abs(residual[i]) > 0.1 * norm) worst.push_back(rows_[static_cast<size_t>(i)]);
            return Status::failure(d.str(), equationOwners(m, worst));
        }
        if (!haveBlock || ModifiedNewton::slowed(previous, norm)) {
            if (!full) evaluateConstraints(m, s, cv, kJacobian);
            dependentBlock(s, cv);
            haveBlock = true;
        }
        previous = norm;
        const VecX step = block_->solveWithoutRefinement(residual);
        VecX dv = VecX::Zero(n);
        for (int k = 0; k < r; ++k) {
            const int c = dependent_[static_cast<size_t>(k)];
            dv[c] = -colScales_[c] * step[k];
        }
        if (!dv.allFinite()) {
            if (iterations) *iterations = it;
            return Status::failure("the inner loop (dependent positions) met a singular dependent block at " + at(s.t));
        }
        retract(m, s.q, dv);
    }
    if (iterations) *iterations = it;
    return {};
}

Status TlismniStepper::correctVelocities(State& s) {
    ConstraintValues cv;
    evaluateConstraints(*model_, s, cv, kJacobian | kPhiT);
    return correctVelocities(s, cv);
}

Status TlismniStepper::correctVelocities(State& s, const ConstraintValues& cv) {
    const int r = static_cast<int>(rows_.size());
    if (r == 0) return {};
    // Right side −Φ_t − Φ_F v_F on the independent rows, scaled.
    VecX vIndependentOnly = s.v;
    for (int c : dependent_) vIndependentOnly[c] = 0.0;
    const VecX full = cv.jacobian * vIndependentOnly + cv.phiT;
    VecX rhs(r);
    for (int i = 0; i < r; ++i) rhs[i] = -rowScales_[rows_[static_cast<size_t>(i)]] * full[rows_[static_cast<size_t>(i)]];
    const VecX vd = dependentBlock(s, cv).solve(rhs);
    if (!vd.allFinite()) return Status::failure("the dependent velocities cannot be solved at " + at(s.t));
    for (int k = 0; k < r; ++k) {
        const int c = dependent_[static_cast<size_t>(k)];
        s.v[c] = colScales_[c] * vd[k];
    }
    return {};
}

Status TlismniStepper::accelerations(const State& s, VecX& a, VecX& lambdaIndependent) {
    ConstraintValues cv;
    evaluateConstraints(*model_, s, cv, kJacobian | kGamma);
    return accelerations(s, cv, a, lambdaIndependent);
}

Status TlismniStepper::accelerations(const State& s, const ConstraintValues& cv, VecX& a, VecX& lambdaIndependent) {
    const Model& m = *model_;
    const int n = m.velocitySize();
    const int r = static_cast<int>(rows_.size());
    ++stats_.rhsEvaluations;
    const SparseColMatrix kkt = scaledAugmentedMatrix(mass_, cv.jacobian, rows_, rowScales_, colScales_);
    if (!accelerationSolver_.factorize(kkt))
        return Status::failure("the augmented system [M Phi_q'; Phi_q 0] is singular at " + at(s.t));
    const VecX f = generalizedForces(m, s);
    VecX rhs(n + r);
    rhs.head(n) = colScales_.cwiseProduct(f);
    for (int i = 0; i < r; ++i) rhs[n + i] = rowScales_[rows_[static_cast<size_t>(i)]] * cv.gamma[rows_[static_cast<size_t>(i)]];
    const VecX x = accelerationSolver_.solve(rhs);
    if (!x.allFinite()) return Status::failure("the augmented system gave non-finite accelerations at " + at(s.t));
    a = colScales_.cwiseProduct(x.head(n));
    lambdaIndependent.resize(r);
    for (int i = 0; i < r; ++i) lambdaIndependent[i] = rowScales_[rows_[static_cast<size_t>(i)]] * x[n + i];
    return {};
}

Status TlismniStepper::evaluate(State& s, MotionEvaluation& out) {
    if (!partitioned_) {
        if (Status st = partitionAt(s, false); !st.ok) return st;
    }
    int inner = 0;
    Status st = correctPositions(s, &inner);
    if (!st.ok) {
        // A frame far from the last step's partition: choose again where it is.
        if (Status p = partitionAt(s, false); !p.ok) return p;
        st = correctPositions(s, &inner);
        if (!st.ok) return st;
    }
    if (st = correctVelocities(s); !st.ok) return st;
    VecX lambdaI;
    if (st = accelerations(s, out.acceleration, lambdaI); !st.ok) return st;
    if (out.computeMultipliers) {
        // The multipliers of least norm over all equations, as the other methods report.
        const VecX g = generalizedForces(*model_, s) - applyMass(*model_, out.acceleration);
        out.multipliers = spaces_.at(*model_, s).solveTransposed(g);
    }
    return {};
}

bool TlismniStepper::multipliersAtStepEnd(VecX& out) const {
    if (lambdaI_.size() != static_cast<Eigen::Index>(rows_.size())) return false;
    out = VecX::Zero(model_->equationCount());
    for (size_t i = 0; i < rows_.size(); ++i) out[rows_[i]] = lambdaI_[static_cast<Eigen::Index>(i)];
    return true;
}

Status TlismniStepper::initialize(const State& start) {
    stats_ = {};
    events_.clear();
    partitioned_ = false;
    State s = start;
    if (Status st = partitionAt(s, false); !st.ok) return st;
    int inner = 0;
    if (Status st = correctPositions(s, &inner); !st.ok) return st;
    if (Status st = correctVelocities(s); !st.ok) return st;
    if (Status st = accelerations(s, a_, lambdaI_); !st.ok) return st;
    t_ = s.t;
    q_ = s.q;
    v_ = s.v;
    errorScales_.start(q_);
    last_.reset(s);
    // The acceleration-like variable starts at the true accelerations.
    aHat_ = a_;
    historyReady_ = false;
    lastIncrementA_ = VecX::Zero(a_.size());
    lastIncrementHat_ = lastIncrementA_;
    lastIncrementStep_ = 0.0;
    lastStep_ = 0.0;
    steps_.start(settings_.ode, settings_.fixedStep);
    return {};
}

Status TlismniStepper::formIterationMatrix(const State& s, const VecX& lambdaI, const SparseMatrix& jacobian,
                                           double h) {
    const Model& m = *model_;
    VecX lambda = VecX::Zero(m.equationCount());
    for (size_t i = 0; i < rows_.size(); ++i) lambda[rows_[i]] = lambdaI[static_cast<Eigen::Index>(i)];
    Linearization lin;
    linearize(m, s, lambda, lin);
    ++stats_.jacobianEvaluations;
    const SparseColMatrix mHat =
        mass_ + scheme_.velocityWeight(h) * lin.damping + scheme_.positionWeight(h) * lin.stiffness;
    stiffnessRate_ = rateBound(lin.stiffness, mass_, colScales_);
    dampingRate_ = rateBound(lin.damping, mass_, colScales_);
    ++stats_.factorizations;
    if (!iterationSolver_.factorize(scaledAugmentedMatrix(mHat, jacobian, rows_, rowScales_, colScales_))) {
        newton_.invalidate();
        return Status::failure("the iteration matrix [M^ Phi_q'; Phi_q 0] of the outer loop is singular at " +
                               at(s.t));
    }
    newton_.factorized(h);
    return {};
}

double TlismniStepper::estimateError(const Trial& trial) {
    // The corrector less the predictor in the positions, max(β, γ) h²(â_{n+1} − â_n)
    // (GeneralizedAlpha.h), filtered by the iteration matrix: ẽ = M̂⁻¹ M e on the
    // constraints' tangent space, [M̂ Φ_Iᵀ; Φ_I 0][ẽ; μ] = [M e; 0]. A mode of frequency ω
    // keeps the share 1/(1 + (1 + α)βh²ω²) of its estimate: the motion the step resolves
    // (hω ≪ 1) is measured as it is, while a vibration far above 1/h, which the scheme's
    // numerical damping removes anyway, counts only with its amplitude and does not hold
    // the step at its period (the stiff filter of Hairer & Wanner IV.8, after Shampine,
    // carried to the second-order form). docs/methods.md, "Error control of the implicit
    // steppers".
    const Model& m = *model_;
    const int n = m.velocitySize();
    const int r = static_cast<int>(rows_.size());
    // The filter acts on the part of e in the constraints' tangent space; the part normal to
    // it (e − e_T, e_T the M-orthogonal projection from the augmented system with M, which
    // accelerations() left factorised at the trial's end) is what the constraint curvature
    // puts into the accelerations, not a vibration, and is kept as it is.
    const VecX e = scheme_.controlledError(trial.h, aHat_, trial.aHat);
    VecX rhs = VecX::Zero(n + r);
    rhs.head(n) = colScales_.cwiseProduct(applyMass(m, e));
    const VecX tangent = colScales_.cwiseProduct(accelerationSolver_.solveWithoutRefinement(rhs).head(n));
    VecX filtered = colScales_.cwiseProduct(iterationSolver_.solveWithoutRefinement(rhs).head(n)) + (e - tangent);
    if (!filtered.allFinite()) filtered = e;
    return weightedErrorNorm(filtered, errorScales_.with(trial.q), settings_.ode.rtol, settings_.ode.atol);
}

Status TlismniStepper::attempt(double h, Trial& trial) {
    const Model& m = *model_;
    const int n = m.velocitySize();
    const int f = static_cast<int>(independent_.size());
    const double t1 = t_ + h;

    // The iteration matrix M̂ = M + (1 + α)(γ h C + β h² K), kept from earlier steps while
    // it serves (ModifiedNewton.h), formed at the step start when it does not.
    bool formedThisStep = false;
    if (newton_.needsFactorization(h)) {
        const State start{t_, q_, v_};
        ConstraintValues cv;
        evaluateConstraints(m, start, cv, kJacobian);
        if (Status st = formIterationMatrix(start, lambdaI_, cv.jacobian, h); !st.ok) return st;
        formedThisStep = true;
    }
    // What rounding in the state does to the accelerations, a_F(x) evaluated at x: the inner
    // loop leaves the positions exact to 8ε L, the velocities carry ε‖v‖, and the stiffness
    // and damping (the constraint curvature included) turn those into accelerations.
    const double speed = infNorm(colScales_.cwiseInverse().cwiseProduct(v_));
    const double stateNoise = kEps * (8.0 * m.lengthScale * stiffnessRate_ + speed * dampingRate_);
    double previousMeasure = std::numeric_limits<double>::infinity();

    // Predictor: the accelerations extrapolated linearly from the last two steps (the
    // step start's alone on a first step): a first residual of O(h²) instead of O(h),
    // which saves the outer loop about one iteration in four at the bound below.
    VecX aGuess = a_;
    if (historyReady_) aGuess += (h / lastIncrementStep_) * lastIncrementA_;
    VecX x(f);
    for (int k = 0; k < f; ++k) x[k] = aGuess[independent_[static_cast<size_t>(k)]];
    // One set of constraint values for all iterations: their arrays and the Jacobian's
    // storage are allocated once a step, not at every evaluation.
    ConstraintValues cv;
    for (int outer = 0;; ++outer) {
        ++stats_.outerIterations;
        for (int k = 0; k < f; ++k) aGuess[independent_[static_cast<size_t>(k)]] = x[k];
        const VecX aHat1 = (1.0 + alpha_) * aGuess - alpha_ * a_;
        VecX increment = scheme_.positionIncrement(h, v_, aHat_, aHat1);
        State s{t1, q_, scheme_.velocity(h, v_, aHat_, aHat1)};
        if (!increment.allFinite() || !s.v.allFinite())
            return Status::failure("the outer loop (Newton on the independent accelerations) diverged at " + at(t1));
        retract(m, s.q, increment);
        int inner = 0;
        // Φ_q and Φ_t at the iterate's positions serve its velocities, its accelerations
        // and w below; γ needs the corrected velocities.
        Status st = correctPositions(s, &inner, &cv, outer > 0);
        stats_.innerIterations += inner;
        if (!st.ok) return st;
        if (st = correctVelocities(s, cv); !st.ok) return st;
        evaluateConstraints(m, s, cv, kGamma);
        VecX a1, lambda1;
        if (st = accelerations(s, cv, a1, lambda1); !st.ok) return st;

        // The residual r = x − a_F: how far the equations of motion at the iterate are
        // from the accelerations that made it.
        VecX residual(f);
        double relative = 0.0;  // scaled: m/s²
        for (int k = 0; k < f; ++k) {
            const int col = independent_[static_cast<size_t>(k)];
            residual[k] = x[k] - a1[col];
            relative = std::max(relative, std::abs(residual[k]) / colScales_[col]);
        }
        // w = P r (w_F = r, Φ_I w = 0): a_F + w are the accelerations the iterate stands
        // for, x on the independent coordinates, with Φ_q a = γ.
        VecX w = VecX::Zero(n);
        for (int k = 0; k < f; ++k) w[independent_[static_cast<size_t>(k)]] = residual[k];
        const int r = static_cast<int>(rows_.size());
        if (r > 0) {
            const VecX rhsFull = cv.jacobian * w;
            VecX rhs(r);
            for (int i = 0; i < r; ++i) rhs[i] = -rowScales_[rows_[static_cast<size_t>(i)]] * rhsFull[rows_[static_cast<size_t>(i)]];
            const VecX wd = dependentBlock(s, cv).solve(rhs);
            for (int k = 0; k < r; ++k) w[dependent_[static_cast<size_t>(k)]] = colScales_[dependent_[static_cast<size_t>(k)]] * wd[k];
        }
        // Converged at the rounding level: that of the accelerations themselves plus what
        // the rounding of the state does to them (stateNoise). Without the floor a small
        // local error (slow or uniform motion) would demand what double precision cannot
        // deliver; without its stiffness part the free rubber beam's residual, stalled
        // between 1e-9 and 8e-9 m/s² (stateNoise 5.8e-8 m/s², 1024ε(1 + ‖a‖) only
        // 3e-12 m/s²), failed its first step when the share was made tiny. The step keeps
        // the iterate's accelerations, a_F + w, not a_F: on the stiffest modes of a fine
        // mesh the floor is large (ε 8L ω², 2e11 m/s² on a 10 000-element beam), and a_F
        // would put that residual into â and so h²(½ − β) times it into the next step's
        // positions.
        const double roundoff = 1024.0 * kEps * (1.0 + infNorm(colScales_.cwiseInverse().cwiseProduct(a1)));
        if (relative <= roundoff + stateNoise) {
            acceptTrial(h, s, a1 + w, lambda1, increment, trial);
            return {};
        }
        // Newton correction: Pᵀ M̂ P δx = −Pᵀ M P r, solved as the augmented system
        // [M̂ Φ_Iᵀ; Φ_I 0][δa; μ] = [−M w; 0].
        VecX rhs = VecX::Zero(n + r);
        rhs.head(n) = -colScales_.cwiseProduct(applyMass(m, w));
        VecX correction(f), fullCorrection;
        const auto correct = [&]() {
            fullCorrection = colScales_.cwiseProduct(iterationSolver_.solveWithoutRefinement(rhs).head(n));
            for (int k = 0; k < f; ++k) correction[k] = fullCorrection[independent_[static_cast<size_t>(k)]];
            return fullCorrection.allFinite();
        };
        if (!correct()) return Status::failure("the outer loop's Newton correction is not finite at " + at(t1));
        // The correction δx, not the residual, is the iteration error left in the independent
        // accelerations: on a mode of frequency ω the residual is (1 + (1 + α)βh²ω²) times
        // the correction, so a test on the residual held the stiff modes of a fine mesh
        // (βh²ω² of 10⁶ and more on a 1 000-element beam at h = 1 ms) to rounding that their
        // positions, h²β(1 + α)δx, were long done with: the iteration stalled at the floor,
        // formed its matrix every other iteration and rejected a third of the steps.
        // The error δx leaves moves the velocities by hγ(1 + α)δx and the positions by
        // h²β(1 + α)δx, and what it leaves in the velocities the positions carry on over all
        // later steps: unless it is small against the scheme's local truncation error, the
        // global error gets a part that does not fall with h (with fixed steps it grew as h
        // fell, more steps each leaving as much: an absolute bound of 1e-11 m on h²βr left
        // the rod pendulum of tst_tlismni 1.9e-5 m off at h = 0.16 ms, where the scheme's
        // own error is 1.1e-7 m). So δx is held to a share κ of the local error the step is
        // allowed, weighed as the error estimate below weighs â (c h², velocities times h):
        // - with error control, of the tolerance the controller holds that estimate to;
        // - with fixed steps, of the scheme's own local error: the trapezoidal rule's
        //   h³ä/12 in the velocities (h⁴ä/12 times h; it outweighs the positions' h³ȧ/12
        //   once accumulated), estimated from the second difference of â over this step
        //   and the last, Δ²â ≈ h²ä, so that c(1 + α)|δx| ≤ κ|Δ²â|/12. A first step, with
        //   no last, uses the first difference Δâ ≈ hȧ (the positions' local error). The
        //   largest over all coordinates (scaled) sets the scale: one coordinate whose ä
        //   passes through zero does not hold the iteration to rounding. â is that of the
        //   accelerations the iterate stands for (a_F + w, x on the independent
        //   coordinates), not of a_F: on a mode the step does not resolve a_F differs from
        //   x by the residual, (1 + α)βh²ω² times the correction, and a bound taken from it
        //   grew with the iteration error it was to bound. At βh²ω² above 12c/κ (1e4 here)
        //   the first iterate passed however wrong it was: the flexible four-bar and
        //   slider-crank blew up within 25 ms at fixed steps of 0.5 and 1 ms (velocities of
        //   1e48 m/s at 25 ms), and the four-bar at 0.62 s at 0.25 ms.
        const double c = std::max(beta_, gamma_);
        double bound = 0.0;
        if (settings_.fixedStep) {
            // â_{n+1} − â_n − (h/h_n)(â_n − â_{n−1}): the last step may be shorter.
            const double ratio = historyReady_ ? h / lastIncrementStep_ : 0.0;
            double difference = 0.0;
            for (int k = 0; k < n; ++k) {
                const double step = (1.0 + alpha_) * (a1[k] + w[k]) - alpha_ * a_[k] - aHat_[k];
                difference = std::max(difference, std::abs(step - ratio * lastIncrementHat_[k]) / colScales_[k]);
            }
            bound = kIterationShare * difference / 12.0;
        }
        const auto measureOf = [&]() {
            double measure = 0.0;
            for (int k = 0; k < f; ++k) {
                const int col = independent_[static_cast<size_t>(k)];
                if (settings_.fixedStep) {
                    measure = std::max(measure, c * (1.0 + alpha_) * std::abs(correction[k]) / colScales_[col]);
                } else {
                    const double tol = settings_.ode.atol + settings_.ode.rtol * errorScales_.current()[col];
                    measure = std::max(measure, c * h * h * (1.0 + alpha_) * std::abs(correction[k]) / tol);
                }
            }
            return settings_.fixedStep ? measure / std::max(bound, std::numeric_limits<double>::min())
                                       : measure / kIterationShare;
        };
        double measure = measureOf();
        // Modified Newton that stops gaining: a fresh iteration matrix at the current iterate.
        if (outer > 0 && measure > 1.0 &&
            (ModifiedNewton::slowed(previousMeasure, measure) || ModifiedNewton::keptTooLong(outer, formedThisStep))) {
            if (Status fm = formIterationMatrix(s, lambda1, cv.jacobian, h); !fm.ok) return fm;
            formedThisStep = true;
            if (!correct()) return Status::failure("the outer loop's Newton correction is not finite at " + at(t1));
            measure = measureOf();
        }
        previousMeasure = measure;
        if (measure <= 1.0) {
            // The accelerations of the corrected iterate, x + δx on the independent
            // coordinates and the dependent ones that keep Φ_q a = γ: a_F + w + δa (Φ_I w = 0,
            // Φ_I δa = 0). On a slow mode that is about a_F, one fixed-point step past x; on
            // a stiff one a_F is not: it differs from x by the large residual, and would put
            // that into â and the next step's positions. The state stays the iterate's,
            // within h²β(1 + α)δx, the share of the tolerance just tested.
            acceptTrial(h, s, a1 + w + fullCorrection, lambda1, increment, trial);
            return {};
        }
        if (outer + 1 >= settings_.maxOuterIterations) {
            std::ostringstream d;
            d << "the outer loop (Newton on the independent accelerations) did not converge at " << at(t1)
              << " with step " << h << " s: correction " << measure << " x its tolerance, largest scaled residual "
              << relative << " m/s^2, after " << outer + 1 << " iterations";
            return Status::failure(d.str());
        }
        for (int k = 0; k < f; ++k) x[k] += correction[k];
        // The dependent accelerations of the next predictor: the latest consistent ones.
        aGuess = a1;
    }
}

void TlismniStepper::acceptTrial(double h, const State& s, const VecX& a, const VecX& lambda, const VecX& increment,
                                 Trial& trial) {
    trial.h = h;
    trial.q = s.q;
    trial.v = s.v;
    trial.a = a;
    trial.aHat = (1.0 + alpha_) * a - alpha_ * a_;
    trial.lambdaI = lambda;
    // The velocity-space increment from the step start without the inner loop's
    // corrections (O(h³)): dense output is corrected onto the constraints anyway.
    trial.increment = increment;
    if (!settings_.fixedStep) trial.error = estimateError(trial);
}

Status TlismniStepper::step(double tStop) {
    const Model& m = *model_;
    const double remaining = tStop - t_;
    if (!(remaining > 0.0)) return Status::failure("step requested at or past its stop time " + at(tStop));
    double h = steps_.proposed();
    if (!(h > 0.0)) return Status::failure("the two-loop method needs a positive step (--step)");
    // Re-check the partition at the accepted state: the rows the rank decision calls
    // independent, and the conditioning of the dependent block.
    {
        const State s{t_, q_, v_};
        std::vector<int> rows = spaces_.at(m, s).independentEquations();
        std::sort(rows.begin(), rows.end());
        // Among redundant equations the rank decision may pick another, equally valid set of
        // independent rows from one step to the next (nearly equal pivots of a planar loop
        // modelled in space). The rows held serve as long as their number is the rank and
        // the dependent block they make stays well conditioned (then they have full rank):
        // changing them would only discard the kept iteration matrix and perturb the
        // accelerations at the step start to the Newton tolerance, so that two runs that
        // differ in their rank decisions alone (dense and sparse) would no longer agree.
        bool again = rows.size() != rows_.size();
        if (!again && !rows_.empty()) {
            ConstraintValues cv;
            evaluateConstraints(m, s, cv, kJacobian);
            again = !(dependentBlock(s, cv).rcond() >= settings_.repartitionRatio * rcond0_);
        }
        if (again) {
            if (Status st = partitionAt(s, true); !st.ok) return st;
            // The multipliers of the new independent rows, for the iteration matrix.
            if (Status st = accelerations(s, a_, lambdaI_); !st.ok) return st;
        }
    }
    bool retried = false;
    for (;;) {
        h = steps_.limited(h, remaining);
        Trial trial;
        const Status st = attempt(h, trial);
        if (steps_.accepts(st, trial.error)) {
            last_.begin(t_, q_, v_, trial.increment);
            t_ = (h == remaining) ? tStop : t_ + h;
            q_ = trial.q;
            errorScales_.accept(q_);
            normalizePositions(m, q_);
            v_ = trial.v;
            lastIncrementA_ = trial.a - a_;
            lastIncrementHat_ = trial.aHat - aHat_;
            lastIncrementStep_ = h;
            a_ = trial.a;
            historyReady_ = true;
            aHat_ = trial.aHat;
            lambdaI_ = trial.lambdaI;
            lastStep_ = h;
            ++stats_.steps;
            steps_.accepted(h, remaining, trial.error);
            // Factorised here rather than at the next step's start, the spaces also serve
            // the run's rank and σ_min watch at this step's end (factorizationAt): one
            // rank-revealing QR a step instead of two.
            spaces_.at(m, state());
            return {};
        }
        // A failed trial may have failed on a kept iteration matrix: the next one forms it.
        if (!st.ok) newton_.invalidate();
        // A step whose loops fail where the partition is due to change (the block already
        // degraded over the step, though not yet at its start): choose again at the step's
        // start and retry the same step once before giving up or shrinking it.
        if (!st.ok && !retried && !rows_.empty()) {
            retried = true;
            const std::vector<int> before = independent_, rowsBefore = rows_;
            const double rcondBefore = rcond0_;
            const State start{t_, q_, v_};
            if (Status p = partitionAt(start, true); !p.ok) return p;
            // The multipliers of the (possibly new) independent rows, for the iteration matrix.
            if (rows_ != rowsBefore || independent_ != before) {
                if (Status a = accelerations(start, a_, lambdaI_); !a.ok) return a;
            }
            if (independent_ != before) continue;
            rcond0_ = rcondBefore;
        }
        if (steps_.fixed()) return st;
        ++stats_.rejectedSteps;
        if (Status failed = steps_.rejected(h, st, trial.error, at(t_)); !failed.ok) return failed;
    }
}

State TlismniStepper::state() const { return State{t_, q_, v_}; }

void TlismniStepper::interpolate(double t, State& out) const { last_.interpolate(*model_, t_, q_, v_, t, out); }

}  // namespace looplab
