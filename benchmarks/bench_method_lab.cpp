// The method-comparison lab: every registered way to move a mechanism (projection with
// each ODE solver, Baumgarte, penalty, augmented Lagrangian, index-3 HHT, tlismni) on the
// rigid four-bar, Andrews' mechanism, the flexible slider-crank, the all-beam flexible
// four-bar and a chain of 20 loops, over a range of tolerances (fixed steps for rk4). For
// each run: wall time (median of repeated runs), steps, final-state error against a tight
// reference and the largest position-constraint violation. Writes the work-precision data
// to CSV and draws two diagrams per model (wall time against error, and against violation)
// to PNG (QPainter on a QImage) and SVG (written as text) from the same drawing calls.
//
//   bench_method_lab OUTPUT_DIR [--runs N] [--quick] [--model FILE] [--pair METHOD/INTEGRATOR,...]
//                    [--rtols R1,R2,...] [--span S] [--max-wall S]
//
// --model and --pair keep one model (its file name) or the pairs listed (comma-separated),
// to time a change to one method on one model without the other runs; --rtols replaces the adaptive pairs'
// tolerances, to fill in a work-precision curve between the standard ones; --span replaces
// the models' spans [s] and --max-wall the 10 s cut-off, to see whether a comparison over the
// standard span holds over a longer one.

#include "looplab/kinematics/NodalOutputs.h"
#include "looplab/model/State.h"
#include "looplab/files/ModelFile.h"
#include "looplab/simulation/Simulation.h"

#include "PlotCanvas.h"

#include <QColor>
#include <QFont>
#include <QGuiApplication>
#include <QImage>
#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <limits>
#include <sstream>

using namespace looplab;

