// Work against precision of the flexible mechanisms in motion, measured against a reference
// shown to be converged. Each example runs T seconds of motion (default 1 s) from its own
// start (the model's `run.start`, consistent by default):
//   - with its own `run` settings (the method's defaults where the block sets none),
//   - with each implicit stepper (tlismni/hht, hht-index3/hht, or any METHOD/INTEGRATOR
//     pair given) over a sweep of tolerances (rtol 1e-4 … 1e-8, atol = rtol/100),
//   - with tlismni/hht and hht-index3/hht at fixed steps (no error control).
// For each run: CPU and wall time per simulated second (medians of the runs), accepted and
// rejected steps, and the error: the largest distance over the run (frames every 1 ms, and
// the end) of one point of the model (the probe: the slider's origin, the rocker's tip
// node) from the reference, relative to the probe's range of motion (the largest distance
// between two of its reference positions: the slider's stroke, the chord of the rocker
// tip's swing).
//
// The reference is a Richardson extrapolation of tlismni/hht at fixed steps h, h/2, h/4, …
// (HHT-α is second order: x(h) = x + C h² + …, so R = x(h/2) + (x(h/2) − x(h))/3). Its
// uncertainty is the largest difference, over the frames, between the last two
// extrapolations (the change from the coarser one, which over-states the finer one's
// error), or the last two steps' own difference where it is larger and the differences do
// not yet shrink at second order (a vibration whose phase the steps still lose); the steps are halved until that uncertainty is below a tenth of the smallest
// error measured (with differences shrinking at second order), or the reference's time
// budget or smallest step is reached. The same extrapolation with HHT α = −0.2 (the runs use
// the default −0.05) at the last two steps is printed beside it as an independent check. Rows whose error is below ten times the uncertainty are printed as
// "below reference": the table never claims an error its reference cannot resolve. Since
// the reference runs at fixed steps, it does not depend on the steppers' error weights.
//
// Writes OUTPUT.md (the tables), OUTPUT.csv (one line a run) and OUTPUT.svg (CPU time per
// simulated second against error, a panel per example).
//
//   bench_flexible_dynamics [OUTPUT.md] [--runs N] [--t-end T] [--limit SECONDS]
//       [--models NAME,...]          (file names without .json; default the two mechanisms;
//                                     also cantilever-beam, cantilever-beam-tension,
//                                     cantilever-hex)
//       [--methods PAIR,...]         (default tlismni,hht-index3; a name alone takes hht)
//       [--rtols R,...]              (default 1e-4,1e-5,1e-6,1e-7,1e-8)
//       [--steps H,...]              (fixed steps [s]; default 1e-3,5e-4,2.5e-4,1e-4)
//       [--ref-step H] [--ref-min-step H] [--ref-budget SECONDS]
//       [--damping BETA]             (stiffness damping β [s] given to every beam and solid)

#include "looplab/files/ModelFile.h"
#include "looplab/integrate/HhtIndex3Stepper.h"
#include "looplab/integrate/TlismniStepper.h"
#include "looplab/simulation/ModelRunSettings.h"
#include "looplab/simulation/Simulation.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <ctime>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

using namespace looplab;

