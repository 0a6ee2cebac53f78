#include "looplab/integrate/MethodParameter.h"

#include <cmath>
#include <cstdio>

namespace looplab {

std::string ParameterInfo::fileKey() const {
    std::string k = key;
    for (char& c : k)
        if (c == '-') c = '_';
    return k;
}

double ParameterInfo::value(const ConstraintMethodSettings& constraints, const OdeSettings& ode) const {
    if (auto p = std::get_if<double ConstraintMethodSettings::*>(&field)) return constraints.**p;
    if (auto p = std::get_if<int ConstraintMethodSettings::*>(&field)) return double(constraints.**p);
    return ode.*std::get<double OdeSettings::*>(field);
}

void ParameterInfo::setValue(ConstraintMethodSettings& constraints, OdeSettings& ode, double x) const {
    if (auto p = std::get_if<double ConstraintMethodSettings::*>(&field))
        constraints.**p = x;
    else if (auto p = std::get_if<int ConstraintMethodSettings::*>(&field))
        // Only accepted (whole, bounded) values reach a count; lround keeps a stray
        // 2.9999999 from becoming 2.
        constraints.**p = int(std::lround(x));
    else
        ode.*std::get<double OdeSettings::*>(field) = x;
}

double ParameterInfo::defaultValue() const { return value(ConstraintMethodSettings{}, OdeSettings{}); }

bool ParameterInfo::accepts(double x) const {
    return range.contains(x) && (type == ParameterType::Real || x == std::floor(x));
}

std::string ParameterInfo::rangeText() const {
    return std::string(type == ParameterType::Count ? "a whole number in " : "a number in ") + range.text;
}

std::string ParameterInfo::check(double x, const std::string& name) const {
    if (accepts(x)) return {};
    char got[64];
    std::snprintf(got, sizeof got, "%g", x);
    return name + " must be " + rangeText() + " (got " + got + ")";
}

}  // namespace looplab
