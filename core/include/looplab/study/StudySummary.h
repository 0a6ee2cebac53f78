#pragma once
// Statistics of a study's results: per output the mean, standard deviation, quantiles and
// failure rate over the cases, and the sensitivity of each output to each parameter as the
// coefficients of a multiple linear regression (least squares by column-pivoting QR) and as
// Spearman rank correlations. docs/study-format.md, "Summary".

#include "looplab/study/StudyDescription.h"
#include "looplab/study/StudyTable.h"

#include <optional>
#include <string>
#include <vector>

namespace looplab {

struct StudyOutputSummary {
    std::string column;
    long count = 0;           ///< cases with a value
    double failureRate = 0;   ///< share of the cases without a value
    double mean = 0, sd = 0;  ///< sd: sample standard deviation (n − 1)
    double min = 0, max = 0;
    /// Quantiles at kStudyQuantiles, linear interpolation between order statistics.
    std::vector<double> quantiles;
    /// Per parameter: ∂output/∂parameter of the least-squares fit output ≈ b₀ + Σ b_j p_j,
    /// absent when the parameters do not determine it (too few cases, a constant parameter).
    std::vector<std::optional<double>> regression;
    double regressionR2 = 0;  ///< coefficient of determination of that fit
    /// Per parameter: Spearman's rank correlation (ties averaged); absent when either
    /// ranking is constant.
    std::vector<std::optional<double>> spearman;
};

inline const std::vector<double> kStudyQuantiles = {0.05, 0.25, 0.5, 0.75, 0.95};

struct StudySummary {
    long cases = 0;
    long failures = 0;  ///< cases that are not ok
    std::vector<StudyOutputSummary> outputs;
};

StudySummary summarizeStudy(const StudyDescription& study, const std::vector<StudyRow>& rows);
/// The summary as a JSON document (docs/study-format.md).
std::string studySummaryJson(const StudyDescription& study, const StudySummary& summary);

}  // namespace looplab
