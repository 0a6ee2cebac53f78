// `looplab-cli animate MODEL --mode K`: the K-th vibration mode about the static
// equilibrium, swinging as the workbench's Modes panel shows it (ModeShapeAnimation: the
// same amplitude as a fraction of the model's size, the equilibrium drawn as ghosts), in
// whole periods of the same number of frames so that the video loops without a seam —
// the frames of the workbench's mode-shape video export.
#include "AnimateVideo.h"
#include "CliCommon.h"
#include "OutputFile.h"
#include "RunInputs.h"

#include "export/OffscreenSceneRenderer.h"
#include "export/VideoEncoder.h"
#include "viewport/SceneActors.h"
#include "recording/ModeShapeAnimation.h"

#include "looplab/analysis/Modes.h"
#include "looplab/analysis/Statics.h"
#include "looplab/model/Model.h"
#include "looplab/scene/Scene.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iomanip>

namespace looplab::cli {

namespace {

// The limits of the workbench's export (ModeOscillationFrames::checkCycles): fewer than four
// frames a period cannot show both extremes and the rest between them.
constexpr int kMaxCycles = 1000;
constexpr int kMaxFramesPerCycle = 1000;
constexpr int kMaxMode = 100000;

double wallSeconds(std::chrono::steady_clock::duration d) { return std::chrono::duration<double>(d).count(); }

// Names of the position coordinates q for the --states header: body.x … body.qz for rigid
// bodies (position and unit quaternion), body.q<k> for a beam's or solid's nodal numbers.
std::vector<std::string> positionNames(const Model& model) {
    std::vector<std::string> names(static_cast<size_t>(model.positionSize()));
    for (int b = 1; b < model.bodyCount(); ++b) {
        const Body& body = model.bodies[static_cast<size_t>(b)];
        for (int k = 0; k < body.slice.positionSize; ++k)
            names[static_cast<size_t>(body.slice.positionOffset + k)] =
                body.name + "." + body.formulation->positionName(k);
    }
    return names;
}

std::string quotedCsvField(const std::string& s) {
    if (s.find_first_of(",\"\n") == std::string::npos) return s;
    std::string q = "\"";
    for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
    return q + "\"";
}

}  // namespace

int runModeAnimate(const AnimateOptions& a) {
    const SimulateOptions& o = a.simulation;
    const bool json = o.json;
    // Every option checked before anything is loaded.
    if (a.mode < 1 || a.mode > kMaxMode)
        return reportFailure(json, kBadInput,
                             "--mode must be an integer from 1 (the lowest mode) to " + std::to_string(kMaxMode) +
                                 " (got " + std::to_string(a.mode) + ")");
    if (a.tEndGiven)
        return reportFailure(json, kBadInput, "--t-end does not apply to --mode: the video lasts --cycles periods");
    if (!a.traces.empty()) return reportFailure(json, kBadInput, "--trace does not apply to --mode");
    if (!std::isfinite(a.amplitude) || a.amplitude < 0.0)
        return reportFailure(json, kBadInput, "--amplitude must be a finite number ≥ 0 (a fraction of the model's size)");
    if (a.cycles < 1 || a.cycles > kMaxCycles)
        return reportFailure(json, kBadInput, "--cycles must be an integer from 1 to " + std::to_string(kMaxCycles) +
                                                  " (got " + std::to_string(a.cycles) + ")");
    if (a.framesPerCycle < 4 || a.framesPerCycle > kMaxFramesPerCycle)
        return reportFailure(json, kBadInput,
                             "--frames-per-cycle must be an integer from 4 to " + std::to_string(kMaxFramesPerCycle) +
                                 " (got " + std::to_string(a.framesPerCycle) + ")");
    VideoSettings v;
    if (const std::string why = checkVideoSettings(a, &v); !why.empty()) return reportFailure(json, kBadInput, why);
    if (const std::string clash = OutputFile::checkNotAnInput("--out", o.out, {o.model}); !clash.empty())
        return reportFailure(json, kBadInput, clash);
    if (const std::string clash = OutputFile::checkDistinct({{"--out", o.out}, {"--states", a.states}}); !clash.empty())
        return reportFailure(json, kBadInput, clash);

    LoadedModel lm;
    if (int rc = loadOrReport(o.model, lm, json)) return rc;
    const Model& model = *lm.model;
    // Once loaded: the model's mesh files are inputs too.
    if (const std::string clash = OutputFile::checkNotAnInput("--states", a.states, modelInputs(o.model, model));
        !clash.empty())
        return reportFailure(json, kBadInput, clash);
    if (const std::string why = ui::OffscreenSceneRenderer::displayProblem(); !why.empty())
        return reportFailure(json, kSolverFailure, "cannot render: " + why);

    // The equilibrium and the modes, as `looplab-cli modes` finds them (automatic method,
    // scaling and shift).
    State s = lm.initial;
    const StaticsResult st = findEquilibrium(model, s);
    const bool equilibrium =
        st.ok || st.outcome == StaticsOutcome::Mechanism || st.outcome == StaticsOutcome::Unstable;
    const std::string modeOption = "--mode " + std::to_string(a.mode);
    if (!equilibrium)
        // Like `modes`: an analysis that finds no equilibrium is a solver failure, status 3.
        return reportFailure(json, kSolverFailure, modeOption + ": no static equilibrium to vibrate about: " + st.message);
    if (!st.ok) std::cerr << "warning: " << st.message << "\n";
    ModesOptions mo;
    mo.count = a.mode;
    const ModesResult r = computeModes(model, s, st.lambda, mo);
    if (r.ok || r.degreesOfFreedom < a.mode)
        for (const std::string& w : r.warnings) std::cerr << "warning: " << w << "\n";
    if (r.degreesOfFreedom < a.mode)
        return reportFailure(json, kBadInput,
                             modeOption + ": the model has " + std::to_string(r.degreesOfFreedom) +
                                 " degree(s) of freedom, so at most that many modes");
    if (!r.ok) return reportFailure(json, kSolverFailure, modeOption + ": " + r.message);
    if (static_cast<int>(r.modes.size()) < a.mode)
        return reportFailure(json, kBadInput,
                             modeOption + ": only " + std::to_string(r.modes.size()) + " mode(s) were found");
    const Mode& mode = r.modes[static_cast<size_t>(a.mode - 1)];

    ui::ModeShapeAnimation swing(lm.model, s, mode.shape);
    swing.setAmplitudeFraction(a.amplitude);
    const int perCycle = a.framesPerCycle, frameCount = a.cycles * a.framesPerCycle;

    OutputFile video, statesFile;
    std::string error;
    if (!video.open(o.out, &error)) return reportFailure(json, kBadInput, error);
    if (video.tempPath().empty())
        return reportFailure(json, kBadInput,
                             "--out '" + o.out + "' is not a regular file: a video is written to a file it can seek in");
    if (!a.states.empty() && !statesFile.open(a.states, &error)) {
        video.abandon();
        return reportFailure(json, kBadInput, error);
    }

    // The camera fitted to one whole period (every frame repeats one of them).
    const auto renderStart = std::chrono::steady_clock::now();
    ui::OffscreenSceneRenderer renderer(v.width, v.height);
    double bounds[6] = {HUGE_VAL, -HUGE_VAL, HUGE_VAL, -HUGE_VAL, HUGE_VAL, -HUGE_VAL};
    for (int k = 0; k < perCycle; ++k) {
        renderer.actors().setScene(swing.sceneAtPhase(k, perCycle));
        double b[6];
        if (!renderer.actors().bounds(b)) continue;
        for (int c = 0; c < 3; ++c) {
            bounds[2 * c] = std::min(bounds[2 * c], b[2 * c]);
            bounds[2 * c + 1] = std::max(bounds[2 * c + 1], b[2 * c + 1]);
        }
    }
    if (!(bounds[0] <= bounds[1])) {
        const double unit[6] = {-0.5, 0.5, -0.5, 0.5, -0.5, 0.5};
        std::copy(unit, unit + 6, bounds);
    }
    renderer.fitCamera(bounds, upAxis(model.gravity));
    {
        char caption[64];
        std::snprintf(caption, sizeof caption, "Mode %d, %.5g Hz", a.mode, mode.frequencyHz);
        renderer.setCaption(caption);
    }

    if (statesFile.isOpen()) {
        std::ostream& csv = statesFile.stream();
        csv << std::setprecision(17) << "frame,t,phase_rad";
        for (const std::string& n : positionNames(model)) csv << "," << quotedCsvField(n);
        csv << "\n";
    }
    ui::VideoEncoder encoder;
    bool written = encoder.open(video.tempPath(), v.format, v.width, v.height, a.fps, &error);
    double renderTime = 0.0, encodeTime = 0.0;
    for (int i = 0; written && i < frameCount; ++i) {
        const int phase = i % perCycle;
        const double t = i / a.fps;
        if (statesFile.isOpen()) {
            const State fs = swing.stateAtPhase(phase, perCycle);
            std::ostream& csv = statesFile.stream();
            csv << i << "," << t << "," << 2.0 * M_PI * phase / perCycle;
            for (int k = 0; k < fs.q.size(); ++k) csv << "," << fs.q[k];
            csv << "\n";
            statesFile.drain();
        }
        const auto t0 = std::chrono::steady_clock::now();
        Scene scene = swing.sceneAtPhase(phase, perCycle);
        scene.t = t;
        renderer.setScene(scene);
        const std::vector<std::uint8_t>& rgb = renderer.render();
        const auto t1 = std::chrono::steady_clock::now();
        written = encoder.addFrame(rgb.data(), v.width * 3, &error);
        encodeTime += wallSeconds(std::chrono::steady_clock::now() - t1);
        renderTime += wallSeconds(t1 - t0);
    }
    if (written) written = encoder.finish(&error);
    if (!written) {
        const size_t at = error.find(video.tempPath());
        if (at != std::string::npos) error.replace(at, video.tempPath().size(), o.out);
        video.abandon();
        statesFile.abandon();
    } else {
        written = video.commit(&error);
        if (written && statesFile.isOpen()) written = statesFile.commit(&error);
    }
    const double exportTime = wallSeconds(std::chrono::steady_clock::now() - renderStart);
    const int frames = written ? encoder.framesWritten() : 0;
    if (json) {
        nlohmann::json j;
        j["ok"] = written;
        if (!written) {
            j["error"] = error;
            j["exit_status"] = kWriteFailure;
        }
        j["file"] = o.out;
        j["codec"] = encoder.codecName();
        j["width"] = v.width;
        j["height"] = v.height;
        j["fps"] = a.fps;
        j["frames"] = frames;
        j["equilibrium"] = staticsOutcomeName(st.outcome);
        j["mode"] = {{"index", a.mode},
                     {"frequency_hz", mode.frequencyHz},
                     {"damping_ratio", mode.dampingRatio},
                     {"amplitude", a.amplitude},
                     {"model_size", swing.modelSize()},
                     {"shape_factor", swing.shapeFactor()},
                     {"cycles", a.cycles},
                     {"frames_per_cycle", perCycle}};
        j["warnings"] = r.warnings;
        j["export_wall_time_s"] = exportTime;
        j["render_s_per_frame"] = frames ? renderTime / frames : 0.0;
        j["encode_s_per_frame"] = frames ? encodeTime / frames : 0.0;
        printJsonReport(j);
    } else if (written) {
        char buf[320];
        std::snprintf(buf, sizeof buf,
                      "%s: mode %d (%.6g Hz), %d periods of %d frames, %dx%d at %g frames/s (%s); render %.1f ms, "
                      "encode %.1f ms a frame\n",
                      o.out.c_str(), a.mode, mode.frequencyHz, a.cycles, perCycle, v.width, v.height, a.fps,
                      encoder.codecName().c_str(), frames ? 1e3 * renderTime / frames : 0.0,
                      frames ? 1e3 * encodeTime / frames : 0.0);
        std::cout << buf;
    }
    if (!written) {
        std::cerr << "error: " << error << "\n";
        return kWriteFailure;
    }
    return kSuccess;
}

}  // namespace looplab::cli
