#include "ForceGeometry.h"

#include <cmath>

namespace looplab::forces {

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

BodyPose bodyPose(const Model& m, const State& s, BodyIndex b) {
    BodyPose p;
    if (!m.body(b).movesAsOneFrame()) return p;
    p.moving = true;
    p.A = bodyOrientation(m, s, b).toRotationMatrix();
    p.position = bodyPosition(m, s, b);
    p.velocity = s.v.segment<3>(m.velocityOffset(b));
    p.omegaLocal = bodyAngularVelocityLocal(m, s, b);
    return p;
}

void scatter(const Model& m, BodyIndex b1, BodyIndex b2, const PairBlock& X, Triplets& out) {
    const BodyIndex bodies[2] = {b1, b2};
    for (int r = 0; r < 2; ++r) {
        if (!m.body(bodies[r]).movesAsOneFrame()) continue;
        const int r0 = m.velocityOffset(bodies[r]);
        for (int c = 0; c < 2; ++c) {
            if (!m.body(bodies[c]).movesAsOneFrame()) continue;
            const int c0 = m.velocityOffset(bodies[c]);
            for (int i = 0; i < kSlot; ++i)
                for (int k = 0; k < kSlot; ++k) {
                    const double x = X(kSlot * r + i, kSlot * c + k);
                    if (x != 0.0) out.emplace_back(r0 + i, c0 + k, x);
                }
        }
    }
}

void scatter(const Model& m, BodyIndex b1, BodyIndex b2, const PairVector& x, VecX& f) {
    const BodyIndex bodies[2] = {b1, b2};
    for (int r = 0; r < 2; ++r)
        if (m.body(bodies[r]).movesAsOneFrame()) f.segment<kSlot>(m.velocityOffset(bodies[r])) += x.segment<kSlot>(kSlot * r);
}

void addRotationBlock(const Model& m, BodyIndex b, const Mat3& X, Triplets& out) {
    const int o = m.velocityOffset(b) + 3;
    for (int i = 0; i < 3; ++i)
        for (int k = 0; k < 3; ++k)
            if (X(i, k) != 0.0) out.emplace_back(o + i, o + k, X(i, k));
}

}  // namespace looplab::forces
