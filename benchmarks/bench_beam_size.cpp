// Cost per step and memory of a clamped beam as its mesh grows: a steel cantilever 1 m long,
// 20 mm × 20 mm, of N ANCF cable elements (default N = 10, 100, 1 000, 10 000), clamped at
// x = 0 and released from rest under gravity, simulated by the projection method with the
// fixed-step rk4 on the dense and on the sparse linear-algebra path, and by the implicit
// steppers tlismni/hht and hht-index3/hht (sparse path, rtol 1e-4, atol 1e-6, steps of at
// most 1 ms: what they take on this beam, whose first period is 11 ms). For each N and path:
// the wall time per step (median of the runs, each in a process of its own) and the peak
// resident memory. A dense run whose predicted time (its cost per step extrapolated from
// the two largest sizes measured by their growth, times the steps) exceeds the limit is
// skipped and the prediction written instead. Writes a Markdown table and a log-log plot
// of the cost per step against N (PNG by Qt's raster painter, SVG as text), and prints the
// growth exponent of each path.
//
//   bench_beam_size [OUTPUT.md] [--runs N] [--steps K] [--limit SECONDS] [--plot STEM]
//                   [--sizes N1 N2 ...] [--courant C]

#include "looplab/files/ModelFile.h"
#include "looplab/simulation/Simulation.h"

#include "ChildProcess.h"
#include "PlotCanvas.h"

#include <QGuiApplication>
#include <QImage>
#include <QPainter>

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
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
using Clock = std::chrono::steady_clock;

