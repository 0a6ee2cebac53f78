#include "looplab/integrate/SingularityMonitor.h"

#include "looplab/posing/MechanismAdvice.h"

#include "looplab/kinematics/Mobility.h"

#include <Eigen/SVD>

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

namespace looplab {

std::vector<std::string> equationOwners(const Model& m, const std::vector<int>& rows) {
    std::vector<std::string> out;
    for (int r : rows) {
        const std::string& o = m.equations[static_cast<size_t>(r)].owner;
        if (std::find(out.begin(), out.end(), o) == out.end()) out.push_back(o);
    }
    return out;
}

namespace {

// Joints carrying the largest entries of the direction that is closest to dependence.
std::vector<std::string> singularJoints(const Model& m, const ConstraintSpaces& sp) {
    const VecX w = sp.singularDirection();
    std::vector<int> rows;
    const double big = w.size() ? w.cwiseAbs().maxCoeff() : 0.0;
    for (int i = 0; i < w.size(); ++i)
        if (std::abs(w[i]) > 0.2 * big) rows.push_back(i);
    return equationOwners(m, rows);
}

}  // namespace

SingularityMonitor::SingularityMonitor(const Model& model, double singularThreshold, double rankTolerance,
                                       LinearAlgebra linearAlgebra, EventSink emit)
    : model_(model), threshold_(singularThreshold), rankTolerance_(rankTolerance),
      linearAlgebra_(linearAlgebra), emit_(std::move(emit)) {}

void SingularityMonitor::start(const State& s, const ConstraintSpaces& sp) {
    const Model& m = model_;
    const double t = s.t;
    lastRegular_ = s;
    if (!sp.redundantEquations().empty()) {
        std::ostringstream d;
        d << sp.redundantEquations().size() << " redundant equation(s):";
        for (int r : sp.redundantEquations())
            d << " " << m.equations[size_t(r)].owner << " (" << m.equations[size_t(r)].component << ")";
        d << "; reactions of the joints involved are statically indeterminate (minimum-norm "
             "multipliers are reported)";
        // Named by the joints of the redundant equations only, with the usual fix.
        MobilityReport report;
        for (int r : sp.redundantEquations())
            report.redundant.push_back({m.equations[size_t(r)].owner, m.equations[size_t(r)].component, r});
        if (const auto advice = redundancyAdvice(m, report)) {
            const std::string& a = advice->sentence;
            const auto fix = a.find("The usual fix: ");
            if (fix != std::string::npos) d << ". " << a.substr(fix);
        }
        emit_({t, RunEventKind::RedundantConstraints, equationOwners(m, sp.redundantEquations()), d.str()});
    }
    // The singular threshold is relative to the smallest singular value of the run's
    // regular configurations (the largest σ_min seen so far, at most 1): a long chain of
    // loops has a small σ_min by its size alone (1e-3 for 20 loops), so an absolute
    // threshold would call all of its motion singular, while a fraction of the regular
    // value means the same for a four-bar and for a chain of 400 joints.
    sigmaRegular_ = std::min(1.0, sp.smallestSingularValue());
    nominalRank_ = lastRank_ = sp.rank();
    inEpisode_ = false;
    sigmaStepStart_ = sigmaOf(sp);
    pivotStepStart_ = pivotRegular_ = sp.smallestPivot();
}

// Within the rank tolerance of a singular configuration a row counts as lost; the episode
// goes on, measured by the first rejected pivot. The lower bound settles most steps
// without the inverse iteration (σ is exact only below the threshold).
double SingularityMonitor::sigmaOf(const ConstraintSpaces& w) {
    if (w.rank() < nominalRank_) return w.firstRejectedPivot();
    const double bound = w.smallestSingularValueLowerBound();
    sigmaRegular_ = std::max(sigmaRegular_, std::min(1.0, bound));
    if (bound >= threshold()) return threshold();
    const double sigma = w.smallestSingularValue();
    sigmaRegular_ = std::max(sigmaRegular_, std::min(1.0, sigma));
    return sigma;
}

double SingularityMonitor::tangentTurn(const State& before, const ConstraintSpaces& after) const {
    // Dense bases of a few columns: a branch check is only meaningful (and cheap) for
    // mechanisms with few degrees of freedom.
    constexpr int kMostDegreesOfFreedom = 12;
    const int dof = after.degreesOfFreedom();
    if (dof < 1 || dof > kMostDegreesOfFreedom) return -1.0;
    ConstraintSpaces w;
    factorizeConstraints(model_, before, w, rankTolerance_, linearAlgebra_);
    if (w.degreesOfFreedom() != dof) return -1.0;
    const MatX overlap = after.tangentBasis().transpose() * w.tangentBasis();
    const Eigen::JacobiSVD<MatX> svd(overlap);
    const double smallestCosine = std::clamp(svd.singularValues().minCoeff(), 0.0, 1.0);
    return std::acos(smallestCosine);
}

void SingularityMonitor::closeEpisode(double t, const ConstraintSpaces* atExit) {
    inEpisode_ = false;
    const double turn = atExit ? tangentTurn(episodeEntry_, *atExit) : -1.0;
    std::ostringstream d;
    d << "singular configuration: smallest singular value of the constraint Jacobian " << sigmaMinEpisode_
      << " (threshold " << threshold() << ", " << threshold_ << " of the regular " << sigmaRegular_
      << ") between t = " << tEnterEpisode_ << " and " << t;
    if (turn >= 0.0) d << "; the tangent space turned by " << turn << " rad across it";
    // In mechanism terms: which links line up there (any σ counts: the episode decided).
    if (const auto lineUp = singularLineUp(model_, episodeWorst_, std::numeric_limits<double>::infinity()))
    {
        const std::string prefix = "singular configuration: ";
        const std::string& words = lineUp->sentence;
        d << "; " << (words.compare(0, prefix.size(), prefix) == 0 ? words.substr(prefix.size()) : words);
    }
    emit_({tMinEpisode_, RunEventKind::SingularConfiguration, jointsEpisode_, d.str()});
    if (turn > kBranchChangeAngle) {
        std::ostringstream b;
        b << "assembly branch change: across the singular configuration between t = " << tEnterEpisode_ << " and "
          << t << " the directions the mechanism can move in turned by " << turn << " rad (more than "
          << kBranchChangeAngle
          << " rad): it left on another branch of its configuration space than it came in on";
        emit_({t, RunEventKind::BranchChange, jointsEpisode_, b.str()});
    }
}

void SingularityMonitor::watch(const State& s, const ConstraintSpaces& w, double sigma) {
    const double t = s.t;
    if (w.rank() != lastRank_) {
        const bool lost = w.rank() < lastRank_;
        if (lost) jointsLostRank_ = singularJoints(model_, w);
        emit_({t, RunEventKind::RankChange, jointsLostRank_,
               "rank " + std::to_string(lastRank_) + " -> " + std::to_string(w.rank()) +
                   (lost ? ": a constraint became redundant" : ": a constraint became independent")});
        lastRank_ = w.rank();
    }
    if (sigma < threshold()) {
        if (!inEpisode_) {
            inEpisode_ = true;
            tEnterEpisode_ = t;
            episodeEntry_ = lastRegular_;
            sigmaMinEpisode_ = std::numeric_limits<double>::infinity();
        }
        if (sigma < sigmaMinEpisode_) {
            sigmaMinEpisode_ = sigma;
            tMinEpisode_ = t;
            episodeWorst_ = s;
            jointsEpisode_ = singularJoints(model_, w);
        }
    } else {
        if (inEpisode_) closeEpisode(t, &w);
        lastRegular_ = s;
    }
}

void SingularityMonitor::afterStep(const TimeStepper& stepper, double tPrev, const State& stepEnd,
                                   const ConstraintSpaces& atStepEnd) {
    const double t = stepper.time();
    // Sample inside the step only where an event's time is decided there: the entry into
    // an episode (σ_min ≤ the smallest pivot |R_rr|, and with column pivoting rarely far
    // below), its exit, or a smallest σ that may lie inside the step (σ falling, or the
    // episode's smallest so far at the step's start). In a long, shallow episode, as in
    // a large model whose σ_min stays below the threshold, rising stretches are skipped.
    // A long step can pass a whole episode between two regular ends (a crank turning
    // 0.1 rad per step through a flat posture): where either end is in a dip of the
    // conditioning (its smallest pivot below 0.3 of the largest seen) the step is
    // sampled too.
    const double sigmaEnd = sigmaOf(atStepEnd);
    const double pivotEnd = atStepEnd.smallestPivot();
    pivotRegular_ = std::max(pivotRegular_, pivotEnd);
    const bool sampleInside = inEpisode_ ? sigmaEnd >= threshold() || sigmaEnd < sigmaStepStart_ ||
                                               sigmaStepStart_ <= sigmaMinEpisode_
                                         : pivotEnd < 10.0 * threshold() ||
                                               std::min(pivotEnd, pivotStepStart_) < 0.3 * pivotRegular_;
    pivotStepStart_ = pivotEnd;
    if (sampleInside) {
        State s;
        for (int k = 1; k < 8; ++k) {
            const double ts = tPrev + (t - tPrev) * k / 8.0;
            stepper.interpolate(ts, s);
            normalizePositions(model_, s.q);
            ConstraintSpaces w;
            factorizeConstraints(model_, s, w, rankTolerance_, linearAlgebra_);
            watch(s, w, sigmaOf(w));
        }
    }
    watch(stepEnd, atStepEnd, sigmaEnd);
    sigmaStepStart_ = sigmaEnd;
}

void SingularityMonitor::finish(double t) {
    if (inEpisode_) closeEpisode(t, nullptr);
}

}  // namespace looplab
