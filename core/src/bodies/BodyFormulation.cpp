#include "looplab/bodies/BodyFormulation.h"

#include <stdexcept>

namespace looplab {

void BodyFormulation::positionDerivative(const double* /*q*/, const double* v, double* qdot) const {
    const int n = velocitySize();
    for (int i = 0; i < n; ++i) qdot[i] = v[i];
}

void BodyFormulation::retract(double* q, const double* dv) const {
    const int n = velocitySize();
    for (int i = 0; i < n; ++i) q[i] += dv[i];
}

void NodalBody::initialCoordinates(double* q, double* v) const {
    const auto n = initial_.size();
    Eigen::Map<VecX>(q, n) = initial_;
    Eigen::Map<VecX>(v, n).setZero();
}

void NodalBody::motion(const double* q, const double* v, bool /*velocities*/, BodyMotion& k) const {
    k.q = q;
    k.v = v;
}

// A node's position r_k, or local.x times its slope r_x,k: linear in the node's numbers,
// so J is constant, ẋ is J v, and the bias and the curvature are zero (lever zero).
void NodalBody::attach(const JetSlots& slots, int slot, const Vec3& local, bool isPoint, VectorJet& x) const {
    // The builder gives a node that carries no direction position equations only.
    if (!isPoint && attachedFrame() != AttachedFrame::PointAndSlope)
        throw std::logic_error("a solid node carries no direction");
    const BodyMotion& k = *slots.body[slot];
    const int first = nodeSize() * slots.node[slot] + (isPoint ? 0 : 3);
    const double factor = isPoint ? 1.0 : local.x();
    x.value = factor * Eigen::Map<const Vec3>(k.q + first);
    if (!x.full) return;
    x.J.setZero(3, slots.columns());
    x.J.block<3, 3>(0, slots.offset(slot) + (isPoint ? 0 : 3)) = factor * Mat3::Identity();
    x.rate = factor * Eigen::Map<const Vec3>(k.v + first);
    x.bias.setZero();
    x.lever[0].setZero();
    x.lever[1].setZero();
}

// Node positions move by t + θ × (r − c); the directions a node carries after its position
// (a cable node's slope) turn by θ ×.
void NodalBody::rigidMotion(const double* q, const Vec3& t, const Vec3& theta, const Vec3& c, double* v) const {
    const int ns = nodeSize();
    for (int k = 0; k * ns < velocitySize(); ++k) {
        const double* node = q + k * ns;
        Eigen::Map<Vec3>(v + k * ns) = t + theta.cross(Eigen::Map<const Vec3>(node) - c);
        for (int d = 3; d + 3 <= ns; d += 3)
            Eigen::Map<Vec3>(v + k * ns + d) = theta.cross(Vec3(Eigen::Map<const Vec3>(node + d)));
    }
}

void NodalBody::addPoints(const double* q, std::vector<Vec3>& points) const {
    const int ns = nodeSize();
    for (int k = 0; k * ns < velocitySize(); ++k) points.push_back(Eigen::Map<const Vec3>(q + k * ns));
}

void NodalBody::addMass(int o, MatrixEntries& entries) const {
    for (int k = 0; k < mass_.outerSize(); ++k)
        for (Eigen::SparseMatrix<double>::InnerIterator it(mass_, k); it; ++it)
            entries.emplace_back(o + int(it.row()), o + int(it.col()), it.value());
}

BodyEnergy NodalBody::energy(const double* q, const double* v, const Vec3& g) const {
    BodyEnergy e;
    e.kinetic = kineticEnergy(v);
    e.gravity = gravityEnergy(g, q);
    e.strain = strainEnergy(q);
    return e;
}

// Elastic forces, damping and the consistent load of gravity; nodal coordinates have a
// constant mass matrix, so there are no inertial velocity terms.
void NodalBody::addForces(const double* q, const double* v, const Vec3& g, double* f) const {
    addElasticForce(q, f);
    addDampingForce(q, v, f);
    addGravityForce(g, f);
}

// The analytic tangent stiffness of the elastic forces (gravity is constant in nodal
// coordinates) and the damping matrix C. The damping force's change with the positions,
// ∂(C(q)v)/∂q, is left out of K: it vanishes at rest (statics, the eigenanalysis) and the
// implicit steppers' Newton iterations only converge a little slower without it.
void NodalBody::addForceDerivatives(const double* q, const double* /*v*/, int offset, MatrixEntries& K,
                                    MatrixEntries& C) const {
    addStiffness(q, offset, K);
    addDamping(q, offset, C);
}

}  // namespace looplab
