// Cost of large models: chains of N closed four-bar loops (N = 5 … 160, the topology of
// resources/examples/chain-20-loops.json, every loop a parallelogram: a ladder) and open
// pendulum chains of L links (100 …
// 2 000), simulated with the projection method and Dormand–Prince at rtol 1e-9 on the
// dense and on the sparse linear-algebra path. For each: wall time per simulated second
// (median of the runs), steps, time per step and per evaluation of the accelerations,
// peak resident memory, and `check`'s mobility analysis time. The ladder of 20
// parallelograms is set beside the shipped chain of 20 loops (same numbers of coordinates
// and redundant equations, no loop a parallelogram), to show what parallel links cost. A run stops early at a wall-time budget (the open chains'
// fast modes force very small steps); the time per step is then still exact. Writes a
// Markdown table and a PNG plot of the time per step against the model size.
//
//   bench_large_models [OUTPUT.md] [--runs N] [--budget SECONDS] [--plot FILE.png] [--quick]

#include "looplab/kinematics/Mobility.h"
#include "looplab/files/ModelFile.h"
#include "looplab/simulation/Simulation.h"

#include "ChildProcess.h"

#include <QGuiApplication>
#include <QImage>
#include <QPainter>

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstring>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>

using namespace looplab;
using Clock = std::chrono::steady_clock;

namespace {

Quat aboutZ(double angle) { return Quat(Eigen::AngleAxisd(angle, Vec3::UnitZ())); }

BodyDoc bar(const std::string& name, double length, const Vec3& centre, double angle) {
    BodyDoc b;
    b.name = name;
    b.mass = 0.2;
    const double w = 0.015;
    b.inertia = Vec3(b.mass * 2 * w * w / 12, b.mass * (length * length + w * w) / 12,
                     b.mass * (length * length + w * w) / 12)
                    .asDiagonal();
    b.position = centre;
    b.orientation = aboutZ(angle);
    b.shape.kind = VisualShape::Kind::Box;
    b.shape.size = Vec3(length, w, w);
    return b;
}

JointDoc revolute(const std::string& name, const std::string& b1, const std::string& b2, const Vec3& p) {
    JointDoc j;
    j.name = name;
    j.body1 = b1;
    j.body2 = b2;
    j.point = p;
    return j;
}

// N four-bar loops in a row: N + 1 cranks of 0.1 m hinged on the ground 0.3 m apart,
// hanging at −60°, their tips joined by N couplers. Built closed (no assembly needed).
ModelDocument chainOfLoops(int loops) {
    ModelDocument d;
    d.name = "chain of " + std::to_string(loops) + " loops";
    d.gravity = Vec3(0, -9.81, 0);
    const double spacing = 0.3, crank = 0.1, angle = -M_PI / 3;
    const Vec3 u(std::cos(angle), std::sin(angle), 0.0);
    for (int i = 0; i <= loops; ++i) {
        const Vec3 pivot(spacing * i, 0, 0);
        d.bodies.push_back(bar("link" + std::to_string(i), crank, pivot + 0.5 * crank * u, angle));
        d.joints.push_back(revolute("G" + std::to_string(i), kGroundName, "link" + std::to_string(i), pivot));
    }
    for (int i = 0; i < loops; ++i) {
        const Vec3 a = Vec3(spacing * i, 0, 0) + crank * u;
        const Vec3 b = a + Vec3(spacing, 0, 0);
        const std::string c = "coupler" + std::to_string(i);
        d.bodies.push_back(bar(c, spacing, 0.5 * (a + b), 0.0));
        d.joints.push_back(revolute("L" + std::to_string(i), "link" + std::to_string(i), c, a));
        d.joints.push_back(revolute("R" + std::to_string(i), c, "link" + std::to_string(i + 1), b));
    }
    // Swing: the first crank starts moving; the projection makes the rest consistent.
    d.bodies[0].angularVelocity = Vec3(0, 0, 2.0);
    return d;
}

// An open chain of L links of 0.05 m hanging from the ground, released 30° from vertical.
ModelDocument openChain(int links) {
    ModelDocument d;
    d.name = "open chain of " + std::to_string(links) + " links";
    d.gravity = Vec3(0, -9.81, 0);
    const double length = 0.05, angle = -M_PI / 2 + M_PI / 6;
    const Vec3 u(std::cos(angle), std::sin(angle), 0.0);
    std::string previous = kGroundName;
    for (int i = 0; i < links; ++i) {
        const Vec3 top = i * length * u;
        const std::string name = "link" + std::to_string(i);
        d.bodies.push_back(bar(name, length, top + 0.5 * length * u, angle));
        d.joints.push_back(revolute("J" + std::to_string(i), previous, name, top));
        previous = name;
    }
    return d;
}

long peakResidentKiB() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return u.ru_maxrss;
}