namespace {

using bench::Canvas;
using bench::PainterCanvas;
using bench::SvgCanvas;

constexpr double kE = 2.1e11, kRho = 7850.0, kLength = 1.0, kSide = 0.02, kGravity = 9.81;

ModelDocument cantilever(int elements) {
    ModelDocument doc;
    doc.name = "clamped beam of " + std::to_string(elements) + " elements";
    doc.gravity = Vec3(0, -kGravity, 0);
    BeamDoc b;
    b.name = "beam";
    b.from = Vec3::Zero();
    b.to = Vec3(kLength, 0, 0);
    b.elements = elements;
    b.material = {kE, 0.3, kRho};
    b.section.shape = SectionDoc::Shape::Rectangle;
    b.section.width = b.section.height = kSide;
    doc.beams.push_back(b);
    JointDoc clamp;
    clamp.name = "clamp";
    clamp.type = JointType::Fixed;
    clamp.body1 = kGroundName;
    clamp.body2 = "beam.root";
    clamp.point = Vec3::Zero();
    clamp.axis = Vec3::UnitZ();
    doc.joints.push_back(clamp);
    return doc;
}

// rk4 is explicit, so its step must resolve the mesh's highest frequency, which rises as
// the element length le falls: the axial modes of the slopes as c/le (c = √(E/ρ)) and the
// bending ones as c r/le² (r = h/√12, the section's radius of gyration). `courant` scales
// the smaller of the two times. On this beam rk4 grew unstable within 300 steps at 0.02 of
// it with 100 and 1 000 elements and stayed bounded over 600 steps at 0.002, the default.
double stableStep(int elements, double courant) {
    const double le = kLength / elements, c = std::sqrt(kE / kRho), r = kSide / std::sqrt(12.0);
    return courant * std::min(le / c, le * le / (c * r));
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
    int coordinates = 0;
    long steps = 0;
    double perStep = 0.0;    // s
    double setup = 0.0;      // s, from the start of the run to its first frame
    double maxSpeed = 0.0;   // m/s (or 1/s for slopes) at the end: a check that the run stayed stable
    long peakKiB = 0;
    bool ok = false;
    std::string note;
};

// One run in this process. The cost per step is timed between the middle and the last
// frame, so that the run's setup (initial projection, first factorisations and their
// symbolic analyses) is left out; that span holds one frame's evaluation besides its steps.
// What runs the beam: a linear-algebra path and a method/integrator pair.
struct Variant {
    std::string name;
    LinearAlgebra la;
    std::string method, integrator;
    bool implicit() const { return integrator == "hht"; }
};

const std::vector<Variant> kVariants = {
    {"dense", LinearAlgebra::Dense, "projection", "rk4"},
    {"sparse", LinearAlgebra::Sparse, "projection", "rk4"},
    {"tlismni/hht", LinearAlgebra::Sparse, "tlismni", "hht"},
    {"hht-index3/hht", LinearAlgebra::Sparse, "hht-index3", "hht"},
};

constexpr double kImplicitMaxStep = 1e-3;

Sample measure(int elements, const Variant& variant, int steps, double courant, double wallLimit) {
    const LinearAlgebra la = variant.la;
    Sample s;
    AssemblyOptions ao;
    ao.linearAlgebra = la;
    const LoadedModel lm = prepareModel(cantilever(elements), "", ao);
    if (!lm.ok()) {
        s.note = lm.diagnostics.empty() ? "load failed" : lm.diagnostics.front().message;
        return s;
    }
    s.coordinates = lm.model->velocitySize();
    const double h = variant.implicit() ? kImplicitMaxStep : stableStep(elements, courant);
    SimulationSettings set;
    set.method = variant.method;
    set.integrator = variant.integrator;
    set.ode.step = h;
    if (variant.implicit()) {
        set.ode.rtol = 1e-4;
        set.ode.atol = 1e-6;
        set.ode.maxStep = kImplicitMaxStep;
    }
    set.tEnd = steps * h;
    set.outputStep = set.tEnd / 2;
    set.constraints.linearAlgebra = la;
    set.maxWallTime = wallLimit;  // a prediction that was too low must not hold the benchmark up for hours
    Simulator sim(lm.model, set);
    std::vector<std::pair<Clock::time_point, long>> marks;
    VecX lastV;
    const auto t0 = Clock::now();
    const SimulationResult res = sim.run(lm.initial, [&](const SimulationFrame& f) {
        marks.emplace_back(Clock::now(), f.statistics.steps);
        lastV = f.state.v;
    });
    s.ok = res.ok;
    if (!res.ok) s.note = res.message;
    s.steps = res.statistics.steps;
    if (!marks.empty()) s.setup = std::chrono::duration<double>(marks.front().first - t0).count();
    if (marks.size() >= 3) {
        const auto& a = marks[marks.size() - 2];
        const auto& b = marks.back();
        if (b.second > a.second) s.perStep = std::chrono::duration<double>(b.first - a.first).count() / double(b.second - a.second);
    }
    s.maxSpeed = lastV.size() ? lastV.cwiseAbs().maxCoeff() : 0.0;
    if (!std::isfinite(s.maxSpeed)) s.maxSpeed = 1e300;
    s.peakKiB = peakResidentKiB();
    return s;
}

// measure() in a child process, so that its peak memory is its own.
Sample measureIsolated(int elements, const Variant& la, int steps, double courant, double wallLimit) {
    int status = 0;
    const std::optional<std::string> child = bench::textFromChild(
        [&] {
            const Sample s = measure(elements, la, steps, courant, wallLimit);
            std::ostringstream o;
            o << std::setprecision(17) << s.coordinates << " " << s.steps << " " << s.perStep << " " << s.setup << " "
              << s.maxSpeed << " " << s.peakKiB << " " << s.ok << " " << s.note;
            return o.str();
        },
        &status);
    if (!child) return measure(elements, la, steps, courant, wallLimit);
    const std::string& text = *child;
    Sample s;
    std::istringstream in(text);
    in >> s.coordinates >> s.steps >> s.perStep >> s.setup >> s.maxSpeed >> s.peakKiB >> s.ok;
    std::getline(in, s.note);
    if (text.empty()) s.note = "the measurement process failed (status " + std::to_string(status) + ")";
    return s;
}

struct Row {
    int elements = 0;
    std::string path;
    int coordinates = 0;
    long steps = 0;
    double step = 0.0;          // s, rk4's
    double perStep = 0.0;       // s, median
    double setup = 0.0;         // s, median
    double maxSpeed = 0.0;
    long peakKiB = 0;
    std::optional<double> predicted;  // s per step, when skipped
    std::string note;
};

// Growth exponent between two sizes: cost ∝ N^p.
double exponent(double n0, double c0, double n1, double c1) { return std::log(c1 / c0) / std::log(n1 / n0); }

// --- the plot, drawn once on Qt's painter (PNG) and once as SVG text ---


constexpr int kWidth = 760, kHeight = 500;

void drawPlot(Canvas& c, const std::vector<Row>& rows) {
    const double left = 80, top = 40, w = kWidth - left - 30, h = kHeight - top - 70;
    double xmin = 1e300, xmax = 0, ymin = 1e300, ymax = 0;
    for (const Row& r : rows) {
        const double y = r.predicted ? *r.predicted : r.perStep;
        if (y <= 0) continue;
        xmin = std::min(xmin, double(r.elements)), xmax = std::max(xmax, double(r.elements));
        ymin = std::min(ymin, y), ymax = std::max(ymax, y);
    }
    if (xmax <= 0) return;
    const int ex0 = int(std::floor(std::log10(xmin))), ex1 = std::max(ex0 + 1, int(std::ceil(std::log10(xmax))));
    const int ey0 = int(std::floor(std::log10(ymin))), ey1 = std::max(ey0 + 1, int(std::ceil(std::log10(ymax))));
    auto X = [&](double v) { return left + w * (std::log10(v) - ex0) / (ex1 - ex0); };
    auto Y = [&](double v) { return top + h - h * (std::log10(v) - ey0) / (ey1 - ey0); };
    const QColor grid(220, 220, 220);
    for (int e = ex0; e <= ex1; ++e) {
        c.line(X(std::pow(10.0, e)), top, X(std::pow(10.0, e)), top + h, grid, 1);
        c.text(X(std::pow(10.0, e)), top + h + 16, "1e" + std::to_string(e), 11, true);
    }
    for (int e = ey0; e <= ey1; ++e) {
        c.line(left, Y(std::pow(10.0, e)), left + w, Y(std::pow(10.0, e)), grid, 1);
        c.text(left - 40, Y(std::pow(10.0, e)) + 4, "1e" + std::to_string(e) + " s", 11);
    }
    c.line(left, top + h, left + w, top + h, Qt::black, 1);
    c.line(left, top, left, top + h, Qt::black, 1);
    c.line(left + w, top, left + w, top + h, Qt::black, 1);
    c.line(left, top, left + w, top, Qt::black, 1);
    c.text(left + w / 2, top + h + 40, "elements N (log)", 12, true);
    c.text(20, top + h / 2, "wall time per step (log)", 12, true, true);
    c.text(left, 24, "Clamped beam: wall time per step against N", 13);
    const QColor colours[] = {QColor("#d62728"), QColor("#1f77b4"), QColor("#2ca02c"), QColor("#9467bd")};
    const bool anySkipped = std::any_of(rows.begin(), rows.end(), [](const Row& r) { return bool(r.predicted); });
    int series = 0;
    for (const Variant& variant : kVariants) {
        const std::string& path = variant.name;
        const QColor col = colours[series];
        double px = -1, py = -1;
        // Skipped runs are drawn at their prediction, open and dashed.
        for (const Row& r : rows) {
            const double v = r.predicted ? *r.predicted : r.perStep;
            if (r.path != path || v <= 0) continue;
            const double x = X(r.elements), y = Y(v);
            if (px >= 0) c.line(px, py, x, y, col, r.predicted ? 1 : 2, bool(r.predicted));
            c.marker(x, y, col, !r.predicted);
            px = x, py = y;
        }
        c.line(left + 15, top + 18 + 18 * series, left + 40, top + 18 + 18 * series, col, 2);
        c.text(left + 46, top + 22 + 18 * series, path + " path" + (path == "dense" && anySkipped ? " (open: skipped, at its prediction)" : ""), 12);
        ++series;
    }
    // Slope 1 through the smallest sparse point: what linear growth would look like.
    for (const Row& r : rows) {
        if (r.path == "sparse" && r.perStep > 0) {
            const double k = r.perStep / r.elements;
            const double x1 = std::pow(10.0, ex1);
            const double yEnd = std::min(k * x1, std::pow(10.0, ey1));
            c.line(X(r.elements), Y(r.perStep), X(yEnd / k), Y(yEnd), QColor(120, 120, 120), 1, true);
            c.text(X(yEnd / k) - 60, Y(yEnd) + 16, "linear in N", 11);
            break;
        }
    }
}

bool writePlot(const std::vector<Row>& rows, const std::string& stem) {
    QImage img(kWidth, kHeight, QImage::Format_RGB32);
    img.fill(Qt::white);
    {
        QPainter p(&img);
        p.setRenderHint(QPainter::Antialiasing);
        PainterCanvas pc(p);
        drawPlot(pc, rows);
    }
    const bool png = img.save(QString::fromStdString(stem + ".png"));
    SvgCanvas svg;
    drawPlot(svg, rows);
    std::ofstream f(stem + ".svg");
    f << "<?xml version='1.0' encoding='UTF-8'?>\n<svg xmlns='http://www.w3.org/2000/svg' width='" << kWidth
      << "' height='" << kHeight << "' viewBox='0 0 " << kWidth << " " << kHeight << "'>\n"
      << "<rect width='100%' height='100%' fill='white'/>\n"
      << svg.out.str() << "</svg>\n";
    return png && bool(f);
}

std::string fmt(double v, int digits = 3) {
    std::ostringstream o;
    o << std::setprecision(digits) << v;
    return o.str();
}

}  // namespace

