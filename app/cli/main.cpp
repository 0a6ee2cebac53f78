// looplab-cli: the headless tool over the LoopLab core (see docs/cli.md).
#include "CliCommon.h"

#include "looplab/integrate/MethodRegistry.h"
#include "looplab/Version.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <map>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <thread>

namespace {

std::string joined(const std::vector<std::string>& names) {
    std::string out;
    for (size_t i = 0; i < names.size(); ++i) out += (i ? ", " : "") + names[i];
    return out;
}

// Every parameter key some registered method or integrator reads, each once.
std::vector<std::string> parameterKeys() {
    std::vector<std::string> keys;
    for (const looplab::ParameterInfo& p : looplab::methodParameters()) keys.push_back(p.key);
    return keys;
}

// The run-block fields as parsed; only those given reach SimulateOptions::given, so that
// the model's run block and the method's defaults decide the others.
struct RunOptionValues {
    std::string method, integrator, start;
    double tEnd = 0.0, step = 0.0, rtol = 0.0, atol = 0.0, outputStep = 0.0;
    /// The methods' own parameters by registry key (a map: CLI11 keeps the addresses).
    std::map<std::string, double> parameters;
};

void collectGiven(CLI::App* cmd, const RunOptionValues& v, looplab::RunSettingsDoc& given) {
    auto take = [cmd](const char* option, const auto& value, auto& target) {
        if (cmd->get_option_no_throw(option) && cmd->count(option)) target = value;
    };
    take("--method", v.method, given.method);
    take("--integrator", v.integrator, given.integrator);
    take("--t-end", v.tEnd, given.tEnd);
    take("--step", v.step, given.step);
    take("--rtol", v.rtol, given.rtol);
    take("--atol", v.atol, given.atol);
    take("--output-step", v.outputStep, given.outputStep);
    take("--start", v.start, given.start);
    for (const auto& [key, value] : v.parameters)
        if (cmd->count("--" + key)) given.parameters[key] = value;
}

// The model, its time span and the method options that `simulate` and `animate` share.
void addSimulationOptions(CLI::App* cmd, looplab::cli::SimulateOptions& o, RunOptionValues& v) {
    using namespace looplab::cli;
    auto text = [](double x) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%g", x);
        return std::string(buf);
    };
    cmd->add_option("model", o.model, "Model file (.json)")->required();
    cmd->add_option("--t-end", v.tEnd, "Simulated time span [s] (default: the model's run block)");
    std::vector<std::string> methodNames, integratorNames;
    for (const looplab::ConstraintMethodInfo& m : looplab::constraintMethods()) methodNames.push_back(m.name);
    for (const looplab::IntegratorInfo& i : looplab::integrators()) integratorNames.push_back(i.name);
    cmd->add_option("--method", v.method,
                    "Constraint method: " + joined(methodNames) + " (default: the model's run block, else " +
                        looplab::defaultConstraintMethod().name + "; see `methods`)")
        ->check(CLI::IsMember(methodNames));
    cmd->add_option("--integrator", v.integrator,
                    "Integrator: " + joined(integratorNames) +
                        " (default: the model's run block, else the method's own; see `methods`)")
        ->check(CLI::IsMember(integratorNames));
    cmd->add_option("--start", v.start,
                    "How beams and solids start moving: consistent (with the rigid mechanism's velocities, no "
                    "strain rate), equilibrium (as consistent, deformed into quasi-static equilibrium with "
                    "gravity, the loads and the motion's inertia) or rest (at rest, only their joints' nodes "
                    "moving) (default: the model's run block, else consistent)")
        ->check(CLI::IsMember({"consistent", "equilibrium", "rest"}));
    cmd->add_option("--step", v.step, "rk4: fixed step [s]; adaptive integrators: initial step (default automatic)");
    cmd->add_option("--rtol", v.rtol, "Relative tolerance (adaptive integrators; default: the model's, else the method's)");
    cmd->add_option("--atol", v.atol, "Absolute tolerance (adaptive integrators; default: the model's, else the method's)");
    cmd->add_option("--singular-threshold", o.singularThreshold,
                   "Singular-configuration warning when the smallest scaled singular value is below this");
    cmd->add_option("--rank-tolerance", o.rankTolerance,
                   "Relative rank tolerance of the constraint Jacobian during the run");
    // The methods' own parameters, from the registry: each one an option.
    for (const looplab::ParameterInfo& p : looplab::methodParameters()) {
        if (p.runField) continue;
        auto reads = [&p](const std::vector<looplab::ParameterInfo>& ps) {
            return std::any_of(ps.begin(), ps.end(), [&p](const looplab::ParameterInfo& q) { return q.key == p.key; });
        };
        std::string readers;
        for (const looplab::ConstraintMethodInfo& m : looplab::constraintMethods())
            if (reads(m.parameters)) readers += (readers.empty() ? "" : ", ") + m.name;
        // One read by every adaptive integrator (the largest step) says so rather than
        // listing them.
        bool everyAdaptive = readers.empty();
        std::string integratorNames;
        for (const looplab::IntegratorInfo& i : looplab::integrators()) {
            if (reads(i.parameters)) integratorNames += (integratorNames.empty() ? "" : ", ") + i.name;
            everyAdaptive = everyAdaptive && reads(i.parameters) == (i.stepControl == looplab::StepControl::Adaptive);
        }
        if (!integratorNames.empty())
            readers += (readers.empty() ? "" : ", ") + (everyAdaptive ? std::string("adaptive integrators") : integratorNames);
        cmd->add_option("--" + p.key, v.parameters[p.key],
                        readers + ": " + p.description + ", " + p.rangeText() + " (default: the model's, else " +
                            text(p.defaultValue()) + ")");
    }
    cmd->add_option("--linear-algebra", o.linearAlgebra,
                   "automatic (sparse above 120 coordinates), dense or sparse")
        ->check(CLI::IsMember({"automatic", "dense", "sparse"}));
    cmd->add_option("--on-stiff", o.onStiff,
                    "When an explicit integrator finds the model stiff: stop (default; a failure naming the methods "
                    "to use instead) or warn (the run goes on)")
        ->check(CLI::IsMember({"stop", "warn"}));
    cmd->add_option("--max-steps", o.maxSteps, "Most solver steps allowed (default 10000000)");
    cmd->add_option("--max-wall-time", o.maxWallTime, "Wall-clock limit of the run [s] (default 0: none)");
}

}  // namespace

