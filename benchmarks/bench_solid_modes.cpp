// Cost of the eigenanalysis of a large solid mesh: the lowest modes of a clamped
// aluminium block 1 m × 0.1 m × 0.1 m of nx × n × n hexahedra (default 60 × 12 × 12,
// 30 927 coordinates; clamped by pinning the 169 nodes of its face x = 0), by core Modes
// (shift-invert Lanczos on the augmented matrix, sparse path). For each mesh: the time of
// the factorisation and of the iteration (median of the runs), the number of solves with
// the factors that the iteration took (the automatic shift's estimate included), the shift used, the first frequency against
// Euler–Bernoulli's 1.875²/(2πL²)·√(EI/ρA), and the peak resident memory of a child process
// that only builds the model (baseline) and of one that also computes the modes, so that
// the difference is the eigenanalysis's own. Writes a Markdown table.
//
//   bench_solid_modes [OUTPUT.md] [--runs N] [--modes K] [--shift S] [--factorization auto|lu] [--mesh NX N] ...

#include "looplab/model/ModelBuilder.h"
#include "looplab/files/ModelFile.h"
#include "looplab/analysis/Modes.h"

#include "ChildProcess.h"

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

using namespace looplab;

namespace {

constexpr double kE = 70e9, kNu = 0.3, kRho = 2700.0, kLength = 1.0, kSide = 0.1;

ModelDocument block(int nx, int n) {
    ModelDocument doc;
    doc.name = "clamped block";
    SolidDoc s;
    s.name = "block";
    s.size = Vec3(kLength, kSide, kSide);
    s.elements[0] = nx;
    s.elements[1] = s.elements[2] = n;
    s.material = {kE, kNu, kRho};
    doc.solids.push_back(s);
    JointDoc clamp;
    clamp.name = "clamp";
    clamp.type = JointType::Spherical;
    clamp.body1 = "ground";
    clamp.body2 = "block.xmin";
    doc.joints.push_back(clamp);
    return doc;
}

long peakResidentKiB() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return u.ru_maxrss;
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0.0 : v[v.size() / 2];
}

struct Sample {
    int coordinates = 0, equations = 0;
    double buildSeconds = 0, factorization = 0, iteration = 0, total = 0, f1 = 0, shift = 0;
    long peakKiB = 0, solves = 0;
    bool ok = false;
};

// One measurement in this process: build, and (if `modes` > 0) the eigenanalysis.
// --factorization lu: the whole augmented matrix by LU, to compare with the default.
ShiftedFactorization factorization = ShiftedFactorization::Automatic;

Sample measure(int nx, int n, int modes, std::optional<double> shift) {
    Sample s;
    const auto t0 = std::chrono::steady_clock::now();
    const LoadedModel lm = prepareModel(block(nx, n));
    s.buildSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (!lm.ok()) return s;
    s.coordinates = lm.model->velocitySize();
    s.equations = lm.model->equationCount();
    if (modes > 0) {
        ModesOptions o;
        o.count = modes;
        o.linearAlgebra = LinearAlgebra::Sparse;
        if (shift) o.shift = *shift;
        o.factorization = factorization;
        const auto t1 = std::chrono::steady_clock::now();
        const ModesResult r = computeModes(*lm.model, lm.initial, VecX::Zero(s.equations), o);
        s.total = std::chrono::duration<double>(std::chrono::steady_clock::now() - t1).count();
        s.ok = r.ok;
        s.factorization = r.factorizationSeconds;
        s.iteration = r.iterationSeconds;
        s.solves = r.operations;
        s.shift = r.shift;
        if (r.ok && !r.modes.empty()) s.f1 = r.modes[0].frequencyHz;
        if (!r.ok) std::cerr << "modes failed: " << r.message << "\n";
    } else {
        s.ok = true;
    }
    s.peakKiB = peakResidentKiB();
    return s;
}

// measure() in a child process, so that its peak memory is its own.
Sample measureIsolated(int nx, int n, int modes, std::optional<double> shift) {
    const std::optional<std::string> child = bench::textFromChild([&] {
        const Sample s = measure(nx, n, modes, shift);
        std::ostringstream o;
        o << std::setprecision(17) << s.coordinates << " " << s.equations << " " << s.buildSeconds << " "
          << s.factorization << " " << s.iteration << " " << s.total << " " << s.f1 << " " << s.peakKiB << " " << s.ok
          << " " << s.solves << " " << s.shift;
        return o.str();
    });
    if (!child) return measure(nx, n, modes, shift);
    const std::string& text = *child;
    Sample s;
    std::istringstream in(text);
    in >> s.coordinates >> s.equations >> s.buildSeconds >> s.factorization >> s.iteration >> s.total >> s.f1 >>
        s.peakKiB >> s.ok >> s.solves >> s.shift;
    return s;
}

}  // namespace

