// Design studies (StudyFile.h, StudyCases.h, StudyRunner.h, StudySummary.h and
// `looplab-cli study`): a four-bar's coupler sweep against the Grashof condition and the
// closed-form rocker angles, a Monte Carlo of a linear static output against its analytic
// normal distribution, the toggle clamp's locking force under pin tolerances against its
// loop closure and a large reference run, uniform draws and the factorial case order,
// identical rows for any number of threads and MPI ranks, resume, and the errors of bad
// study files.
#include "CliRunner.h"

#include "looplab/study/StudyCases.h"
#include "looplab/study/StudyExecution.h"
#include "looplab/study/StudyFile.h"
#include "looplab/study/StudyRunner.h"
#include "looplab/study/StudySummary.h"

#include <QFile>
#include <QFileInfo>
#include <QDir>
#include <QJsonDocument>
#include <QJsonObject>
#include <QElapsedTimer>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QThread>
#include <QTemporaryDir>
#include <QtTest>

#include <QProcess>

#include <algorithm>
#include <cmath>
#include <limits>

using namespace looplab;
using looplab::test::CliResult;
using looplab::test::runCli;

namespace {

const QString kStudies = QStringLiteral(LOOPLAB_STUDIES_DIR);

// Under the sanitizers (tests/CMakeLists.txt) every case runs 10–30 times slower: the
// runs that only compare rows between thread and rank counts take a quarter of the cases,
// and one study of the three.
#ifdef LOOPLAB_UNDER_SANITIZERS
constexpr int kRepeatedRunDivisor = 4;
constexpr bool kUnderSanitizers = true;
#else
constexpr int kRepeatedRunDivisor = 1;
constexpr bool kUnderSanitizers = false;
#endif

// A study of resources/studies copied into `dir`, its model path made absolute, with
// `samples` cases when samples > 0 (fewer cases for the runs repeated below) and the text
// `from`, which must be there, replaced by `to`.
QString studyCopy(const QTemporaryDir& dir, const QString& name, int samples, const QString& from = {},
                  const QString& to = {}) {
    QFile f(kStudies + "/" + name);
    if (!f.open(QIODevice::ReadOnly)) return {};
    QString text = QString::fromUtf8(f.readAll());
    if (!from.isEmpty()) {
        if (!text.contains(from)) return {};
        text.replace(from, to);
    }
    if (samples > 0)
        text.replace(QRegularExpression(QStringLiteral("\"samples\": \\d+")), QStringLiteral("\"samples\": %1").arg(samples));
    text.replace(QStringLiteral("\"model\": \""), QStringLiteral("\"model\": \"") + kStudies + "/");
    const QString path = dir.filePath(name);
    QFile out(path);
    const QByteArray bytes = text.toUtf8();
    if (!out.open(QIODevice::WriteOnly) || out.write(bytes) != bytes.size()) return {};
    return path;
}

// The slider-crank tolerance study with 20 cases instead of 200: enough rows to interrupt a
// run midway.
QString smallSliderCrankStudy(const QTemporaryDir& dir) {
    return studyCopy(dir, QStringLiteral("slider-crank-pin-tolerance.json"), 20);
}

QByteArray readAll(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

bool writeAll(const QString& path, const QByteArray& text) {
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(text) == text.size();
}

// The coupler sweep with its kinematics every 5 ms instead of every 1 ms: the tests of
// resuming compare files, not positions, and run it four times.
QString coarseCouplerSweep(const QTemporaryDir& dir) {
    return studyCopy(dir, QStringLiteral("four-bar-coupler-sweep.json"), 0, QStringLiteral("\"step\": 0.001"),
                     QStringLiteral("\"step\": 0.005"));
}

// The four-bar of resources/examples/four-bar-rod-coupler.json: crank a about A = (0, 0),
// rocker b about D = (d, 0), the coupler a rod between the crank's and the rocker's tips.
constexpr double kCrank = 0.1, kRocker = 0.3, kGroundLink = 0.4, kStartAngle = M_PI / 2;

// Rocker tip for crank angle th2 on the assembly branch of the model file (C to the left of
// the line from the crank tip B to D), or false where the loop does not close.
bool rockerTip(double L, double th2, double& cx, double& cy) {
    const double bx = kCrank * std::cos(th2), by = kCrank * std::sin(th2);
    const double dx = kGroundLink - bx, dy = -by, R = std::hypot(dx, dy);
    const double x = (L * L - kRocker * kRocker + R * R) / (2 * R), h2 = L * L - x * x;
    if (h2 < 0) return false;
    const double h = std::sqrt(h2), ex = dx / R, ey = dy / R;
    for (double sgn : {1.0, -1.0}) {
        cx = bx + x * ex - sgn * h * ey;
        cy = by + x * ey + sgn * h * ex;
        if (dx * (cy - by) - dy * (cx - bx) > 0) return true;
    }
    return false;
}

double rockerAngle(double cx, double cy) { return std::atan2(cy, cx - kGroundLink); }

// The toggle clamp of resources/studies/toggle-clamp-workpiece.json (that of
// resources/examples/toggle-clamp.json closing on a workpiece): the pins O, P and S in the
// file's configuration, where the handle is at −0.6 rad; the driver turns it about O by
// kClampTurn, to 10° past the dead centre. The workpiece is a spring between the plunger's
// face (at kPlungerFace in the file) and a ground point at kWorkpieceSupport.
constexpr double kClampTurn = 0.774532925199433, kHandleStart = -0.6;
constexpr double kNominalPins[6] = {0.0, 0.0, 0.0495201368945807, -0.03387854840370212, 0.16463852794509015, 0.0};
constexpr double kWorkpieceStiffness = 1.0e6, kWorkpieceFreeLength = 0.0418647;
constexpr double kPlungerFace = 0.24463852794509017, kWorkpieceSupport = 0.3;

// Plunger travel from the file's configuration once the handle has turned by `turn`, for
// pins (O.x, O.y, P.x, P.y, S.x, S.y): P turns about O, the link keeps its length |S − P|,
// and S slides along x, on the far side of P from O.
double clampTravel(const double* pins, double turn) {
    const double ox = pins[0], oy = pins[1], px = pins[2], py = pins[3], sx = pins[4], sy = pins[5];
    const double c = std::cos(turn), s = std::sin(turn);
    const double qx = ox + c * (px - ox) - s * (py - oy), qy = oy + s * (px - ox) + c * (py - oy);
    const double link = std::hypot(sx - px, sy - py);
    return qx + std::sqrt(link * link - (sy - qy) * (sy - qy)) - sx;
}

// The workpiece's push on the plunger after a travel, positive when compressed.
double workpieceForce(double travel) {
    return kWorkpieceStiffness * (kWorkpieceFreeLength - (kWorkpieceSupport - kPlungerFace - travel));
}

}  // namespace

class TestStudy : public QObject {
    Q_OBJECT
private slots:
    void couplerSweepFollowsGrashof();
    void monteCarloOfLinearOutput();
    void monteCarloDrawsDependOnCaseOnly();
    void modesAndSimulateAnalyses();
    void badStudyFilesNameFileAndLocation();
    void toggleClampLocksOnlyPastDeadCentre();
    void toggleClampLockingForceMatchesReference();
    void uniformDrawsFillTheirInterval();
    void factorialCasesNestInParameterOrder();
    void rangeLevelsComputedAlone();
    void threadsGiveIdenticalRows_data();
    void threadsGiveIdenticalRows();
    void resumeGivesTheSameFile();
    void killedStudyResumes();
    void outputsCheckedBeforeAnyCase();
    void mpiGivesIdenticalRows_data();
    void mpiGivesIdenticalRows();
};

void TestStudy::couplerSweepFollowsGrashof() {
    const StudyFileResult f = readStudyFile((kStudies + "/four-bar-coupler-sweep.json").toStdString());
    QVERIFY2(f.study, formatDiagnostics(f.diagnostics).c_str());
    const StudyDescription& s = *f.study;
    QCOMPARE(studyCaseCount(s), 13L);
    const double step = s.analysis.step;  // crank turns 2π per second
    // The file's rocker angle, the zero of D.angle.
    double c0x = 0, c0y = 0;
    QVERIFY(rockerTip(0.4, kStartAngle, c0x, c0y));
    const double phi0 = rockerAngle(c0x, c0y);
    const double bd = std::hypot(kGroundLink - kCrank * std::cos(kStartAngle), kCrank * std::sin(kStartAngle));
    int full = 0, assembledOnly = 0, notAssembled = 0;
    double worstSampled = 0, worstContinuous = 0;
    for (long k = 0; k < studyCaseCount(s); ++k) {
        const StudyRow row = runStudyCase(s, k);
        const double L = row.parameters[0];
        // Loop closure at the start: |L − b| ≤ |BD| ≤ L + b.
        const bool closes = std::abs(L - kRocker) <= bd && bd <= L + kRocker;
        QCOMPARE(row.assembled, closes);
        // Grashof with the crank shortest: s + l ≤ p + q, the crank turns fully.
        const double longest = std::max({L, kRocker, kGroundLink});
        const bool grashof = kCrank + longest <= (L + kRocker + kGroundLink) - longest;
        QVERIFY2(row.ok == (closes && grashof), (std::to_string(L) + ": " + row.reason).c_str());
        if (!row.ok) {
            QVERIFY(!row.reason.empty());
            (closes ? assembledOnly : notAssembled)++;
            continue;
        }
        ++full;
        // The rocker angles at the sampled crank angles, from the closed-form loop closure.
        double lo = INFINITY, hi = -INFINITY;
        for (int i = 0; i <= int(std::lround(1.0 / step)); ++i) {
            double cx, cy;
            QVERIFY(rockerTip(L, kStartAngle + 2 * M_PI * i * step, cx, cy));
            const double phi = std::remainder(rockerAngle(cx, cy) - phi0, 2 * M_PI);
            lo = std::min(lo, phi);
            hi = std::max(hi, phi);
        }
        const double minD = row.values[0], maxD = row.values[1];
        worstSampled = std::max({worstSampled, std::abs(minD - lo), std::abs(maxD - hi)});
        QVERIFY2(std::abs(minD - lo) < 1e-8 && std::abs(maxD - hi) < 1e-8, std::to_string(L).c_str());
        // The extremes themselves: crank and coupler in line, A–C = L ± a, and
        // cos∠ADC = (d² + b² − AC²)/(2db); the rocker angle from the ground line is π − ∠ADC.
        auto extreme = [&](double ac) {
            return M_PI - std::acos((kGroundLink * kGroundLink + kRocker * kRocker - ac * ac) / (2 * kGroundLink * kRocker)) - phi0;
        };
        // The rocker is lowest (angle smallest) with crank and coupler stretched, A–C = L + a.
        const double exactLo = extreme(L + kCrank), exactHi = extreme(L - kCrank);
        worstContinuous = std::max({worstContinuous, std::abs(minD - exactLo), std::abs(maxD - exactHi)});
        // Sampling every 0.36° of crank misses an extreme by at most ½|θ₄''|(Δθ₂/2)²; over these
        // couplers |θ₄''| ≤ 1.51 (the closed form differenced twice), a bound of 7.4e-6 rad.
        QVERIFY2(std::abs(minD - exactLo) < 1e-5 && std::abs(maxD - exactHi) < 1e-5, std::to_string(L).c_str());
        QVERIFY(minD >= exactLo - 1e-9 && maxD <= exactHi + 1e-9);  // samples never pass the true extremes
        QCOMPARE(row.values[4], 2 * M_PI);  // A.angle.final: one full turn
    }
    QCOMPARE(full, 8);
    QCOMPARE(assembledOnly, 4);
    QCOMPARE(notAssembled, 1);
    qInfo("rocker extremes: %.2e rad from the closed form at the sampled crank angles, %.2e rad from the exact extremes",
          worstSampled, worstContinuous);
}

void TestStudy::monteCarloOfLinearOutput() {
    const StudyFileResult f = readStudyFile((kStudies + "/spring-mass-monte-carlo.json").toStdString());
    QVERIFY2(f.study, formatDiagnostics(f.diagnostics).c_str());
    const StudyDescription& s = *f.study;
    const long n = studyCaseCount(s);
    QCOMPARE(n, 400L);
    const double g = 9.81, k = 1000.0, mu = 1.0, sigma = 0.1;
    std::vector<StudyRow> rows;
    for (long i = 0; i < n; ++i) {
        rows.push_back(runStudyCase(s, i));
        const StudyRow& r = rows.back();
        QVERIFY2(r.ok, r.reason.c_str());
        // Static sag −m g/k, to the statics tolerance.
        QVERIFY(std::abs(r.values[0] + r.parameters[0] * g / k) < 1e-12);
        QCOMPARE(r.values[1], r.values[0]);
    }
    const StudySummary sum = summarizeStudy(s, rows);
    QCOMPARE(sum.failures, 0L);
    const StudyOutputSummary& y = sum.outputs[0];
    QCOMPARE(y.count, n);
    // y = −(g/k) m, m ~ N(μ, σ²): mean −gμ/k, sd gσ/k. Four standard errors: the sample mean
    // has sd σ_y/√n, the sample sd has sd ≈ σ_y/√(2(n − 1)).
    const double meanY = -g * mu / k, sdY = g * sigma / k;
    const double seMean = sdY / std::sqrt(double(n)), seSd = sdY / std::sqrt(2.0 * double(n - 1));
    qInfo("mean %.6e (analytic %.6e, %.2f standard errors), sd %.6e (analytic %.6e, %.2f standard errors)", y.mean,
          meanY, (y.mean - meanY) / seMean, y.sd, sdY, (y.sd - sdY) / seSd);
    QVERIFY(std::abs(y.mean - meanY) < 4 * seMean);
    QVERIFY(std::abs(y.sd - sdY) < 4 * seSd);
    // The median of a normal sample: standard error √(π/2) σ/√n.
    QVERIFY(std::abs(y.quantiles[2] - meanY) < 4 * std::sqrt(M_PI / 2) * seMean);
    // Exactly linear: the regression recovers ∂y/∂m = −g/k and ranks are reversed.
    QVERIFY(y.regression[0]);
    QVERIFY(std::abs(*y.regression[0] + g / k) < 1e-9 * g / k);
    QVERIFY(std::abs(y.regressionR2 - 1.0) < 1e-12);
    QVERIFY(y.spearman[0]);
    QVERIFY(std::abs(*y.spearman[0] + 1.0) < 1e-12);
}

void TestStudy::monteCarloDrawsDependOnCaseOnly() {
    const StudyFileResult f = readStudyFile((kStudies + "/slider-crank-pin-tolerance.json").toStdString());
    QVERIFY2(f.study, formatDiagnostics(f.diagnostics).c_str());
    StudyDescription s = *f.study;
    const std::vector<double> a = studyCaseValues(s, 17);
    for (long i = 199; i >= 0; --i) studyCaseValues(s, i);  // other cases, in another order
    QCOMPARE(studyCaseValues(s, 17), a);
    QVERIFY(studyCaseValues(s, 18) != a);
    s.seed += 1;
    QVERIFY(studyCaseValues(s, 17) != a);
    // Pin positions within six standard deviations of the nominal ones.
    for (size_t p = 0; p < a.size(); ++p) QVERIFY(std::abs(a[p] - s.parameters[p].mean) < 6 * s.parameters[p].sd);
}

void TestStudy::modesAndSimulateAnalyses() {
    const std::string examples = LOOPLAB_EXAMPLES_DIR;
    // Modes of the block on its spring: one mode, f = √(k/m)/2π, for each mass.
    StudyFileResult f = parseStudyFile(R"({"format": "looplab-study", "version": 1, "model": ")" + examples +
                                           R"(/spring-mass.json", "parameters": [{"name": "m", "path": "/bodies/0/mass",
        "values": [0.5, 2.0, 8.0]}], "analysis": {"type": "modes", "count": 1},
        "outputs": [{"quantity": "mode1.frequency"}, {"quantity": "guide.displacement"}]})",
                                       "modes.json");
    QVERIFY2(f.study, formatDiagnostics(f.diagnostics).c_str());
    for (long k = 0; k < 3; ++k) {
        const StudyRow r = runStudyCase(*f.study, k);
        QVERIFY2(r.ok, r.reason.c_str());
        const double m = r.parameters[0], expected = std::sqrt(1000.0 / m) / (2 * M_PI);
        QVERIFY2(std::abs(r.values[0] - expected) < 1e-9 * expected, std::to_string(r.values[0]).c_str());
        QVERIFY(std::abs(r.values[1] + m * 9.81 / 1000.0) < 1e-12);
    }
    // The pendulum's static equilibrium: hanging straight down, the pivot carries the weight.
    f = parseStudyFile(R"({"format": "looplab-study", "version": 1, "model": ")" + examples +
                           R"(/pendulum.json", "parameters": [{"name": "m", "path": "/bodies/0/mass",
        "values": [1.0, 2.5]}], "analysis": {"type": "statics"},
        "outputs": [{"quantity": "bob.y"}, {"quantity": "pivot.fx"}, {"quantity": "pivot.fy"}, {"quantity": "pivot.tz"}]})",
                       "statics.json");
    QVERIFY2(f.study, formatDiagnostics(f.diagnostics).c_str());
    for (long k = 0; k < 2; ++k) {
        const StudyRow r = runStudyCase(*f.study, k);
        QVERIFY2(r.ok, r.reason.c_str());
        const double w = r.parameters[0] * 9.81;
        QVERIFY(std::abs(r.values[0] + 1.0) < 1e-9);
        QVERIFY(std::abs(r.values[1]) < 1e-9 * w);
        QVERIFY2(std::abs(r.values[2] - w) < 1e-9 * w, std::to_string(r.values[2]).c_str());  // upward on the bob
        QVERIFY(std::abs(r.values[3]) < 1e-9 * w);  // a revolute about z carries no torque about z
    }
    // The pendulum released from rest at 120°: its bob never rises above the start, it reaches
    // the bottom (y = −1 m, the centre of mass 1 m from the pivot) after a quarter period
    // (0.689 s, model description), and its energy stays within the tolerance; no events.
    f = parseStudyFile(R"({"format": "looplab-study", "version": 1, "model": ")" + examples +
                           R"(/pendulum.json", "parameters": [{"name": "m", "path": "/bodies/0/mass",
        "values": [1.0, 3.0]}], "analysis": {"type": "simulate", "t_end": 0.8, "rtol": 1e-10, "atol": 1e-12,
        "output_step": 0.001}, "outputs": [{"quantity": "bob.y", "of": ["initial", "min", "max"]},
        {"quantity": "energy", "of": ["min", "max"]}]})",
                       "simulate.json");
    QVERIFY2(f.study, formatDiagnostics(f.diagnostics).c_str());
    QCOMPARE(studyValueColumns(*f.study).front(), std::string("singular_configurations"));
    for (long k = 0; k < 2; ++k) {
        const StudyRow r = runStudyCase(*f.study, k);
        QVERIFY2(r.ok, r.reason.c_str());
        QCOMPARE(r.values[0], 0.0);  // singular configurations
        QCOMPARE(r.values[1], 0.0);  // branch changes
        QVERIFY(std::abs(r.values[2] - 0.5) < 1e-12);
        // The bottom is passed between output times and missed by at most ½|ÿ|(Δt/2)²: at the
        // bottom ω² = 2·g·1.5 m·m/I = 29.4 rad²/s², |ÿ| = ω²·1 m, a bound of 3.7e-6 m.
        QVERIFY2(std::abs(r.values[3] + 1.0) < 1e-5, std::to_string(r.values[3]).c_str());
        QVERIFY(r.values[4] <= 0.5 + 1e-9);
        const double e = std::max(std::abs(r.values[5]), std::abs(r.values[6]));
        QVERIFY2(r.values[6] - r.values[5] < 1e-6 * e, std::to_string(r.values[6] - r.values[5]).c_str());
    }
}

