#pragma once
// One quantity a design study varies: a number in the model file, addressed by a JSON
// pointer into the model's JSON ("/bodies/2/mass", "/joints/1/point/0"), and the values it
// takes — a list or an evenly spaced range (full factorial designs), or a normal or uniform
// distribution (Monte Carlo designs). docs/study-format.md.

#include <string>
#include <vector>

namespace looplab {

struct StudyParameter {
    enum class Kind { List, Range, Normal, Uniform };

    std::string name;  ///< column name in the results; default the pointer
    std::string path;  ///< JSON pointer into the model file
    /// Further numbers the parameter sets, each to its value times a factor: a cam's rise
    /// and its return together, the two links of a symmetric linkage.
    struct Linked {
        std::string path;
        double factor = 1.0;
    };
    std::vector<Linked> also;
    Kind kind = Kind::List;
    std::vector<double> values;      ///< List
    double from = 0.0, to = 0.0;     ///< Range: first and last value
    int steps = 0;                   ///< Range: number of values (≥ 2), or 1 for `from` alone
    double mean = 0.0, sd = 0.0;     ///< Normal
    double low = 0.0, high = 0.0;    ///< Uniform on [low, high)

    bool isDistribution() const { return kind == Kind::Normal || kind == Kind::Uniform; }
    /// Number of values of a list or range (0 for a distribution).
    long levelCount() const;
    /// Value k (0 ≤ k < levelCount()) of a list or range, computed alone: a case needs its
    /// own value only, and a range of 10⁷ steps is not built for every case.
    double level(long k) const;
    /// The values of a list or range, in order (empty for a distribution).
    std::vector<double> levels() const;
    /// A draw of a distribution from two independent uniforms on [0, 1): the inverse of the
    /// uniform's CDF, or the Box–Muller transform for the normal (u1 ∈ [0, 1) is used as
    /// 1 − u1 so that the logarithm stays finite).
    double draw(double u1, double u2) const;
};

/// "list", "range", "normal", "uniform".
const char* studyParameterKindName(StudyParameter::Kind kind);

}  // namespace looplab