namespace {

using bench::Canvas;
using bench::PainterCanvas;
using bench::SvgCanvas;

struct Case {
    std::string title, file;
    double span;     // s of motion
    double refRtol;  // reference: projection/dopri5 at this rtol
};

struct Pair {
    std::string method, integrator;
    std::string label() const { return method + "/" + integrator; }
};

struct Point {
    std::string model, pair;
    double setting = 0.0;  // rtol, or the step of a fixed-step integrator
    bool ok = false;
    std::string message;
    double wall = 0.0, error = 0.0, violation = 0.0;
    long steps = 0;
};

// Largest distance of any body's position (rigid: its origin; flexible: its nodal points)
// between two states.
double stateError(const Model& m, const State& a, const State& b) {
    double e = 0.0;
    for (int k = 1; k < m.bodyCount(); ++k) {
        const BodyIndex bi(k);
        if (m.bodies[size_t(k)].nodeSize() > 0) {
            for (const NodalPoint& p : nodalPoints(m, bi))
                e = std::max(e, (nodalPointPosition(m, a, bi, p) - nodalPointPosition(m, b, bi, p)).norm());
        } else {
            e = std::max(e, (bodyPosition(m, a, bi) - bodyPosition(m, b, bi)).norm());
        }
    }
    return e;
}

SimulationResult simulate(const LoadedModel& lm, const Case& c, const Pair& p, double setting, State& final,
                          double maxWall) {
    SimulationSettings s;
    s.method = p.method;
    s.integrator = p.integrator;
    s.tEnd = lm.initial.t + c.span;
    s.outputStep = c.span / 20;
    if (p.integrator == "rk4") {
        s.ode.step = setting;
    } else {
        s.ode.rtol = setting;
        s.ode.atol = setting * 1e-2;
        s.ode.step = 0.0;
    }
    s.maxWallTime = maxWall;
    Simulator sim(lm.model, s);
    return sim.run(lm.initial, [&](const SimulationFrame& f) { final = f.state; });
}

// --- drawing: one set of calls, two back ends ---------------------------------------


const QColor kColours[] = {QColor("#1f77b4"), QColor("#ff7f0e"), QColor("#2ca02c"), QColor("#d62728"),
                           QColor("#9467bd"), QColor("#8c564b"), QColor("#e377c2"), QColor("#17becf"),
                           QColor("#7f7f7f")};

std::string powerLabel(int e) { return "1e" + std::to_string(e); }

// One log-log panel: x = wall time, y = error or violation; a line per pair.
void drawPanel(Canvas& c, double left, double top, double w, double h, const std::vector<Pair>& pairs,
               const std::vector<Point>& points, bool violation, const std::string& title) {
    auto value = [&](const Point& p) { return violation ? p.violation : p.error; };
    double xmin = 1e300, xmax = -1e300, ymin = 1e300, ymax = -1e300;
    for (const Point& p : points) {
        if (!p.ok) continue;
        const double y = std::max(value(p), 1e-17);
        xmin = std::min(xmin, p.wall), xmax = std::max(xmax, p.wall);
        ymin = std::min(ymin, y), ymax = std::max(ymax, y);
    }
    if (xmin > xmax) return;
    const int ex0 = int(std::floor(std::log10(xmin))), ex1 = int(std::ceil(std::log10(xmax)));
    const int ey0 = int(std::floor(std::log10(ymin))), ey1 = int(std::ceil(std::log10(ymax)));
    const double dx = std::max(1, ex1 - ex0), dy = std::max(1, ey1 - ey0);
    auto X = [&](double v) { return left + w * (std::log10(v) - ex0) / dx; };
    auto Y = [&](double v) { return top + h - h * (std::log10(std::max(v, 1e-17)) - ey0) / dy; };
    const QColor grid(220, 220, 220);
    for (int e = ex0; e <= ex0 + int(dx); ++e) {
        c.line(X(std::pow(10.0, e)), top, X(std::pow(10.0, e)), top + h, grid, 1);
        c.text(X(std::pow(10.0, e)), top + h + 16, powerLabel(e), 11, true);
    }
    const int yStride = dy > 10 ? 2 : 1;
    for (int e = ey0; e <= ey0 + int(dy); e += yStride) {
        c.line(left, Y(std::pow(10.0, e)), left + w, Y(std::pow(10.0, e)), grid, 1);
        c.text(left - 34, Y(std::pow(10.0, e)) + 4, powerLabel(e), 11);
    }
    c.line(left, top + h, left + w, top + h, Qt::black, 1);
    c.line(left, top, left, top + h, Qt::black, 1);
    c.text(left + 0.5 * w, top - 8, title, 13, true);
    c.text(left + 0.5 * w, top + h + 34, "wall time [s] (median)", 12, true);
    c.text(left - 42, top + 0.5 * h, violation ? "max. position violation [m]" : "final-state error [m]", 12, true,
           true);
    for (size_t k = 0; k < pairs.size(); ++k) {
        const QColor col = kColours[k % (sizeof kColours / sizeof kColours[0])];
        double px = 0, py = 0;
        bool have = false;
        for (const Point& p : points) {
            if (p.pair != pairs[k].label() || !p.ok) continue;
            const double x = X(p.wall), y = Y(value(p));
            if (have) c.line(px, py, x, y, col, 1.5, pairs[k].integrator == "rk4");
            c.marker(x, y, col, pairs[k].method != "projection");
            px = x, py = y, have = true;
        }
    }
}

void drawLegend(Canvas& c, double left, double top, const std::vector<Pair>& pairs) {
    for (size_t k = 0; k < pairs.size(); ++k) {
        const QColor col = kColours[k % (sizeof kColours / sizeof kColours[0])];
        const double y = top + 18.0 * double(k);
        c.line(left, y, left + 24, y, col, 1.5, pairs[k].integrator == "rk4");
        c.marker(left + 12, y, col, pairs[k].method != "projection");
        c.text(left + 32, y + 4, pairs[k].label(), 12);
    }
}

void drawModel(Canvas& c, const Case& cs, const std::vector<Pair>& pairs, const std::vector<Point>& points) {
    c.text(490, 22, cs.title + ": work-precision over " + [&] {
        std::ostringstream o;
        o << cs.span;
        return o.str();
    }() + " s", 15, true);
    drawPanel(c, 80, 60, 330, 300, pairs, points, false, "error at the end");
    drawPanel(c, 500, 60, 330, 300, pairs, points, true, "constraint violation");
    drawLegend(c, 80, 430, pairs);
}

constexpr int kWidth = 1000, kHeight = 600;

bool writeDiagrams(const std::string& dir, const std::string& stem, const Case& cs, const std::vector<Pair>& pairs,
                   const std::vector<Point>& points) {
    QImage image(kWidth, kHeight, QImage::Format_ARGB32);
    image.fill(Qt::white);
    {
        QPainter painter(&image);
        painter.setRenderHint(QPainter::Antialiasing);
        PainterCanvas pc(painter);
        drawModel(pc, cs, pairs, points);
    }
    const bool png = image.save(QString::fromStdString(dir + "/" + stem + ".png"));
    SvgCanvas svg;
    drawModel(svg, cs, pairs, points);
    std::ofstream f(dir + "/" + stem + ".svg");
    f << "<?xml version='1.0' encoding='UTF-8'?>\n<svg xmlns='http://www.w3.org/2000/svg' width='" << kWidth
      << "' height='" << kHeight << "' viewBox='0 0 " << kWidth << " " << kHeight << "'>\n"
      << "<rect width='100%' height='100%' fill='white'/>\n"
      << svg.out.str() << "</svg>\n";
    return png && f.good();
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2 || argv[1][0] == '-') {
        std::cerr << "usage: bench_method_lab OUTPUT_DIR [--runs N] [--quick] [--model FILE] [--pair METHOD/INTEGRATOR,...]"
                     " [--rtols R1,R2,...] [--span S] [--max-wall S]\n";
        return 2;
    }
    // Text needs the font database, which needs an application; no display is used.
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    QGuiApplication app(argc, argv);
    const std::string dir = argv[1];
    int runs = 3;
    bool quick = false;
    std::string onlyModel, onlyPair;
    std::vector<double> givenRtols;
    double givenSpan = 0.0, givenMaxWall = 0.0;
    for (int i = 2; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--runs") && i + 1 < argc) runs = std::max(1, std::atoi(argv[++i]));
        else if (!std::strcmp(argv[i], "--quick")) quick = true;
        else if (!std::strcmp(argv[i], "--model") && i + 1 < argc) onlyModel = argv[++i];
        else if (!std::strcmp(argv[i], "--pair") && i + 1 < argc) onlyPair = argv[++i];
        else if (!std::strcmp(argv[i], "--span") && i + 1 < argc) givenSpan = std::atof(argv[++i]);
        else if (!std::strcmp(argv[i], "--max-wall") && i + 1 < argc) givenMaxWall = std::atof(argv[++i]);
        else if (!std::strcmp(argv[i], "--rtols") && i + 1 < argc) {
            std::istringstream list(argv[++i]);
            std::string item;
            while (std::getline(list, item, ',')) {
                const double r = std::atof(item.c_str());
                if (!(r > 0.0)) {
                    std::cerr << "--rtols: not a positive number: " << item << "\n";
                    return 2;
                }
                givenRtols.push_back(r);
            }
        }
    }
    std::vector<Case> cases{
        {"Rigid four-bar", "four-bar.json", 1.0, 1e-12},
        {"Andrews' mechanism", "andrews.json", 0.03, 1e-12},
        {"Flexible slider-crank", "flexible-slider-crank.json", 0.002, 1e-11},
        {"Flexible four-bar", "flexible-four-bar.json", 0.002, 1e-11},
        {"Chain of 20 loops", "chain-20-loops.json", 0.2, 1e-11},
    };
    std::vector<Pair> pairs{{"projection", "dopri5"}, {"projection", "bdf"},
                                  {"projection", "rk4"},    {"baumgarte", "dopri5"},
                                  {"penalty", "dopri5"},    {"augmented-lagrangian", "dopri5"},
                                  {"hht-index3", "hht"},    {"tlismni", "hht"}};
    if (!onlyModel.empty())
        cases.erase(std::remove_if(cases.begin(), cases.end(), [&](const Case& c) { return c.file != onlyModel; }),
                    cases.end());
    if (!onlyPair.empty())
        pairs.erase(std::remove_if(pairs.begin(), pairs.end(),
                                   [&](const Pair& p) {
                                       const std::string list = "," + onlyPair + ",";
                                       return list.find("," + p.label() + ",") == std::string::npos;
                                   }),
                    pairs.end());
    if (givenSpan > 0.0)
        for (Case& c : cases) c.span = givenSpan;
    if (cases.empty() || pairs.empty()) {
        std::cerr << "no model or no pair left by --model " << onlyModel << " --pair " << onlyPair << "\n";
        return 2;
    }
    const std::vector<double> rtols = !givenRtols.empty() ? givenRtols
                                      : quick                ? std::vector<double>{1e-4, 1e-6}
                                                             : std::vector<double>{1e-4, 1e-6, 1e-8};
    // Each run is cut off after this many seconds: a pair that cannot do a model in that
    // time is reported as such, not waited for.
    const double maxWall = givenMaxWall > 0.0 ? givenMaxWall : quick ? 5.0 : 10.0;

