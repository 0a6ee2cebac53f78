#include "looplab/kinematics/HingeAngle.h"

#include <cmath>

namespace looplab {

namespace {

// c = u·w for two attached vectors, with its derivatives (as a dot-product equation in
// Constraints.cpp).
struct DotJet {
    double value = 0.0, rate = 0.0, bias = 0.0;
    JetRow J;
};

DotJet dotJet(const VectorJet& u, const VectorJet& w, bool full) {
    DotJet c;
    c.value = u.value.dot(w.value);
    if (!full) return c;
    c.J = w.value.transpose() * u.J + u.value.transpose() * w.J;
    c.rate = u.rate.dot(w.value) + u.value.dot(w.rate);
    c.bias = u.bias.dot(w.value) + 2.0 * u.rate.dot(w.rate) + u.value.dot(w.bias);
    return c;
}

// ∂(∇(u·w))/∂δ: the products of the two Jacobians and each vector's own curvature
// (a slope is linear in the node's coordinates and has none).
JetSquare dotCurvature(const VectorJet& u, const VectorJet& w, int columns) {
    JetSquare H = JetSquare::Zero(columns, columns);
    H.noalias() += u.J.transpose() * w.J + w.J.transpose() * u.J;
    addAttachedCurvature(u, w.value, 1.0, H);
    addAttachedCurvature(w, u.value, 1.0, H);
    return H;
}

}  // namespace

HingeAngleJet hingeAngleJet(const Joint& joint, const JetSlots& slots, bool full, bool curvature) {
    const int nodeSlot = carriesSlope(*slots.body[1]) ? 1 : 0, rigidSlot = 1 - nodeSlot;
    const BodyFrame& rigidFrame = rigidSlot == 0 ? joint.frame1 : joint.frame2;
    const VectorJet x = attachedDirection(slots, rigidSlot, rigidFrame.axes.col(0), full);
    const VectorJet y = attachedDirection(slots, rigidSlot, rigidFrame.axes.col(1), full);
    const VectorJet slope = attachedDirection(slots, nodeSlot, Vec3::UnitX(), full);
    const DotJet a = dotJet(x, slope, full), b = dotJet(y, slope, full);
    HingeAngleJet out;
    out.sign = nodeSlot == 1 ? 1.0 : -1.0;
    out.value = std::atan2(b.value, a.value);
    if (!full) return out;
    // φ = atan2(b, a): φ_a = −b/ρ², φ_b = a/ρ², and the second derivatives below. A slope
    // along the axis (ρ = 0, which the hinge's own equation keeps away) gives zeros, not NaN.
    const double rho2 = a.value * a.value + b.value * b.value;
    const double inv2 = rho2 > 0.0 ? 1.0 / rho2 : 0.0, inv4 = inv2 * inv2;
    const double fa = -b.value * inv2, fb = a.value * inv2;
    const double faa = 2.0 * a.value * b.value * inv4, fbb = -faa;
    const double fab = (b.value * b.value - a.value * a.value) * inv4;
    out.gradient = fa * a.J + fb * b.J;
    out.rate = fa * a.rate + fb * b.rate;
    out.bias = fa * a.bias + fb * b.bias + faa * a.rate * a.rate + 2.0 * fab * a.rate * b.rate +
               fbb * b.rate * b.rate;
    if (curvature) {
        const int n = slots.columns();
        out.curvature = fa * dotCurvature(x, slope, n) + fb * dotCurvature(y, slope, n);
        out.curvature.noalias() += faa * a.J.transpose() * a.J + fbb * b.J.transpose() * b.J +
                                   fab * (a.J.transpose() * b.J + b.J.transpose() * a.J);
    }
    return out;
}

HingeAngleJet hingeAngleAt(const Model& model, const State& s, const Joint& joint, bool curvature,
                           std::vector<int>& columns) {
    const BodyMotion m1 = bodyMotion(model, s, joint.frame1.body), m2 = bodyMotion(model, s, joint.frame2.body);
    JetSlots slots;
    slots.body[0] = &m1;
    slots.body[1] = &m2;
    slots.node[0] = joint.frame1.node;
    slots.node[1] = joint.frame2.node;
    columns.clear();
    for (const BodyFrame* f : {&joint.frame1, &joint.frame2}) {
        const int c0 = jetColumnStart(model, *f), w = jetWidth(model, f->body);
        for (int k = 0; k < w; ++k) columns.push_back(c0 + k);
    }
    return hingeAngleJet(joint, slots, true, curvature);
}

}  // namespace looplab
