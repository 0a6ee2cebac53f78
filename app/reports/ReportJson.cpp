#include "ReportJson.h"

#include "looplab/kinematics/NodalOutputs.h"
#include "looplab/model/State.h"

namespace looplab::reports {

nlohmann::json meshesJson(const Model& model) {
    nlohmann::json meshes = nlohmann::json::object();
    for (const Body& b : model.bodies) {
        if (const BeamMesh* beam = b.beam())
            meshes[b.name] = {{"kind", "beam"}, {"nodes", beam->nodeCount()}, {"elements", beam->elementCount()}};
        else if (const SolidMesh* solid = b.solid())
            meshes[b.name] = {{"kind", "solid"}, {"nodes", solid->nodeCount()}, {"elements", solid->elementCount()}};
    }
    return meshes;
}

std::string meshesText(const Model& model) {
    const nlohmann::json meshes = meshesJson(model);
    std::string text;
    for (const Body& b : model.bodies) {
        if (!meshes.contains(b.name)) continue;
        const nlohmann::json& m = meshes[b.name];
        text += "  " + b.name + ": " + m["kind"].get<std::string>() + ", " + std::to_string(m["nodes"].get<int>()) +
                " nodes, " + std::to_string(m["elements"].get<int>()) + " elements\n";
    }
    return text;
}

nlohmann::json bodiesJson(const Model& model, const State& state, bool withVelocities) {
    nlohmann::json bodies = nlohmann::json::object();
    for (int b = 1; b < model.bodyCount(); ++b) {
        const BodyIndex body(b);
        const std::string& name = model.bodies[size_t(b)].name;
        if (model.bodies[size_t(b)].nodeSize() > 0) {
            nlohmann::json points = nlohmann::json::object();
            for (const NodalPoint& p : nodalPoints(model, body)) points[p.name] = vec(nodalPointPosition(model, state, body, p));
            bodies[name] = {{"position", vec(flexibleCentreOfMass(model, state, body))}, {"points", points}};
            continue;
        }
        const Quat q = bodyOrientation(model, state, body);
        bodies[name] = {{"position", vec(bodyPosition(model, state, body))}, {"quaternion", {q.w(), q.x(), q.y(), q.z()}}};
        if (withVelocities) {
            bodies[name]["velocity"] = vec(bodyVelocity(model, state, body));
            bodies[name]["angular_velocity"] = vec(bodyAngularVelocity(model, state, body));
        }
    }
    return bodies;
}

}  // namespace looplab::reports
