#include "ModesReport.h"

#include <cmath>
#include <cstdlib>

namespace looplab::reports {

nlohmann::json modesJson(const ModesResult& r) {
    nlohmann::json j;
    j["scaling"] = r.scaling;
    j["stiffness_scale"] = r.stiffnessScale;
    j["shift"] = r.shift;
    j["reference_shift"] = r.referenceShift;
    j["condition"] = {{"unscaled", r.conditionUnscaled}, {"scaled", r.conditionScaled}};
    j["ill_conditioned"] = r.illConditioned;
    j["factorization"] = r.factorization;
    j["flagged"] = r.flagged;
    j["damped"] = r.damped;
    j["symmetric"] = r.symmetric;
    j["stiffness_asymmetry"] = r.stiffnessAsymmetry;
    j["spurious_rejected"] = r.spuriousRejected;
    j["coordinates"] = r.coordinates;
    j["independent_equations"] = r.independentEquations;
    j["dof"] = r.degreesOfFreedom;
    j["rigid_body_modes"] = r.rigidBodyModes;
    j["free_structures"] = r.freeStructures;
    j["dense_check"] = r.denseChecked ? nlohmann::json({{"largest_difference", r.denseDifference}}) : nlohmann::json();
    j["timings"] = {{"factorization_s", r.factorizationSeconds}, {"iteration_s", r.iterationSeconds},
                    {"dense_check_s", r.denseSeconds}};
    j["warnings"] = r.warnings;
    nlohmann::json list = nlohmann::json::array();
    for (const Mode& m : r.modes)
        list.push_back({{"frequency_hz", m.frequencyHz},
                        {"damping_ratio", m.dampingRatio},
                        {"eigenvalue", {m.s.real(), m.s.imag()}},
                        {"squared_frequency", m.squaredFrequency},
                        {"unstable", m.unstable},
                        {"rigid_body", m.rigidBody},
                        {"accurate", m.accurate},
                        {"residual", m.residual},
                        {"constraint_residual", m.constraintResidual}});
    j["modes"] = list;
    return j;
}

std::vector<std::string> modeCoordinateNames(const Model& model) {
    std::vector<std::string> names(static_cast<size_t>(model.velocitySize()));
    for (int b = 1; b < model.bodyCount(); ++b) {
        const Body& body = model.bodies[static_cast<size_t>(b)];
        for (int k = 0; k < body.slice.velocitySize; ++k)
            names[static_cast<size_t>(body.slice.velocityOffset + k)] =
                body.name + "." + body.formulation->velocityName(k);
    }
    return names;
}

nlohmann::json alongStepJson(const AlongMotionStep& st) {
    nlohmann::json js = {{"coordinate", st.coordinate},
                         {"ok", st.ok},
                         {"equilibrium", staticsOutcomeName(st.equilibrium)},
                         {"frequencies_hz", st.frequenciesHz},
                         {"damping_ratios", st.dampingRatios},
                         {"correlation", st.correlation},
                         {"condition_scaled", st.conditionScaled}};
    if (!st.message.empty()) js["message"] = st.message;
    return js;
}

std::vector<std::string> alongColumns(const std::string& driver, int count) {
    std::vector<std::string> c{driver};
    for (int k = 1; k <= count; ++k) c.push_back("f" + std::to_string(k) + "_hz");
    for (int k = 1; k <= count; ++k) c.push_back("zeta" + std::to_string(k));
    c.push_back("ok");
    return c;
}

std::vector<double> alongRow(const AlongMotionStep& st, int count) {
    std::vector<double> r{st.coordinate};
    for (int k = 0; k < count; ++k) r.push_back(k < int(st.frequenciesHz.size()) ? st.frequenciesHz[size_t(k)] : -1.0);
    for (int k = 0; k < count; ++k) r.push_back(k < int(st.dampingRatios.size()) ? st.dampingRatios[size_t(k)] : -1.0);
    r.push_back(st.ok ? 1.0 : 0.0);
    return r;
}

bool parseModeScaling(const std::string& text, const std::string& option, ModesOptions& mo, std::string* error) {
    if (text == "auto" || text == "automatic") {
        mo.scaling = ModeScaling::Automatic;
        return true;
    }
    if (text == "none") {
        mo.scaling = ModeScaling::None;
        return true;
    }
    char* end = nullptr;
    const double v = std::strtod(text.c_str(), &end);
    if (!text.empty() && end && *end == '\0' && std::isfinite(v) && v > 0) {
        mo.scaling = ModeScaling::Value;
        mo.scalingValue = v;
        return true;
    }
    *error = option + " must be auto, none or a finite positive number (got '" + text + "')";
    return false;
}

}  // namespace looplab::reports
