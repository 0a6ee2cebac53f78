#include "looplab/study/StudyFile.h"

#include "looplab/integrate/MethodRegistry.h"
#include "looplab/model/ModelBuilder.h"
#include "looplab/model/InputFile.h"
#include "looplab/files/ModelFile.h"
#include "looplab/study/StudyCases.h"
#include "looplab/study/StudyQuantities.h"
#include "files/JsonLocator.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <set>
#include <sstream>

namespace looplab {

using nlohmann::json;

namespace {

// Most cases a study may have: the rows are kept in memory until the study ends (a few
// hundred bytes a case), and beyond this a study is more likely a typo in a range.
constexpr long kMaxStudyCases = 10'000'000;

class StudyReader : public json_input::JsonLocator {
public:
    using JsonLocator::JsonLocator;

    bool positive(const json& obj, const char* key, const std::string& where, double& out, bool required = false) {
        double v = out;
        if (!number(obj, key, where, v, required)) return false;
        if (!(v > 0)) {
            error(where + "/" + key, std::string("'") + key + "' must be positive");
            return false;
        }
        out = v;
        return true;
    }

    bool integer(const json& obj, const char* key, const std::string& where, long& out, long low,
                 bool required = false) {
        const json* v = field(obj, key, where, required);
        if (!v) return false;
        if (!v->is_number_integer()) {
            error(where + "/" + key, std::string("expected an integer, found ") + v->type_name());
            return false;
        }
        if (v->is_number_unsigned() && v->get<std::uint64_t>() > std::uint64_t(std::numeric_limits<long>::max())) {
            error(where + "/" + key, std::string("'") + key + "' is too large (at most " +
                                         std::to_string(std::numeric_limits<long>::max()) + ")");
            return false;
        }
        const long long x = v->get<long long>();
        if (x < low) {
            error(where + "/" + key, std::string("'") + key + "' must be at least " + std::to_string(low));
            return false;
        }
        out = static_cast<long>(x);
        return true;
    }

    // A parameter's pointer must name a number of the model file.
    void modelNumber(const json& model, const std::string& path, const std::string& where) {
        try {
            const json::json_pointer ptr(path);
            if (!model.contains(ptr))
                error(where, "the model file has no value at '" + path + "'");
            else if (!model.at(ptr).is_number()) {
                const std::string type = model.at(ptr).type_name();
                const bool vowel = !type.empty() && std::string("aeiou").find(type[0]) != std::string::npos;
                error(where, "the model's value at '" + path + "' is " + (vowel ? "an " : "a ") + type + ", not a number");
            }
        } catch (const json::exception&) {
            error(where, "'" + path + "' is not a JSON pointer (e.g. \"/bodies/0/mass\")");
        }
    }

