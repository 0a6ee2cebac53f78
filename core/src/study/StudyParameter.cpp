#include "looplab/study/StudyParameter.h"
#include "looplab/study/StudyDescription.h"

#include <cmath>

namespace looplab {

long StudyParameter::levelCount() const {
    if (kind == Kind::List) return static_cast<long>(values.size());
    if (kind != Kind::Range || steps < 1) return 0;
    return steps;
}

double StudyParameter::level(long k) const {
    if (kind == Kind::List) return values[static_cast<size_t>(k)];
    if (steps == 1) return from;
    // from + k·Δ would not end exactly at `to`; the interpolation does, and is symmetric.
    if (k == steps - 1) return to;
    const double f = double(k) / double(steps - 1);
    return from * (1.0 - f) + to * f;
}

std::vector<double> StudyParameter::levels() const {
    std::vector<double> v(static_cast<size_t>(levelCount()));
    for (size_t k = 0; k < v.size(); ++k) v[k] = level(static_cast<long>(k));
    return v;
}

double StudyParameter::draw(double u1, double u2) const {
    if (kind == Kind::Uniform) return low + (high - low) * u1;
    if (kind == Kind::Normal) {
        constexpr double kTwoPi = 6.283185307179586476925286766559;
        return mean + sd * std::sqrt(-2.0 * std::log(1.0 - u1)) * std::cos(kTwoPi * u2);
    }
    return NAN;
}

const char* studyParameterKindName(StudyParameter::Kind kind) {
    switch (kind) {
    case StudyParameter::Kind::List: return "list";
    case StudyParameter::Kind::Range: return "range";
    case StudyParameter::Kind::Normal: return "normal";
    case StudyParameter::Kind::Uniform: return "uniform";
    }
    return "";
}

const char* studyAnalysisName(StudyAnalysisType type) {
    switch (type) {
    case StudyAnalysisType::Check: return "check";
    case StudyAnalysisType::Kinematics: return "kinematics";
    case StudyAnalysisType::Simulate: return "simulate";
    case StudyAnalysisType::Statics: return "statics";
    case StudyAnalysisType::Modes: return "modes";
    }
    return "";
}

bool parseStudyAnalysis(const std::string& name, StudyAnalysisType& type) {
    for (StudyAnalysisType t : {StudyAnalysisType::Check, StudyAnalysisType::Kinematics, StudyAnalysisType::Simulate,
                                StudyAnalysisType::Statics, StudyAnalysisType::Modes})
        if (name == studyAnalysisName(t)) {
            type = t;
            return true;
        }
    return false;
}

const char* studyStatisticName(StudyStatistic s) {
    switch (s) {
    case StudyStatistic::Initial: return "initial";
    case StudyStatistic::Final: return "final";
    case StudyStatistic::Min: return "min";
    case StudyStatistic::Max: return "max";
    }
    return "";
}

bool parseStudyStatistic(const std::string& name, StudyStatistic& s) {
    for (StudyStatistic t : {StudyStatistic::Initial, StudyStatistic::Final, StudyStatistic::Min, StudyStatistic::Max})
        if (name == studyStatisticName(t)) {
            s = t;
            return true;
        }
    return false;
}

}  // namespace looplab
