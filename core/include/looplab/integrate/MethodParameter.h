#pragma once
// A number a constraint method or an integrator reads, described once: the registry
// (MethodRegistry.h) holds every such description, and the command line's options and
// checks, the model file's `run` keys and the workbench's run-panel fields are made from
// it. Adding a parameter is one entry there (docs/architecture.md). Settings that every run
// reads whatever its method (the rank tolerance and linear algebra of the diagnostics, the
// singular threshold, limits) are not method parameters.

#include "looplab/dynamics/ConstraintMethod.h"
#include "looplab/integrate/OdeSolver.h"

#include <string>
#include <variant>

namespace looplab {

enum class ParameterType {
    Real,  ///< any double in the range
    Count  ///< a whole number in the range (iterations)
};

struct ParameterInfo {
    /// The command-line option without its leading dashes; the `run` block's key is the
    /// same with underscores (fileKey()).
    std::string key;
    std::string label;        ///< the run panel's row, e.g. "HHT α"
    std::string description;  ///< one line, the unit in brackets
    ParameterType type = ParameterType::Real;
    ParameterRange range{0.0, 0.0, true, ""};
    /// A natural change of the value, the run panel's arrow step; 0 for a value that
    /// spans decades (a penalty factor, a tolerance), whose arrows change it tenfold.
    double increment = 0.0;
    /// rtol, atol and step: settings of every run, with fields of their own in
    /// RunSettingsDoc and rows of their own in the run panel (their defaults are the
    /// method's, MethodDefaults). The others are read, saved and edited generically.
    bool runField = false;
    /// Where a run's value is kept.
    std::variant<double ConstraintMethodSettings::*, int ConstraintMethodSettings::*, double OdeSettings::*> field;

    /// "hht_alpha" for "hht-alpha".
    std::string fileKey() const;
    double value(const ConstraintMethodSettings& constraints, const OdeSettings& ode) const;
    void setValue(ConstraintMethodSettings& constraints, OdeSettings& ode, double x) const;
    /// The value of default-constructed settings: each default is written once, where the
    /// settings are declared.
    double defaultValue() const;
    /// In range, and whole for a Count.
    bool accepts(double x) const;
    /// "a number in [-1/3, 0]", "a whole number in [1, 1000]".
    std::string rangeText() const;
    /// Empty if x is accepted, else "<name> must be a number in [...] (got x)".
    std::string check(double x, const std::string& name) const;
};

}  // namespace looplab
