#include "looplab/study/StudyRunner.h"

#include "looplab/kinematics/Assembly.h"
#include "looplab/dynamics/StartEquilibrium.h"
#include "looplab/linalg/ConstraintSpaces.h"
#include "looplab/kinematics/Constraints.h"
#include "looplab/kinematics/JointCoordinates.h"
#include "looplab/kinematics/KinematicSimulation.h"
#include "looplab/kinematics/Mobility.h"
#include "looplab/dynamics/Reactions.h"
#include "looplab/model/ModelBuilder.h"
#include "looplab/files/ModelFile.h"
#include "looplab/simulation/Simulation.h"
#include "looplab/study/StudyCases.h"
#include "looplab/study/StudyQuantities.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace looplab {

namespace {

// The values of an analysis's quantities (studyQuantities, in that order) at one output
// time.
class QuantitySampler {
public:
    QuantitySampler(const Model& model, const StudyAnalysis& analysis)
        : model_(model), analysis_(analysis), tracker_(model), names_(studyQuantities(model, analysis)) {}

    const std::vector<std::string>& names() const { return names_; }

    // Bodies and joint coordinates at `s`; the caller appends the analysis's own values.
    std::vector<double> common(const State& s) {
        std::vector<double> v;
        v.reserve(names_.size());
        for (int b = 1; b < model_.bodyCount(); ++b) {
            const Vec3 p = bodyPosition(model_, s, BodyIndex(b));
            const Quat q = bodyOrientation(model_, s, BodyIndex(b));
            for (double x : {p.x(), p.y(), p.z(), q.w(), q.x(), q.y(), q.z()}) v.push_back(x);
        }
        for (double c : tracker_.update(s)) v.push_back(c);
        return v;
    }

private:
    const Model& model_;
    const StudyAnalysis& analysis_;
    JointCoordinateTracker tracker_;
    std::vector<std::string> names_;
};

// Initial, final, smallest and largest value of each quantity over a run.
class OutputAccumulator {
public:
    OutputAccumulator(const std::vector<std::string>& names, const std::vector<StudyOutput>& outputs) {
        for (const StudyOutput& o : outputs) {
            const auto it = std::find(names.begin(), names.end(), o.quantity);
            index_.push_back(it == names.end() ? -1 : int(it - names.begin()));
        }
    }

    void add(const std::vector<double>& v) {
        if (first_.empty()) {
            first_ = v;
            min_ = v;
            max_ = v;
        }
        last_ = v;
        for (size_t i = 0; i < v.size() && i < min_.size(); ++i) {
            min_[i] = std::min(min_[i], v[i]);
            max_[i] = std::max(max_[i], v[i]);
        }
    }

    std::vector<double> values(const std::vector<StudyOutput>& outputs) const {
        std::vector<double> r(outputs.size(), NAN);
        for (size_t k = 0; k < outputs.size(); ++k) {
            const int i = index_[k];
            if (i < 0 || last_.empty() || size_t(i) >= last_.size()) continue;
            switch (outputs[k].statistic) {
            case StudyStatistic::Initial: r[k] = first_[size_t(i)]; break;
            case StudyStatistic::Final: r[k] = last_[size_t(i)]; break;
            case StudyStatistic::Min: r[k] = min_[size_t(i)]; break;
            case StudyStatistic::Max: r[k] = max_[size_t(i)]; break;
            }
        }
        return r;
    }

private:
    std::vector<int> index_;
    std::vector<double> first_, last_, min_, max_;
};

std::string timeText(double t) {
    char buf[48];
    std::snprintf(buf, sizeof buf, "t = %.6g s: ", t);
    return buf;
}

void runAnalysis(const StudyDescription& study, const std::shared_ptr<const Model>& modelPtr, const State& initial,
                 StudyRow& row, const std::atomic<bool>* stop) {
    const Model& model = *modelPtr;
    const StudyAnalysis& a = study.analysis;
    QuantitySampler sampler(model, a);
    OutputAccumulator acc(sampler.names(), study.outputs);
    switch (a.type) {
    case StudyAnalysisType::Check: {
        const MobilityReport r = analyzeMobility(model, initial, kDefaultRankTolerance, a.linearAlgebra);
        acc.add({double(r.dof), double(r.rank), double(r.redundant.size()), double(r.gruebler), r.smallestSingularValue});
        row.ok = true;
        break;
    }
    case StudyAnalysisType::Kinematics: {
        const KinematicResult res =
            runKinematics(model, initial, initial.t + a.tEnd, a.step, [&](const KinematicSample& s) {
                std::vector<double> v = sampler.common(s.state);
                v.push_back(s.positionViolation);
                v.push_back(s.velocityViolation);
                v.push_back(s.accelerationViolation);
                acc.add(v);
            });
        row.ok = res.ok;
        if (!res.ok) row.reason = "kinematics failed: " + res.message;
        break;
    }
    case StudyAnalysisType::Simulate: {
        SimulationSettings settings = a.simulation;
        settings.tEnd = initial.t + a.tEnd;
        Simulator sim(modelPtr, settings);
        const SimulationResult res = sim.run(initial, [&](const SimulationFrame& f) {
            std::vector<double> v = sampler.common(f.state);
            for (double x : {f.violation.position, f.violation.velocity, f.violation.acceleration, f.energy.total()})
                v.push_back(x);
            for (const JointReaction& r : f.reactions)
                for (double x : {r.forceGlobal.x(), r.forceGlobal.y(), r.forceGlobal.z(), r.torqueGlobal.x(),
                                 r.torqueGlobal.y(), r.torqueGlobal.z()})
                    v.push_back(x);
            for (const DriverEffort& d : f.drivers) v.push_back(d.value);
            v.push_back(double(f.rank));
            v.push_back(f.smallestSingularValue);
            v.push_back(f.stepSize);
            acc.add(v);
        }, {}, stop);
        double singular = 0, branches = 0;
        for (const SimulationEvent& e : res.events) {
            singular += e.kind == RunEventKind::SingularConfiguration ? 1 : 0;
            branches += e.kind == RunEventKind::BranchChange ? 1 : 0;
        }
        row.values = {singular, branches};
        row.ok = res.ok;
        if (!res.ok) row.reason = "simulation failed at " + timeText(res.tFinal) + res.message;
        break;
    }
    case StudyAnalysisType::Statics:
    case StudyAnalysisType::Modes: {
        State s = initial;
        const StaticsResult r = findEquilibrium(model, s, a.statics);
        if (!r.ok) {
            row.reason = std::string("statics: ") + staticsOutcomeName(r.outcome) + ": " + r.message;
            break;
        }
        std::vector<double> v = sampler.common(s);
        // Reactions and driver efforts at the equilibrium, as a simulation frame has them.
        ConstraintValues cv;
        evaluateConstraints(model, s, cv, kJacobian);
        ConstraintSpaces spaces;
        factorizeConstraints(model, s, spaces, a.statics.rankTolerance, a.statics.linearAlgebra);
        std::vector<JointReaction> reactions;
        std::vector<DriverEffort> drivers;
        computeReactions(model, s, cv.jacobian, r.lambda, spaces.indeterminateEquations(), reactions, drivers);
        for (const JointReaction& j : reactions)
            for (double x : {j.forceGlobal.x(), j.forceGlobal.y(), j.forceGlobal.z(), j.torqueGlobal.x(),
                             j.torqueGlobal.y(), j.torqueGlobal.z()})
                v.push_back(x);
        for (const DriverEffort& d : drivers) v.push_back(d.value);
        v.push_back(r.forceResidual);
        if (a.type == StudyAnalysisType::Modes) {
            const ModesResult m = computeModes(model, s, r.lambda, a.modes);
            if (!m.ok) {
                row.reason = "modes: " + m.message;
                break;
            }
            for (int k = 0; k < a.modes.count; ++k)
                v.push_back(size_t(k) < m.modes.size() ? m.modes[size_t(k)].frequencyHz : NAN);
        }
        acc.add(v);
        row.ok = true;
        break;
    }
    }
    // A failed case keeps no outputs: a partial run's extremes would mix into the statistics.
    std::vector<double> outputs = row.ok ? acc.values(study.outputs) : std::vector<double>(study.outputs.size(), NAN);
    if (a.type == StudyAnalysisType::Simulate && row.values.size() != 2) row.values.assign(2, NAN);
    row.values.insert(row.values.end(), outputs.begin(), outputs.end());
}

}  // namespace