struct Row {
    std::string family;
    int size = 0;
    int coordinates = 0;
    std::string path;
    double checkSeconds = 0.0;
    double simulated = 0.0;      // s of motion reached
    long steps = 0;
    long evaluations = 0;        // of the accelerations
    double wallPerSecond = 0.0;  // median wall time per simulated second
    double wallPerStep = 0.0;    // median wall time per step
    double wallPerEvaluation = 0.0;
    long peakKiB = 0;
    bool ok = false;
    std::string note;
};

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0.0 : v[v.size() / 2];
}

Row measure(const std::string& family, int size, const ModelDocument& doc, LinearAlgebra la,
            int runs, double budget, double tEnd) {
    Row row;
    row.family = family;
    row.size = size;
    row.path = linearAlgebraName(la);
    AssemblyOptions ao;
    ao.linearAlgebra = la;
    const LoadedModel lm = prepareModel(doc, "", ao);
    if (!lm.ok()) {
        row.note = lm.diagnostics.empty() ? "load failed" : lm.diagnostics.front().message;
        return row;
    }
    row.coordinates = lm.model->velocitySize();
    {
        const auto t0 = Clock::now();
        analyzeMobility(*lm.model, lm.initial, kDefaultRankTolerance, la);
        row.checkSeconds = std::chrono::duration<double>(Clock::now() - t0).count();
    }
    std::vector<double> perSecond, perStep, perEvaluation;
    for (int r = 0; r < runs; ++r) {
        SimulationSettings s;
        s.method = "projection";
        s.integrator = "dopri5";
        s.tEnd = tEnd;
        s.outputStep = 0.05;
        s.ode.rtol = 1e-9;
        s.ode.atol = 1e-11;
        s.constraints.linearAlgebra = la;
        Simulator sim(lm.model, s);
        std::atomic<bool> stop{false};
        const auto t0 = Clock::now();
        double reached = 0.0;
        long steps = 0, evaluations = 0;
        const SimulationResult res = sim.run(lm.initial, [&](const SimulationFrame& f) {
            reached = f.state.t;
            steps = f.statistics.steps;
            evaluations = f.statistics.rhsEvaluations;
            if (std::chrono::duration<double>(Clock::now() - t0).count() > budget) stop = true;
        }, {}, &stop);
        const double wall = std::chrono::duration<double>(Clock::now() - t0).count();
        reached = std::max(reached, res.tFinal);
        steps = std::max(steps, res.statistics.steps);
        evaluations = std::max(evaluations, res.statistics.rhsEvaluations);
        row.simulated = reached;
        row.steps = steps;
        row.evaluations = evaluations;
        row.ok = res.ok || res.message == "stopped";
        if (!row.ok) row.note = res.message;
        if (reached > 0) perSecond.push_back(wall / reached);
        if (steps > 0) perStep.push_back(wall / double(steps));
        if (evaluations > 0) perEvaluation.push_back(wall / double(evaluations));
        if (!row.ok) break;
    }
    row.wallPerSecond = median(perSecond);
    row.wallPerStep = median(perStep);
    row.wallPerEvaluation = median(perEvaluation);
    row.peakKiB = peakResidentKiB();
    return row;
}

// Runs measure() in a child process so that its peak memory is the model's own.
Row measureIsolated(const std::string& family, int size, const ModelDocument& doc, LinearAlgebra la,
                    int runs, double budget, double tEnd) {
    const std::optional<std::string> child = bench::textFromChild([&] {
        const Row r = measure(family, size, doc, la, runs, budget, tEnd);
        std::ostringstream o;
        o << std::setprecision(17) << r.coordinates << " " << r.checkSeconds << " " << r.simulated << " "
          << r.steps << " " << r.evaluations << " " << r.wallPerSecond << " " << r.wallPerStep << " "
          << r.wallPerEvaluation << " " << r.peakKiB << " " << r.ok << " " << r.note;
        return o.str();
    });
    if (!child) return measure(family, size, doc, la, runs, budget, tEnd);
    const std::string& text = *child;
    Row r;
    r.family = family;
    r.size = size;
    r.path = linearAlgebraName(la);
    std::istringstream in(text);
    in >> r.coordinates >> r.checkSeconds >> r.simulated >> r.steps >> r.evaluations >> r.wallPerSecond >>
        r.wallPerStep >> r.wallPerEvaluation >> r.peakKiB >> r.ok;
    std::getline(in, r.note);
    if (text.empty()) r.note = "the measurement process failed";
    return r;
}

