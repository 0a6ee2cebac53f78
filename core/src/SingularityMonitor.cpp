#include "looplab/SingularityMonitor.h"

#include "looplab/Mobility.h"

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

void SingularityMonitor::start(double t, const ConstraintSpaces& sp) {
    const Model& m = model_;
    if (!sp.redundantEquations().empty()) {
        std::ostringstream d;
        d << sp.redundantEquations().size() << " redundant equation(s):";
        for (int r : sp.redundantEquations())
            d << " " << m.equations[size_t(r)].owner << " (" << m.equations[size_t(r)].component << ")";
        d << "; reactions of the joints involved are statically indeterminate (minimum-norm "
             "multipliers are reported)";
        std::vector<int> rows;
        const auto ind = sp.indeterminateEquations();
        for (size_t i = 0; i < ind.size(); ++i)
            if (ind[i]) rows.push_back(int(i));
        emit_({t, "redundant_constraints", equationOwners(m, rows), d.str()});
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

void SingularityMonitor::closeEpisode(double t) {
    inEpisode_ = false;
    std::ostringstream d;
    d << "singular configuration: smallest singular value of the constraint Jacobian " << sigmaMinEpisode_
      << " (threshold " << threshold() << ", " << threshold_ << " of the regular " << sigmaRegular_
      << ") between t = " << tEnterEpisode_ << " and " << t;
    emit_({tMinEpisode_, "singular_configuration", jointsEpisode_, d.str()});
}

void SingularityMonitor::watch(double t, const ConstraintSpaces& w, double sigma) {
    if (w.rank() != lastRank_) {
        const bool lost = w.rank() < lastRank_;
        if (lost) jointsLostRank_ = singularJoints(model_, w);
        emit_({t, "rank_change", jointsLostRank_,
               "rank " + std::to_string(lastRank_) + " -> " + std::to_string(w.rank()) +
                   (lost ? ": a constraint became redundant" : ": a constraint became independent")});
        lastRank_ = w.rank();
    }
    if (sigma < threshold()) {
        if (!inEpisode_) {
            inEpisode_ = true;
            tEnterEpisode_ = t;
            sigmaMinEpisode_ = std::numeric_limits<double>::infinity();
        }
        if (sigma < sigmaMinEpisode_) {
            sigmaMinEpisode_ = sigma;
            tMinEpisode_ = t;
            jointsEpisode_ = singularJoints(model_, w);
        }
    } else if (inEpisode_) {
        closeEpisode(t);
    }
}

void SingularityMonitor::afterStep(const TimeStepper& stepper, double tPrev, const ConstraintSpaces& atStepEnd) {
    const double t = stepper.time();
    // Sample inside the step only where an event's time is decided there: the entry into
    // an episode (σ_min ≤ the smallest pivot |R_rr|, and with column pivoting rarely far
    // below), its exit, or a smallest σ that may lie inside the step (σ falling, or the
    // episode's smallest so far at the step's start). In a long, shallow episode, as in
    // a large model whose σ_min stays below the threshold, rising stretches are skipped.
    const double sigmaEnd = sigmaOf(atStepEnd);
    const bool sampleInside = inEpisode_ ? sigmaEnd >= threshold() || sigmaEnd < sigmaStepStart_ ||
                                               sigmaStepStart_ <= sigmaMinEpisode_
                                         : atStepEnd.smallestPivot() < 10.0 * threshold();
    if (sampleInside) {
        State s;
        for (int k = 1; k < 8; ++k) {
            const double ts = tPrev + (t - tPrev) * k / 8.0;
            stepper.interpolate(ts, s);
            normalizePositions(model_, s.q);
            ConstraintSpaces w;
            factorizeConstraints(model_, s, w, rankTolerance_, linearAlgebra_);
            watch(ts, w, sigmaOf(w));
        }
    }
    watch(t, atStepEnd, sigmaEnd);
    sigmaStepStart_ = sigmaEnd;
}

void SingularityMonitor::finish(double t) {
    if (inEpisode_) closeEpisode(t);
}

}  // namespace looplab