std::string applyStudyValues(const StudyDescription& study, const std::string& modelText,
                             const std::vector<double>& values) {
    nlohmann::json j = nlohmann::json::parse(modelText);
    // A count (a gear's teeth, a beam's elements) stays a whole number where the value is
    // one; any other value goes in as it is, for the reader to refuse with its reason.
    auto put = [&j](const std::string& path, double v) {
        nlohmann::json& at = j[nlohmann::json::json_pointer(path)];
        if (at.is_number_integer() && std::isfinite(v) && v == std::floor(v) && std::abs(v) < 9e15)
            at = static_cast<long long>(v);
        else
            at = v;
    };
    for (size_t i = 0; i < values.size() && i < study.parameters.size(); ++i) {
        put(study.parameters[i].path, values[i]);
        for (const StudyParameter::Linked& linked : study.parameters[i].also) put(linked.path, linked.factor * values[i]);
    }
    return j.dump();
}

StudyRow runStudyCase(const StudyDescription& study, long index, const std::atomic<bool>* stop) {
    StudyRow row;
    row.index = index;
    row.parameters = studyCaseValues(study, index);
    const size_t nValues = studyValueColumns(study).size();
    try {
        const DocumentResult doc = parseModelDocument(applyStudyValues(study, study.modelText, row.parameters), study.modelPath);
        if (!doc.document) {
            row.reason = "the varied model is invalid: " + formatDiagnostics(doc.diagnostics);
        } else {
            const BuildResult b = buildModel(*doc.document, study.modelPath);
            if (!b.ok()) {
                row.reason = "the varied model does not build: " + formatDiagnostics(b.diagnostics);
            } else {
                State s = initialState(*b.model);
                const AssemblyResult as = assemble(*b.model, s);
                if (!as.ok) {
                    row.reason = "assembly failed: " + as.message;
                } else {
                    // As a model loads (ModelLoading.cpp): flexible members start with the
                    // velocities the file's run block asks for.
                    StartMotion start = StartMotion::Consistent;
                    if (doc.document->run.start) parseStartMotion(*doc.document->run.start, start);
                    startModel(*b.model, s, start);
                    row.assembled = true;
                    runAnalysis(study, b.model, s, row, stop);
                }
            }
        }
    } catch (const std::exception& e) {
        row.ok = false;
        row.reason = std::string("internal error: ") + e.what();
    }
    if (row.values.size() != nValues) {
        // A case that ended before its analysis has none of the values.
        std::vector<double> v(nValues, NAN);
        for (size_t i = 0; i < row.values.size() && i < nValues; ++i) v[i] = row.values[i];
        row.values = v;
    }
    while (!row.reason.empty() && (row.reason.back() == '\n' || row.reason.back() == ' ')) row.reason.pop_back();
    return row;
}

}  // namespace looplab
