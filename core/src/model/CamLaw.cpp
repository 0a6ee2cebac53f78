#include "looplab/model/CamLaw.h"

#include <Eigen/SparseCore>
#include <Eigen/SparseLU>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace looplab {
namespace {

constexpr double kFullTurn = 2.0 * M_PI;

// φ in [start, start + 2π).
double intoTurn(double phi, double start) {
    double x = std::fmod(phi - start, kFullTurn);
    if (x < 0.0) x += kFullTurn;
    return start + x;
}

}  // namespace

CamLaw CamLaw::fromSegments(std::vector<CamSegment> segments) {
    CamLaw law;
    double start = 0.0, base = 0.0;
    for (const CamSegment& s : segments) {
        law.starts_.push_back(start);
        law.bases_.push_back(base);
        start += s.angle;
        base += s.lift;
    }
    law.segments_ = std::move(segments);
    return law;
}

CamLaw CamLaw::fromTable(std::vector<double> angles, std::vector<double> lifts) {
    const int n = static_cast<int>(angles.size());
    if (n < 3 || lifts.size() != angles.size()) throw std::invalid_argument("a cam's lift table needs three points or more");
    // Moments Mᵢ = f''(φᵢ) of the periodic spline: for every knot (indices modulo n)
    //   hᵢ₋₁Mᵢ₋₁ + 2(hᵢ₋₁ + hᵢ)Mᵢ + hᵢMᵢ₊₁ = 6((yᵢ₊₁ − yᵢ)/hᵢ − (yᵢ − yᵢ₋₁)/hᵢ₋₁),
    // a cyclic tridiagonal system, solved as a sparse one.
    auto gap = [&](int i) {
        const int k = (i % n + n) % n;
        return k + 1 < n ? angles[static_cast<size_t>(k + 1)] - angles[static_cast<size_t>(k)]
                         : angles[0] + kFullTurn - angles[static_cast<size_t>(k)];
    };
    auto y = [&](int i) { return lifts[static_cast<size_t>((i % n + n) % n)]; };
    std::vector<Eigen::Triplet<double>> entries;
    Eigen::VectorXd rhs(n);
    for (int i = 0; i < n; ++i) {
        const double before = gap(i - 1), after = gap(i);
        entries.emplace_back(i, (i + n - 1) % n, before);
        entries.emplace_back(i, i, 2.0 * (before + after));
        entries.emplace_back(i, (i + 1) % n, after);
        rhs[i] = 6.0 * ((y(i + 1) - y(i)) / after - (y(i) - y(i - 1)) / before);
    }
    Eigen::SparseMatrix<double> A(n, n);
    A.setFromTriplets(entries.begin(), entries.end());
    Eigen::SparseLU<Eigen::SparseMatrix<double>> lu(A);
    if (lu.info() != Eigen::Success) throw std::runtime_error("the cam's spline system is singular");
    const Eigen::VectorXd moments = lu.solve(rhs);
    CamLaw law;
    law.knots_ = std::move(angles);
    law.values_ = std::move(lifts);
    law.moments_.assign(moments.data(), moments.data() + n);
    return law;
}

CamLaw::Value CamLaw::evaluate(double phi) const { return knots_.empty() ? segmentValue(phi) : splineValue(phi); }

CamLaw::Value CamLaw::segmentValue(double phi) const {
    Value v;
    if (segments_.empty()) return v;
    const double at = intoTurn(phi, 0.0);
    size_t i = static_cast<size_t>(std::upper_bound(starts_.begin(), starts_.end(), at) - starts_.begin());
    i = i == 0 ? 0 : i - 1;
    const CamSegment& s = segments_[i];
    const double beta = s.angle, h = s.lift;
    const double x = std::clamp((at - starts_[i]) / beta, 0.0, 1.0);
    v.lift = bases_[i];
    switch (s.motion) {
    case CamMotion::Dwell: break;
    case CamMotion::Cycloidal: {
        const double w = 2.0 * M_PI * x;
        v.lift += h * (x - std::sin(w) / (2.0 * M_PI));
        v.velocity = h / beta * (1.0 - std::cos(w));
        v.acceleration = 2.0 * M_PI * h / (beta * beta) * std::sin(w);
        v.jerk = 4.0 * M_PI * M_PI * h / (beta * beta * beta) * std::cos(w);
        break;
    }
    case CamMotion::Harmonic: {
        const double w = M_PI * x;
        v.lift += 0.5 * h * (1.0 - std::cos(w));
        v.velocity = 0.5 * M_PI * h / beta * std::sin(w);
        v.acceleration = 0.5 * M_PI * M_PI * h / (beta * beta) * std::cos(w);
        v.jerk = -0.5 * M_PI * M_PI * M_PI * h / (beta * beta * beta) * std::sin(w);
        break;
    }
    case CamMotion::Polynomial345: {
        const double x2 = x * x, x3 = x2 * x;
        v.lift += h * x3 * (10.0 - 15.0 * x + 6.0 * x2);
        v.velocity = h / beta * 30.0 * x2 * (1.0 - 2.0 * x + x2);
        v.acceleration = h / (beta * beta) * 60.0 * x * (1.0 - 3.0 * x + 2.0 * x2);
        v.jerk = h / (beta * beta * beta) * 60.0 * (1.0 - 6.0 * x + 6.0 * x2);
        break;
    }
    }
    return v;
}

CamLaw::Value CamLaw::splineValue(double phi) const {
    const size_t n = knots_.size();
    const double at = intoTurn(phi, knots_[0]);
    size_t i = static_cast<size_t>(std::upper_bound(knots_.begin(), knots_.end(), at) - knots_.begin()) - 1;
    const size_t k = (i + 1) % n;
    const double right = k == 0 ? knots_[0] + kFullTurn : knots_[k];
    const double h = right - knots_[i];
    const double A = (right - at) / h, B = (at - knots_[i]) / h;
    const double Mi = moments_[i], Mk = moments_[k], yi = values_[i], yk = values_[k];
    Value v;
    v.lift = A * yi + B * yk + ((A * A * A - A) * Mi + (B * B * B - B) * Mk) * h * h / 6.0;
    v.velocity = (yk - yi) / h - (3.0 * A * A - 1.0) / 6.0 * h * Mi + (3.0 * B * B - 1.0) / 6.0 * h * Mk;
    v.acceleration = A * Mi + B * Mk;
    v.jerk = (Mk - Mi) / h;
    return v;
}

}  // namespace looplab