int main(int argc, char** argv) {
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QGuiApplication app(argc, argv);
    std::string out = "bench_beam_size.md", stem = "bench-beam-size";
    int runs = 3, steps = 30;
    double limit = 60.0, courant = 0.002;
    std::vector<int> sizes;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--runs" && i + 1 < argc) runs = std::max(1, std::atoi(argv[++i]));
        else if (a == "--steps" && i + 1 < argc) steps = std::max(4, std::atoi(argv[++i]));
        else if (a == "--limit" && i + 1 < argc) limit = std::atof(argv[++i]);
        else if (a == "--plot" && i + 1 < argc) stem = argv[++i];
        else if (a == "--courant" && i + 1 < argc) courant = std::atof(argv[++i]);
        else if (a == "--sizes") {
            while (i + 1 < argc && argv[i + 1][0] != '-') sizes.push_back(std::atoi(argv[++i]));
        } else if (!a.empty() && a[0] != '-') out = a;
        else {
            std::cerr << "usage: bench_beam_size [OUTPUT.md] [--runs N] [--steps K] [--limit SECONDS] [--plot STEM] "
                         "[--sizes N1 N2 ...] [--courant C]\n";
            return 2;
        }
    }
    if (sizes.empty()) sizes = {10, 100, 1000, 10000};
    std::sort(sizes.begin(), sizes.end());

    std::vector<Row> rows;
    for (const Variant& variant : kVariants) {
        const LinearAlgebra la = variant.la;
        std::vector<std::pair<double, double>> measured;  // (N, s per step) of this path
        for (const int n : sizes) {
            Row row;
            row.elements = n;
            row.path = variant.name;
            row.coordinates = 6 * (n + 1);
            row.step = variant.implicit() ? kImplicitMaxStep : stableStep(n, courant);
            // Extrapolate by the growth between the two largest sizes measured; with one, by
            // the cube, the dense factorisations' order.
            if (la == LinearAlgebra::Dense && !measured.empty()) {
                const auto [n1, c1] = measured.back();
                double p = 3.0;
                if (measured.size() >= 2) {
                    const auto [n0, c0] = measured[measured.size() - 2];
                    p = std::max(1.0, exponent(n0, c0, n1, c1));
                }
                const double perStep = c1 * std::pow(n / n1, p);
                if (perStep * steps > limit) {
                    row.predicted = perStep;
                    row.note = "skipped: predicted " + fmt(perStep * steps, 3) + " s for " + std::to_string(steps) +
                               " steps (" + fmt(perStep, 3) + " s a step, growth N^" + fmt(p, 2) + ")";
                    std::cerr << n << " elements, " << row.path << ": " << row.note << "\n";
                    rows.push_back(row);
                    continue;
                }
            }
            std::vector<double> perStep, setup;
            Sample last;
            for (int r = 0; r < runs; ++r) {
                last = measureIsolated(n, variant, steps, courant, 3 * limit);
                if (!last.ok || last.perStep <= 0) break;
                perStep.push_back(last.perStep);
                setup.push_back(last.setup);
                row.peakKiB = std::max(row.peakKiB, last.peakKiB);
            }
            row.coordinates = last.coordinates ? last.coordinates : row.coordinates;
            row.steps = last.steps;
            row.maxSpeed = last.maxSpeed;
            if (!last.ok) row.note = "failed: " + last.note;
            else if (last.maxSpeed > 1.0) row.note = "unstable: |v| reached " + fmt(last.maxSpeed);
            row.perStep = median(perStep);
            row.setup = median(setup);
            if (row.perStep > 0 && last.ok) measured.emplace_back(n, row.perStep);
            std::cerr << n << " elements (" << row.coordinates << " coordinates), " << row.path << ": "
                      << row.perStep * 1e3 << " ms a step (setup " << row.setup << " s), " << row.steps << " steps of "
                      << row.step << " s, peak " << row.peakKiB / 1024.0 << " MiB, max |v| " << row.maxSpeed << " "
                      << row.note << "\n";
            rows.push_back(row);
        }
    }

    // Growth exponents between consecutive measured sizes of each path.
    std::ostringstream fits;
    for (const Variant& variant : kVariants) {
        const std::string& path = variant.name;
        const Row* prev = nullptr;
        for (const Row& r : rows) {
            if (r.path != path || r.perStep <= 0 || !r.note.empty()) continue;
            if (prev) {
                const double p = exponent(prev->elements, prev->perStep, r.elements, r.perStep);
                fits << "- " << path << " path, " << prev->elements << " → " << r.elements << " elements: cost per step ∝ N^"
                     << fmt(p, 3) << "\n";
                std::cout << path << " path, " << prev->elements << " -> " << r.elements << " elements: exponent " << fmt(p, 3)
                          << "\n";
            }
            prev = &r;
        }
    }

    std::vector<Row> table = rows;
    std::stable_sort(table.begin(), table.end(), [](const Row& a, const Row& b) { return a.elements < b.elements; });
    std::ofstream f(out);
    f << "# Clamped beam: cost per step against the number of elements\n\n"
      << "Steel cantilever 1 m × 20 mm × 20 mm, clamped, released from rest under gravity; projection method with "
         "fixed-step rk4 ("
      << steps << " steps at " << courant << " × the smaller of le/c and le²/(c r)); wall time per step timed over the "
      << "second half of the run, median of " << runs << " runs, each in a process of its own; dense runs predicted to take "
      << "more than " << limit << " s are skipped.\n\n"
      << "The implicit steppers (sparse path) run at rtol 1e-4, atol 1e-6 with steps of at most " << kImplicitMaxStep
      << " s over as many steps' span.\n\n"
      << "| elements | coordinates | path | step [s] | steps | wall per step [ms] | setup [s] | peak memory [MiB] | note |\n"
      << "|---|---|---|---|---|---|---|---|---|\n";
    for (const Row& r : table) {
        f << "| " << r.elements << " | " << r.coordinates << " | " << r.path << " | " << fmt(r.step) << " | ";
        if (r.predicted) {
            f << "– | " << r.note << " | – | – | |\n";
            continue;
        }
        f << r.steps << " | " << fmt(r.perStep * 1e3) << " | " << fmt(r.setup) << " | " << fmt(r.peakKiB / 1024.0) << " | "
          << r.note << " |\n";
    }
    f << "\n" << fits.str();
    const bool plotted = writePlot(rows, stem);
    std::cerr << "wrote " << out << (plotted ? " and " + stem + ".png/.svg" : std::string(", the plot failed")) << "\n";
    return 0;
}