namespace {

constexpr double kFrameStep = 1e-3;  // [s] between the frames the error is taken over
constexpr double kCheckAlpha = -0.2;  // HHT's α for the reference's independent check

struct Example {
    std::string name, file;
    std::string probeBody;  // the body whose point is followed
    int probePoint;         // its index among the body's points (addPoints), −1 the last
    std::string probeText;
};

const std::vector<Example> kExamples = {
    {"flexible slider-crank", "flexible-slider-crank", "slider", 0, "the slider's origin"},
    {"flexible four-bar", "flexible-four-bar", "rocker", -1, "the rocker's tip node (pin C)"},
    {"beam cantilever", "cantilever-beam", "beam", -1, "the beam's tip node"},
    {"beam cantilever, tension", "cantilever-beam-tension", "beam", -1, "the beam's tip node"},
    {"hexahedral cantilever", "cantilever-hex", "bar", -1, "the mesh's last node (at the free end)"},
};

using Path = std::vector<Vec3>;  // the probe's position at every frame

struct Probe {
    int body = -1, point = 0;
    Vec3 at(const Model& m, const State& s) const {
        std::vector<Vec3> points;
        const Body& b = m.bodies[static_cast<size_t>(body)];
        b.formulation->addPoints(s.q.data() + b.slice.positionOffset, points);
        return points[static_cast<size_t>(point < 0 ? static_cast<int>(points.size()) + point : point)];
    }
};

struct Run {
    std::string label, setting;  // "tlismni/hht", "rtol 1e-06" or "h 0.001 s"
    bool ok = false;
    std::string message;
    double tReached = 0.0;
    std::vector<double> wall, cpu;  // [s] per run
    StepStatistics stats;
    Path path;
    double error = NAN;
};

double cpuSeconds() {
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return double(ts.tv_sec) + 1e-9 * double(ts.tv_nsec);
}

double wallSeconds() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

double median(std::vector<double> v) {
    if (v.empty()) return NAN;
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

int frameCount(double tEnd) { return static_cast<int>(std::lround(tEnd / kFrameStep)); }

// An adaptive run through the simulator, as the command line and the workbench make it.
Run adaptiveRun(const LoadedModel& lm, const Probe& probe, SimulationSettings s, int runs) {
    Run out;
    out.label = s.method + "/" + s.integrator;
    for (int r = 0; r < runs; ++r) {
        Path path;
        Simulator sim(lm.model, s);
        const double c0 = cpuSeconds(), w0 = wallSeconds();
        // The frames at the multiples of kFrameStep (the end is reported once more).
        const SimulationResult res = sim.run(lm.initial, [&](const SimulationFrame& f) {
            const double next = lm.initial.t + static_cast<double>(path.size()) * kFrameStep;
            if (f.state.t >= next - 1e-9 * kFrameStep) path.push_back(probe.at(*lm.model, f.state));
        });
        out.cpu.push_back(cpuSeconds() - c0);
        out.wall.push_back(wallSeconds() - w0);
        out.ok = res.ok;
        out.message = res.message;
        out.tReached = res.tFinal;
        out.stats = res.statistics;
        out.path = std::move(path);
        if (!res.ok) break;
    }
    return out;
}

// A fixed-step run of an implicit stepper itself (the simulator's settings have no fixed
// step for them); the frames are the stepper's dense output.
Run fixedRun(const LoadedModel& lm, const Probe& probe, const std::string& method, double h, double tEnd,
             double limit, int runs, double alpha = NAN) {
    Run out;
    out.label = method + "/hht";
    std::ostringstream setting;
    setting << "h " << h << " s";
    out.setting = setting.str();
    const ConstraintMethodSettings defaults;
    TlismniSettings t;
    t.alpha = std::isfinite(alpha) ? alpha : defaults.hhtAlpha;
    t.rankTolerance = defaults.rankTolerance;
    t.linearAlgebra = defaults.linearAlgebra;
    t.fixedStep = true;
    t.ode.step = h;
    const int frames = frameCount(tEnd);
    for (int r = 0; r < runs; ++r) {
        std::unique_ptr<TimeStepper> stepper;
        if (method == "hht-index3") stepper = std::make_unique<HhtIndex3Stepper>(lm.model, t, "hht");
        else stepper = std::make_unique<TlismniStepper>(lm.model, t, "hht");
        Path path;
        const double c0 = cpuSeconds(), w0 = wallSeconds();
        Status st = stepper->initialize(lm.initial);
        if (st.ok) path.push_back(probe.at(*lm.model, stepper->state()));
        State s;
        // Aimed half a step past the end, so that no step is cut to a sliver by the
        // rounding of t; the last frames come from the dense output.
        for (int k = 1; st.ok && k <= frames;) {
            st = stepper->step(lm.initial.t + tEnd + 0.5 * h);
            if (!st.ok) break;
            for (; k <= frames && lm.initial.t + k * kFrameStep <= stepper->time(); ++k) {
                stepper->interpolate(lm.initial.t + k * kFrameStep, s);
                normalizePositions(*lm.model, s.q);
                path.push_back(probe.at(*lm.model, s));
            }
            if (limit > 0.0 && wallSeconds() - w0 > limit) {
                st = Status::failure("wall-time limit reached");
                break;
            }
        }
        out.cpu.push_back(cpuSeconds() - c0);
        out.wall.push_back(wallSeconds() - w0);
        out.ok = st.ok;
        out.message = st.message;
        out.tReached = stepper->time();
        out.stats = stepper->statistics();
        out.path = std::move(path);
        if (!st.ok) break;
    }
    return out;
}

double largestDistance(const Path& a, const Path& b) {
    if (a.size() != b.size()) return NAN;
    double d = 0.0;
    for (size_t k = 0; k < a.size(); ++k) d = std::max(d, (a[k] - b[k]).norm());
    return d;
}

// The probe's range of motion: the largest distance between two of its positions.
double rangeOfMotion(const Path& p) {
    double d = 0.0;
    for (size_t i = 0; i < p.size(); ++i)
        for (size_t j = i + 1; j < p.size(); ++j) d = std::max(d, (p[i] - p[j]).norm());
    return d;
}

// Richardson's extrapolation of a second-order method from steps h and h/2.
Path richardson(const Path& coarse, const Path& fine) {
    Path r(fine.size());
    for (size_t k = 0; k < fine.size(); ++k) r[k] = fine[k] + (fine[k] - coarse[k]) / 3.0;
    return r;
}

struct Reference {
    Path path;
    double uncertainty = NAN;  // [m]
    double step = NAN;         // the finest step [s]
    double seconds = 0.0;      // wall time spent
    std::vector<std::string> lines;  // one per level, for the report
    double order = NAN;              // observed at the last level
    std::string check;               // the independent extrapolation with another α
    double checkDistance = NAN;      // [m] its largest distance from the reference
    double change = NAN;             // [m] the last extrapolation's change
    bool ok = false;
};

std::string fmt(double v, int digits = 2) {
    std::ostringstream o;
    o << std::setprecision(digits) << v;
    return o.str();
}

std::vector<std::string> split(const std::string& s) {
    std::vector<std::string> out;
    std::stringstream in(s);
    for (std::string item; std::getline(in, item, ',');)
        if (!item.empty()) out.push_back(item);
    return out;
}

bool numbers(const std::string& s, std::vector<double>& out) {
    out.clear();
    for (const std::string& item : split(s)) {
        const double v = std::atof(item.c_str());
        if (!(v > 0.0)) return false;
        out.push_back(v);
    }
    return !out.empty();
}

// --- the work-precision diagram, as SVG text ------------------------------------------

const char* kColours[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b"};

struct Curve {
    std::string label;
    bool dashed = false;
    std::vector<std::pair<double, double>> points;  // (error / range, CPU s per simulated s)
};

struct Panel {
    std::string title;
    std::vector<Curve> curves;
    double floor = NAN;  // 10 × the reference's uncertainty, relative
    std::vector<std::pair<double, double>> own;
};

void drawPanel(std::ostream& o, const Panel& p, double left, double top, double w, double h) {
    double xmin = 1e300, xmax = -1e300, ymin = 1e300, ymax = -1e300;
    auto take = [&](double x, double y) {
        xmin = std::min(xmin, x), xmax = std::max(xmax, x), ymin = std::min(ymin, y), ymax = std::max(ymax, y);
    };
    for (const Curve& c : p.curves)
        for (auto [x, y] : c.points) take(x, y);
    for (auto [x, y] : p.own) take(x, y);
    if (std::isfinite(p.floor)) take(p.floor, ymin > ymax ? 1.0 : ymin);
    take(1e-4, 1.0);  // the target: 1e-4 of the motion at real time
    const int ex0 = int(std::floor(std::log10(xmin))), ex1 = std::max(ex0 + 1, int(std::ceil(std::log10(xmax))));
    const int ey0 = int(std::floor(std::log10(ymin))), ey1 = std::max(ey0 + 1, int(std::ceil(std::log10(ymax))));
    auto X = [&](double v) { return left + w * (std::log10(v) - ex0) / (ex1 - ex0); };
    auto Y = [&](double v) { return top + h - h * (std::log10(v) - ey0) / (ey1 - ey0); };
    auto line = [&](double x0, double y0, double x1, double y1, const std::string& col, double width,
                    bool dashed) {
        o << "<line x1='" << x0 << "' y1='" << y0 << "' x2='" << x1 << "' y2='" << y1 << "' stroke='" << col
          << "' stroke-width='" << width << "'" << (dashed ? " stroke-dasharray='4 3'" : "") << "/>\n";
    };
    auto text = [&](double x, double y, const std::string& s, int size, const char* anchor = "start",
                    bool vertical = false) {
        o << "<text x='" << x << "' y='" << y << "' font-family='sans-serif' font-size='" << size
          << "' text-anchor='" << anchor << "'";
        if (vertical) o << " transform='rotate(-90 " << x << " " << y << ")'";
        o << ">" << s << "</text>\n";
    };
    for (int e = ex0; e <= ex1; ++e) {
        line(X(std::pow(10.0, e)), top, X(std::pow(10.0, e)), top + h, "#dddddd", 1, false);
        text(X(std::pow(10.0, e)), top + h + 16, "1e" + std::to_string(e), 11, "middle");
    }
    for (int e = ey0; e <= ey1; ++e) {
        line(left, Y(std::pow(10.0, e)), left + w, Y(std::pow(10.0, e)), "#dddddd", 1, false);
        text(left - 6, Y(std::pow(10.0, e)) + 4, "1e" + std::to_string(e), 11, "end");
    }
    line(left, top + h, left + w, top + h, "black", 1, false);
    line(left, top, left, top + h, "black", 1, false);
    line(left, Y(1.0), left + w, Y(1.0), "#888888", 1, true);     // real time
    line(X(1e-4), top, X(1e-4), top + h, "#888888", 1, true);     // 1e-4 of the motion
    if (std::isfinite(p.floor)) {
        o << "<rect x='" << left << "' y='" << top << "' width='" << std::max(0.0, X(p.floor) - left)
          << "' height='" << h << "' fill='#eeeeee' fill-opacity='0.7'/>\n";
        text(left + 4, top + 14, "below reference", 11);
    }
    text(left + 0.5 * w, top - 10, p.title, 14, "middle");
    text(left + 0.5 * w, top + h + 36, "largest error over the run / range of motion", 12, "middle");
    text(left - 44, top + 0.5 * h, "CPU s per simulated s (median)", 12, "middle", true);
    for (size_t k = 0; k < p.curves.size(); ++k) {
        const Curve& c = p.curves[k];
        const std::string col = kColours[k % (sizeof kColours / sizeof kColours[0])];
        for (size_t i = 0; i < c.points.size(); ++i) {
            const double x = X(c.points[i].first), y = Y(c.points[i].second);
            if (i > 0) line(X(c.points[i - 1].first), Y(c.points[i - 1].second), x, y, col, 1.5, c.dashed);
            o << "<circle cx='" << x << "' cy='" << y << "' r='3.5' stroke='" << col << "' fill='"
              << (c.dashed ? std::string("none") : col) << "'/>\n";
        }
        const double ly = top + h + 60 + 18.0 * double(k);
        line(left, ly, left + 24, ly, col, 1.5, c.dashed);
        text(left + 32, ly + 4, c.label, 12);
    }
    for (auto [x, y] : p.own) {
        o << "<rect x='" << X(x) - 4 << "' y='" << Y(y) - 4 << "' width='8' height='8' fill='black'/>\n";
        const double ly = top + h + 60 + 18.0 * double(p.curves.size());
        o << "<rect x='" << left + 8 << "' y='" << ly - 4 << "' width='8' height='8' fill='black'/>\n";
        text(left + 32, ly + 4, "own run settings", 12);
    }
}

void writeDiagram(const std::string& file, const std::vector<Panel>& panels) {
    const double pw = 420, ph = 300, mx = 90, my = 50;
    const double width = mx + panels.size() * (pw + mx), height = my + ph + 200;
    std::ofstream f(file);
    f << "<?xml version='1.0' encoding='UTF-8'?>\n<svg xmlns='http://www.w3.org/2000/svg' width='" << width
      << "' height='" << height << "' viewBox='0 0 " << width << " " << height << "'>\n"
      << "<rect width='100%' height='100%' fill='white'/>\n";
    for (size_t k = 0; k < panels.size(); ++k) drawPanel(f, panels[k], mx + k * (pw + mx), my, pw, ph);
    f << "</svg>\n";
}

}  // namespace

int main(int argc, char** argv) {
    std::string output = "bench_flexible_dynamics.md";
    int runs = 3;
    double tEnd = 1.0, limit = 600.0, damping = 0.0;
    double refStep = 1e-4, refMinStep = 1e-7, refBudget = 480.0;
    std::vector<std::string> methods = {"tlismni", "hht-index3"};
    std::vector<std::string> models = {"flexible-slider-crank", "flexible-four-bar"};
    std::vector<double> rtols = {1e-4, 1e-5, 1e-6, 1e-7, 1e-8}, steps = {1e-3, 5e-4, 2.5e-4, 1e-4};
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        const bool more = i + 1 < argc;
        if (a == "--runs" && more) runs = std::max(1, std::atoi(argv[++i]));
        else if (a == "--t-end" && more) tEnd = std::atof(argv[++i]);
        else if (a == "--limit" && more) limit = std::atof(argv[++i]);
        else if (a == "--damping" && more) damping = std::atof(argv[++i]);
        else if (a == "--ref-step" && more) refStep = std::atof(argv[++i]);
        else if (a == "--ref-min-step" && more) refMinStep = std::atof(argv[++i]);
        else if (a == "--ref-budget" && more) refBudget = std::atof(argv[++i]);
        else if (a == "--methods" && more) methods = split(argv[++i]);
        else if (a == "--models" && more) models = split(argv[++i]);
        else if (a == "--rtols" && more) {
            if (!numbers(argv[++i], rtols)) return std::cerr << "--rtols: positive numbers, comma-separated\n", 2;
        } else if (a == "--steps" && more) {
            const std::string list = argv[++i];
            steps.clear();
            if (list != "none" && !numbers(list, steps))
                return std::cerr << "--steps: positive numbers, comma-separated, or none\n", 2;
        } else if (a.rfind("--", 0) == 0) {
            std::cerr << "unknown option " << a << "\n";
            return 2;
        } else output = a;
    }
    if (!(tEnd > 0.0) || !(refStep > 0.0) || frameCount(tEnd) < 1) {
        std::cerr << "--t-end and --ref-step must be positive (t-end at least 1 ms)\n";
        return 2;
    }
    const std::string stem = output.size() > 3 && output.substr(output.size() - 3) == ".md"
                                 ? output.substr(0, output.size() - 3)
                                 : output;
    std::ofstream md(output), csv(stem + ".csv");
    if (!md || !csv) {
        std::cerr << "cannot write " << output << " or " << stem << ".csv\n";
        return 1;
    }
    csv << "example,probe,pair,setting,ok,cpu_s_per_s,wall_s_per_s,steps,rejected,factorizations,error_rel,"
           "error_m,range_m,reference_uncertainty_m,below_reference\n";
    md << "# Flexible mechanisms: work against precision (bench_flexible_dynamics)\n\n"
       << tEnd << " s of motion from each model's own start; CPU and wall time per simulated second are the "
       << "medians of " << runs << " runs. Error: the largest distance over the run (frames every "
       << kFrameStep * 1e3 << " ms) of the probe from the reference, relative to the probe's range of motion. "
       << "Reference: Richardson extrapolation of tlismni/hht at fixed steps, with its uncertainty (below, per "
       << "example). Rows within ten times that uncertainty read \"below reference\".";
    if (damping > 0.0) md << " Every beam and solid with stiffness damping beta = " << damping << " s.";
    md << "\n";
    std::vector<Panel> panels;

    for (const Example& ex : kExamples) {
        if (std::find(models.begin(), models.end(), ex.file) == models.end()) continue;
        const std::string path = std::string(LOOPLAB_EXAMPLES_DIR) + "/" + ex.file + ".json";
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
        Probe probe;
        for (size_t b = 0; b < lm.model->bodies.size(); ++b)
            if (lm.model->bodies[b].name == ex.probeBody) probe.body = static_cast<int>(b);
        if (probe.body < 0) {
            std::cerr << path << ": has no body " << ex.probeBody << " to follow\n";
            return 1;
        }
        probe.point = ex.probePoint;
        const std::string start = doc.document->run.start ? *doc.document->run.start : "consistent (default)";
        std::ostringstream startText;
        startText << start << ", vibration energy at the start " << fmt(lm.start.vibrationEnergy) << " J";
        std::cout << ex.name << ": start " << startText.str() << "\n" << std::flush;

        // The runs measured.
        std::vector<Run> rows;
        {
            ResolvedRunSettings own = resolveRunSettings({}, doc.document->run, SimulationSettings{});
            SimulationSettings s = own.settings;
            s.tEnd = lm.initial.t + tEnd;
            s.outputStep = kFrameStep;
            s.maxWallTime = limit;
            Run r = adaptiveRun(lm, probe, s, runs);
            r.label = "own run settings: " + r.label;
            r.setting = "rtol " + fmt(s.ode.rtol) + ", atol " + fmt(s.ode.atol);
            rows.push_back(std::move(r));
        }
        for (const std::string& m : methods) {
            const size_t slash = m.find('/');
            for (double rtol : rtols) {
                SimulationSettings s;
                s.method = m.substr(0, slash);
                s.integrator = slash == std::string::npos ? "hht" : m.substr(slash + 1);
                s.ode.rtol = rtol;
                s.ode.atol = rtol * 1e-2;
                s.tEnd = lm.initial.t + tEnd;
                s.outputStep = kFrameStep;
                s.maxWallTime = limit;
                Run r = adaptiveRun(lm, probe, s, runs);
                r.setting = "rtol " + fmt(rtol) + ", atol " + fmt(rtol * 1e-2);
                std::cout << "  " << r.label << " " << r.setting << ": " << (r.ok ? "" : r.message + " ")
                          << fmt(median(r.cpu) / tEnd, 3) << " CPU s per s\n"
                          << std::flush;
                rows.push_back(std::move(r));
            }
        }
        for (const std::string& m : methods) {
            if (m != "tlismni" && m != "hht-index3" && m != "tlismni/hht" && m != "hht-index3/hht") continue;
            const std::string name = m.substr(0, m.find('/'));
            for (double h : steps) {
                Run r = fixedRun(lm, probe, name, h, tEnd, limit, runs);
                std::cout << "  " << r.label << " " << r.setting << ": " << (r.ok ? "" : r.message + " ")
                          << fmt(median(r.cpu) / tEnd, 3) << " CPU s per s\n"
                          << std::flush;
                rows.push_back(std::move(r));
            }
        }

        // The reference: halve the step until the extrapolations agree to a tenth of the
        // smallest error measured against them.
        Reference ref;
        {
            const double w0 = wallSeconds();
            std::vector<Path> levels;
            Path previous;
            double h = refStep, lastDifference = NAN, levelSeconds = 0.0, order = NAN;
            for (;; h *= 0.5) {
                const double l0 = wallSeconds();
                Run r = fixedRun(lm, probe, "tlismni", h, tEnd, 0.0, 1);
                levelSeconds = wallSeconds() - l0;
                if (!r.ok) {
                    ref.lines.push_back("h = " + fmt(h, 3) + " s: " + r.message);
                    break;
                }
                std::ostringstream line;
                line << "h = " << fmt(h, 3) << " s (" << r.stats.steps << " steps, " << fmt(r.wall.front(), 3)
                     << " s)";
                if (!levels.empty()) {
                    const double d = largestDistance(r.path, levels.back());
                    line << ": differs from h = " << fmt(2 * h, 3) << " s by " << fmt(d) << " m";
                    if (std::isfinite(lastDifference) && d > 0.0) {
                        order = std::log2(lastDifference / d);
                        line << " (observed order " << fmt(order, 3) << ")";
                    }
                    lastDifference = d;
                    Path extrapolated = richardson(levels.back(), r.path);
                    if (!previous.empty()) {
                        ref.uncertainty = largestDistance(extrapolated, previous);
                        line << "; extrapolation moved by " << fmt(ref.uncertainty) << " m";
                        // Short of the method's order the extrapolation gains nothing: the
                        // step's own difference is the uncertainty then, if larger.
                        if (!(std::abs(order - 2.0) < 0.5) && d > ref.uncertainty) {
                            ref.uncertainty = d;
                            line << " (not yet at second order: uncertainty " << fmt(d) << " m, the difference)";
                        }
                    }
                    previous = extrapolated;
                    ref.path = previous;
                    ref.step = h;
                }
                ref.lines.push_back(line.str());
                std::cout << "  reference " << line.str() << "\n" << std::flush;
                levels.push_back(std::move(r.path));
                if (!std::isfinite(ref.uncertainty)) {
                    if (0.5 * h < refMinStep) break;
                    continue;
                }
                double smallest = INFINITY;
                const double range = rangeOfMotion(ref.path);
                for (const Run& row : rows)
                    if (row.ok) smallest = std::min(smallest, largestDistance(row.path, ref.path));
                // Trusted only where the differences shrink at the method's order: before
                // that, a mode whose phase the steps lose by a radian or more keeps the
                // differences near its amplitude, and two extrapolations may agree by chance.
                const bool asymptotic = std::abs(order - 2.0) < 0.5;
                if (asymptotic && (ref.uncertainty < 0.1 * smallest || ref.uncertainty < 1e-14 * range)) break;
                // The next level costs about twice this one.
                if (0.5 * h < refMinStep || wallSeconds() - w0 + 2.0 * levelSeconds > refBudget) break;
            }
            ref.ok = std::isfinite(ref.uncertainty);
            ref.seconds = wallSeconds() - w0;
            ref.order = order;
            // The independent check: the same extrapolation with HHT of another α (another
            // error constant: its steps converge to the same motion along another path). Not
            // the trapezoidal rule, which neither follows nor damps the modes far above 1/h
            // (a clamped cable's slope modes) and keeps whatever they were given.
            // Where a step fails (Newton at the rounding floor of very small steps), the
            // check is made one level coarser, which can only make it larger.
            for (double fine = ref.step; ref.ok && fine <= 4.0 * ref.step && std::isnan(ref.checkDistance);
                 fine *= 2.0) {
                const Run a = fixedRun(lm, probe, "tlismni", 2 * fine, tEnd, 0.0, 1, kCheckAlpha);
                const Run b = a.ok ? fixedRun(lm, probe, "tlismni", fine, tEnd, 0.0, 1, kCheckAlpha) : Run{};
                if (a.ok && b.ok) {
                    ref.checkDistance = largestDistance(richardson(a.path, b.path), ref.path);
                    ref.change = ref.uncertainty;
                    // The uncertainty claimed is the larger of the two estimates.
                    ref.uncertainty = std::max(ref.uncertainty, ref.checkDistance);
                    ref.check += "tlismni/hht with alpha = " + fmt(kCheckAlpha) + " extrapolated from h = " +
                                 fmt(2 * fine, 3) + " and " + fmt(fine, 3) + " s differs from it by " +
                                 fmt(ref.checkDistance) + " m";
                } else {
                    ref.check += "tlismni/hht with alpha = " + fmt(kCheckAlpha) + " at h = " +
                                 fmt(a.ok ? fine : 2 * fine, 3) + " s: " + (a.ok ? b.message : a.message) + "; ";
                }
            }
        }
        if (!ref.ok) {
            md << "\n## " << ex.name << "\n\nno reference: " << (ref.lines.empty() ? "" : ref.lines.back()) << "\n";
            continue;
        }
        const double range = rangeOfMotion(ref.path);
        const double floor = 10.0 * ref.uncertainty;
        double smallestReported = INFINITY;
        for (Run& row : rows) {
            if (!row.ok) continue;
            row.error = largestDistance(row.path, ref.path);
            if (row.error >= floor) smallestReported = std::min(smallestReported, row.error);
        }

        md << "\n## " << ex.name << " (`" << ex.file << ".json`)\n\n"
           << "Probe: " << ex.probeText << "; range of motion " << fmt(range, 4) << " m. Start: "
           << startText.str() << ".\n\n"
           << "Reference: tlismni/hht at fixed steps, Richardson-extrapolated (" << fmt(ref.seconds, 3) << " s):\n\n";
        for (const std::string& line : ref.lines) md << "- " << line << "\n";
        md << "\nIndependent check: " << (ref.check.empty() ? "not run" : ref.check) << ".\n\n"
           << "**Reference uncertainty " << fmt(ref.uncertainty) << " m = " << fmt(ref.uncertainty / range)
           << " of the range of motion** (the largest of the last extrapolation's change, the last difference where "
              "the steps are not yet at second order, and the check's distance)";
        if (std::isfinite(smallestReported))
            md << "; smallest error reported " << fmt(smallestReported) << " m (uncertainty / smallest error = "
               << fmt(ref.uncertainty / smallestReported) << ")";
        md << ".\n\n"
           << "| pair | setting | CPU s per simulated s | wall s per simulated s | steps (rejected) | "
              "factorisations | error / range |\n"
           << "|---|---|---|---|---|---|---|\n";
        Panel panel;
        panel.title = ex.name;
        panel.floor = floor / range;
        for (const Run& row : rows) {
            const double cpu = median(row.cpu) / tEnd, wall = median(row.wall) / tEnd;
            const bool below = row.ok && row.error < floor;
            md << "| " << row.label << " | " << row.setting << " | ";
            if (row.ok) md << fmt(cpu, 3) << " | " << fmt(wall, 3);
            else md << "stopped at t = " << fmt(row.tReached, 3) << " s: " << row.message << " | –";
            md << " | " << row.stats.steps << " (" << row.stats.rejectedSteps << ") | " << row.stats.factorizations
               << " | ";
            if (!row.ok) md << "–";
            else if (below) md << "below reference (< " << fmt(floor / range) << ")";
            else md << fmt(row.error / range);
            md << " |\n";
            csv << '"' << ex.name << "\",\"" << ex.probeText << "\"," << row.label << ",\"" << row.setting << "\","
                << (row.ok ? 1 : 0) << "," << std::setprecision(6) << cpu << "," << wall << "," << row.stats.steps
                << "," << row.stats.rejectedSteps << "," << row.stats.factorizations << "," << row.error / range
                << "," << row.error << "," << range << "," << ref.uncertainty << "," << (below ? 1 : 0) << "\n";
            if (!row.ok || below) continue;
            if (row.label.rfind("own", 0) == 0) {
                panel.own.push_back({row.error / range, cpu});
                continue;
            }
            const bool fixed = row.setting.rfind("h ", 0) == 0;
            const std::string label = row.label + (fixed ? ", fixed steps" : ", rtol sweep");
            auto c = std::find_if(panel.curves.begin(), panel.curves.end(),
                                  [&](const Curve& k) { return k.label == label; });
            if (c == panel.curves.end()) {
                panel.curves.push_back({label, fixed, {}});
                c = panel.curves.end() - 1;
            }
            c->points.push_back({row.error / range, cpu});
        }
        md.flush();
        csv.flush();
        panels.push_back(std::move(panel));
        std::cout << "  reference uncertainty " << fmt(ref.uncertainty) << " m, smallest error reported "
                  << fmt(smallestReported) << " m\n";
    }
    writeDiagram(stem + ".svg", panels);
    std::cout << "written " << output << ", " << stem << ".csv, " << stem << ".svg\n";
    return 0;
}