int main(int argc, char** argv) {
    using namespace looplab::cli;
    CLI::App app{"LoopLab command-line tool: analyse and simulate closed-loop mechanisms"};
    app.set_version_flag("--version", std::string("looplab-cli ") + looplab::version());
    app.require_subcommand(1);

    CheckOptions check;
    auto* c = app.add_subcommand("check", "Mobility analysis: rank, degrees of freedom, redundant equations");
    c->add_option("model", check.model, "Model file (.json)")->required();
    c->add_flag("--json", check.json, "Print one JSON object on stdout");
    c->add_option("--linear-algebra", check.linearAlgebra,
                  "automatic (sparse above 120 coordinates), dense or sparse")
        ->check(CLI::IsMember({"automatic", "dense", "sparse"}));

    KinematicsOptions kin;
    auto* k = app.add_subcommand("kinematics", "Kinematic simulation of a fully driven model");
    k->add_option("model", kin.model, "Model file (.json)")->required();
    k->add_option("--t-end", kin.tEnd, "Simulated time span [s]")->required();
    k->add_option("--step", kin.step, "Output step [s]")->required();
    k->add_option("--max-rows", kin.maxRows, "Most output rows allowed (default 10000000)");
    k->add_option("--max-steps", kin.maxSteps, "Most steps allowed (default 10000000)");
    k->add_option("--max-wall-time", kin.maxWallTime, "Wall-clock limit of the run [s] (default 0: none)");
    k->add_option("--max-output-bytes", kin.maxOutputBytes, "Largest CSV output allowed [bytes] (default 2e9)");
    k->add_option("--out", kin.out, "CSV file for the results");
    k->add_flag("--json", kin.json, "Print one JSON object on stdout");

    SimulateOptions sim;
    RunOptionValues simValues;
    auto* sc = app.add_subcommand("simulate", "Forward dynamics with a chosen constraint method and ODE solver");
    addSimulationOptions(sc, sim, simValues);
    sc->add_option("--output-step", simValues.outputStep, "Time between output rows [s] (default: the model's, else 0.01)");
    sc->add_option("--max-rows", sim.maxRows, "Most output rows allowed (default 10000000)");
    sc->add_option("--max-output-bytes", sim.maxOutputBytes, "Largest CSV output allowed [bytes] (default 2e9)");
    sc->add_option("--out", sim.out, "CSV file for the results");
    sc->add_option("--node", sim.nodes,
                   "Write the position of a beam or solid node (BEAM.node<k>, BEAM.tip, SOLID.node<i>_<j>_<k>) "
                   "as CSV columns and in the JSON's final state (repeatable)")
        ->allow_extra_args(false);
    sc->add_flag("--json", sim.json, "Print one JSON object on stdout");

    AnimateOptions anim;
    auto* an = app.add_subcommand("animate", "Simulate and render the motion to a video (MP4 or animated GIF)");
    RunOptionValues animValues;
    addSimulationOptions(an, anim.simulation, animValues);  // --t-end: required unless --mode
    an->add_option("--out", anim.simulation.out, "Video file: .mp4 (H.264) or .gif")->required();
    an->add_option("--mode", anim.mode,
                   "Instead of a simulation: the K-th vibration mode (1 = lowest) swinging about the equilibrium");
    an->add_option("--amplitude", anim.amplitude,
                   "With --mode: largest displacement of a drawn point as a fraction of the model's size (default 0.05)");
    an->add_option("--cycles", anim.cycles, "With --mode: periods of the swing (default 3)");
    an->add_option("--frames-per-cycle", anim.framesPerCycle, "With --mode: frames a period (default 48)");
    an->add_option("--states", anim.states, "With --mode: CSV file of every frame's position coordinates");
    an->add_option("--fps", anim.fps, "Frames per second (default 30; at most 50 for a GIF)");
    an->add_option("--size", anim.size, "Picture size WIDTHxHEIGHT in pixels (default 800x600)");
    an->add_option("--trace", anim.traces,
                   "Draw the path of a point: a marker's name, or BODY:x,y,z in the body frame [m] (repeatable)");
    an->add_flag("--json", anim.simulation.json, "Print one JSON object on stdout");

    MethodsOptions methods;
    auto* mc = app.add_subcommand("methods", "The constraint methods and integrators, with their parameters");
    mc->add_flag("--json", methods.json, "Print one JSON object on stdout");

    // ---- statics and modes ----
    StaticsCommandOptions statics;
    auto* stc = app.add_subcommand("statics", "Static equilibrium (Newton with line search; dynamic relaxation)");
    stc->add_option("model", statics.model, "Model file (.json)")->required();
    stc->add_option("--method", statics.method, "automatic (Newton, relaxation if it fails), newton or relaxation")
        ->check(CLI::IsMember({"automatic", "newton", "relaxation"}));
    stc->add_option("--tolerance", statics.tolerance, "Force residual relative to the applied forces (default 1e-10)");
    stc->add_option("--max-wall-time", statics.maxWallTime,
                    "Wall-clock limit of the equilibrium search [s], checked between iterations (default 0: none)");
    stc->add_flag("--json", statics.json, "Print one JSON object on stdout");

    ModesCommandOptions modes;
    auto* mo = app.add_subcommand("modes", "Vibration modes about the static equilibrium (direct, scaled, shifted)");
    mo->add_option("model", modes.model, "Model file (.json)")->required();
    mo->add_option("--count", modes.count, "Number of modes (default 6)");
    mo->add_option("--shift", modes.shift, "Shift on omega^2 [rad^2/s^2] (default automatic, slightly negative)");
    mo->add_option("--scaling", modes.scaling, "auto (largest |K_ij|), none, or a positive value");
    mo->add_option("--factorization", modes.factorization,
                   "auto (Cholesky and Schur complement where the shifted stiffness is positive definite, else LU) or lu")
        ->check(CLI::IsMember({"auto", "lu"}));
    mo->add_option("--method", modes.method, "Statics method: automatic, newton or relaxation")
        ->check(CLI::IsMember({"automatic", "newton", "relaxation"}));
    mo->add_option("--max-wall-time", modes.maxWallTime,
                   "Wall-clock limit of each equilibrium search [s], checked between iterations (default 0: none)");
    mo->add_option("--along", modes.along, "Driver to lock at --steps values from --from to --to");
    mo->add_option("--from", modes.from, "First value of the driver's coordinate [rad or m]");
    mo->add_option("--to", modes.to, "Last value of the driver's coordinate [rad or m]");
    mo->add_option("--steps", modes.steps, "Number of postures along the motion");
    mo->add_option("--out", modes.out, "CSV file: mode shapes, or frequencies along the motion");
    mo->add_flag("--json", modes.json, "Print one JSON object on stdout");

    ImportOptions importing;
    auto* im = app.add_subcommand("import", "A URDF or MJCF file as a LoopLab model (docs/import-export.md)");
    im->add_option("file", importing.file, "URDF (.urdf) or MJCF (.xml, .mjcf) file")->required();
    im->add_option("--out", importing.out, "Model file to write (default: standard output)");
    im->add_flag("--json", importing.json, "Print one JSON object on stdout");

    ExportOptions exporting;
    auto* ex = app.add_subcommand("export", "A model as MJCF or URDF, for robotics toolchains (docs/import-export.md)");
    ex->add_option("model", exporting.model, "Model file (.json)")->required();
    ex->add_option("--format", exporting.format, "mjcf or urdf")->check(CLI::IsMember({"mjcf", "urdf"}));
    ex->add_option("--out", exporting.out, "File to write (default: standard output)");
    ex->add_flag("--json", exporting.json, "Print one JSON object on stdout");

    StudyOptions study;
    study.threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    auto* st = app.add_subcommand("study", "Design study: parameter sweep or Monte Carlo over a model (docs/study-format.md)");
    st->add_option("study", study.study, "Study file (.json)")->required();
    st->add_option("--out", study.out, "CSV file for the results, one row per case")->required();
    st->add_option("--summary", study.summary, "JSON file for the statistics and sensitivities");
    st->add_option("--threads", study.threads, "Cases run at once (default: the number of cores)");
    st->add_flag("--resume", study.resume, "Keep the finished cases of an interrupted run of the same study");

    // Known before parsing, so that even a bad command line gets its JSON object.
    bool json = false;
    for (int i = 1; i < argc; ++i)
        if (std::strcmp(argv[i], "--json") == 0) json = true;
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        if (e.get_exit_code() == 0) {  // --help, --version
            app.exit(e);
            return kSuccess;
        }
        return reportFailure(json, kBadInput, e.what());
    }
    int rc = kBadInput;
    try {
        if (*c) rc = runCheck(check);
        else if (*k) rc = runKinematics(kin);
        else if (*mc) rc = runMethods(methods);
        else if (*stc) rc = runStatics(statics);
        else if (*st) rc = runStudy(study);
        else if (*im) rc = runImport(importing);
        else if (*ex) rc = runExport(exporting);
        else if (*mo) {
            modes.shiftGiven = mo->count("--shift") > 0;
            modes.fromGiven = mo->count("--from") > 0;
            modes.toGiven = mo->count("--to") > 0;
            modes.stepsGiven = mo->count("--steps") > 0;
            rc = runModes(modes);
        }
        else if (*an) {
            for (const std::string& key : parameterKeys())
                if (an->count("--" + key)) anim.simulation.givenParameters.push_back(key);
            collectGiven(an, animValues, anim.simulation.given);
            anim.tEndGiven = an->count("--t-end") > 0;
            anim.modeGiven = an->count("--mode") > 0;
            anim.amplitudeGiven = an->count("--amplitude") > 0;
            anim.cyclesGiven = an->count("--cycles") > 0;
            anim.framesPerCycleGiven = an->count("--frames-per-cycle") > 0;
#if defined(LOOPLAB_HAVE_ANIMATE)
            rc = runAnimate(anim);
#elif defined(LOOPLAB_ANIMATE_PROGRAM)
            rc = runAnimateProgram(LOOPLAB_ANIMATE_PROGRAM, argv, anim.simulation.json);
#else
            rc = reportFailure(anim.simulation.json, kBadInput,
                               "this looplab-cli was built without the animation library (VTK and FFmpeg; "
                               "configure with -DLOOPLAB_BUILD_UI=ON)");
#endif
        }
        else if (*sc) {
            for (const std::string& key : parameterKeys())
                if (sc->count("--" + key)) sim.givenParameters.push_back(key);
            collectGiven(sc, simValues, sim.given);
            rc = runSimulate(sim);
        }
    } catch (const std::exception& e) {
        rc = reportFailure(json, kSolverFailure, e.what());
    }
    // Standard output is an output like any other: a result that could not be written
    // is not a success.
    errno = 0;
    std::cout.flush();
    if (!std::cout) {
        std::cerr << "error: cannot write standard output" << (errno ? ": " : "")
                  << (errno ? std::strerror(errno) : "") << "\n";
        if (rc == kSuccess) rc = kWriteFailure;
    }
    return rc;
}