    std::ofstream csv(dir + "/method-lab.csv");
    if (!csv) {
        std::cerr << "cannot write " << dir << "/method-lab.csv\n";
        return 1;
    }
    csv << "model,method,integrator,setting,ok,wall_time_s,steps,final_error_m,max_position_violation_m,message\n";
    csv << std::setprecision(6);
    std::vector<Point> all;
    for (const Case& cs : cases) {
        const LoadedModel lm = loadModel(std::string(LOOPLAB_EXAMPLES_DIR) + "/" + cs.file);
        if (!lm.ok()) {
            std::cerr << cs.file << ": cannot be loaded\n";
            return 1;
        }
        State ref;
        const SimulationResult rr = simulate(lm, cs, {"projection", "dopri5"}, cs.refRtol, ref, 0.0);
        if (!rr.ok) {
            std::cerr << cs.file << ": reference failed: " << rr.message << "\n";
            return 1;
        }
        // The reference is only as good as its own error: a second run at ten times the
        // tolerance says how far from converged it may be (errors below that distance are
        // not resolved).
        State check;
        const SimulationResult rc = simulate(lm, cs, {"projection", "dopri5"}, 10 * cs.refRtol, check, 0.0);
        double refSpread = std::numeric_limits<double>::quiet_NaN();
        if (rc.ok) {
            State a = check, b = ref;
            normalizePositions(*lm.model, a.q);
            normalizePositions(*lm.model, b.q);
            refSpread = stateError(*lm.model, a, b);
        }
        std::cerr << cs.title << ": reference (rtol " << cs.refRtol << ") in " << rr.statistics.steps << " steps, "
                  << rr.wallTime << " s; at rtol " << 10 * cs.refRtol << " " << rc.statistics.steps
                  << " steps, ending " << refSpread << " m from it\n";
        csv << '"' << cs.title << "\",reference-check,dopri5," << 10 * cs.refRtol << "," << (rc.ok ? 1 : 0) << ","
            << rc.wallTime << "," << rc.statistics.steps << "," << refSpread << "," << rc.maxViolation.position
            << ",\"projection/dopri5 at this rtol against the reference at " << cs.refRtol << "\"\n";
        std::vector<Point> points;
        for (const Pair& p : pairs) {
            std::vector<double> settings = rtols;
            if (p.integrator == "rk4") {
                // Steps from a fiftieth to a 3200th of the span (the flexible model's
                // axial modes need far smaller ones: those runs fail and say so).
                settings = quick ? std::vector<double>{cs.span / 50, cs.span / 400}
                                 : std::vector<double>{cs.span / 50, cs.span / 400, cs.span / 3200};
            }
            for (double setting : settings) {
                Point pt;
                pt.model = cs.title;
                pt.pair = p.label();
                pt.setting = setting;
                std::vector<double> walls;
                for (int r = 0; r < runs; ++r) {
                    State final;
                    const SimulationResult res = simulate(lm, cs, p, setting, final, maxWall);
                    pt.ok = res.ok;
                    pt.message = res.message;
                    walls.push_back(res.wallTime);
                    if (!res.ok) break;
                    State a = final, b = ref;
                    normalizePositions(*lm.model, a.q);
                    normalizePositions(*lm.model, b.q);
                    pt.error = stateError(*lm.model, a, b);
                    pt.violation = res.maxViolation.position;
                    pt.steps = res.statistics.steps;
                    // One run is enough for a slow one: its time is not noise.
                    if (res.wallTime > 2.0) break;
                }
                std::sort(walls.begin(), walls.end());
                pt.wall = walls[walls.size() / 2];
                std::string msg = pt.message;
                std::replace(msg.begin(), msg.end(), ',', ';');
                std::replace(msg.begin(), msg.end(), '\n', ' ');
                csv << '"' << cs.title << "\"," << p.method << "," << p.integrator << "," << setting << ","
                    << (pt.ok ? 1 : 0) << "," << pt.wall << "," << pt.steps << "," << pt.error << "," << pt.violation
                    << ",\"" << (pt.ok ? "" : msg) << "\"\n";
                csv.flush();
                std::cerr << "  " << std::left << std::setw(32) << p.label() << std::setw(10) << setting
                          << (pt.ok ? "" : "FAILED ") << pt.wall << " s, " << pt.steps << " steps, error " << pt.error
                          << " m, violation " << pt.violation << " m\n";
                points.push_back(pt);
            }
        }
        std::string stem = "method-lab-" + cs.file.substr(0, cs.file.find('.'));
        if (!writeDiagrams(dir, stem, cs, pairs, points)) {
            std::cerr << "cannot write the diagrams " << dir << "/" << stem << ".png/.svg\n";
            return 1;
        }
        all.insert(all.end(), points.begin(), points.end());
    }
    std::cerr << "wrote " << dir << "/method-lab.csv and " << cases.size() << " diagrams (PNG and SVG)\n";
    return 0;
}