    void parameter(const json& j, const std::string& where, const json& model, StudyParameter& p) {
        if (!object(j, where, {"name", "path", "also", "values", "range", "normal", "uniform"})) return;
        // "" is a JSON pointer to the whole model, never a number to vary.
        if (text(j, "path", where, p.path, true) && p.path.empty())
            error(where + "/path", "'path' is empty: it must point at a number of the model (e.g. \"/bodies/0/mass\")");
        p.name = p.path;
        text(j, "name", where, p.name);
        if (p.name.empty() || p.name.find_first_of(",\"\n\r") != std::string::npos)
            error(where + (j.contains("name") ? "/name" : "/path"),
                  "a parameter's name must be non-empty and hold no comma, quote or line break");
        if (!p.path.empty()) modelNumber(model, p.path, where + "/path");
        if (const json* also = field(j, "also", where, false)) {
            if (!also->is_array()) {
                error(where + "/also", "expected an array of {\"path\", \"factor\"}");
            } else {
                for (size_t k = 0; k < also->size(); ++k) {
                    const std::string at = where + "/also/" + std::to_string(k);
                    if (!object((*also)[k], at, {"path", "factor"})) continue;
                    StudyParameter::Linked linked;
                    if (text((*also)[k], "path", at, linked.path, true)) modelNumber(model, linked.path, at + "/path");
                    number((*also)[k], "factor", at, linked.factor);
                    p.also.push_back(linked);
                }
            }
        }
        int kinds = 0;
        for (const char* k : {"values", "range", "normal", "uniform"}) kinds += j.contains(k) ? 1 : 0;
        if (kinds != 1) {
            error(where, "a parameter needs exactly one of 'values', 'range', 'normal' and 'uniform'");
            return;
        }
        if (const json* v = field(j, "values", where, false)) {
            p.kind = StudyParameter::Kind::List;
            if (!v->is_array() || v->empty()) {
                error(where + "/values", "expected a non-empty array of numbers");
                return;
            }
            for (size_t i = 0; i < v->size(); ++i) {
                const json& x = (*v)[i];
                if (!x.is_number() || !std::isfinite(x.get<double>()))
                    error(where + "/values/" + std::to_string(i), "expected a finite number");
                else
                    p.values.push_back(x.get<double>());
            }
        } else if (const json* r = field(j, "range", where, false)) {
            p.kind = StudyParameter::Kind::Range;
            const std::string w = where + "/range";
            if (!object(*r, w, {"from", "to", "steps"})) return;
            number(*r, "from", w, p.from, true);
            number(*r, "to", w, p.to, true);
            long steps = 0;
            if (integer(*r, "steps", w, steps, 1, true)) {
                if (steps > kMaxStudyCases) error(w + "/steps", "more steps than a study may have cases (10 000 000)");
                else p.steps = static_cast<int>(steps);
            }
        } else if (const json* n = field(j, "normal", where, false)) {
            p.kind = StudyParameter::Kind::Normal;
            const std::string w = where + "/normal";
            if (!object(*n, w, {"mean", "sd"})) return;
            number(*n, "mean", w, p.mean, true);
            if (number(*n, "sd", w, p.sd, true) && p.sd < 0) error(w + "/sd", "'sd' must not be negative");
        } else if (const json* u = field(j, "uniform", where, false)) {
            p.kind = StudyParameter::Kind::Uniform;
            const std::string w = where + "/uniform";
            if (!object(*u, w, {"low", "high"})) return;
            const bool a = number(*u, "low", w, p.low, true);
            const bool b = number(*u, "high", w, p.high, true);
            if (a && b && !(p.high >= p.low)) error(w + "/high", "'high' must not be below 'low'");
        }
    }

