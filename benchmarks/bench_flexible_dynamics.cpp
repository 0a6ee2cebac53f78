// The flexible examples in motion with the implicit steppers: each example (the beam
// cantilever with and without tension, the hexahedral cantilever, the flexible slider-crank
// and the flexible four-bar) runs T seconds of motion (default 1 s) with its own `run`
// settings, with tlismni/hht and with hht-index3/hht at the tolerances recommended for them
// (docs/methods.md, "Error control of the implicit steppers"). For each: the wall time per
// simulated second (median of the runs), accepted and rejected steps, factorisations of the
// iteration matrix, Newton iterations, and the error against a reference run of the same
// pair at 100× tighter rtol and atol: the largest distance over the output frames (every
// 10 ms) of any body origin or mesh node from its reference position, relative to the
// motion's amplitude (the largest displacement of any of them from its start in the
// reference). A run that does not finish within the wall-time limit is reported with the
// time it reached. Writes a Markdown table.
//
//   bench_flexible_dynamics [OUTPUT.md] [--runs N] [--t-end T] [--limit SECONDS]
//                           [--models NAME,...] [--configs own,tlismni,hht-index3]
//                           [--rtol R] [--atol A]   (of the tlismni and hht-index3 rows)
//                           [--damping BETA]   (stiffness damping β [s] given to every beam
//                                               and solid, which the examples do not have)

#include "looplab/files/ModelFile.h"
#include "looplab/simulation/ModelRunSettings.h"
#include "looplab/simulation/Simulation.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

using namespace looplab;

namespace {

// The tolerances recommended for the implicit second-order steppers (docs/methods.md);
// --rtol and --atol set others.
double implicitRtol = 1e-4, implicitAtol = 1e-6;
constexpr double kOutputStep = 0.01;

struct Example {
    std::string name, file;
};

const std::vector<Example> kExamples = {
    {"beam cantilever", "cantilever-beam.json"},
    {"beam cantilever, tension", "cantilever-beam-tension.json"},
    {"hexahedral cantilever", "cantilever-hex.json"},
    {"flexible slider-crank", "flexible-slider-crank.json"},
    {"flexible four-bar", "flexible-four-bar.json"},
};

struct Run {
    bool ok = false;
    std::string message;
    double wall = 0.0, tReached = 0.0;
    StepStatistics stats;
    std::vector<VecX> points;  // per frame: the positions followed
};

// The positions of every body origin (rigid: its centre of mass) and mesh node.
VecX followedPositions(const Model& m, const State& s) {
    std::vector<double> out;
    std::vector<Vec3> points;
    for (const Body& b : m.bodies) b.formulation->addPoints(s.q.data() + b.slice.positionOffset, points);
    for (const Vec3& p : points) out.insert(out.end(), p.data(), p.data() + 3);
    return Eigen::Map<VecX>(out.data(), static_cast<Eigen::Index>(out.size()));
}

Run simulate(const LoadedModel& lm, const SimulationSettings& settings) {
    Simulator sim(lm.model, settings);
    Run out;
    const SimulationResult r = sim.run(lm.initial, [&](const SimulationFrame& f) {
        out.points.push_back(followedPositions(*lm.model, f.state));
    });
    out.ok = r.ok;
    out.message = r.message;
    out.wall = r.wallTime;
    out.tReached = r.tFinal;
    out.stats = r.statistics;
    return out;
}

// Largest distance from the reference over the common frames, relative to the reference's
// largest displacement from its start.
double relativeError(const Run& run, const Run& ref) {
    const size_t frames = std::min(run.points.size(), ref.points.size());
    if (frames == 0) return NAN;
    double amplitude = 0.0, error = 0.0;
    for (const VecX& p : ref.points)
        for (Eigen::Index k = 0; k + 2 < p.size(); k += 3)
            amplitude = std::max(amplitude, (p.segment<3>(k) - ref.points.front().segment<3>(k)).norm());
    for (size_t f = 0; f < frames; ++f)
        for (Eigen::Index k = 0; k + 2 < ref.points[f].size(); k += 3)
            error = std::max(error, (run.points[f].segment<3>(k) - ref.points[f].segment<3>(k)).norm());
    return amplitude > 0.0 ? error / amplitude : NAN;
}

std::vector<std::string> split(const std::string& s) {
    std::vector<std::string> out;
    std::stringstream in(s);
    for (std::string item; std::getline(in, item, ',');) out.push_back(item);
    return out;
}

}  // namespace