void TestStudy::badStudyFilesNameFileAndLocation() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString model = QStringLiteral(LOOPLAB_EXAMPLES_DIR "/spring-mass.json");
    struct Case {
        const char* text;
        const char* location;
        const char* words;
    };
    const Case cases[] = {
        {R"({"format": "looplab-study", "version": 1, "model": "MODEL", "seed": 1, "samples": 3,
            "parameters": [{"path": "/bodies/5/mass", "normal": {"mean": 1, "sd": 0.1}}],
            "analysis": {"type": "statics"}, "outputs": [{"quantity": "block.y"}]})",
         "/parameters/0/path", "no value at '/bodies/5/mass'"},
        {R"({"format": "looplab-study", "version": 1, "model": "MODEL",
            "parameters": [{"path": "/bodies/0/mass", "values": [1, 2]}],
            "analysis": {"type": "statics"}, "outputs": [{"quantity": "block.w"}]})",
         "/outputs/0/quantity", "no quantity 'block.w'"},
        {R"({"format": "looplab-study", "version": 1, "model": "MODEL",
            "parameters": [{"path": "/bodies/0/mass", "range": {"from": 1, "to": 2, "steps": 0}}],
            "analysis": {"type": "statics"}, "outputs": [{"quantity": "block.y"}]})",
         "/parameters/0/range/steps", "at least 1"},
        {R"({"format": "looplab-study", "version": 1, "model": "MODEL",
            "parameters": [{"path": "/bodies/0/name", "values": [1]}],
            "analysis": {"type": "simulate", "t_end": 1, "integrator": "rk4"}, "outputs": []})",
         "/parameters/0/path", "not a number"},
        {R"({"format": "looplab-study", "version": 1, "model": "MODEL",
            "parameters": [{"path": "/bodies/0/mass", "values": [1]}],
            "analysis": {"type": "simulate", "t_end": 1, "integrator": "rk4"}, "outputs": []})",
         "/analysis/step", "needs a positive 'step'"},
        {R"({"format": "looplab-study", "version": 1, "model": "MODEL",
            "parameters": [{"path": "/bodies/0/mass", "values": [1]}],
            "analysis": {"type": "simulate", "t_end": 1, "integrator": "rk4", "step": 1e-300}, "outputs": []})",
         "/analysis/step", "more steps than 'max_steps' (10000000)"},
        {R"({"format": "looplab-study", "version": 1, "model": "MODEL",
            "parameters": [{"path": "/bodies/0/mass", "values": [1]}],
            "analysis": {"type": "simulate", "t_end": 1, "integrator": "rk4", "step": 0.01, "max_steps": 99},
            "outputs": []})",
         "/analysis/step", "more steps than 'max_steps' (99)"},
        {R"({"format": "looplab-study", "version": 1, "model": "MODEL",
            "parameters": [{"path": "/bodies/0/mass", "values": [1]}],
            "analysis": {"type": "kinematics", "t_end": 1, "step": 1e-300}, "outputs": []})",
         "/analysis/step", "more than 10 000 000 output steps per case"},
        {R"({"format": "looplab-study", "version": 1, "model": "MODEL",
            "parameters": [{"path": "/bodies/0/mass", "values": [1]}],
            "analysis": {"type": "simulate", "t_end": 1, "output_step": 1e-300}, "outputs": []})",
         "/analysis/output_step", "more than 10 000 000 output steps per case"},
        {R"({"format": "looplab-study", "version": 1, "model": "MODEL", "seed": 18446744073709551615, "samples": 2,
            "parameters": [{"path": "/bodies/0/mass", "uniform": {"low": 1, "high": 2}}],
            "analysis": {"type": "statics"}, "outputs": [{"quantity": "block.y"}]})",
         "/seed", "too large"},
        {R"({"format": "looplab-study", "version": 1, "model": "MODEL",
            "parameters": [{"path": "/bodies/0/mass", "values": [1]}, {"name": "again", "path": "/bodies/0/mass", "values": [2]}],
            "analysis": {"type": "check"}})",
         "/parameters/1/path", "another parameter varies"},
        {R"({"format": "looplab-study", "version": 1, "model": "MODEL", "seed": 1, "samples": 2,
            "parameters": [{"path": "/bodies/0/mass", "values": [1]}, {"path": "/forces/0/stiffness", "normal": {"mean": 1, "sd": 1}}],
            "analysis": {"type": "check"}})",
         "/parameters", "not both"},
        // A pointer at an object or an array, named with its article.
        {R"({"format": "looplab-study", "version": 1, "model": "MODEL",
            "parameters": [{"path": "/bodies/0", "values": [1]}], "analysis": {"type": "check"}})",
         "/parameters/0/path", "the model's value at '/bodies/0' is an object, not a number"},
        {R"({"format": "looplab-study", "version": 1, "model": "MODEL",
            "parameters": [{"path": "/bodies", "values": [1]}], "analysis": {"type": "check"}})",
         "/parameters/0/path", "the model's value at '/bodies' is an array, not a number"},
        // A model that is a directory, or a device that never ends: refused, not read forever.
        {R"({"format": "looplab-study", "version": 1, "model": "/",
            "parameters": [{"path": "/bodies/0/mass", "values": [1]}], "analysis": {"type": "check"}})",
         "/model", "is a directory, not a model file"},
        {R"({"format": "looplab-study", "version": 1, "model": "/dev/zero",
            "parameters": [{"path": "/bodies/0/mass", "values": [1]}], "analysis": {"type": "check"}})",
         "/model", "larger than 64 MB"},
        // What the command line refuses is refused in a study too: a relative tolerance
        // of 1 or more, a parameter that points at the whole model.
        {R"({"format": "looplab-study", "version": 1, "model": "MODEL",
            "parameters": [{"path": "/bodies/0/mass", "values": [1]}],
            "analysis": {"type": "simulate", "t_end": 1, "rtol": 2}, "outputs": []})",
         "/analysis/rtol", "'rtol' must be below 1"},
        {R"({"format": "looplab-study", "version": 1, "model": "MODEL",
            "parameters": [{"name": "whole", "path": "", "values": [1]}], "analysis": {"type": "check"}})",
         "/parameters/0/path", "'path' is empty"},
    };
    int i = 0;
    for (const Case& c : cases) {
        const QString path = dir.filePath(QStringLiteral("bad%1.json").arg(i++));
        QVERIFY(writeAll(path, QByteArray(c.text).replace("MODEL", model.toUtf8())));
        const StudyFileResult r = readStudyFile(path.toStdString());
        QVERIFY(!r.study);
        const std::string text = formatDiagnostics(r.diagnostics);
        QVERIFY2(text.find(path.toStdString() + ": " + c.location + ": ") != std::string::npos, text.c_str());
        QVERIFY2(text.find(c.words) != std::string::npos, text.c_str());
        // The command line reports the same and does not run.
        const CliResult cli = runCli({"study", path, "--out", dir.filePath("out.csv")});
        QCOMPARE(cli.exitCode, 2);
        QVERIFY2(cli.err.contains(QByteArray(c.location)), cli.err.constData());
        QVERIFY(!QFile::exists(dir.filePath("out.csv")));
    }
    // Broken JSON: the line and column.
    const QString broken = dir.filePath("broken.json");
    QVERIFY(writeAll(broken, "{\n  \"format\": \"looplab-study\",\n  \"version\": 1,,\n}"));
    const StudyFileResult r = readStudyFile(broken.toStdString());
    QVERIFY(!r.study);
    QCOMPARE(r.diagnostics.size(), size_t(1));
    QCOMPARE(r.diagnostics[0].line, 3);
    QCOMPARE(r.diagnostics[0].column, 16);
    // A number beyond a double's range: where it is, as the model file says it.
    const QString huge = dir.filePath("huge.json");
    QVERIFY(writeAll(huge, "{\n  \"format\": \"looplab-study\",\n  \"version\": 1,\n  \"seed\": 1e999\n}"));
    const StudyFileResult h = readStudyFile(huge.toStdString());
    QVERIFY(!h.study);
    QCOMPARE(h.diagnostics.size(), size_t(1));
    QVERIFY2(h.diagnostics[0].message.find("number 1e999 at /seed is too large: a study file's numbers") == 0,
             h.diagnostics[0].message.c_str());
    QCOMPARE(h.diagnostics[0].line, 4);
}

