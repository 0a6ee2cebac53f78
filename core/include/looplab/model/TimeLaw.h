#pragma once
// Time laws prescribe a driven joint coordinate (angle in rad or displacement in m) as a
// smooth function of time. Each law returns value, first and second derivative, because
// the velocity and acceleration constraints of a driver need both.

#include <string>
#include <vector>

namespace looplab {

/// Value and time derivatives of a prescribed coordinate at one instant.
struct TimeLawValue {
    double value = 0.0;
    double rate = 0.0;          ///< d/dt
    double acceleration = 0.0;  ///< d²/dt²
};

/// A prescribed motion s(t).
struct TimeLaw {
    enum class Kind {
        Constant,          ///< s = initial
        ConstantVelocity,  ///< s = initial + rate·t
        Polynomial,        ///< s = Σ coefficients[k]·t^k
        Harmonic,          ///< s = offset + amplitude·sin(frequency·t + phase), frequency in rad/s
        SmoothStep         ///< cubic step from (t0, h0) to (t1, h1), constant outside [t0, t1]
    };
    Kind kind = Kind::Constant;
    double initial = 0.0;
    double rate = 0.0;
    std::vector<double> coefficients;
    double offset = 0.0;
    double amplitude = 0.0;
    double frequency = 0.0;
    double phase = 0.0;
    double t0 = 0.0, h0 = 0.0, t1 = 1.0, h1 = 0.0;

    /// s(t), ṡ(t), s̈(t).
    TimeLawValue evaluate(double t) const;
};

/// File and user-interface name of a kind ("constant", "constant_velocity", "polynomial",
/// "harmonic", "smooth_step").
const char* timeLawKindName(TimeLaw::Kind kind);
/// Parses a kind name; returns false if unknown.
bool timeLawKindFromName(const std::string& name, TimeLaw::Kind& kind);

}  // namespace looplab