void plot(const std::vector<Row>& rows, const std::string& file) {
    const int W = 900, H = 560, left = 90, right = 30, top = 40, bottom = 70;
    QImage img(W, H, QImage::Format_RGB32);
    img.fill(Qt::white);
    QPainter p(&img);
    p.setRenderHint(QPainter::Antialiasing);
    double xmin = 1e300, xmax = 0, ymin = 1e300, ymax = 0;
    for (const Row& r : rows) {
        if (r.wallPerStep <= 0) continue;
        xmin = std::min(xmin, double(r.coordinates));
        xmax = std::max(xmax, double(r.coordinates));
        ymin = std::min(ymin, r.wallPerStep);
        ymax = std::max(ymax, r.wallPerStep);
    }
    if (xmax <= 0) return;
    const double lx0 = std::floor(std::log10(xmin)), lx1 = std::ceil(std::log10(xmax));
    const double ly0 = std::floor(std::log10(ymin)), ly1 = std::ceil(std::log10(ymax));
    auto X = [&](double x) { return left + (std::log10(x) - lx0) / (lx1 - lx0) * (W - left - right); };
    auto Y = [&](double y) { return H - bottom - (std::log10(y) - ly0) / (ly1 - ly0) * (H - top - bottom); };
    p.setPen(QColor(220, 220, 220));
    for (double e = lx0; e <= lx1; ++e) p.drawLine(QPointF(X(std::pow(10, e)), top), QPointF(X(std::pow(10, e)), H - bottom));
    for (double e = ly0; e <= ly1; ++e) p.drawLine(QPointF(left, Y(std::pow(10, e))), QPointF(W - right, Y(std::pow(10, e))));
    p.setPen(Qt::black);
    p.drawRect(left, top, W - left - right, H - top - bottom);
    for (double e = lx0; e <= lx1; ++e)
        p.drawText(QPointF(X(std::pow(10, e)) - 20, H - bottom + 20), QString("1e%1").arg(int(e)));
    for (double e = ly0; e <= ly1; ++e)
        p.drawText(QPointF(10, Y(std::pow(10, e)) + 5), QString("1e%1 s").arg(int(e)));
    p.drawText(QPointF(W / 2 - 120, H - 20), "velocity coordinates (log)");
    p.drawText(QPointF(left, 25), "wall time per step, projection + dopri5, rtol 1e-9 (log-log)");
    const QColor colours[] = {QColor(200, 40, 40), QColor(40, 90, 200), QColor(230, 140, 20), QColor(40, 150, 60)};
    int series = 0, legendY = top + 20;
    for (const std::string family : {"chain of loops", "open chain"}) {
        for (const std::string path : {"dense", "sparse"}) {
            QPolygonF line;
            for (const Row& r : rows)
                if (r.family == family && r.path == path && r.wallPerStep > 0) line << QPointF(X(r.coordinates), Y(r.wallPerStep));
            if (line.isEmpty()) continue;
            QPen pen(colours[series % 4], 2);
            p.setPen(pen);
            p.drawPolyline(line);
            for (const QPointF& q : line) p.drawEllipse(q, 3, 3);
            p.drawText(QPointF(left + 15, legendY), QString::fromStdString(family + ", " + path));
            legendY += 18;
            ++series;
        }
    }
    // Linear reference: slope 1 through the smallest sparse chain point.
    p.setPen(QPen(Qt::gray, 1, Qt::DashLine));
    for (const Row& r : rows) {
        if (r.path == "sparse" && r.wallPerStep > 0) {
            const double k = r.wallPerStep / r.coordinates;
            p.drawLine(QPointF(X(xmin), Y(k * xmin)), QPointF(X(xmax), Y(k * xmax)));
            p.drawText(QPointF(X(xmax) - 120, Y(k * xmax) + 15), "linear in size");
            break;
        }
    }
    p.end();
    img.save(QString::fromStdString(file));
}

}  // namespace