void TestStudy::toggleClampLocksOnlyPastDeadCentre() {
    // The handle turned to 0.05 rad short of the dead centre and to the file's 10° past it,
    // without gravity, so that the stop's torque (the driver's effort) is the load's alone.
    const StudyFileResult f = parseStudyFile(R"({"format": "looplab-study", "version": 1, "model": ")" +
                                                 kStudies.toStdString() + R"(/toggle-clamp-workpiece.json",
        "parameters": [{"name": "turn", "path": "/drivers/0/law/h1", "values": [0.55, 0.774532925199433]},
                       {"name": "g", "path": "/gravity/1", "values": [0]}],
        "analysis": {"type": "simulate", "t_end": 1.2, "method": "projection", "integrator": "dopri5", "output_step": 0.05},
        "outputs": [{"quantity": "S.fx"}, {"quantity": "guide.displacement"}, {"quantity": "handle drive.effort"}]})",
                                             "turn.json");
    QVERIFY2(f.study, formatDiagnostics(f.diagnostics).c_str());
    const double* pins = kNominalPins;
    const double r = std::hypot(pins[2] - pins[0], pins[3] - pins[1]), l = std::hypot(pins[4] - pins[2], pins[5] - pins[3]);
    for (long k = 0; k < 2; ++k) {
        const StudyRow row = runStudyCase(*f.study, k);
        QVERIFY2(row.ok, row.reason.c_str());
        const double turn = row.parameters[0], theta = kHandleStart + turn;
        const double travel = clampTravel(pins, turn), load = workpieceForce(travel);
        QVERIFY2(std::abs(row.values[3] - travel) < 1e-12, std::to_string(row.values[3] - travel).c_str());
        QVERIFY2(std::abs(row.values[2] - load) < 1e-6, std::to_string(row.values[2] - load).c_str());
        QVERIFY(load > 0);  // the workpiece is compressed in both
        // At rest the stop's torque τ balances the load F by virtual work, τ δθ = F δx, with
        // x(θ) = r cos θ + √(l² − r² sin² θ) (O and S on the guide's line).
        const double sin = std::sin(theta), cos = std::cos(theta);
        const double stop = load * (-r * sin - r * r * sin * cos / std::sqrt(l * l - r * r * sin * sin));
        QVERIFY2(std::abs(row.values[4] - stop) < 1e-9 * std::abs(stop), std::to_string(row.values[4] - stop).c_str());
        // Short of the dead centre the load turns the handle back, opening the clamp, and the
        // driver must push it on (τ > 0); past it the load turns the handle on against the stop,
        // which pushes back (τ < 0): the clamp is locked.
        QCOMPARE(row.values[4] < 0, theta > 0);
    }
}

