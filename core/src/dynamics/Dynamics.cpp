#include "looplab/dynamics/Dynamics.h"

namespace looplab {

VecX applyMass(const Model& model, const VecX& x) {
    VecX y(x.size());
    for (const Body& body : model.bodies) {
        const int o = body.slice.velocityOffset;
        body.formulation->applyMass(x.data() + o, y.data() + o);
    }
    return y;
}

VecX applyInverseMass(const Model& model, const VecX& x) {
    VecX y = x;
    for (const Body& body : model.bodies) body.formulation->applyInverseMass(y.data() + body.slice.velocityOffset);
    return y;
}

void applyBodyInverseMass(const Model& model, BodyIndex b, double* slice) {
    model.body(b).formulation->applyInverseMass(slice);
}

MatX denseMass(const Model& model) {
    MatX M = MatX::Zero(model.velocitySize(), model.velocitySize());
    MatrixEntries entries;
    for (const Body& body : model.bodies) body.formulation->addMass(body.slice.velocityOffset, entries);
    for (const Eigen::Triplet<double>& e : entries) M(e.row(), e.col()) += e.value();
    return M;
}

VecX generalizedForces(const Model& model, const State& s) {
    VecX f = VecX::Zero(model.velocitySize());
    for (const Body& body : model.bodies) {
        const int o = body.slice.velocityOffset;
        body.formulation->addForces(s.q.data() + body.slice.positionOffset, s.v.data() + o, model.gravity, f.data() + o);
    }
    for (const ForceElement& e : model.forces) e.forceLaw->addForces(model, s, f);
    return f;
}

Energy mechanicalEnergy(const Model& model, const State& s) {
    Energy E;
    for (const Body& body : model.bodies) {
        const BodyEnergy e = body.formulation->energy(s.q.data() + body.slice.positionOffset,
                                                      s.v.data() + body.slice.velocityOffset, model.gravity);
        E.kinetic += e.kinetic;
        E.gravity += e.gravity;
        E.springs += e.strain;
    }
    for (const ForceElement& e : model.forces) E.springs += e.forceLaw->potentialEnergy(model, s);
    return E;
}

}  // namespace looplab
