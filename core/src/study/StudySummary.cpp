#include "looplab/study/StudySummary.h"
#include "looplab/Version.h"

#include <Eigen/Dense>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace looplab {

namespace {

// Ranks 1..n with ties given their average rank.
VecX ranks(const std::vector<double>& x) {
    const size_t n = x.size();
    std::vector<size_t> order(n);
    std::iota(order.begin(), order.end(), size_t(0));
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return x[a] < x[b]; });
    VecX r(static_cast<Eigen::Index>(n));
    for (size_t i = 0; i < n;) {
        size_t j = i;
        while (j + 1 < n && x[order[j + 1]] == x[order[i]]) ++j;
        const double avg = 0.5 * double(i + j) + 1.0;
        for (size_t k = i; k <= j; ++k) r[Eigen::Index(order[k])] = avg;
        i = j + 1;
    }
    return r;
}

std::optional<double> pearson(const VecX& a, const VecX& b) {
    const VecX da = a.array() - a.mean(), db = b.array() - b.mean();
    const double na = da.norm(), nb = db.norm();
    if (!(na > 0) || !(nb > 0)) return std::nullopt;
    return da.dot(db) / (na * nb);
}

// Quantile of sorted data by linear interpolation between order statistics (Hyndman &
// Fan 1996, definition 7).
double quantile(const std::vector<double>& sorted, double p) {
    const double h = p * double(sorted.size() - 1);
    const size_t lo = static_cast<size_t>(std::floor(h));
    const size_t hi = std::min(lo + 1, sorted.size() - 1);
    return sorted[lo] + (h - double(lo)) * (sorted[hi] - sorted[lo]);
}

nlohmann::json optionalJson(const std::optional<double>& v) { return v ? nlohmann::json(*v) : nlohmann::json(); }
nlohmann::json numberJson(double v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(); }

}  // namespace

StudySummary summarizeStudy(const StudyDescription& study, const std::vector<StudyRow>& rows) {
    StudySummary s;
    s.cases = static_cast<long>(rows.size());
    for (const StudyRow& r : rows) s.failures += r.ok ? 0 : 1;
    const std::vector<std::string> columns = studyValueColumns(study);
    const size_t np = study.parameters.size();
    for (size_t c = 0; c < columns.size(); ++c) {
        StudyOutputSummary o;
        o.column = columns[c];
        std::vector<double> y;
        std::vector<const StudyRow*> used;
        for (const StudyRow& r : rows)
            if (c < r.values.size() && std::isfinite(r.values[c])) {
                y.push_back(r.values[c]);
                used.push_back(&r);
            }
        o.count = static_cast<long>(y.size());
        o.failureRate = rows.empty() ? 0.0 : 1.0 - double(y.size()) / double(rows.size());
        o.regression.assign(np, std::nullopt);
        o.spearman.assign(np, std::nullopt);
        if (y.empty()) {
            o.mean = o.sd = o.min = o.max = NAN;
            o.quantiles.assign(kStudyQuantiles.size(), NAN);
            s.outputs.push_back(o);
            continue;
        }
        const Eigen::Map<const VecX> Y(y.data(), Eigen::Index(y.size()));
        o.mean = Y.mean();
        o.sd = y.size() > 1 ? std::sqrt((Y.array() - o.mean).square().sum() / double(y.size() - 1)) : NAN;
        std::vector<double> sorted = y;
        std::sort(sorted.begin(), sorted.end());
        o.min = sorted.front();
        o.max = sorted.back();
        for (double p : kStudyQuantiles) o.quantiles.push_back(quantile(sorted, p));

        // Regression y ≈ b₀ + Σ b_j p_j; a parameter the QR finds no independent column for
        // gets no coefficient.
        const Eigen::Index n = Eigen::Index(y.size());
        MatX X(n, Eigen::Index(np) + 1);
        for (Eigen::Index i = 0; i < n; ++i) {
            X(i, 0) = 1.0;
            for (size_t j = 0; j < np; ++j) X(i, Eigen::Index(j) + 1) = used[size_t(i)]->parameters[j];
        }
        // Columns scaled to unit range so that the rank decision does not depend on units.
        VecX scale = VecX::Ones(X.cols());
        for (Eigen::Index j = 1; j < X.cols(); ++j) {
            const double range = X.col(j).maxCoeff() - X.col(j).minCoeff();
            scale[j] = range > 0 ? range : 0.0;
        }
        std::vector<Eigen::Index> keep{0};
        for (Eigen::Index j = 1; j < X.cols(); ++j)
            if (scale[j] > 0) keep.push_back(j);
        MatX Xs(n, Eigen::Index(keep.size()));
        for (size_t k = 0; k < keep.size(); ++k) Xs.col(Eigen::Index(k)) = X.col(keep[k]) / scale[keep[k]];
        // Centre the parameter columns: the intercept column then does not mask them.
        for (Eigen::Index k = 1; k < Xs.cols(); ++k) Xs.col(k).array() -= Xs.col(k).mean();
        Eigen::ColPivHouseholderQR<MatX> qr(Xs);
        qr.setThreshold(1e-10);
        if (n > Xs.cols() && qr.rank() == Xs.cols()) {
            const VecX b = qr.solve(Y);
            for (size_t k = 1; k < keep.size(); ++k) o.regression[size_t(keep[k] - 1)] = b[Eigen::Index(k)] / scale[keep[k]];
            const double ssTot = (Y.array() - o.mean).square().sum();
            const double ssRes = (Y - Xs * b).squaredNorm();
            o.regressionR2 = ssTot > 0 ? 1.0 - ssRes / ssTot : 1.0;
        } else {
            o.regressionR2 = NAN;
        }
        const VecX ry = ranks(y);
        for (size_t j = 0; j < np; ++j) {
            std::vector<double> x(y.size());
            for (size_t i = 0; i < y.size(); ++i) x[i] = used[i]->parameters[j];
            o.spearman[j] = pearson(ranks(x), ry);
        }
        s.outputs.push_back(o);
    }
    return s;
}