int main(int argc, char** argv) {
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QGuiApplication app(argc, argv);
    std::string out = "bench_large_models.md", png = "bench_large_models.png";
    int runs = 3;
    double budget = 20.0;
    bool quick = false;
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--runs") && i + 1 < argc) runs = std::atoi(argv[++i]);
        else if (!std::strcmp(argv[i], "--budget") && i + 1 < argc) budget = std::atof(argv[++i]);
        else if (!std::strcmp(argv[i], "--plot") && i + 1 < argc) png = argv[++i];
        else if (!std::strcmp(argv[i], "--quick")) quick = true;
        else out = argv[i];
    }
    std::vector<int> loopSizes = {5, 10, 20, 40, 80, 160};
    std::vector<int> chainSizes = {100, 200, 500, 1000, 2000};
    if (quick) {
        loopSizes = {5, 20};
        chainSizes = {100};
    }
    std::vector<Row> rows;
    auto report = [&](const Row& r) {
        std::cerr << r.family << " " << r.size << " (" << r.coordinates << " coordinates, " << r.path
                  << "): check " << r.checkSeconds << " s, " << r.simulated << " s simulated in "
                  << r.steps << " steps, " << r.wallPerSecond << " s per simulated s, "
                  << r.wallPerStep * 1e3 << " ms per step, " << r.wallPerEvaluation * 1e3 << " ms per evaluation "
                  << r.note << "\n";
        rows.push_back(r);
    };
    for (int n : loopSizes) {
        const ModelDocument doc = chainOfLoops(n);
        report(measureIsolated("chain of loops", n, doc, LinearAlgebra::Sparse, runs, budget, 5.0));
        // The dense path is measured up to where one run fits the budget.
        if (n <= 40) report(measureIsolated("chain of loops", n, doc, LinearAlgebra::Dense, runs, budget, 5.0));
    }
    // The ladder beside the shipped chain of 20 loops, their runs taken in turn (five
    // each, each in a process of its own) so that a change in the machine's load falls on
    // both: a ladder whose parallel links made each step dearer would show here.
    {
        const std::string file = std::string(LOOPLAB_EXAMPLES_DIR) + "/chain-20-loops.json";
        const DocumentResult shipped = readModelDocument(file);
        if (shipped.document) {
            std::vector<Row> ladderRuns, chainRuns;
            for (int r = 0; r < 5; ++r) {
                ladderRuns.push_back(
                    measureIsolated("ladder of parallelograms", 20, chainOfLoops(20), LinearAlgebra::Sparse, 1, budget, 5.0));
                chainRuns.push_back(
                    measureIsolated("chain-20-loops.json", 20, *shipped.document, LinearAlgebra::Sparse, 1, budget, 5.0));
            }
            for (std::vector<Row>* runsOf : {&ladderRuns, &chainRuns}) {
                Row r = runsOf->front();
                std::vector<double> perSecond, perStep, perEvaluation;
                for (const Row& x : *runsOf) {
                    perSecond.push_back(x.wallPerSecond);
                    perStep.push_back(x.wallPerStep);
                    perEvaluation.push_back(x.wallPerEvaluation);
                    r.peakKiB = std::max(r.peakKiB, x.peakKiB);
                    r.ok = r.ok && x.ok;
                }
                r.wallPerSecond = median(perSecond);
                r.wallPerStep = median(perStep);
                r.wallPerEvaluation = median(perEvaluation);
                r.note = "median of 5, in turn with the other";
                report(r);
            }
        } else {
            std::cerr << "cannot read " << file << ": the ladder is not compared\n";
        }
    }
    for (int n : chainSizes) {
        const ModelDocument doc = openChain(n);
        report(measureIsolated("open chain", n, doc, LinearAlgebra::Sparse, 1, budget, 5.0));
        if (n <= 100) report(measureIsolated("open chain", n, doc, LinearAlgebra::Dense, 1, budget, 5.0));
    }
    std::ofstream f(out);
    f << "| model | size | coordinates | path | check [s] | simulated [s] | steps | evaluations per step | wall per simulated s [s] | wall per step [ms] | wall per evaluation [ms] | peak memory [MiB] | note |\n"
      << "|---|---|---|---|---|---|---|---|---|---|---|---|---|\n";
    for (const Row& r : rows) {
        f << "| " << r.family << " | " << r.size << " | " << r.coordinates << " | " << r.path << " | "
          << std::setprecision(3) << r.checkSeconds << " | " << r.simulated << " | " << r.steps << " | "
          << (r.steps > 0 ? double(r.evaluations) / double(r.steps) : 0.0) << " | " << r.wallPerSecond << " | "
          << r.wallPerStep * 1e3 << " | " << r.wallPerEvaluation * 1e3 << " | " << r.peakKiB / 1024 << " | "
          << r.note << " |\n";
    }
    // The ladder against the shipped chain, per step and per evaluation.
    const Row* ladder = nullptr;
    const Row* chain = nullptr;
    for (const Row& r : rows) {
        if (r.family == "ladder of parallelograms") ladder = &r;
        if (r.family == "chain-20-loops.json") chain = &r;
    }
    if (ladder && chain && chain->wallPerStep > 0 && chain->wallPerEvaluation > 0)
        f << "\nLadder of 20 parallelograms against the shipped chain of 20 loops: " << std::setprecision(3)
          << ladder->wallPerStep / chain->wallPerStep << "x the cost per step, "
          << ladder->wallPerEvaluation / chain->wallPerEvaluation << "x the cost per evaluation.\n";
    plot(rows, png);
    std::cerr << "wrote " << out << " and " << png << "\n";
    return 0;
}
