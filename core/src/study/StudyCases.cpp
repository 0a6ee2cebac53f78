#include "looplab/study/StudyCases.h"

#include <random>

namespace looplab {

namespace {

// SplitMix64 (Steele, Lea & Flood 2014): a bijective mixer, so that neighbouring case
// indices give unrelated generator seeds.
std::uint64_t splitmix64(std::uint64_t x) {
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

// A uniform double in [0, 1) from the top 53 bits: mt19937_64's output is fixed by the
// C++ standard, unlike std::uniform_real_distribution's conversion, so draws are the same
// with every standard library.
double unit(std::mt19937_64& g) { return double(g() >> 11) * 0x1.0p-53; }

}  // namespace

long studyCaseCount(const StudyDescription& study) {
    if (study.design == StudyDesign::MonteCarlo) return study.samples;
    long n = 1;
    for (const StudyParameter& p : study.parameters) n *= p.levelCount();
    return study.parameters.empty() ? 0 : n;
}

std::vector<double> studyCaseValues(const StudyDescription& study, long index) {
    std::vector<double> v(study.parameters.size());
    if (study.design == StudyDesign::MonteCarlo) {
        std::mt19937_64 g(splitmix64(study.seed ^ splitmix64(static_cast<std::uint64_t>(index))));
        for (size_t i = 0; i < v.size(); ++i) {
            const double u1 = unit(g), u2 = unit(g);
            v[i] = study.parameters[i].draw(u1, u2);
        }
        return v;
    }
    // The last parameter varies fastest.
    long rest = index;
    for (size_t i = v.size(); i-- > 0;) {
        // Only this case's level: building a range's levels for every case would make the
        // cost per case grow with the range's step count.
        const long n = study.parameters[i].levelCount();
        v[i] = study.parameters[i].level(rest % n);
        rest /= n;
    }
    return v;
}

}  // namespace looplab