std::string studySummaryJson(const StudyDescription& study, const StudySummary& summary) {
    using nlohmann::json;
    json j;
    j["study"] = study.name;
    j["file"] = study.file;
    j["model"] = study.modelPath;
    j["design"] = study.design == StudyDesign::MonteCarlo ? "monte_carlo" : "factorial";
    if (study.design == StudyDesign::MonteCarlo) j["seed"] = study.seed;
    j["analysis"] = studyAnalysisName(study.analysis.type);
    j["cases"] = summary.cases;
    j["failures"] = summary.failures;
    j["failure_rate"] = summary.cases ? double(summary.failures) / double(summary.cases) : 0.0;
    json params = json::array();
    for (const StudyParameter& p : study.parameters)
        params.push_back({{"name", p.name}, {"path", p.path}, {"kind", studyParameterKindName(p.kind)}});
    j["parameters"] = params;
    json outs = json::object();
    for (const StudyOutputSummary& o : summary.outputs) {
        json q = json::object();
        for (size_t k = 0; k < kStudyQuantiles.size(); ++k) {
            char key[16];
            std::snprintf(key, sizeof key, "%g", kStudyQuantiles[k]);
            q[key] = numberJson(o.quantiles[k]);
        }
        json reg = json::object(), sp = json::object();
        for (size_t p = 0; p < study.parameters.size(); ++p) {
            reg[study.parameters[p].name] = optionalJson(o.regression[p]);
            sp[study.parameters[p].name] = optionalJson(o.spearman[p]);
        }
        outs[o.column] = {{"count", o.count},
                          {"failure_rate", o.failureRate},
                          {"mean", numberJson(o.mean)},
                          {"sd", numberJson(o.sd)},
                          {"min", numberJson(o.min)},
                          {"max", numberJson(o.max)},
                          {"quantiles", q},
                          {"sensitivity", {{"regression", reg}, {"regression_r2", numberJson(o.regressionR2)}, {"spearman", sp}}}};
    }
    j["outputs"] = outs;
    j["looplab_version"] = version();
    return j.dump(2) + "\n";
}

}  // namespace looplab
