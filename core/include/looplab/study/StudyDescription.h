#pragma once
// What a design study asks for: the model, the parameters varied, the analysis run on
// every case with its settings, and the outputs kept per case. Read from a study file by
// StudyFile.h; run case by case by StudyRunner.h. docs/study-format.md.

#include "looplab/analysis/Modes.h"
#include "looplab/simulation/SimulationSettings.h"
#include "looplab/analysis/Statics.h"
#include "looplab/study/StudyParameter.h"

#include <cstdint>
#include <string>
#include <vector>

namespace looplab {

enum class StudyAnalysisType { Check, Kinematics, Simulate, Statics, Modes };
/// "check", "kinematics", "simulate", "statics", "modes".
const char* studyAnalysisName(StudyAnalysisType type);
bool parseStudyAnalysis(const std::string& name, StudyAnalysisType& type);

/// The analysis of every case, with settings named like the command-line options.
struct StudyAnalysis {
    StudyAnalysisType type = StudyAnalysisType::Check;
    double tEnd = 1.0;           ///< kinematics, simulate: time span after the initial time [s]
    double step = 0.01;          ///< kinematics: output step [s]
    SimulationSettings simulation;  ///< simulate (tEnd there is relative, like tEnd here)
    StaticsOptions statics;         ///< statics, modes
    ModesOptions modes;             ///< modes
    LinearAlgebra linearAlgebra = LinearAlgebra::Automatic;  ///< check
};

/// What is kept of a quantity over a case's run.
enum class StudyStatistic { Initial, Final, Min, Max };
/// "initial", "final", "min", "max".
const char* studyStatisticName(StudyStatistic s);
bool parseStudyStatistic(const std::string& name, StudyStatistic& s);

/// One output column: a named quantity (the CLI's CSV column names, e.g. "rocker.x",
/// "D.angle", "energy") and what is kept of it.
struct StudyOutput {
    std::string quantity;
    StudyStatistic statistic = StudyStatistic::Final;
    std::string column() const { return quantity + "." + studyStatisticName(statistic); }
};

enum class StudyDesign { Factorial, MonteCarlo };

struct StudyDescription {
    std::string file;       ///< the study file, for messages
    std::string name;
    std::string modelPath;  ///< as resolved (relative paths are relative to the study file)
    std::string modelText;  ///< the model file's JSON text, varied per case
    StudyDesign design = StudyDesign::Factorial;
    std::uint64_t seed = 0;  ///< Monte Carlo
    long samples = 0;        ///< Monte Carlo: number of cases
    std::vector<StudyParameter> parameters;
    StudyAnalysis analysis;
    std::vector<StudyOutput> outputs;
};

}  // namespace looplab
