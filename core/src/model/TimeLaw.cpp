#include "looplab/model/TimeLaw.h"

#include <cmath>

namespace looplab {

TimeLawValue TimeLaw::evaluate(double t) const {
    TimeLawValue r;
    switch (kind) {
    case Kind::Constant:
        r.value = initial;
        break;
    case Kind::ConstantVelocity:
        r.value = initial + rate * t;
        r.rate = rate;
        break;
    case Kind::Polynomial: {
        // Horner for the value and both derivatives at once.
        for (size_t k = coefficients.size(); k-- > 0;) {
            r.acceleration = r.acceleration * t + 2.0 * r.rate;
            r.rate = r.rate * t + r.value;
            r.value = r.value * t + coefficients[k];
        }
        break;
    }
    case Kind::Harmonic: {
        const double arg = frequency * t + phase;
        r.value = offset + amplitude * std::sin(arg);
        r.rate = amplitude * frequency * std::cos(arg);
        r.acceleration = -amplitude * frequency * frequency * std::sin(arg);
        break;
    }
    case Kind::SmoothStep: {
        if (t <= t0) {
            r.value = h0;
        } else if (t >= t1) {
            r.value = h1;
        } else {
            const double span = t1 - t0;
            const double x = (t - t0) / span;
            const double dh = h1 - h0;
            r.value = h0 + dh * x * x * (3.0 - 2.0 * x);
            r.rate = dh * 6.0 * x * (1.0 - x) / span;
            r.acceleration = dh * (6.0 - 12.0 * x) / (span * span);
        }
        break;
    }
    }
    return r;
}

namespace {
struct LawName {
    TimeLaw::Kind kind;
    const char* name;
};
constexpr LawName kLawNames[] = {{TimeLaw::Kind::Constant, "constant"},
                                 {TimeLaw::Kind::ConstantVelocity, "constant_velocity"},
                                 {TimeLaw::Kind::Polynomial, "polynomial"},
                                 {TimeLaw::Kind::Harmonic, "harmonic"},
                                 {TimeLaw::Kind::SmoothStep, "smooth_step"}};
}  // namespace

const char* timeLawKindName(TimeLaw::Kind kind) {
    for (const auto& n : kLawNames)
        if (n.kind == kind) return n.name;
    return "constant";
}

bool timeLawKindFromName(const std::string& name, TimeLaw::Kind& kind) {
    for (const auto& n : kLawNames)
        if (name == n.name) {
            kind = n.kind;
            return true;
        }
    return false;
}

}  // namespace looplab