int main(int argc, char** argv) {
    std::string output = "bench_flexible_dynamics.md";
    int runs = 3;
    double tEnd = 1.0, limit = 600.0, damping = 0.0;
    std::vector<std::string> configs = {"own", "tlismni", "hht-index3"}, models;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--runs" && i + 1 < argc) runs = std::max(1, std::atoi(argv[++i]));
        else if (a == "--t-end" && i + 1 < argc) tEnd = std::atof(argv[++i]);
        else if (a == "--limit" && i + 1 < argc) limit = std::atof(argv[++i]);
        else if (a == "--rtol" && i + 1 < argc) implicitRtol = std::atof(argv[++i]);
        else if (a == "--atol" && i + 1 < argc) implicitAtol = std::atof(argv[++i]);
        else if (a == "--damping" && i + 1 < argc) damping = std::atof(argv[++i]);
        else if (a == "--configs" && i + 1 < argc) configs = split(argv[++i]);
        else if (a == "--models" && i + 1 < argc) models = split(argv[++i]);
        else if (a.rfind("--", 0) == 0) {
            std::cerr << "unknown option " << a << "\n";
            return 2;
        } else output = a;
    }
    std::ofstream md(output);
    md << "# Flexible examples in motion (bench_flexible_dynamics)\n\n"
       << tEnd << " s of motion; wall time per simulated second is the median of " << runs
       << " runs; error: the largest distance of any body origin or mesh node from a reference run of the same "
          "pair at 100x tighter rtol and atol, every 10 ms, relative to the largest displacement in the "
          "reference.";
    if (damping > 0.0) md << " Every beam and solid with stiffness damping beta = " << damping << " s.";
    md << "\n\n"
       << "| example | settings | rtol, atol | wall s per simulated s | steps (rejected) | factorisations | "
          "Newton outer (inner) | error / amplitude |\n"
       << "|---|---|---|---|---|---|---|---|\n";
    for (const Example& ex : kExamples) {
        if (!models.empty() && std::find(models.begin(), models.end(), ex.file.substr(0, ex.file.size() - 5)) ==
                                   models.end())
            continue;
        const std::string path = std::string(LOOPLAB_EXAMPLES_DIR) + "/" + ex.file;
        std::ifstream in(path);
        std::stringstream text;
        text << in.rdbuf();
        DocumentResult doc = parseModelDocument(text.str(), path);
        if (!doc.document) {
            std::cerr << path << ": does not load\n";
            return 1;
        }
        for (BeamDoc& b : doc.document->beams) b.material.stiffnessDamping = damping;
        for (SolidDoc& b : doc.document->solids) b.material.stiffnessDamping = damping;
        const LoadedModel lm = prepareModel(*doc.document, path);
        if (!lm.ok()) {
            std::cerr << path << ": does not load\n";
            return 1;
        }
        for (const std::string& config : configs) {
            SimulationSettings s;
            if (config == "own") {
                s = withModelRunSettings(doc.document->run, SimulationSettings{});
            } else {
                s.method = config;
                s.integrator = "hht";
                s.ode.rtol = implicitRtol;
                s.ode.atol = implicitAtol;
            }
            s.tEnd = tEnd;
            s.outputStep = kOutputStep;
            s.maxWallTime = limit;
            std::vector<Run> done;
            for (int r = 0; r < runs; ++r) {
                done.push_back(simulate(lm, s));
                if (!done.back().ok) break;
            }
            std::vector<double> walls;
            for (const Run& r : done) walls.push_back(r.wall);
            std::sort(walls.begin(), walls.end());
            const Run& run = done.front();
            SimulationSettings tight = s;
            tight.ode.rtol *= 1e-2;
            tight.ode.atol *= 1e-2;
            tight.maxWallTime = 4.0 * limit;
            const Run ref = run.ok ? simulate(lm, tight) : Run{};
            std::ostringstream row;
            row << "| " << ex.name << (damping > 0.0 ? ", damped" : "") << " | " << (config == "own" ? "own run: " : "") << s.method << "/" << s.integrator
                << " | " << s.ode.rtol << ", " << s.ode.atol << " | ";
            if (run.ok) row << std::setprecision(3) << walls[walls.size() / 2] / tEnd;
            else row << "stopped at t = " << run.tReached << " s after " << run.wall << " s";
            row << " | " << run.stats.steps << " (" << run.stats.rejectedSteps << ") | " << run.stats.factorizations
                << " | " << run.stats.outerIterations << " (" << run.stats.innerIterations << ") | ";
            if (run.ok && ref.ok) row << std::setprecision(2) << relativeError(run, ref);
            else if (run.ok) row << "reference stopped at t = " << ref.tReached << " s";
            else row << "–";
            row << " |\n";
            md << row.str();
            md.flush();
            std::cout << row.str() << std::flush;
        }
    }
    std::cout << "written " << output << "\n";
    return 0;
}
