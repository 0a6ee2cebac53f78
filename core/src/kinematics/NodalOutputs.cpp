#include "looplab/kinematics/NodalOutputs.h"

namespace looplab {

namespace {

// A whole number written as the format writes it ("0", "17"; not "+1", "01", "1e2"),
// read from text[pos] up to `end`; false if it is not one or exceeds `largest`.
bool canonicalIndex(const std::string& text, size_t pos, size_t end, int largest, int& out) {
    if (pos >= end || end - pos > 9) return false;
    if (text[pos] == '0' && end - pos > 1) return false;
    long value = 0;
    for (size_t i = pos; i < end; ++i) {
        if (text[i] < '0' || text[i] > '9') return false;
        value = 10 * value + (text[i] - '0');
    }
    if (value > largest) return false;
    out = int(value);
    return true;
}

std::optional<int> beamNode(const BeamMesh& mesh, const std::string& name, size_t pos) {
    const std::string rest = name.substr(pos);
    if (rest == "root") return 0;
    if (rest == "tip") return mesh.nodeCount() - 1;
    int k = 0;
    if (rest.compare(0, 4, "node") == 0 && canonicalIndex(name, pos + 4, name.size(), mesh.nodeCount() - 1, k)) return k;
    return std::nullopt;
}

std::optional<int> solidNode(const SolidMesh& mesh, const std::string& name, size_t pos) {
    if (name.compare(pos, 4, "node") != 0) return std::nullopt;
    size_t at = pos + 4;
    int index[3] = {0, 0, 0};
    for (int a = 0; a < 3; ++a) {
        const size_t end = a < 2 ? name.find('_', at) : name.size();
        if (end == std::string::npos || !canonicalIndex(name, at, end, mesh.elementsAlong(a), index[a]))
            return std::nullopt;
        at = end + 1;
    }
    return mesh.gridNode(index[0], index[1], index[2]);
}

}  // namespace

std::optional<MeshNode> findMeshNode(const Model& model, const std::string& name) {
    // Body names may hold dots themselves, so every mesh whose name and a dot begin the
    // name is asked to read the rest.
    for (int b = 1; b < model.bodyCount(); ++b) {
        const Body& body = model.body(BodyIndex(b));
        if (body.nodeSize() == 0) continue;
        const size_t n = body.name.size();
        if (name.size() <= n + 1 || name.compare(0, n, body.name) != 0 || name[n] != '.') continue;
        const std::optional<int> node =
            body.beam() ? beamNode(*body.beam(), name, n + 1) : solidNode(*body.solid(), name, n + 1);
        if (node) return MeshNode{BodyIndex(b), *node};
    }
    return std::nullopt;
}

Vec3 meshNodePosition(const Model& model, const State& s, const MeshNode& node) {
    const Body& body = model.body(node.body);
    return s.q.segment<3>(body.slice.positionOffset + body.nodeSize() * node.node);
}

std::vector<NodalPoint> nodalPoints(const Model& model, BodyIndex b) {
    const Body& body = model.body(b);
    std::vector<NodalPoint> points;
    if (const BeamMesh* beam = body.beam()) {
        points.push_back({"root", {0}, {1.0}});
        points.push_back({"tip", {beam->nodeCount() - 1}, {1.0}});
    } else if (const SolidMesh* solid = body.solid()) {
        for (int f = 0; f < 6; ++f)
            points.push_back({SolidMesh::faceNames()[size_t(f)], solid->faceNodes(f), solid->faceWeights(f)});
    }
    return points;
}

Vec3 nodalPointPosition(const Model& model, const State& s, BodyIndex b, const NodalPoint& p) {
    const Body& body = model.body(b);
    Vec3 r = Vec3::Zero();
    for (size_t k = 0; k < p.nodes.size(); ++k)
        r += p.weights[k] * s.q.segment<3>(body.slice.positionOffset + body.nodeSize() * p.nodes[k]);
    return r;
}

Vec3 flexibleCentreOfMass(const Model& model, const State& s, BodyIndex b) {
    const Body& body = model.body(b);
    const int n = body.slice.positionSize;
    if (n == 0 || body.nodeSize() == 0) return Vec3::Zero();
    const auto q = s.q.segment(body.slice.positionOffset, n);
    Vec3 moment = Vec3::Zero();
    double mass = 0.0;
    for (int i = 0; i < 3; ++i) {
        VecX unit = VecX::Zero(n);
        body.formulation->addGravityForce(Vec3::Unit(i), unit.data());
        moment[i] = unit.dot(q);
        // Σ of the unit load's x-components over the node positions is the mass.
        if (i == 0)
            for (int k = 0; k < n; k += body.nodeSize()) mass += unit[k];
    }
    return mass > 0.0 ? Vec3(moment / mass) : Vec3::Zero();
}

}  // namespace looplab