    void analysis(const json& j, const std::string& where, StudyAnalysis& a) {
        if (!j.is_object()) {
            error(where, std::string("expected an object, found ") + j.type_name());
            return;
        }
        std::string type;
        if (!text(j, "type", where, type, true)) return;
        if (!parseStudyAnalysis(type, a.type)) {
            error(where + "/type", "unknown analysis '" + type + "' (check, kinematics, simulate, statics or modes)");
            return;
        }
        std::string word;
        switch (a.type) {
        case StudyAnalysisType::Check:
            if (!object(j, where, {"type", "linear_algebra"})) return;
            if (text(j, "linear_algebra", where, word) && !parseLinearAlgebra(word, a.linearAlgebra))
                error(where + "/linear_algebra", "expected automatic, dense or sparse");
            break;
        case StudyAnalysisType::Kinematics:
            if (!object(j, where, {"type", "t_end", "step"})) return;
            if (number(j, "t_end", where, a.tEnd, true) && a.tEnd < 0) error(where + "/t_end", "'t_end' must not be negative");
            positive(j, "step", where, a.step, true);
            if (a.step > 0 && a.tEnd / a.step > 1e7)
                error(where + "/step", "more than 10 000 000 output steps per case");
            break;
        case StudyAnalysisType::Simulate: {
            if (!object(j, where, {"type", "t_end", "method", "integrator", "step", "rtol", "atol", "output_step",
                                   "singular_threshold", "rank_tolerance", "max_step", "max_steps",
                                   "linear_algebra"}))
                return;
            SimulationSettings& s = a.simulation;
            s.ode.step = 0.0;  // automatic, as on the command line
            if (number(j, "t_end", where, a.tEnd, true) && a.tEnd < 0) error(where + "/t_end", "'t_end' must not be negative");
            text(j, "method", where, s.method);
            text(j, "integrator", where, s.integrator);
            std::string why;
            if (!isSupportedPair(s.method, s.integrator, &why)) error(where, why);
            double step = 0.0;
            if (number(j, "step", where, step)) {
                if (step < 0) error(where + "/step", "'step' must not be negative");
                s.ode.step = step;
            }
            const IntegratorInfo* info = findIntegrator(s.integrator);
            if (info && info->stepControl == StepControl::Fixed && !(s.ode.step > 0))
                error(where + "/step", s.integrator + " needs a positive 'step'");
            if (positive(j, "rtol", where, s.ode.rtol) && s.ode.rtol >= 1)
                error(where + "/rtol", "'rtol' must be below 1 (a relative tolerance; as simulate's --rtol)");
            positive(j, "atol", where, s.ode.atol);
            positive(j, "output_step", where, s.outputStep);
            if (number(j, "singular_threshold", where, s.singularThreshold) && s.singularThreshold < 0)
                error(where + "/singular_threshold", "'singular_threshold' must not be negative");
            if (positive(j, "rank_tolerance", where, s.constraints.rankTolerance) && s.constraints.rankTolerance >= 1)
                error(where + "/rank_tolerance", "'rank_tolerance' must be below 1");
            if (number(j, "max_step", where, s.ode.maxStep) && s.ode.maxStep < 0)
                error(where + "/max_step", "'max_step' must not be negative");
            integer(j, "max_steps", where, s.maxSteps, 1);
            // As `simulate` refuses an rk4 --step past --max-steps: otherwise every case
            // would run up to the limit before failing.
            if (info && info->stepControl == StepControl::Fixed && s.ode.step > 0 &&
                a.tEnd / s.ode.step > double(s.maxSteps))
                error(where + "/step", "'step' over 't_end' takes more steps than 'max_steps' (" +
                                           std::to_string(s.maxSteps) + ")");
            if (text(j, "linear_algebra", where, word) && !parseLinearAlgebra(word, s.constraints.linearAlgebra))
                error(where + "/linear_algebra", "expected automatic, dense or sparse");
            if (s.outputStep > 0 && a.tEnd / s.outputStep > 1e7)
                error(where + "/output_step", "more than 10 000 000 output steps per case");
            break;
        }
        case StudyAnalysisType::Statics:
        case StudyAnalysisType::Modes: {
            if (a.type == StudyAnalysisType::Statics ? !object(j, where, {"type", "method", "tolerance"})
                                                     : !object(j, where, {"type", "method", "tolerance", "count", "shift"}))
                return;
            if (text(j, "method", where, word) && !parseStaticsMethod(word, a.statics.method))
                error(where + "/method", "expected automatic, newton or relaxation");
            positive(j, "tolerance", where, a.statics.forceTolerance);
            long count = a.modes.count;
            if (integer(j, "count", where, count, 1)) {
                if (count > 1000) error(where + "/count", "at most 1000 modes per case");
                else a.modes.count = static_cast<int>(count);
            }
            double shift = 0;
            if (number(j, "shift", where, shift)) a.modes.shift = shift;
            break;
        }
        }
    }
};

}  // namespace

StudyFileResult parseStudyFile(const std::string& text, const std::string& file, const StudyModelRead& onModel) {
    StudyFileResult r;
    try {
        json root;
        if (!json_input::parseJson(text, file, "a study file", root, r.diagnostics)) return r;
        StudyReader rd(file, r.diagnostics);
        if (!rd.object(root, "", {"format", "version", "name", "description", "model", "seed", "samples",
                                  "parameters", "analysis", "outputs"}))
            return r;
        StudyDescription s;
        s.file = file;
        std::string format;
        if (rd.text(root, "format", "", format, true) && format != kStudyFormatName)
            rd.error("/format", "expected \"" + std::string(kStudyFormatName) + "\", found \"" + format + "\"");
        long version = 0;
        if (rd.integer(root, "version", "", version, 0, true) && version != kStudyFormatVersion)
            rd.error("/version", "this LoopLab reads study format version " + std::to_string(kStudyFormatVersion) +
                                     ", not " + std::to_string(version));
        rd.text(root, "name", "", s.name);
        std::string description;
        rd.text(root, "description", "", description);

        // The model, relative to the study file.
        json model;
        bool modelOk = false;
        if (rd.text(root, "model", "", s.modelPath, true)) {
            std::filesystem::path mp(s.modelPath);
            if (mp.is_relative() && !file.empty()) mp = std::filesystem::path(file).parent_path() / mp;
            s.modelPath = mp.lexically_normal().string();
            std::string why;
            if (!readInputFile(s.modelPath, "model file", s.modelText, why)) {
                rd.error("/model", "model file '" + s.modelPath + "' " + why);
            } else {
                const DocumentResult doc = parseModelDocument(s.modelText, s.modelPath);
                if (!doc.document) {
                    rd.error("/model", "the model file does not load:\n" + formatDiagnostics(doc.diagnostics));
                } else {
                    if (onModel) onModel(*doc.document);
                    modelOk = json_input::parseJson(s.modelText, s.modelPath, "a model file", model, r.diagnostics);
                }
            }
        }

        // Parameters and the design they make.
        const json* params = rd.field(root, "parameters", "", true);
        if (params && (!params->is_array() || params->empty())) {
            rd.error("/parameters", "expected a non-empty array of parameters");
        } else if (params) {
            for (size_t i = 0; i < params->size(); ++i) {
                StudyParameter p;
                rd.parameter((*params)[i], "/parameters/" + std::to_string(i), modelOk ? model : json::object(), p);
                s.parameters.push_back(p);
            }
            std::set<std::string> names, paths;
            for (size_t i = 0; i < s.parameters.size(); ++i) {
                const std::string at = "/parameters/" + std::to_string(i);
                if (!s.parameters[i].path.empty() && !paths.insert(s.parameters[i].path).second)
                    rd.error(at + "/path", "another parameter varies '" + s.parameters[i].path + "'");
                for (size_t k = 0; k < s.parameters[i].also.size(); ++k)
                    if (!paths.insert(s.parameters[i].also[k].path).second)
                        rd.error(at + "/also/" + std::to_string(k) + "/path",
                                 "'" + s.parameters[i].also[k].path + "' is varied twice");
            }
            for (size_t i = 0; i < s.parameters.size(); ++i)
                if (!s.parameters[i].name.empty() && !names.insert(s.parameters[i].name).second)
                    rd.error("/parameters/" + std::to_string(i) + "/name",
                             "another parameter has the name '" + s.parameters[i].name + "'");
            const auto random = std::count_if(s.parameters.begin(), s.parameters.end(),
                                              [](const StudyParameter& p) { return p.isDistribution(); });
            if (random > 0 && random < static_cast<long>(s.parameters.size()))
                rd.error("/parameters", "a study varies its parameters either all by lists and ranges "
                                        "(full factorial) or all by distributions (Monte Carlo), not both");
            s.design = random > 0 ? StudyDesign::MonteCarlo : StudyDesign::Factorial;
        }
        if (s.design == StudyDesign::MonteCarlo) {
            long seed = 0;
            if (rd.integer(root, "seed", "", seed, 0, true)) s.seed = static_cast<std::uint64_t>(seed);
            if (rd.integer(root, "samples", "", s.samples, 1, true) && s.samples > kMaxStudyCases)
                rd.error("/samples", "more than 10 000 000 cases");
        } else {
            if (root.contains("seed")) rd.error("/seed", "'seed' is for Monte Carlo studies (parameters with distributions)");
            if (root.contains("samples"))
                rd.error("/samples", "'samples' is for Monte Carlo studies (parameters with distributions)");
            double cases = 1;
            for (const StudyParameter& p : s.parameters) cases *= double(p.levelCount());
            if (cases > double(kMaxStudyCases))
                rd.error("/parameters", "the full factorial design has more than 10 000 000 cases");
        }

        if (const json* a = rd.field(root, "analysis", "", true)) rd.analysis(*a, "/analysis", s.analysis);

        // Outputs, checked against the quantities the nominal model has.
        std::vector<std::string> known;
        if (modelOk && r.diagnostics.empty()) {
            const DocumentResult doc = parseModelDocument(s.modelText, s.modelPath);
            const BuildResult b = buildModel(*doc.document, s.modelPath);
            if (!b.ok())
                rd.error("/model", "the model does not build:\n" + formatDiagnostics(b.diagnostics));
            else
                known = studyQuantities(*b.model, s.analysis);
        }
        const json* outs = rd.field(root, "outputs", "", s.analysis.type != StudyAnalysisType::Check);
        if (outs && !outs->is_array()) {
            rd.error("/outputs", "expected an array of outputs");
        } else if (outs) {
            std::set<std::string> columns;
            for (size_t i = 0; i < outs->size(); ++i) {
                const std::string w = "/outputs/" + std::to_string(i);
                const json& o = (*outs)[i];
                if (!rd.object(o, w, {"quantity", "of"})) continue;
                std::string q;
                if (!rd.text(o, "quantity", w, q, true)) continue;
                if (!known.empty() && std::find(known.begin(), known.end(), q) == known.end()) {
                    std::string list;
                    for (size_t k = 0; k < known.size() && k < 12; ++k) list += (k ? ", " : "") + known[k];
                    if (known.size() > 12) list += ", ...";
                    rd.error(w + "/quantity", "a " + std::string(studyAnalysisName(s.analysis.type)) +
                                                  " study of this model has no quantity '" + q + "' (it has " + list + ")");
                    continue;
                }
                std::vector<StudyStatistic> stats;
                if (const json* of = rd.field(o, "of", w, false)) {
                    const json list = of->is_string() ? json::array({*of}) : *of;
                    if (!list.is_array() || list.empty()) {
                        rd.error(w + "/of", "expected one of initial, final, min, max or an array of them");
                        continue;
                    }
                    for (size_t k = 0; k < list.size(); ++k) {
                        StudyStatistic st;
                        if (!list[k].is_string() || !parseStudyStatistic(list[k].get<std::string>(), st))
                            rd.error(w + "/of" + (of->is_string() ? "" : "/" + std::to_string(k)),
                                     "expected initial, final, min or max");
                        else
                            stats.push_back(st);
                    }
                } else {
                    stats.push_back(StudyStatistic::Final);
                }
                for (StudyStatistic st : stats) {
                    StudyOutput out{q, st};
                    if (!columns.insert(out.column()).second) rd.error(w, "output '" + out.column() + "' is listed twice");
                    s.outputs.push_back(out);
                }
            }
        }
        if (r.diagnostics.empty()) r.study = std::move(s);
    } catch (const std::exception& e) {
        r.study.reset();
        r.diagnostics.push_back({file, "", std::string("internal error while reading the study: ") + e.what(), 0, 0});
    }
    return r;
}

StudyFileResult readStudyFile(const std::string& path, const StudyModelRead& onModel) {
    StudyFileResult r;
    std::string text, why;
    if (!readInputFile(path, "study file", text, why)) {
        r.diagnostics.push_back({path, "", why, 0, 0});
        return r;
    }
    return parseStudyFile(text, path, onModel);
}

}  // namespace looplab
