// looplab-cli: the headless tool over the LoopLab core (see docs/cli.md).
#include "CliCommon.h"

#include <CLI/CLI.hpp>

int main(int argc, char** argv) {
    using namespace looplab::cli;
    CLI::App app{"LoopLab command-line tool: analyse and simulate closed-loop mechanisms"};
    app.require_subcommand(1);

    CheckOptions check;
    auto* c = app.add_subcommand("check", "Mobility analysis: rank, degrees of freedom, redundant equations");
    c->add_option("model", check.model, "Model file (.json)")->required();
    c->add_flag("--json", check.json, "Print one JSON object on stdout");

    KinematicsOptions kin;
    auto* k = app.add_subcommand("kinematics", "Kinematic simulation of a fully driven model");
    k->add_option("model", kin.model, "Model file (.json)")->required();
    k->add_option("--t-end", kin.tEnd, "Simulated time span [s]")->required();
    k->add_option("--step", kin.step, "Output step [s]")->required();
    k->add_option("--out", kin.out, "CSV file for the results");
    k->add_flag("--json", kin.json, "Print one JSON object on stdout");

    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        const int rc = app.exit(e);
        return rc == 0 ? kSuccess : kBadInput;
    }
    try {
        if (*c) return runCheck(check);
        if (*k) return runKinematics(kin);
    } catch (const std::exception& e) {
        std::cerr << "error: " << e.what() << "\n";
        return kSolverFailure;
    }
    return kBadInput;
}