void TestStudy::toggleClampLockingForceMatchesReference() {
#ifdef LOOPLAB_UNDER_SANITIZERS
    QSKIP("256 simulations for a statistical bound: release build only");
#endif
    const StudyFileResult f = readStudyFile((kStudies + "/toggle-clamp-pin-tolerance.json").toStdString());
    QVERIFY2(f.study, formatDiagnostics(f.diagnostics).c_str());
    const StudyDescription& s = *f.study;
    const long n = studyCaseCount(s);
    QCOMPARE(n, 256L);
    std::vector<long> cases(static_cast<size_t>(n));
    for (long k = 0; k < n; ++k) cases[size_t(k)] = k;
    std::vector<StudyRow> rows(static_cast<size_t>(n));
    QCOMPARE(runStudyCases(s, cases, 2, [&](StudyRow&& row, const StudyProgress&) { rows[size_t(row.index)] = std::move(row); }),
             n);
    const std::vector<std::string> columns = studyValueColumns(s);
    const auto column = [&](const char* name) { return size_t(std::find(columns.begin(), columns.end(), name) - columns.begin()); };
    const size_t force = column("S.fx.final"), travel = column("guide.displacement.final"),
                 stop = column("handle drive.effort.final");
    QVERIFY(force < columns.size() && travel < columns.size() && stop < columns.size());
    // Every case against the loop closure of its own pins, and locked.
    double worstTravel = 0, worstForce = 0;
    long locked = 0;
    for (const StudyRow& r : rows) {
        QVERIFY2(r.ok, r.reason.c_str());
        const double d = clampTravel(r.parameters.data(), kClampTurn);
        worstTravel = std::max(worstTravel, std::abs(r.values[travel] - d));
        worstForce = std::max(worstForce, std::abs(r.values[force] - workpieceForce(d)));
        locked += r.values[stop] < 0 ? 1 : 0;
    }
    QVERIFY2(worstTravel < 1e-12, std::to_string(worstTravel).c_str());
    QVERIFY2(worstForce < 1e-6, std::to_string(worstForce).c_str());
    QCOMPARE(locked, n);

    // The locking force's mean and standard deviation against a run of 20 000 cases with
    // another seed (tests/data, with the command that produced it).
    QFile file(QStringLiteral(LOOPLAB_TEST_DATA_DIR "/toggle-clamp-locking-force-reference.json"));
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QJsonObject ref = QJsonDocument::fromJson(file.readAll()).object();
    QCOMPARE(ref["column"].toString(), QStringLiteral("S.fx.final"));
    QVERIFY(ref["cases"].toInteger() >= 10000);
    QVERIFY(std::uint64_t(ref["seed"].toInteger()) != s.seed);
    const double refMean = ref["mean"].toDouble(), refSd = ref["sd"].toDouble();
    QVERIFY(refSd > 0);
    const StudySummary sum = summarizeStudy(s, rows);
    const auto out = std::find_if(sum.outputs.begin(), sum.outputs.end(),
                                  [](const StudyOutputSummary& o) { return o.column == "S.fx.final"; });
    QVERIFY(out != sum.outputs.end());
    QCOMPARE(out->count, n);
    // The sample mean has the standard error σ/√n. For a normal output (n − 1)s²/σ² is χ² with
    // n − 1 degrees of freedom (the locking force is: over the reference run its skewness is
    // −0.015 and its kurtosis 3.05), so s lies in σ·√(χ²_p / (n − 1)) between p = 0.00005 and
    // 0.99995 with probability 99.99 %. The quantiles by Wilson and Hilferty's cube-root
    // approximation, within 0.05 % of the exact ones at 255 degrees of freedom.
    const double meanBound = 4 * refSd / std::sqrt(double(n));
    const auto chi2 = [](double k, double z) {
        const double a = 2 / (9 * k);
        return k * std::pow(1 - a + z * std::sqrt(a), 3);
    };
    constexpr double z = 3.890591886413095;  // standard normal quantile at 0.99995
    const double dof = double(n - 1);
    const double sdLow = refSd * std::sqrt(chi2(dof, -z) / dof), sdHigh = refSd * std::sqrt(chi2(dof, z) / dof);
    qInfo("locking force over %ld cases: mean %.4f N (reference %.4f N, bound ±%.4f N), sd %.4f N (reference %.4f N, "
          "band %.4f to %.4f N); loop closure to %.1e m and %.1e N",
          n, out->mean, refMean, meanBound, out->sd, refSd, sdLow, sdHigh, worstTravel, worstForce);
    QVERIFY(std::abs(out->mean - refMean) < meanBound);
    QVERIFY(sdLow < out->sd && out->sd < sdHigh);
}

