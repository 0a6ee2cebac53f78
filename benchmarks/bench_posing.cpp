// Interactive posing on the shipped examples: a point of one link is dragged around a
// circle (radius 0.1 L, 200 cursor positions, one drag call of at most 12 steps per
// position, as the workbench makes per mouse event). Most targets lie off the curve or
// surface the point can move on, so most calls end at a reach limit. Reports the time per
// call (median, mean, largest), how the calls ended (reached, reach limit, still moving:
// continued at the next event) and the largest closure residual. Writes a Markdown table.
//
//   bench_posing [OUTPUT.md]

#include "looplab/kinematics/Constraints.h"
#include "looplab/posing/DragAssembly.h"
#include "looplab/files/ModelFile.h"
#include "looplab/posing/PosingModel.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <vector>

using namespace looplab;

int main(int argc, char** argv)
{
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"four-bar.json", "coupler"},   {"rssr.json", "coupler"},     {"slider-crank.json", ""},
        {"parallelogram.json", ""},     {"double-parallelogram.json", ""}, {"bricard.json", ""},
        {"andrews.json", ""},           {"chain-20-loops.json", ""}};
    std::ostringstream out;
    out << "| model | body | coordinates | median ms | mean ms | max ms | reached / limit / moving | max closure [m] |\n"
        << "|---|---|---|---|---|---|---|---|\n";
    for (const auto& [file, bodyName] : cases) {
        const LoadedModel lm = loadModel(std::string(LOOPLAB_EXAMPLES_DIR) + "/" + file);
        if (!lm.ok()) {
            out << "| " << file << " | could not load | | | | | | |\n";
            continue;
        }
        const BuildResult posing = buildPosingModel(*lm.model);
        const Model& m = *posing.model;
        BodyIndex body(1);
        if (!bodyName.empty() && m.findBody(bodyName)) body = *m.findBody(bodyName);
        State s = lm.initial;
        const Vec3 local(0.25 * m.lengthScale, 0.0, 0.0);
        const Vec3 start = pointPosition(m, s, body, local);
        const double r = 0.1 * m.lengthScale;
        std::vector<double> ms;
        int reached = 0, limit = 0, moving = 0;
        double worstClosure = 0.0;
        DragOptions o;
        o.maxIterations = 12;
        for (int k = 1; k <= 200; ++k) {
            const double a = 2.0 * M_PI * k / 200.0;
            const Vec3 target = start + r * Vec3(std::cos(a) - 1.0, std::sin(a), 0.0);
            const auto t0 = std::chrono::steady_clock::now();
            const DragResult d = dragToTarget(m, s, body, local, target, o);
            ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
            reached += d.outcome == DragOutcome::Reached;
            limit += d.outcome == DragOutcome::ReachLimit;
            moving += d.outcome == DragOutcome::Moving;
            worstClosure = std::max(worstClosure, d.closure);
        }
        std::vector<double> sorted = ms;
        std::sort(sorted.begin(), sorted.end());
        double mean = 0.0;
        for (double x : ms) mean += x / ms.size();
        out << "| " << file << " | " << m.body(body).name << " | " << m.velocitySize() << " | " << std::setprecision(3)
            << sorted[sorted.size() / 2] << " | " << mean << " | " << sorted.back() << " | " << reached << " / " << limit << " / " << moving << " | "
            << std::setprecision(2) << worstClosure << " |\n";
    }
    std::cout << out.str();
    if (argc > 1) std::ofstream(argv[1]) << out.str();
    return 0;
}
