#include "looplab/bodies/NodalOutputs.h"

namespace looplab {

std::vector<NodalPoint> nodalPoints(const Model& model, BodyIndex b) {
    const Body& body = model.body(b);
    std::vector<NodalPoint> points;
    if (body.kind == BodyKind::Beam) {
        points.push_back({"root", {0}, {1.0}});
        points.push_back({"tip", {body.beam->nodeCount() - 1}, {1.0}});
    } else if (body.kind == BodyKind::Solid) {
        for (int f = 0; f < 6; ++f)
            points.push_back({SolidMesh::faceNames()[size_t(f)], body.solid->faceNodes(f), body.solid->faceWeights(f)});
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
        if (body.kind == BodyKind::Beam) body.beam->addGravityForce(Vec3::Unit(i), unit.data());
        if (body.kind == BodyKind::Solid) body.solid->addGravityForce(Vec3::Unit(i), unit.data());
        moment[i] = unit.dot(q);
        // Σ of the unit load's x-components over the node positions is the mass.
        if (i == 0)
            for (int k = 0; k < n; k += body.nodeSize()) mass += unit[k];
    }
    return mass > 0.0 ? Vec3(moment / mass) : Vec3::Zero();
}

}  // namespace looplab
