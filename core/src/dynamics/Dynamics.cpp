#include "looplab/dynamics/Dynamics.h"

#include "looplab/kinematics/HingeAngle.h"

#include <cmath>

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

namespace {

// Adds a global force F acting at the global point p of body b.
void addForce(const Model& model, const State& s, BodyIndex b, const Vec3& p, const Vec3& F, VecX& f) {
    if (model.velocitySliceSize(b) == 0) return;  // the ground
    const int o = model.velocityOffset(b);
    const Quat A = bodyOrientation(model, s, b);
    f.segment<3>(o) += F;
    f.segment<3>(o + 3) += A.conjugate() * (p - bodyPosition(model, s, b)).cross(F);
}

void addTorque(const Model& model, const State& s, BodyIndex b, const Vec3& T, VecX& f) {
    if (model.velocitySliceSize(b) == 0) return;  // the ground
    f.segment<3>(model.velocityOffset(b) + 3) += bodyOrientation(model, s, b).conjugate() * T;
}

double wrapAngle(double a) { return std::remainder(a, 2.0 * M_PI); }

}  // namespace

VecX generalizedForces(const Model& model, const State& s) {
    VecX f = VecX::Zero(model.velocitySize());
    for (const Body& body : model.bodies) {
        const int o = body.slice.velocityOffset;
        body.formulation->addForces(s.q.data() + body.slice.positionOffset, s.v.data() + o, model.gravity, f.data() + o);
    }
    for (const ForceElement& e : model.forces) {
        switch (e.type) {
        case ForceType::SpringDamper: {
            const Vec3 p1 = pointPosition(model, s, e.point1.body, e.point1.origin);
            const Vec3 p2 = pointPosition(model, s, e.point2.body, e.point2.origin);
            const Vec3 d = p2 - p1;
            const double len = d.norm();
            if (len < 1e-300) break;  // direction undefined; the builder rejects it initially
            const Vec3 u = d / len;
            const double rate = u.dot(pointVelocity(model, s, e.point2.body, e.point2.origin) -
                                      pointVelocity(model, s, e.point1.body, e.point1.origin));
            const double tension = e.stiffness * (len - e.freeLength) + e.damping * rate + e.preload;
            addForce(model, s, e.point1.body, p1, tension * u, f);
            addForce(model, s, e.point2.body, p2, -tension * u, f);
            break;
        }
        case ForceType::RotationalSpringDamper: {
            const Joint& j = model.joint(e.joint);
            if (isNodeHinge(model, j)) {
                // On a beam node's hinge: the torque τ = −k wrap(θ − θ₀) − c θ̇ with θ = σφ
                // does the work τ δθ, so Q = τ σ ∇φ = (−k wrap(φ − σθ₀) − c φ̇) ∇φ.
                std::vector<int> columns;
                const HingeAngleJet phi = hingeAngleAt(model, s, j, false, columns);
                const double torque =
                    -e.stiffness * wrapAngle(phi.value - phi.sign * e.freeAngle) - e.damping * phi.rate;
                for (size_t k = 0; k < columns.size(); ++k) f[columns[k]] += torque * phi.gradient[static_cast<int>(k)];
                break;
            }
            const Vec3 z1 = bodyOrientation(model, s, j.frame1.body) * j.frame1.axes.col(2);
            const double angle = wrapAngle(jointAngle(model, s, e.joint) - e.freeAngle);
            const double rate = jointAngleRate(model, s, e.joint);
            const double torque = -e.stiffness * angle - e.damping * rate;
            addTorque(model, s, j.frame2.body, torque * z1, f);
            addTorque(model, s, j.frame1.body, -torque * z1, f);
            break;
        }
        case ForceType::BodyForce: {
            const double scale = e.law ? e.law->evaluate(s.t).value : 1.0;
            if (const int size = model.body(e.body).nodeSize()) {  // a nodal force: on r_k
                f.segment<3>(model.velocityOffset(e.body) + size * e.node) += scale * e.vector;
                break;
            }
            addForce(model, s, e.body, pointPosition(model, s, e.body, e.localPoint), scale * e.vector, f);
            break;
        }
        case ForceType::BodyTorque: {
            const double scale = e.law ? e.law->evaluate(s.t).value : 1.0;
            addTorque(model, s, e.body, scale * e.vector, f);
            break;
        }
        }
    }
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
    for (const ForceElement& e : model.forces) {
        if (e.type == ForceType::SpringDamper) {
            const double len = (pointPosition(model, s, e.point2.body, e.point2.origin) -
                                pointPosition(model, s, e.point1.body, e.point1.origin))
                                   .norm();
            const double x = len - e.freeLength;
            E.springs += 0.5 * e.stiffness * x * x + e.preload * x;
        } else if (e.type == ForceType::RotationalSpringDamper) {
            const double a = wrapAngle(jointAngle(model, s, e.joint) - e.freeAngle);
            E.springs += 0.5 * e.stiffness * a * a;
        }
    }
    return E;
}

}  // namespace looplab