void TestStudy::uniformDrawsFillTheirInterval() {
    const StudyFileResult f = parseStudyFile(R"({"format": "looplab-study", "version": 1, "model": ")" LOOPLAB_EXAMPLES_DIR
                                             R"(/spring-mass.json", "seed": 3, "samples": 20000,
        "parameters": [{"name": "m", "path": "/bodies/0/mass", "uniform": {"low": 1.0, "high": 3.0}},
                       {"name": "k", "path": "/forces/0/stiffness", "uniform": {"low": 900.0, "high": 1100.0}}],
        "analysis": {"type": "statics"}, "outputs": [{"quantity": "block.y"}]})",
                                             "uniform.json");
    QVERIFY2(f.study, formatDiagnostics(f.diagnostics).c_str());
    const long n = studyCaseCount(*f.study);
    QCOMPARE(n, 20000L);
    double lo[2] = {INFINITY, INFINITY}, hi[2] = {-INFINITY, -INFINITY}, sum[2] = {0, 0}, sq[2] = {0, 0}, cross = 0;
    for (long k = 0; k < n; ++k) {
        const std::vector<double> v = studyCaseValues(*f.study, k);
        for (int p = 0; p < 2; ++p) {
            lo[p] = std::min(lo[p], v[size_t(p)]);
            hi[p] = std::max(hi[p], v[size_t(p)]);
            sum[p] += v[size_t(p)];
            sq[p] += v[size_t(p)] * v[size_t(p)];
        }
        cross += v[0] * v[1];
    }
    const double low[2] = {1.0, 900.0}, high[2] = {3.0, 1100.0};
    double sd[2];
    for (int p = 0; p < 2; ++p) {
        const double w = high[p] - low[p], mean = sum[p] / double(n);
        const double var = (sq[p] - double(n) * mean * mean) / double(n - 1);
        sd[p] = std::sqrt(var);
        qInfo("uniform on [%g, %g): %.6g to %.6g, mean %.6g, variance %.6g (w²/12 = %.6g)", low[p], high[p], lo[p], hi[p],
              mean, var, w * w / 12);
        // Inside [low, high), and no gap at either end wider than w/1000: the chance of one
        // is (1 − 0.001)ⁿ = 2e-9 per end.
        QVERIFY(lo[p] >= low[p] && hi[p] < high[p]);
        QVERIFY(lo[p] - low[p] < 1e-3 * w && high[p] - hi[p] < 1e-3 * w);
        // Mean (low + high)/2 and variance w²/12 within four standard errors: w/√(12n) for the
        // mean, √((μ₄ − σ⁴)/n) = √((w⁴/80 − w⁴/144)/n) for the variance.
        QVERIFY(std::abs(mean - (low[p] + high[p]) / 2) < 4 * w / std::sqrt(12.0 * double(n)));
        QVERIFY(std::abs(var - w * w / 12) < 4 * w * w * std::sqrt((1.0 / 80 - 1.0 / 144) / double(n)));
    }
    // The two parameters draw from separate numbers: correlation within four standard errors of 0.
    const double covariance = (cross - sum[0] * sum[1] / double(n)) / double(n - 1);
    QVERIFY(std::abs(covariance / (sd[0] * sd[1])) < 4 / std::sqrt(double(n)));
}

