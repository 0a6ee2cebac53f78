#include "looplab/kinematics/FrameKinematics.h"

#include "looplab/bodies/Rotation.h"

#include <stdexcept>

namespace looplab {

BodyMotion bodyMotion(const Model& m, const State& s, BodyIndex b, bool velocities) {
    BodyMotion k;
    k.kind = m.body(b).kind;
    k.sliceWidth = jetWidth(m, b);
    if (k.kind == BodyKind::Beam || k.kind == BodyKind::Solid) {
        k.q = s.q.data() + m.positionOffset(b);
        k.v = s.v.data() + m.velocityOffset(b);
        return k;
    }
    if (k.kind != BodyKind::Rigid) return k;
    k.A = bodyOrientation(m, s, b).toRotationMatrix();
    k.r = bodyPosition(m, s, b);
    if (!velocities) return k;
    k.rdot = bodyVelocity(m, s, b);
    k.omega = k.A * bodyAngularVelocityLocal(m, s, b);
    return k;
}

namespace {

// The parts common to points and directions; a rigid body's velocity slice is
// (ṙ, ω'), so its rotation columns start at 3.
VectorJet attached(const JetSlots& slots, int slot, const Vec3& local, bool full, bool isPoint) {
    const BodyMotion& k = *slots.body[slot];
    VectorJet x;
    x.full = full;
    x.slots = &slots;
    switch (k.kind) {
    case BodyKind::Ground: x.value = local; break;  // the global frame
    case BodyKind::Beam: {
        // r_k or local.x · r_x,k: linear in the node's coordinates, so J is constant, ẋ is
        // J v, the bias is zero and so is the curvature (lever zero).
        const int first = ancf::kNodeSize * slots.node[slot] + (isPoint ? 0 : 3);
        const double factor = isPoint ? 1.0 : local.x();
        x.value = factor * Eigen::Map<const Vec3>(k.q + first);
        if (!full) return x;
        x.J.setZero(3, slots.columns());
        x.J.block<3, 3>(0, slots.offset(slot) + (isPoint ? 0 : 3)) = factor * Mat3::Identity();
        x.rate = factor * Eigen::Map<const Vec3>(k.v + first);
        x.bias.setZero();
        x.lever[0].setZero();
        x.lever[1].setZero();
        return x;
    }
    case BodyKind::Solid: {
        // A solid node is a point r_k (linear in its 3 coordinates) and carries no
        // direction: the builder gives solid nodes only position equations.
        if (!isPoint) throw std::logic_error("a solid node carries no direction");
        x.value = Eigen::Map<const Vec3>(k.q + hex::kNodeSize * slots.node[slot]);
        if (!full) return x;
        x.J.setZero(3, slots.columns());
        x.J.block<3, 3>(0, slots.offset(slot)) = Mat3::Identity();
        x.rate = Eigen::Map<const Vec3>(k.v + hex::kNodeSize * slots.node[slot]);
        x.bias.setZero();
        x.lever[0].setZero();
        x.lever[1].setZero();
        return x;
    }
    case BodyKind::Rigid: {
        const Vec3 Al = k.A * local;
        x.value = isPoint ? Vec3(k.r + Al) : Al;
        if (!full) return x;
        x.J.setZero(3, slots.columns());
        const int c = slots.offset(slot);
        if (isPoint) x.J.block<3, 3>(0, c) = Mat3::Identity();
        x.J.block<3, 3>(0, c + 3) = -k.A * skew(local);
        const Vec3 turning = k.omega.cross(Al);
        x.rate = isPoint ? Vec3(k.rdot + turning) : turning;
        x.bias = k.omega.cross(turning);
        x.lever[slot] = local;
        x.lever[1 - slot].setZero();
        return x;
    }
    }
    if (!full) return x;
    // The ground: fixed.
    x.J.setZero(3, slots.columns());
    x.rate.setZero();
    x.bias.setZero();
    x.lever[0].setZero();
    x.lever[1].setZero();
    return x;
}

}  // namespace

VectorJet attachedPoint(const JetSlots& slots, int slot, const Vec3& local, bool full) {
    return attached(slots, slot, local, full, true);
}

VectorJet attachedDirection(const JetSlots& slots, int slot, const Vec3& local, bool full) {
    return attached(slots, slot, local, full, false);
}

VectorJet operator-(const VectorJet& a, const VectorJet& b) {
    VectorJet x;
    x.full = a.full && b.full;
    x.slots = a.slots;
    x.value = a.value - b.value;
    if (!x.full) return x;
    x.rate = a.rate - b.rate;
    x.bias = a.bias - b.bias;
    x.J = a.J - b.J;
    x.lever[0] = a.lever[0] - b.lever[0];
    x.lever[1] = a.lever[1] - b.lever[1];
    return x;
}

int jetColumnStart(const Model& m, const BodyFrame& f) {
    const int o = m.velocityOffset(f.body);
    return o + m.body(f.body).nodeSize() * f.node;
}

int jetWidth(const Model& m, BodyIndex b) {
    const int node = m.body(b).nodeSize();
    return node ? node : m.velocitySliceSize(b);
}

void addAttachedCurvature(const VectorJet& x, const Vec3& w, double weight, JetSquare& H) {
    for (int slot = 0; slot < 2; ++slot) {
        const BodyMotion& k = *x.slots->body[slot];
        if (k.kind != BodyKind::Rigid || x.lever[slot].isZero(0.0)) continue;
        const int c = x.slots->offset(slot) + 3;
        H.block<3, 3>(c, c) += weight * skew(x.lever[slot]) * skew(k.A.transpose() * w);
    }
}

}  // namespace looplab
