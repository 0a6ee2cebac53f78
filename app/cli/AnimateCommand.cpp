// `looplab-cli animate`: a forward-dynamics run rendered off screen (VTK, the workbench's
// actors) and encoded to MP4 or animated GIF (FFmpeg).
#include "AnimateVideo.h"
#include "CliCommon.h"
#include "OutputFile.h"

#include "export/AnimationTimeline.h"
#include "export/OffscreenSceneRenderer.h"
#include "export/VideoEncoder.h"
#include "viewport/SceneActors.h"

#include "looplab/model/Model.h"
#include "looplab/kinematics/PointTrace.h"
#include "looplab/scene/Scene.h"
#include "looplab/simulation/Simulation.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>

namespace looplab::cli {

namespace {

// WIDTHxHEIGHT, digits only: sscanf's %d would take signs and spaces, and wrap a number
// beyond int's range into one that looks valid (4294967896 into 600).
bool parseSize(const std::string& text, int* width, int* height) {
    const size_t x = text.find('x');
    if (x == std::string::npos) return false;
    auto number = [](const std::string& digits, int* out) {
        if (digits.empty() || digits.size() > 9 || digits.find_first_not_of("0123456789") != std::string::npos)
            return false;
        *out = std::stoi(digits);
        return true;
    };
    return number(text.substr(0, x), width) && number(text.substr(x + 1), height);
}

double seconds(std::chrono::steady_clock::duration d) { return std::chrono::duration<double>(d).count(); }

}  // namespace

int upAxis(const Vec3& gravity) {
    if (gravity.norm() == 0.0) return 1;
    Eigen::Index i = 0;
    gravity.cwiseAbs().maxCoeff(&i);
    return int(i);
}

std::string checkVideoSettings(const AnimateOptions& a, VideoSettings* v) {
    if (!parseSize(a.size, &v->width, &v->height))
        return "--size must be WIDTHxHEIGHT in pixels, for example 800x600 (got '" + a.size + "')";
    const std::optional<ui::VideoFormat> format = ui::videoFormatForPath(a.simulation.out);
    if (!format)
        return "--out '" + a.simulation.out + "': the file name must end in .mp4 (H.264 video) or .gif (animated GIF)";
    v->format = *format;
    if (const std::string why = ui::VideoEncoder::checkSettings(*format, v->width, v->height, a.fps); !why.empty())
        return (why.find("frame rate") != std::string::npos ? "--fps: " : "--size: ") + why;
    return {};
}

int runAnimate(const AnimateOptions& a) {
    if (a.modeGiven) return runModeAnimate(a);
    SimulateOptions o = a.simulation;
    const bool json = o.json;
    if (!a.tEndGiven)
        return reportFailure(json, kBadInput, "--t-end is required (the simulated time span), or --mode K for a mode shape");
    if (a.amplitudeGiven || a.cyclesGiven || a.framesPerCycleGiven || !a.states.empty())
        return reportFailure(json, kBadInput, "--amplitude, --cycles, --frames-per-cycle and --states need --mode K");
    VideoSettings video0;
    if (const std::string why = checkVideoSettings(a, &video0); !why.empty()) return reportFailure(json, kBadInput, why);
    const int width = video0.width, height = video0.height;
    const std::optional<ui::VideoFormat> format = video0.format;
    // One simulation frame per video frame.
    o.given.outputStep = 1.0 / a.fps;
    o.maxRows = kDefaultMaxRows;
    if (const std::string e = checkSimulateOptions(o); !e.empty()) return reportFailure(json, kBadInput, e);
    if (const std::string clash = OutputFile::checkNotAnInput("--out", o.out, {o.model}); !clash.empty())
        return reportFailure(json, kBadInput, clash);

    DocumentResult doc = readModelDocument(o.model);
    if (!doc.document) return reportFailure(json, kBadInput, formatDiagnostics(doc.diagnostics));
    ModelDocument started = *doc.document;
    if (o.given.start) started.run.start = o.given.start;
    const LoadedModel lm = prepareModel(started, o.model);
    if (!lm.ok()) return reportFailure(json, kBadInput, formatDiagnostics(lm.diagnostics));
    const Model& model = *lm.model;
    std::vector<std::string> warnings;
    const ResolvedRunSettings resolved = reports::resolveSimulation(o, doc.document->run, lm.initial.t, &warnings);
    if (!resolved.error.empty()) return reportFailure(json, kBadInput, resolved.error);
    for (const std::string& w : warnings) std::cerr << "warning: " << w << "\n";
    std::vector<TracedPoint> tracedPoints;
    for (const std::string& spec : a.traces) {
        TracedPoint p;
        if (const Status s = parseTracedPoint(*doc.document, spec, &p); !s.ok)
            return reportFailure(json, kBadInput, "--trace " + s.message);
        tracedPoints.push_back(p);
    }
    // Before the run: a missing display is found in a moment, not after the simulation.
    if (const std::string why = ui::OffscreenSceneRenderer::displayProblem(); !why.empty())
        return reportFailure(json, kSolverFailure, "cannot render: " + why);

    OutputFile video;
    std::string error;
    if (!video.open(o.out, &error)) return reportFailure(json, kBadInput, error);
    if (video.tempPath().empty())
        return reportFailure(json, kBadInput,
                             "--out '" + o.out + "' is not a regular file: a video is written to a file it can seek in");

    // The run, kept whole: the camera is fitted to the whole motion before the first frame.
    Simulator sim(lm.model, resolved.settings);
    std::vector<State> states;
    const auto runStart = std::chrono::steady_clock::now();
    const SimulationResult res = sim.run(lm.initial, [&](const SimulationFrame& f) { states.push_back(f.state); });
    const double runTime = seconds(std::chrono::steady_clock::now() - runStart);
    for (const SimulationEvent& e : res.events)
        if (!json) std::cerr << "t = " << e.t << ": " << runEventKindName(e.kind) << ": " << e.detail << "\n";
    if (states.empty()) {
        video.abandon();
        return reportFailure(json, kSolverFailure, o.model + ": simulation failed before its first frame: " + res.message);
    }

    std::vector<PointTrace> traces(tracedPoints.size());
    for (size_t i = 0; i < tracedPoints.size(); ++i) tracePoint(model, states, tracedPoints[i], &traces[i]);

    const auto renderStart = std::chrono::steady_clock::now();
    ui::OffscreenSceneRenderer renderer(width, height);
    double bounds[6] = {HUGE_VAL, -HUGE_VAL, HUGE_VAL, -HUGE_VAL, HUGE_VAL, -HUGE_VAL};
    auto grow = [&](const double b[6]) {
        for (int k = 0; k < 3; ++k) {
            bounds[2 * k] = std::min(bounds[2 * k], b[2 * k]);
            bounds[2 * k + 1] = std::max(bounds[2 * k + 1], b[2 * k + 1]);
        }
    };
    for (const State& s : states) {
        renderer.actors().setScene(buildScene(model, s));
        double b[6];
        if (renderer.actors().bounds(b)) grow(b);
    }
    for (const PointTrace& tr : traces)
        for (const Vec3& p : tr.positions) {
            const double b[6] = {p.x(), p.x(), p.y(), p.y(), p.z(), p.z()};
            grow(b);
        }
    if (!(bounds[0] <= bounds[1])) {
        const double unit[6] = {-0.5, 0.5, -0.5, 0.5, -0.5, 0.5};
        std::copy(unit, unit + 6, bounds);
    }
    renderer.fitCamera(bounds, upAxis(model.gravity));
    std::vector<std::vector<Eigen::Vector3d>> tracePaths;
    for (const PointTrace& tr : traces) tracePaths.push_back(tr.positions);
    renderer.setTraces(tracePaths);

    ui::VideoEncoder encoder;
    bool written = encoder.open(video.tempPath(), *format, width, height, a.fps, &error);
    std::vector<double> times;
    for (const State& s : states) times.push_back(s.t);
    const std::vector<int> picks = ui::recordedFramesForVideo(times, a.fps);
    double renderTime = 0.0, encodeTime = 0.0;
    for (size_t k = 0; written && k < picks.size(); ++k) {
        const auto t0 = std::chrono::steady_clock::now();
        renderer.setTraceCounts(std::vector<int>(traces.size(), picks[k] + 1));
        renderer.setScene(buildScene(model, states[size_t(picks[k])]));
        char caption[48];
        std::snprintf(caption, sizeof caption, "t = %.3f s", states[size_t(picks[k])].t);
        renderer.setCaption(caption);
        const std::vector<std::uint8_t>& rgb = renderer.render();
        const auto t1 = std::chrono::steady_clock::now();
        written = encoder.addFrame(rgb.data(), width * 3, &error);
        encodeTime += seconds(std::chrono::steady_clock::now() - t1);
        renderTime += seconds(t1 - t0);
    }
    if (written) written = encoder.finish(&error);
    // The path the user named, not the temporary file's, in any message.
    if (!written) {
        const size_t at = error.find(video.tempPath());
        if (at != std::string::npos) error.replace(at, video.tempPath().size(), o.out);
        video.abandon();
    } else {
        written = video.commit(&error);
    }
    const double exportTime = seconds(std::chrono::steady_clock::now() - renderStart);
    const int frames = written ? encoder.framesWritten() : 0;
    const bool ok = res.ok && written;
    if (json) {
        nlohmann::json j;
        j["ok"] = ok;
        if (!ok) {
            j["error"] = written ? res.message : error;
            j["exit_status"] = written ? kSolverFailure : kWriteFailure;
        }
        j["file"] = o.out;
        j["codec"] = encoder.codecName();
        j["width"] = width;
        j["height"] = height;
        j["fps"] = a.fps;
        j["frames"] = frames;
        j["warnings"] = warnings;
        j["simulated_until"] = states.back().t;
        j["simulation_wall_time_s"] = runTime;
        j["export_wall_time_s"] = exportTime;
        j["render_s_per_frame"] = frames ? renderTime / frames : 0.0;
        j["encode_s_per_frame"] = frames ? encodeTime / frames : 0.0;
        printJsonReport(j);
    } else if (written) {
        char buf[256];
        std::snprintf(buf, sizeof buf, "%s: %d frames %dx%d at %g frames/s (%s); render %.1f ms, encode %.1f ms a frame\n",
                      o.out.c_str(), frames, width, height, a.fps, encoder.codecName().c_str(),
                      frames ? 1e3 * renderTime / frames : 0.0, frames ? 1e3 * encodeTime / frames : 0.0);
        std::cout << buf;
    }
    if (!written) {
        std::cerr << "error: " << error << "\n";
        return kWriteFailure;
    }
    if (!res.ok) {
        std::cerr << o.model << ": simulation failed at t = " << res.tFinal << ": " << res.message
                  << " (the video shows the motion up to there)\n";
        return kSolverFailure;
    }
    return kSuccess;
}

}  // namespace looplab::cli