void TestStudy::factorialCasesNestInParameterOrder() {
    // The block on its spring with three parameters: 3 masses × 3 stiffnesses × 2 gravities.
    const StudyFileResult f = parseStudyFile(R"({"format": "looplab-study", "version": 1, "model": ")" LOOPLAB_EXAMPLES_DIR
                                             R"(/spring-mass.json",
        "parameters": [{"name": "m", "path": "/bodies/0/mass", "values": [0.5, 1.0, 2.0]},
                       {"name": "k", "path": "/forces/0/stiffness", "range": {"from": 500, "to": 1500, "steps": 3}},
                       {"name": "g", "path": "/gravity/1", "values": [-9.81, -1.62]}],
        "analysis": {"type": "statics"}, "outputs": [{"quantity": "block.y"}]})",
                                             "factorial.json");
    QVERIFY2(f.study, formatDiagnostics(f.diagnostics).c_str());
    QCOMPARE(studyCaseCount(*f.study), 18L);
    // Nested loops in the order the parameters are listed, the last innermost.
    long k = 0;
    for (double m : {0.5, 1.0, 2.0})
        for (double stiffness : {500.0, 1000.0, 1500.0})
            for (double g : {-9.81, -1.62}) {
                QCOMPARE(studyCaseValues(*f.study, k), (std::vector<double>{m, stiffness, g}));
                // Each value reaches its place in the model: the block sags by m g / k.
                const StudyRow r = runStudyCase(*f.study, k);
                QVERIFY2(r.ok, r.reason.c_str());
                QVERIFY2(std::abs(r.values[0] - m * g / stiffness) < 1e-12, std::to_string(k).c_str());
                ++k;
            }
    // Case 13: level ⌊13/6⌋ mod 3 = 2 of the mass, ⌊13/2⌋ mod 3 = 0 of the stiffness, 13 mod 2 = 1 of gravity.
    QCOMPARE(studyCaseValues(*f.study, 13), (std::vector<double>{2.0, 500.0, -1.62}));
}

void TestStudy::rangeLevelsComputedAlone() {
    // A case's value of a range is its own level, not an element of the whole range built
    // anew for every case: a range of 10⁷ steps (the most a file may give) costs no more
    // per case than a list of two.
    const StudyFileResult f = parseStudyFile(R"({"format": "looplab-study", "version": 1, "model": ")" LOOPLAB_EXAMPLES_DIR
                                             R"(/spring-mass.json",
        "parameters": [{"name": "m", "path": "/bodies/0/mass", "values": [2.0]},
                       {"name": "k", "path": "/forces/0/stiffness", "range": {"from": 0.1, "to": 2.3, "steps": 10000000}}],
        "analysis": {"type": "statics"}, "outputs": [{"quantity": "block.y"}]})",
                                             "long-range.json");
    QVERIFY2(f.study, formatDiagnostics(f.diagnostics).c_str());
    const StudyParameter& k = f.study->parameters[1];
    QCOMPARE(k.levelCount(), 10000000L);
    QCOMPARE(studyCaseCount(*f.study), 10000000L);
    // Level j is (1 − j/(n − 1))·from + j/(n − 1)·to; the last is `to` exactly.
    const double n1 = 9999999.0;
    for (long j : {0L, 1L, 4999999L, 9999998L}) {
        const std::vector<double> v = studyCaseValues(*f.study, j);
        QCOMPARE(v[0], 2.0);
        const double exact = 0.1 + 2.2 * double(j) / n1;
        QVERIFY2(std::abs(v[1] - exact) <= 4 * std::numeric_limits<double>::epsilon() * 2.3, std::to_string(j).c_str());
    }
    QCOMPARE(studyCaseValues(*f.study, 10000000L - 1), (std::vector<double>{2.0, 2.3}));
    // The same numbers as the whole range, where building it is cheap.
    StudyParameter small = k;
    small.steps = 7;
    const std::vector<double> all = small.levels();
    QCOMPARE(long(all.size()), small.levelCount());
    for (long j = 0; j < small.levelCount(); ++j) QCOMPARE(small.level(j), all[size_t(j)]);
    QCOMPARE(all.back(), 2.3);
}

