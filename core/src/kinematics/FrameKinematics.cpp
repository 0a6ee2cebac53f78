#include "looplab/kinematics/FrameKinematics.h"

namespace looplab {

BodyMotion bodyMotion(const Model& m, const State& s, BodyIndex b, bool velocities) {
    BodyMotion k;
    k.formulation = m.body(b).formulation.get();
    k.sliceWidth = jetWidth(m, b);
    // A position-only state may come without velocities.
    const double* v = s.v.size() ? s.v.data() + m.velocityOffset(b) : nullptr;
    k.formulation->motion(s.q.data() + m.positionOffset(b), v, velocities, k);
    return k;
}

VectorJet attachedPoint(const JetSlots& slots, int slot, const Vec3& local, bool full) {
    VectorJet x;
    x.full = full;
    x.twoBodies = &slots;
    slots.body[slot]->formulation->attach(slots, slot, local, true, x);
    return x;
}

VectorJet attachedDirection(const JetSlots& slots, int slot, const Vec3& local, bool full) {
    VectorJet x;
    x.full = full;
    x.twoBodies = &slots;
    slots.body[slot]->formulation->attach(slots, slot, local, false, x);
    return x;
}

VectorJet operator-(const VectorJet& a, const VectorJet& b) {
    VectorJet x;
    x.full = a.full && b.full;
    x.twoBodies = a.twoBodies;
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
        const BodyMotion& k = *x.twoBodies->body[slot];
        k.formulation->addCurvature(k, x.lever[slot], w, weight, x.twoBodies->offset(slot), H);
    }
}

}  // namespace looplab