int main(int argc, char** argv) {
    std::string out = "bench_solid_modes.md";
    int runs = 3, modes = 6;
    std::optional<double> shift;  // the eigenanalysis's automatic one unless given
    std::vector<std::pair<int, int>> meshes;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--runs" && i + 1 < argc) runs = std::max(1, std::atoi(argv[++i]));
        else if (a == "--modes" && i + 1 < argc) modes = std::max(1, std::atoi(argv[++i]));
        else if (a == "--shift" && i + 1 < argc) shift = std::atof(argv[++i]);
        else if (a == "--factorization" && i + 1 < argc) {
            const std::string f = argv[++i];
            if (f != "auto" && f != "lu") {
                std::cerr << "--factorization must be auto or lu\n";
                return 2;
            }
            factorization = f == "lu" ? ShiftedFactorization::LU : ShiftedFactorization::Automatic;
        }
        else if (a == "--mesh" && i + 2 < argc) {
            const int nx = std::atoi(argv[++i]), n = std::atoi(argv[++i]);
            meshes.emplace_back(nx, n);
        } else if (!a.empty() && a[0] != '-') out = a;
        else {
            std::cerr << "usage: bench_solid_modes [OUTPUT.md] [--runs N] [--modes K] [--shift S] [--factorization auto|lu] "
                         "[--mesh NX N] ...\n";
            return 2;
        }
    }
    if (meshes.empty()) meshes = {{20, 4}, {40, 8}, {60, 12}};
    const double I = std::pow(kSide, 4) / 12.0, A = kSide * kSide;
    const double fEB = 1.8751040687119611 * 1.8751040687119611 / (2.0 * M_PI * kLength * kLength) * std::sqrt(kE * I / (kRho * A));
    std::ofstream f(out);
    f << "# Modes of a clamped hexahedral block\n\n"
      << "Aluminium block 1 m × 0.1 m × 0.1 m, clamped at x = 0, " << modes << " lowest modes, "
      << (shift ? "shift " + std::to_string(*shift) + " rad²/s², " : std::string("automatic shift, "))
      << (factorization == ShiftedFactorization::LU ? "LU of the augmented matrix, " : "")
      << "sparse path, median of "
      << runs << " runs (each in its own process). Euler–Bernoulli first bending frequency " << std::setprecision(5) << fEB
      << " Hz.\n\n"
      << "| mesh | coordinates | equations | build [s] | factorisation [s] | iteration [s] | solves | modes total [s] | "
         "f1 [Hz] | f1 / f_EB | peak memory, build only [MiB] | peak memory, with modes [MiB] | shift [rad²/s²] |\n"
      << "|---|---|---|---|---|---|---|---|---|---|---|---|---|\n";
    for (const auto& [nx, n] : meshes) {
        const Sample base = measureIsolated(nx, n, 0, shift);
        std::vector<double> build, fact, iter, total;
        Sample last;
        long peak = 0;
        for (int r = 0; r < runs; ++r) {
            last = measureIsolated(nx, n, modes, shift);
            if (!last.ok) break;
            build.push_back(last.buildSeconds);
            fact.push_back(last.factorization);
            iter.push_back(last.iteration);
            total.push_back(last.total);
            peak = std::max(peak, last.peakKiB);
        }
        f << std::setprecision(4) << "| " << nx << " × " << n << " × " << n << " | " << last.coordinates << " | "
          << last.equations << " | " << median(build) << " | " << median(fact) << " | " << median(iter) << " | "
          << last.solves << " | " << median(total) << " | " << std::setprecision(6) << last.f1 << " | " << std::setprecision(4) << last.f1 / fEB
          << " | " << base.peakKiB / 1024.0 << " | " << peak / 1024.0 << " | " << last.shift << " |" << (last.ok ? "" : " failed") << "\n";
        f.flush();
        std::cout << nx << "x" << n << "x" << n << ": " << last.coordinates << " coordinates, factorisation "
                  << median(fact) << " s, iteration " << median(iter) << " s (" << last.solves << " solves, shift " << last.shift << " rad²/s²), f1 " << last.f1 << " Hz, peak "
                  << peak / 1024.0 << " MiB (build only " << base.peakKiB / 1024.0 << " MiB)\n";
    }
    std::cout << "written " << out << "\n";
    return 0;
}