void TestStudy::threadsGiveIdenticalRows_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<int>("samples");
    QTest::newRow("slider-crank pin tolerances") << "slider-crank-pin-tolerance.json" << 48 / kRepeatedRunDivisor;
    // The thread pool is the same for every study: under the sanitizers one study is enough
    // to check its memory; the release build compares all three.
    if (kUnderSanitizers) return;
    QTest::newRow("four-bar coupler sweep") << "four-bar-coupler-sweep.json" << 0;
    QTest::newRow("toggle clamp pin tolerances") << "toggle-clamp-pin-tolerance.json" << 96 / kRepeatedRunDivisor;
}

void TestStudy::threadsGiveIdenticalRows() {
    QFETCH(QString, file);
    QFETCH(int, samples);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString study = studyCopy(dir, file, samples);
    QVERIFY(!study.isEmpty());
    QByteArray first, firstSummary;
    for (const char* threads : {"1", "2", "4"}) {
        const QString out = dir.filePath(QStringLiteral("t%1.csv").arg(threads));
        const CliResult r = runCli({"study", study, "--out", out, "--threads", threads, "--summary", out + ".json"});
        QVERIFY2(r.finished && r.exitCode == 0, r.err.constData());
        const QByteArray rows = readAll(out);
        QByteArray summary = readAll(out + ".json").replace(out.toUtf8(), "");
        QVERIFY(rows.count('\n') > 10);
        QVERIFY(!summary.isEmpty());
        if (first.isEmpty()) {
            first = rows;
            firstSummary = summary;
        } else {
            QCOMPARE(rows, first);
            QCOMPARE(summary, firstSummary);
        }
        QVERIFY(!QFile::exists(out + ".partial"));
    }
}

void TestStudy::resumeGivesTheSameFile() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString study = coarseCouplerSweep(dir);
    QVERIFY(!study.isEmpty());
    const QString full = dir.filePath("full.csv"), cut = dir.filePath("cut.csv");
    CliResult r = runCli({"study", study, "--out", full, "--threads", "2", "--summary", dir.filePath("full.json")});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    const QByteArray whole = readAll(full);
    // Interrupted after six complete rows and half of the seventh.
    int at = 0;
    for (int lines = 0; lines < 7; ++lines) at = whole.indexOf('\n', at) + 1;
    const int seventhEnd = whole.indexOf('\n', at);
    QVERIFY(writeAll(cut, whole.left(at + (seventhEnd - at) / 2)));
    r = runCli({"study", study, "--out", cut, "--threads", "3", "--resume", "--summary", dir.filePath("cut.json")});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QVERIFY2(r.err.contains("resuming after 6 finished cases"), r.err.constData());
    QVERIFY2(r.err.contains("7 run now"), r.err.constData());
    QCOMPARE(readAll(cut), whole);
    // The summary of the resumed rows is the uninterrupted run's.
    QVERIFY(!readAll(dir.filePath("full.json")).isEmpty());
    QCOMPARE(readAll(dir.filePath("cut.json")), readAll(dir.filePath("full.json")));
    // From the partial file an interrupted run leaves, the same.
    QVERIFY(writeAll(cut + ".partial", whole.left(at)));
    QVERIFY(QFile::remove(cut));
    r = runCli({"study", study, "--out", cut, "--resume"});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QVERIFY2(r.err.contains("resuming after 6 finished cases"), r.err.constData());
    QCOMPARE(readAll(cut), whole);
    QVERIFY(!QFile::exists(cut + ".partial"));
    // Rows of another study are not taken for this one's.
    QByteArray other = whole;
    other.replace("0.125,", "0.126,");
    QVERIFY(writeAll(cut, other.left(at)));
    r = runCli({"study", study, "--out", cut, "--resume"});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QVERIFY(!r.err.contains("resuming"));
    QCOMPARE(readAll(cut), whole);
}

// The table and the summary never end in one file, nor the partial file in the model,
// whatever the spelling; a missing folder is found before the first case, not after the
// last (the results were then lost with exit status 3).
void TestStudy::outputsCheckedBeforeAnyCase() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    // The model copied beside the study: a partial file written through a link must not
    // reach the project's own example.
    const QString model = dir.filePath("slider-crank.json");
    QVERIFY(QFile::copy(QStringLiteral(LOOPLAB_EXAMPLES_DIR) + "/slider-crank.json", model));
    const QString study = studyCopy(dir, QStringLiteral("slider-crank-pin-tolerance.json"), 4,
                                    QStringLiteral("../examples/slider-crank.json"), model);
    QVERIFY(!study.isEmpty());
    QVERIFY(writeAll(study, readAll(study).replace(kStudies.toUtf8() + "/" + model.toUtf8(), model.toUtf8())));
    const QByteArray modelBytes = readAll(model);
    const QString out = dir.filePath("o.csv");
    const QString previous = QDir::currentPath();
    QVERIFY(QDir::setCurrent(dir.path()));
    QVERIFY(writeAll(out, "old table\n"));
    QVERIFY(QFile::link(out, dir.filePath("link.csv")));
    for (const auto& [outSpelling, summary] : {std::pair<QString, QString>{out, "./o.csv"},
                                               {"o.csv", out},
                                               {"o.csv", dir.path() + "/../" + QDir(dir.path()).dirName() + "/o.csv"},
                                               {out, dir.filePath("link.csv")}}) {
        const CliResult r = runCli({"study", study, "--out", outSpelling, "--summary", summary});
        QVERIFY(r.finished);
        QVERIFY2(r.exitCode == 2, r.err.constData());
        QVERIFY2(r.err.contains("--out '" + outSpelling.toUtf8() + "' and --summary '" + summary.toUtf8() + "' are one file"),
                 r.err.constData());
        QVERIFY2(!r.err.contains("cases"), r.err.constData());  // no case ran
        QCOMPARE(readAll(out), QByteArray("old table\n"));
    }
    QVERIFY(QDir::setCurrent(previous));
    // Into a folder that does not exist: refused at once.
    QElapsedTimer timer;
    timer.start();
    CliResult r = runCli({"study", study, "--out", dir.filePath("missing/o.csv")});
    QVERIFY2(r.exitCode == 2, r.err.constData());
    QVERIFY2(r.err.contains("the folder '" + dir.filePath("missing").toUtf8() + "' does not exist"), r.err.constData());
    QVERIFY2(!r.err.contains("cases"), r.err.constData());
    r = runCli({"study", study, "--out", out, "--summary", dir.filePath("missing/s.json")});
    QVERIFY2(r.exitCode == 2, r.err.constData());
    QCOMPARE(readAll(out), QByteArray("old table\n"));
    // A folder for --out: refused as one, before any case.
    r = runCli({"study", study, "--out", dir.path()});
    QVERIFY2(r.exitCode == 2, r.err.constData());
    QVERIFY2(r.err.contains("is a folder"), r.err.constData());
    QVERIFY2(!r.err.contains("cases"), r.err.constData());
    // A stale partial file that links to the model: replaced, not followed.
    const QString partial = dir.filePath("p.csv.partial");
    QVERIFY(QFile::link(model, partial));
    r = runCli({"study", study, "--out", dir.filePath("p.csv")});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QCOMPARE(readAll(model), modelBytes);
    QCOMPARE(readAll(dir.filePath("p.csv")).count('\n'), 5);
    QVERIFY(!QFileInfo(partial).isSymLink() && !QFile::exists(partial));
    // The model itself named as the partial file (a model called p2.csv.partial): refused,
    // the model kept.
    const QString modelNamedPartial = dir.filePath("p2.csv.partial");
    QVERIFY(QFile::copy(model, modelNamedPartial));
    QVERIFY(writeAll(study, readAll(study).replace(model.toUtf8(), modelNamedPartial.toUtf8())));
    r = runCli({"study", study, "--out", dir.filePath("p2.csv")});
    QVERIFY2(r.exitCode == 2, r.err.constData());
    QVERIFY2(r.err.contains("--out's partial file"), r.err.constData());
    QCOMPARE(readAll(modelNamedPartial), modelBytes);
    // A mesh file of the study's model (named relative to the model) is an input too.
    const QString data = QStringLiteral(LOOPLAB_TEST_DATA_DIR) + "/exchange/";
    QVERIFY(QDir(dir.path()).mkdir("meshes"));
    for (const char* name : {"serial-arm.json", "meshes/base.stl", "meshes/link1.stl", "meshes/link2.stl", "meshes/link3.stl"})
        QVERIFY(QFile::copy(data + name, dir.filePath(name)));
    const QString armStudy = dir.filePath("arm-study.json");
    QVERIFY(writeAll(armStudy, R"({"format": "looplab-study", "version": 1, "model": "serial-arm.json", "seed": 1,
        "samples": 2, "parameters": [{"name": "m", "path": "/bodies/1/mass", "normal": {"mean": 1.0, "sd": 0.1}}],
        "analysis": {"type": "statics"}, "outputs": [{"quantity": "link1.y", "of": "final"}]})"));
    const QString mesh = dir.filePath("meshes/link1.stl");
    const QByteArray meshBytes = readAll(mesh);
    for (const QString& spelling : {mesh, dir.path() + "/meshes/./link1.stl"}) {
        r = runCli({"study", armStudy, "--out", spelling});
        QVERIFY2(r.exitCode == 2, r.err.constData());
        QVERIFY2(r.err.contains("is the input file") && r.err.contains("link1.stl"), r.err.constData());
        r = runCli({"study", armStudy, "--out", dir.filePath("arm.csv"), "--summary", spelling});
        QVERIFY2(r.exitCode == 2, r.err.constData());
        QCOMPARE(readAll(mesh), meshBytes);
    }
}

void TestStudy::killedStudyResumes() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString study = smallSliderCrankStudy(dir);
    QVERIFY(!study.isEmpty());
    const QString whole = dir.filePath("whole.csv"), killed = dir.filePath("killed.csv");
    CliResult r = runCli({"study", study, "--out", whole, "--threads", "2"});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    // Killed (SIGKILL: no chance to tidy up) once eight rows have reached the partial file.
    QProcess p;
    p.start(QStringLiteral(LOOPLAB_CLI_PATH), {"study", study, "--out", killed, "--threads", "1"});
    QVERIFY(p.waitForStarted(-1));
    bool interrupted = false;
    QElapsedTimer clock;
    clock.start();
    const QDeadlineTimer limit(eventwait::safetyLimitMs());
    while (p.state() == QProcess::Running) {
        if (readAll(killed + ".partial").count('\n') >= 9) {
            p.kill();
            interrupted = true;
            break;
        }
        if (limit.hasExpired()) {
            p.kill();
            QVERIFY(eventwait::gaveUpWaiting("the study's partial file to reach eight rows or the study to end", clock));
        }
        p.waitForFinished(1);  // also notices the exit
    }
    QVERIFY(eventwait::waitForExit(p, "the killed study"));
    if (!interrupted) QSKIP("the study finished before it could be interrupted");
    QVERIFY(!QFile::exists(killed));
    r = runCli({"study", study, "--out", killed, "--threads", "2", "--resume"});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QVERIFY2(r.err.contains("resuming after"), r.err.constData());
    QCOMPARE(readAll(killed), readAll(whole));
}

void TestStudy::mpiGivesIdenticalRows_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<int>("samples");
    QTest::newRow("slider-crank pin tolerances") << "slider-crank-pin-tolerance.json" << 48 / kRepeatedRunDivisor;
    if (kUnderSanitizers) return;  // as for the threads
    QTest::newRow("toggle clamp pin tolerances") << "toggle-clamp-pin-tolerance.json" << 96 / kRepeatedRunDivisor;
}

void TestStudy::mpiGivesIdenticalRows() {
#ifndef LOOPLAB_TEST_WITH_MPI
    QSKIP("built without MPI");
#else
    QFETCH(QString, file);
    QFETCH(int, samples);
    const QString mpirun = QStandardPaths::findExecutable(QStringLiteral("mpirun"));
    if (mpirun.isEmpty()) QSKIP("no mpirun");
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString study = studyCopy(dir, file, samples);
    QVERIFY(!study.isEmpty());
    const QString threaded = dir.filePath("threads.csv"), ranks = dir.filePath("ranks.csv");
    CliResult r = runCli({"study", study, "--out", threaded, "--threads", "2", "--summary", threaded + ".json"});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QProcess p;
    // Open MPI keeps allocations of plugins it unloads at exit, which LeakSanitizer can only
    // report as "<unknown module>"; the same code's leaks are checked by the thread runs.
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    if (env.contains("ASAN_OPTIONS")) env.insert("ASAN_OPTIONS", env.value("ASAN_OPTIONS") + ":detect_leaks=0");
    p.setProcessEnvironment(env);
    p.start(mpirun, {"--allow-run-as-root", "--oversubscribe", "-np", "2", QStringLiteral(LOOPLAB_CLI_PATH), "study",
                     study, "--out", ranks, "--summary", ranks + ".json"});
    QVERIFY(eventwait::waitForExit(p, "the study under mpirun"));
    const QByteArray err = p.readAllStandardError();
    QVERIFY2(p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0, err.constData());
    QVERIFY2(err.contains("on 1 MPI worker ranks"), err.constData());
    QCOMPARE(readAll(ranks), readAll(threaded));
    QByteArray a = readAll(ranks + ".json"), b = readAll(threaded + ".json");
    QVERIFY(!a.isEmpty());
    QCOMPARE(a.replace(ranks.toUtf8(), ""), b.replace(threaded.toUtf8(), ""));
#endif
}

QTEST_GUILESS_MAIN(TestStudy)
#include "tst_study.moc"
