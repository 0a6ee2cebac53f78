#include "looplab/kinematics/Constraints.h"

#include "looplab/kinematics/FrameKinematics.h"
#include "looplab/bodies/rigid/RigidBodyCoordinates.h"
#include "looplab/kinematics/HingeAngle.h"
#include "looplab/kinematics/StopGaps.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <stdexcept>

namespace looplab {
namespace {

// Every equation is a weighted sum of at most two dot products of vectors attached to the
// joint's bodies (FrameKinematics.h; a component is a dot product with a constant global
// axis, b == nullptr) plus a function of time; the terms are kept so that the curvature
// can be formed from the jets.
struct DotTerm {
    const VectorJet* a = nullptr;
    const VectorJet* b = nullptr;
    int axis = 0;  // b == nullptr: the global axis a is dotted with
    double weight = 0.0;
};

// A scalar equation: value, rate, bias, explicit time derivative (drivers only) and
// Jacobian on the jet's columns, as for VectorJet.
struct ScalarJet {
    bool full = true;
    double value = 0.0, rate = 0.0, bias = 0.0, partialT = 0.0;
    JetRow J;
    DotTerm terms[2];
    int termCount = 0;
    // An equation that is not a sum of dot products (a driver on a beam node's hinge)
    // brings its curvature along instead.
    const JetSquare* curvature = nullptr;
};

ScalarJet dot(const VectorJet& a, const VectorJet& b) {
    ScalarJet s;
    s.full = a.full && b.full;
    s.value = a.value.dot(b.value);
    if (!s.full) return s;
    s.J = b.value.transpose() * a.J + a.value.transpose() * b.J;
    s.rate = a.rate.dot(b.value) + a.value.dot(b.rate);
    s.bias = a.bias.dot(b.value) + 2.0 * a.rate.dot(b.rate) + a.value.dot(b.bias);
    s.terms[0] = {&a, &b, 0, 1.0};
    s.termCount = 1;
    return s;
}

ScalarJet component(const VectorJet& a, int i) {
    ScalarJet s;
    s.full = a.full;
    s.value = a.value[i];
    if (!s.full) return s;
    s.J = a.J.row(i);
    s.rate = a.rate[i];
    s.bias = a.bias[i];
    s.terms[0] = {&a, nullptr, i, 1.0};
    s.termCount = 1;
    return s;
}

// The jets of one joint's frames at a state.
struct JointJets {
    VectorJet x1, y1, z1, x2, y2, z2, d;  // d = origin2 − origin1
};

// Which frame vectors an equation set needs, so that only those are computed.
enum JetNeed : unsigned { kX1 = 1, kY1 = 2, kZ1 = 4, kX2 = 8, kY2 = 16, kZ2 = 32, kD = 64 };

unsigned jetsNeeded(JointType type) {
    switch (type) {
    case JointType::Revolute:
    case JointType::Planar: return kZ1 | kX2 | kY2 | kD;
    case JointType::Spherical:
    case JointType::Distance: return kD;
    case JointType::Universal: return kZ1 | kZ2 | kD;
    case JointType::Fixed: return kX1 | kZ1 | kX2 | kY2 | kD;
    case JointType::Cylindrical:
    case JointType::Prismatic:
    case JointType::Screw: return kX1 | kY1 | kZ1 | kX2 | kY2 | kD;
    case JointType::PointOnLine: return kX1 | kY1 | kD;
    case JointType::PointOnPlane: return kZ1 | kD;
    }
    return ~0u;
}

// The jets of a joint refer to its slots, so both live together.
struct JointFrames {
    JetSlots slots;
    JointJets jets;
};

// How a joint's equations treat beam nodes. A clamp (fixed) holds the node's position and
// the direction of its slope x2 = r_x,k, y1·x2 = z1·x2 = 0 (the cable element has no twist,
// and the stretch at the node stays free); a hinge (revolute) its position and
// z1·r_x,k = 0, so the slope turns about z1 alone. Both are written with the rigid body or
// the ground as frame 1: a joint that names the node as body1 is evaluated with its frames
// swapped, which negates the position rows and leaves everything else as it is. A
// revolute between two beam nodes is a pin (NodeJoints.h).
enum class NodeEquations { None, OnFrame2, PinOnly };

NodeEquations nodeEquations(const Joint& j, const std::vector<BodyMotion>& motion) {
    const BodyMotion& k1 = motion[static_cast<size_t>(j.frame1.body.value())];
    const BodyMotion& k2 = motion[static_cast<size_t>(j.frame2.body.value())];
    const BeamNodeSides sides = beamNodeSides(k1.formulation->attachedFrame(), k2.formulation->attachedFrame());
    if (sides == BeamNodeSides::None) return NodeEquations::None;
    if (sides == BeamNodeSides::BothNodes) return j.type == JointType::Revolute ? NodeEquations::PinOnly : NodeEquations::None;
    return j.type == JointType::Revolute || j.type == JointType::Fixed ? NodeEquations::OnFrame2 : NodeEquations::None;
}

bool nodeIsFrame1(const Joint& j, const std::vector<BodyMotion>& motion) {
    return carriesSlope(motion[static_cast<size_t>(j.frame1.body.value())]) &&
           !carriesSlope(motion[static_cast<size_t>(j.frame2.body.value())]);
}

// The jets of a joint's frames f1 and f2 (its own, or swapped: see nodeEquations()).
void jointJets(const BodyFrame& f1, const BodyFrame& f2, const std::vector<BodyMotion>& motion, unsigned need,
               bool f, JointFrames& out) {
    out.slots.body[0] = &motion[static_cast<size_t>(f1.body.value())];
    out.slots.body[1] = &motion[static_cast<size_t>(f2.body.value())];
    out.slots.node[0] = f1.node;
    out.slots.node[1] = f2.node;
    const JetSlots& k = out.slots;
    JointJets& jj = out.jets;
    // A beam node's one direction is its slope (its frame's axes only say where the joint
    // was drawn at the start).
    const bool slope2 = carriesSlope(*k.body[1]);
    if (slope2) need &= ~(kY2 | kZ2);
    if (need & kX1) jj.x1 = attachedDirection(k, 0, f1.axes.col(0), f);
    if (need & kY1) jj.y1 = attachedDirection(k, 0, f1.axes.col(1), f);
    if (need & kZ1) jj.z1 = attachedDirection(k, 0, f1.axes.col(2), f);
    if (need & kX2) jj.x2 = attachedDirection(k, 1, slope2 ? Vec3(Vec3::UnitX()) : Vec3(f2.axes.col(0)), f);
    if (need & kY2) jj.y2 = attachedDirection(k, 1, f2.axes.col(1), f);
    if (need & kZ2) jj.z2 = attachedDirection(k, 1, f2.axes.col(2), f);
    if (need & kD) jj.d = attachedPoint(k, 1, f2.origin, f) - attachedPoint(k, 0, f1.origin, f);
}

// Where the λ-weighted curvature of the equations goes, if it is asked for.
struct CurvatureSink {
    const VecX* lambda = nullptr;
    std::vector<Eigen::Triplet<double>>* entries = nullptr;
};

// d/dε of ∇e(q ⊕ ε δ) on the equation's columns: for each term c a·b,
// c (Jaᵀ Jb + Jbᵀ Ja + ∂(Jaᵀ w)/∂δ|w=b + ∂(Jbᵀ w)/∂δ|w=a).
JetSquare equationCurvature(const ScalarJet& e, int columns) {
    JetSquare H = e.curvature ? *e.curvature : JetSquare::Zero(columns, columns);
    for (int k = 0; k < e.termCount; ++k) {
        const DotTerm& t = e.terms[k];
        if (!t.b) {
            addAttachedCurvature(*t.a, Vec3::Unit(t.axis), t.weight, H);
            continue;
        }
        H.noalias() += t.weight * (t.a->J.transpose() * t.b->J + t.b->J.transpose() * t.a->J);
        addAttachedCurvature(*t.a, t.b->value, t.weight, H);
        addAttachedCurvature(*t.b, t.a->value, t.weight, H);
    }
    return H;
}

// A coupler's row: at most three joints of two slots each (CouplerBuilder.cpp), held
// without allocating, since the solvers evaluate it at every step and iteration.
constexpr int kMaxCouplerTerms = 3;
constexpr int kMaxCouplerColumns = kMaxCouplerTerms * kMaxJetColumns;
using CouplerRow = Eigen::Matrix<double, Eigen::Dynamic, 1, Eigen::ColMajor, kMaxCouplerColumns, 1>;
using CouplerSquare = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::ColMajor, kMaxCouplerColumns,
                                    kMaxCouplerColumns>;

class RowWriter {
public:
    RowWriter(const Model& model, ConstraintValues& out, unsigned parts, int rows, int cols,
              CurvatureSink curvature = {})
        : model_(model), out_(out), parts_(parts), curvature_(curvature) {
        if (parts_ & kJacobian) {
            // Equations arrive in row order (joints, then drivers, each writing its own
            // rows in turn), so the row-major Jacobian is filled in place.
            out_.jacobian.resize(rows, cols);
            out_.jacobian.reserve(kMaxJetColumns * rows);
        }
    }

    void write(int row, const ScalarJet& e, const BodyFrame& f1, const BodyFrame& f2) {
        // The jet's columns are frame 1's slot, then frame 2's: a body's velocity slice,
        // or a beam node's part of it (none for the ground).
        const int c1 = jetColumnStart(model_, f1), c2 = jetColumnStart(model_, f2);
        const int w1 = jetWidth(model_, f1.body), w2 = jetWidth(model_, f2.body);
        if (curvature_.entries) addCurvature(row, e, c1, w1, c2, w2);
        if (parts_ & kPhi) out_.phi[row] = e.value;
        if (parts_ & kPhiT) out_.phiT[row] = e.partialT;
        if (parts_ & kGamma) out_.gamma[row] = -e.bias;
        if (!(parts_ & kJacobian)) return;
        if (row < nextRow_) throw std::logic_error("constraint rows written out of order");
        while (nextRow_ <= row) out_.jacobian.startVec(nextRow_++);
        // Column indices ascend within a row: the slot with the lower columns first, and
        // the two blocks summed if both slots are the same body (or the same node).
        auto put = [&](int c0, int first, int width) {
            for (int k = 0; k < width; ++k) {
                const double x = e.J(0, first + k);
                if (x != 0.0) out_.jacobian.insertBack(row, c0 + k) = x;
            }
        };
        if (w1 == 0 && w2 == 0) return;
        if (c1 == c2 && w1 == w2) {
            for (int k = 0; k < w1; ++k) {
                const double x = e.J(0, k) + e.J(0, w1 + k);
                if (x != 0.0) out_.jacobian.insertBack(row, c1 + k) = x;
            }
        } else if (c1 < c2 || w2 == 0) {
            put(c1, 0, w1);
            put(c2, w1, w2);
        } else {
            put(c2, w1, w2);
            put(c1, 0, w1);
        }
    }

    bool wantsCurvature() const { return curvature_.entries != nullptr; }

    // An equation on any set of columns (a coupler's, over several joints): the first
    // `count` of `columns`, ascending; `gradient` and `curvature` (if asked for) on them.
    void writeOnColumns(int row, double value, double bias, const int* columns, int count,
                        const CouplerRow& gradient, const CouplerSquare& curvature) {
        if (parts_ & kPhi) out_.phi[row] = value;
        if (parts_ & kGamma) out_.gamma[row] = -bias;
        if (curvature_.entries) {
            const double weight = (*curvature_.lambda)[row];
            if (weight != 0.0)
                for (int k = 0; k < count; ++k)
                    for (int i = 0; i < count; ++i) {
                        const double x = weight * curvature(i, k);
                        if (x != 0.0) curvature_.entries->emplace_back(columns[i], columns[k], x);
                    }
        }
        if (!(parts_ & kJacobian)) return;
        if (row < nextRow_) throw std::logic_error("constraint rows written out of order");
        while (nextRow_ <= row) out_.jacobian.startVec(nextRow_++);
        for (int k = 0; k < count; ++k)
            if (gradient[k] != 0.0) out_.jacobian.insertBack(row, columns[k]) = gradient[k];
    }

    void finish(int rows) {
        if (!(parts_ & kJacobian)) return;
        while (nextRow_ < rows) out_.jacobian.startVec(nextRow_++);
        out_.jacobian.finalize();
    }

private:
    void addCurvature(int row, const ScalarJet& e, int c1, int w1, int c2, int w2) {
        const double weight = (*curvature_.lambda)[row];
        if (weight == 0.0) return;
        const int start[2] = {c1, c2};
        const int width[2] = {w1, w2};
        const JetSquare H = weight * equationCurvature(e, width[0] + width[1]);
        // Blocks of the same body add up (the triplets are summed).
        for (int r = 0; r < 2; ++r) {
            const int r0 = start[r], h0 = r == 0 ? 0 : width[0];
            for (int c = 0; c < 2; ++c) {
                const int c0 = start[c], k0 = c == 0 ? 0 : width[0];
                for (int k = 0; k < width[c]; ++k)
                    for (int i = 0; i < width[r]; ++i) {
                        const double x = H(h0 + i, k0 + k);
                        if (x != 0.0) curvature_.entries->emplace_back(r0 + i, c0 + k, x);
                    }
            }
        }
    }

    const Model& model_;
    ConstraintValues& out_;
    unsigned parts_;
    CurvatureSink curvature_;
    int nextRow_ = 0;
};

// A joint's coordinate as a coupler sees it, on the joint's jet columns: the angle
// θ = atan2(x2·y1, x2·x1) of a revolute or cylindrical, or the displacement s = z1·d of a
// prismatic. With a = x2·y1, b = x2·x1, ρ = a² + b² (1 on the joint's constraint manifold,
// kept so that θ is exact off it too):
//   ∇θ = (b∇a − a∇b)/ρ,  θ̇ = (bȧ − aḃ)/ρ,  θ̈ less its v̇ part = (b ä° − a b̈°)/ρ − θ̇ ρ̇/ρ,
//   ∂∇θ/∂δ = (b H_a − a H_b + ∇aᵀ∇b − ∇bᵀ∇a − 2∇θᵀ(a∇a + b∇b))/ρ,
// with ä°, b̈° the dot products' biases and H their curvatures (equationCurvature()).
struct CoordinateJet {
    double value = 0.0, rate = 0.0, bias = 0.0;
    JetRow J;
    JetSquare H;
};

CoordinateJet coordinateJet(const JointJets& jj, bool angular, bool full, bool curvature) {
    CoordinateJet c;
    if (!angular) {
        const ScalarJet e = dot(jj.z1, jj.d);
        c.value = e.value;
        if (!full) return c;
        c.rate = e.rate;
        c.bias = e.bias;
        c.J = e.J;
        if (curvature) c.H = equationCurvature(e, static_cast<int>(e.J.cols()));
        return c;
    }
    const ScalarJet a = dot(jj.x2, jj.y1), b = dot(jj.x2, jj.x1);
    c.value = std::atan2(a.value, b.value);
    if (!full) return c;
    const double rho = a.value * a.value + b.value * b.value;
    c.J = (b.value * a.J - a.value * b.J) / rho;
    c.rate = (b.value * a.rate - a.value * b.rate) / rho;
    const double rhoRate = 2.0 * (a.value * a.rate + b.value * b.rate);
    c.bias = (b.value * a.bias - a.value * b.bias) / rho - c.rate * rhoRate / rho;
    if (curvature) {
        const int n = static_cast<int>(c.J.cols());
        c.H = b.value * equationCurvature(a, n) - a.value * equationCurvature(b, n);
        c.H.noalias() += a.J.transpose() * b.J - b.J.transpose() * a.J;
        c.H.noalias() -= 2.0 * c.J.transpose() * (a.value * a.J + b.value * b.J);
        c.H /= rho;
    }
    return c;
}

// A screw joint's thread (on top of the cylindrical rows): with θ and s the joint's angle
// and slide, κ = 2π/lead and ψ = θ − κs − phase, Φ = sin(ψ)/κ, a length that is zero
// wherever the slide is the lead's share of the turn (sin avoids θ's wrapping, as for a
// coupler). Its curvature goes into `curvature`, which must outlive the jet.
ScalarJet screwThread(const Joint& j, const JointJets& jj, bool full, bool wantCurvature, JetSquare& curvature) {
    const CoordinateJet theta = coordinateJet(jj, true, full, wantCurvature);
    const CoordinateJet slide = coordinateJet(jj, false, full, wantCurvature);
    const double kappa = 2.0 * M_PI / j.lead;
    const double psi = theta.value - kappa * slide.value - j.screwPhase;
    const double s = std::sin(psi), c = std::cos(psi);
    ScalarJet e;
    e.full = full;
    e.value = s / kappa;
    if (!full) return e;
    const JetRow gradient = theta.J - kappa * slide.J;
    const double rate = theta.rate - kappa * slide.rate;
    e.J = (c / kappa) * gradient;
    e.rate = c * rate / kappa;
    e.bias = (c * (theta.bias - kappa * slide.bias) - s * rate * rate) / kappa;
    if (wantCurvature) {
        curvature = (c / kappa) * (theta.H - kappa * slide.H);
        curvature.noalias() -= (s / kappa) * gradient.transpose() * gradient;
        e.curvature = &curvature;
    }
    return e;
}

void writeJoint(const Joint& j, const BodyFrame& f1, const BodyFrame& f2, const JointJets& jj, NodeEquations nodes,
                bool full, RowWriter& w, JetSquare& scratch) {
    int row = j.firstEquation;
    auto put = [&](const ScalarJet& e) { w.write(row++, e, f1, f2); };
    auto coincidentPoints = [&] {
        for (int i = 0; i < 3; ++i) put(component(jj.d, i));
    };
    const bool onNode = nodes == NodeEquations::OnFrame2;
    if (nodes == NodeEquations::PinOnly) {
        coincidentPoints();
        return;
    }
    switch (j.type) {
    case JointType::Revolute:
        coincidentPoints();
        put(dot(jj.z1, jj.x2));
        if (!onNode) put(dot(jj.z1, jj.y2));
        break;
    case JointType::Spherical:
        coincidentPoints();
        break;
    case JointType::Universal:
        coincidentPoints();
        put(dot(jj.z1, jj.z2));
        break;
    case JointType::Fixed:
        coincidentPoints();
        if (onNode) {
            put(dot(jj.y1, jj.x2));
            put(dot(jj.z1, jj.x2));
            break;
        }
        put(dot(jj.z1, jj.x2));
        put(dot(jj.z1, jj.y2));
        put(dot(jj.x1, jj.y2));
        break;
    case JointType::Cylindrical:
    case JointType::Prismatic:
    case JointType::Screw:
        put(dot(jj.z1, jj.x2));
        put(dot(jj.z1, jj.y2));
        put(dot(jj.x1, jj.d));
        put(dot(jj.y1, jj.d));
        if (j.type == JointType::Prismatic) put(dot(jj.x1, jj.y2));
        if (j.type == JointType::Screw) put(screwThread(j, jj, full, full && w.wantsCurvature(), scratch));
        break;
    case JointType::Planar:
        put(dot(jj.z1, jj.x2));
        put(dot(jj.z1, jj.y2));
        put(dot(jj.z1, jj.d));
        break;
    case JointType::Distance: {
        // (d·d − L²)/(2L) keeps the units of a length and a Jacobian of order one.
        ScalarJet e = dot(jj.d, jj.d);
        const double L = j.length;
        e.value = (e.value - L * L) / (2.0 * L);
        e.J /= 2.0 * L;
        e.rate /= 2.0 * L;
        e.bias /= 2.0 * L;
        e.terms[0].weight /= 2.0 * L;
        put(e);
        break;
    }
    case JointType::PointOnLine:
        put(dot(jj.x1, jj.d));
        put(dot(jj.y1, jj.d));
        break;
    case JointType::PointOnPlane:
        put(dot(jj.z1, jj.d));
        break;
    }
}

// Rotational driver Φ = (x2·y1) cos θ(t) − (x2·x1) sin θ(t) = sin(θ_joint − θ(t)):
// smooth everywhere, with unit slope at the solution, and no angle wrapping.
ScalarJet rotationalDriver(const JointJets& jj, const TimeLawValue& th) {
    const ScalarJet a = dot(jj.x2, jj.y1);
    const ScalarJet b = dot(jj.x2, jj.x1);
    const double c = std::cos(th.value), s = std::sin(th.value);
    const double cd = -s * th.rate, sd = c * th.rate;
    const double cdd = -c * th.rate * th.rate - s * th.acceleration;
    const double sdd = -s * th.rate * th.rate + c * th.acceleration;
    ScalarJet e;
    e.value = a.value * c - b.value * s;
    e.J = c * a.J - s * b.J;
    e.rate = c * a.rate - s * b.rate;
    e.partialT = cd * a.value - sd * b.value;
    e.bias = c * a.bias - s * b.bias + 2.0 * (cd * a.rate - sd * b.rate) + cdd * a.value -
             sdd * b.value;
    e.terms[0] = a.terms[0];
    e.terms[0].weight = c;
    e.terms[1] = b.terms[0];
    e.terms[1].weight = -s;
    e.termCount = 2;
    return e;
}

// Driver on a beam node's hinge: Φ = sin(θ − θ(t)) with the joint's angle θ = σφ and
// φ the hinge angle of HingeAngle.h (the slope's length has no part in it). With ψ = σφ − θ(t):
//   Φ_q = σ cos ψ ∇φ,  Φ_t = −cos ψ θ̇,
//   Φ̈ less its v̇ part = −sin ψ (σφ̇ − θ̇)² + cos ψ (σ φ_bias − θ̈),
//   curvature σ cos ψ ∂∇φ/∂δ − sin ψ ∇φᵀ∇φ (into `curvature`, which must outlive the jet).
ScalarJet nodeHingeDriver(const Joint& j, const JetSlots& slots, const TimeLawValue& th, bool full,
                          JetSquare& curvature) {
    const HingeAngleJet phi = hingeAngleJet(j, slots, full, full);
    const double sigma = phi.sign, psi = sigma * phi.value - th.value;
    const double c = std::cos(psi), s = std::sin(psi);
    ScalarJet e;
    e.full = full;
    e.value = s;
    if (!full) return e;
    e.J = sigma * c * phi.gradient;
    e.rate = sigma * c * phi.rate;
    e.partialT = -c * th.rate;
    const double relativeRate = sigma * phi.rate - th.rate;
    e.bias = -s * relativeRate * relativeRate + c * (sigma * phi.bias - th.acceleration);
    curvature = sigma * c * phi.curvature;
    curvature.noalias() -= s * phi.gradient.transpose() * phi.gradient;
    e.curvature = &curvature;
    return e;
}

ScalarJet translationalDriver(const JointJets& jj, const TimeLawValue& s) {
    ScalarJet e = dot(jj.z1, jj.d);
    e.value -= s.value;
    e.partialT = -s.rate;
    e.bias -= s.acceleration;
    return e;
}

// A coupler's equation (Model.h): the phase ψ = Σ cᵢ xᵢ − offset of its joints'
// coordinates (a cam's angle through its law instead), and Φ = sin(ψ)/scale when an angle takes part (whole-number angle
// coefficients make it a function of the configuration: θ's wrapping at ±π adds whole
// turns to ψ), else Φ = ψ/scale. Its columns are those of every joint's two slots.
void writeCoupler(const Model& model, const Coupler& coupler, const std::vector<BodyMotion>& motion,
                  RowWriter& writer, bool full) {
    const bool curvature = full && writer.wantsCurvature();
    struct Part {
        CoordinateJet jet;
        int start[2] = {0, 0}, width[2] = {0, 0};
        double slope = 0.0, second = 0.0;
    };
    if (coupler.terms.size() > static_cast<size_t>(kMaxCouplerTerms))
        throw std::logic_error("a coupler ties at most three joints");
    const int terms = static_cast<int>(coupler.terms.size());
    Part parts[kMaxCouplerTerms];
    int columns[kMaxCouplerColumns];
    int count = 0;
    double psi = -coupler.offset, psiRate = 0.0, psiBias = 0.0;
    JointFrames frames;
    for (int i = 0; i < terms; ++i) {
        const CoupledCoordinate& term = coupler.terms[static_cast<size_t>(i)];
        const Joint& j = model.joint(term.joint);
        jointJets(j.frame1, j.frame2, motion, term.angular ? (kX1 | kY1 | kX2) : (kZ1 | kD), full, frames);
        Part& p = parts[i];
        p.jet = coordinateJet(frames.jets, term.angular, full, curvature);
        const BodyFrame* f[2] = {&j.frame1, &j.frame2};
        for (int slot = 0; slot < 2; ++slot) {
            p.start[slot] = jetColumnStart(model, *f[slot]);
            p.width[slot] = jetWidth(model, f[slot]->body);
            for (int k = 0; k < p.width[slot]; ++k) columns[count++] = p.start[slot] + k;
        }
        // A term's part of ψ is g(x) (a·x, or a cam's −f): ψ̇ += g'ẋ, ψ̈° += g'ẍ° + g''ẋ².
        const Coupler::TermValue g = coupler.term(static_cast<size_t>(i), p.jet.value);
        p.slope = g.slope;
        p.second = g.second;
        psi += g.value;
        psiRate += g.slope * p.jet.rate;
        psiBias += g.slope * p.jet.bias + g.second * p.jet.rate * p.jet.rate;
    }
    std::sort(columns, columns + count);
    count = static_cast<int>(std::unique(columns, columns + count) - columns);
    const bool periodic = coupler.periodic();
    // Φ = k u(ψ) with u = sin or the identity: u, u' and u''.
    const double s = periodic ? std::sin(psi) : psi, c = periodic ? std::cos(psi) : 1.0;
    const double bend = periodic ? -s : 0.0;
    const double k = 1.0 / coupler.scale;
    if (!full) {
        writer.writeOnColumns(coupler.equation, k * s, 0.0, columns, count, CouplerRow(), CouplerSquare());
        return;
    }
    // ∇ψ and ∂∇ψ/∂δ on the coupler's columns (a body in two joints adds up).
    CouplerRow gradient = CouplerRow::Zero(count);
    CouplerSquare H;
    if (curvature) H.setZero(count, count);
    for (int t = 0; t < terms; ++t) {
        const Part& p = parts[t];
        int where[kMaxJetColumns];
        int width = 0;
        for (int slot = 0; slot < 2; ++slot)
            for (int q = 0; q < p.width[slot]; ++q)
                where[width++] = static_cast<int>(std::lower_bound(columns, columns + count, p.start[slot] + q) - columns);
        // ∂∇g/∂δ = g' ∂∇x/∂δ + g'' ∇x ∇xᵀ.
        for (int a = 0; a < width; ++a) {
            gradient[where[a]] += p.slope * p.jet.J(0, a);
            if (curvature)
                for (int b = 0; b < width; ++b)
                    H(where[a], where[b]) += p.slope * p.jet.H(a, b) + p.second * p.jet.J(0, a) * p.jet.J(0, b);
        }
    }
    // ∇Φ = k u' ∇ψ, Φ̈° = k (u' ψ̈° + u'' ψ̇²), ∂∇Φ/∂δ = k (u' ∂∇ψ/∂δ + u'' ∇ψ ∇ψᵀ)
    // (for sin: u' = cos ψ, u'' = −sin ψ; the identity's u'' is zero, off the root too).
    if (curvature) H = k * (c * H + bend * gradient * gradient.transpose());
    const double bias = k * (c * psiBias + bend * psiRate * psiRate);
    gradient *= k * c;
    writer.writeOnColumns(coupler.equation, k * s, bias, columns, count, gradient, H);
}

// A stop's gap g on the columns of its two frames' slots (StopGaps.h): a joint limit's on
// the joint's coordinate (coordinateJet()), a distance stop's on r = |d| with d = p₂ − p₁:
//   ∇r = ∇(d·d)/(2r),  r̈° = (d·d)̈°/(2r) − ṙ²/r,  ∂∇r/∂δ = H_dd/(2r) − ∇(d·d)ᵀ∇(d·d)/(4r³).
struct GapJet {
    double value = 0.0, rate = 0.0, bias = 0.0;
    int columns[2 * kMaxJetColumns];
    int count = 0;
    CouplerRow gradient;
    CouplerSquare H;
};

GapJet gapJet(const Model& model, const Stop& stop, StopSide side, const std::vector<BodyMotion>& motion, bool full,
              bool curvature) {
    GapJet g;
    const BodyFrame& f1 = stop.kind == Stop::Kind::JointLimit ? model.joint(stop.joint).frame1 : stop.point1;
    const BodyFrame& f2 = stop.kind == Stop::Kind::JointLimit ? model.joint(stop.joint).frame2 : stop.point2;
    JointFrames frames;
    CoordinateJet x;
    if (stop.kind == Stop::Kind::JointLimit) {
        jointJets(f1, f2, motion, stop.angular ? (kX1 | kY1 | kX2) : (kZ1 | kD), full, frames);
        x = coordinateJet(frames.jets, stop.angular, full, curvature);
        // atan2 gives the angle within (−π, π]; measured from the limits' middle instead, it
        // is continuous over the range they allow (less than a turn: CompileStops.cpp).
        if (stop.angular) {
            const double middle = 0.5 * (stop.lower + stop.upper);
            x.value = middle + std::remainder(x.value - middle, 2.0 * M_PI);
        }
    } else {
        jointJets(f1, f2, motion, kD, full, frames);
        const ScalarJet dd = dot(frames.jets.d, frames.jets.d);
        const double r = std::sqrt(dd.value);
        x.value = r;
        if (full) {
            x.J = dd.J / (2.0 * r);
            x.rate = dd.rate / (2.0 * r);
            x.bias = dd.bias / (2.0 * r) - x.rate * x.rate / r;
            if (curvature) {
                x.H = equationCurvature(dd, static_cast<int>(dd.J.cols())) / (2.0 * r);
                x.H.noalias() -= dd.J.transpose() * dd.J / (4.0 * r * r * r);
            }
        }
    }
    const double sign = side == StopSide::Lower ? 1.0 : -1.0;
    g.value = side == StopSide::Lower ? x.value - stop.lower : stop.upper - x.value;
    if (!full) return g;
    g.rate = sign * x.rate;
    g.bias = sign * x.bias;
    // The slots' columns in ascending order (two bodies, so they never overlap).
    const int start[2] = {jetColumnStart(model, f1), jetColumnStart(model, f2)};
    const int width[2] = {jetWidth(model, f1.body), jetWidth(model, f2.body)};
    const int first = (width[1] > 0 && (width[0] == 0 || start[1] < start[0])) ? 1 : 0;
    int jetIndex[2 * kMaxJetColumns];
    for (int k = 0; k < 2; ++k) {
        const int slot = k == 0 ? first : 1 - first;
        for (int c = 0; c < width[slot]; ++c) {
            g.columns[g.count] = start[slot] + c;
            jetIndex[g.count++] = (slot == 0 ? 0 : width[0]) + c;
        }
    }
    g.gradient.resize(g.count);
    for (int a = 0; a < g.count; ++a) g.gradient[a] = sign * x.J(0, jetIndex[a]);
    if (curvature) {
        g.H.resize(g.count, g.count);
        for (int a = 0; a < g.count; ++a)
            for (int b = 0; b < g.count; ++b) g.H(a, b) = sign * x.H(jetIndex[a], jetIndex[b]);
    }
    return g;
}

// Writes every joint's, driver's and coupler's equations through the writer; full == false
// computes values alone.
void writeEquations(const Model& model, const State& s, RowWriter& writer, bool full) {
    // Each body's motion (a rigid body's rotation matrix and velocities) once, not once
    // per joint.
    std::vector<BodyMotion> motion(static_cast<size_t>(model.bodyCount()));
    for (int b = 0; b < model.bodyCount(); ++b)
        motion[static_cast<size_t>(b)] = bodyMotion(model, s, BodyIndex(b), full);
    JointFrames frames;
    JetSquare jointCurvature;
    for (const Joint& j : model.joints) {
        const NodeEquations nodes = nodeEquations(j, motion);
        unsigned need = jetsNeeded(j.type);
        if (nodes == NodeEquations::PinOnly) need = kD;
        // A beam node carries one direction, its slope: a node revolute needs z1 and x2, a
        // clamp y1, z1 and x2.
        if (nodes == NodeEquations::OnFrame2) need = kD | kZ1 | kX2 | (j.type == JointType::Fixed ? kY1 : 0u);
        const bool swap = nodes == NodeEquations::OnFrame2 && nodeIsFrame1(j, motion);
        const BodyFrame& f1 = swap ? j.frame2 : j.frame1;
        const BodyFrame& f2 = swap ? j.frame1 : j.frame2;
        jointJets(f1, f2, motion, need, full, frames);
        writeJoint(j, f1, f2, frames.jets, nodes, full, writer, jointCurvature);
    }
    JetSquare driverCurvature;
    // Drivers and couplers in row order (a driver added to a built model comes after its
    // couplers: JointCoordinateAssembly.cpp).
    size_t nextCoupler = 0;
    auto couplersBefore = [&](int row) {
        for (; nextCoupler < model.couplers.size() && model.couplers[nextCoupler].equation < row; ++nextCoupler)
            writeCoupler(model, model.couplers[nextCoupler], motion, writer, full);
    };
    for (const Driver& d : model.drivers) {
        couplersBefore(d.equation);
        const Joint& j = model.joint(d.joint);
        const TimeLawValue law = d.law.evaluate(s.t);
        if (d.rotational && nodeEquations(j, motion) == NodeEquations::OnFrame2) {
            jointJets(j.frame1, j.frame2, motion, 0u, full, frames);  // the slots alone
            writer.write(d.equation, nodeHingeDriver(j, frames.slots, law, full, driverCurvature), j.frame1, j.frame2);
            continue;
        }
        jointJets(j.frame1, j.frame2, motion, d.rotational ? (kX1 | kY1 | kX2) : (kZ1 | kD), full, frames);
        const ScalarJet e = d.rotational ? rotationalDriver(frames.jets, law) : translationalDriver(frames.jets, law);
        writer.write(d.equation, e, j.frame1, j.frame2);
    }
    couplersBefore(std::numeric_limits<int>::max());
    // Engaged stops last, in row order (StopGaps.h).
    for (const EngagedStop& e : model.engagedStops) {
        const GapJet g = gapJet(model, model.stops[static_cast<size_t>(e.stop)], e.side, motion, full,
                                full && writer.wantsCurvature());
        writer.writeOnColumns(e.equation, g.value, g.bias, g.columns, g.count, g.gradient, g.H);
    }
}

}  // namespace

void evaluateConstraints(const Model& model, const State& s, ConstraintValues& out,
                         unsigned parts) {
    const int m = model.equationCount();
    const int n = model.velocitySize();
    if (parts & kPhi) out.phi.setZero(m);
    if (parts & kPhiT) out.phiT.setZero(m);
    if (parts & kGamma) out.gamma.setZero(m);
    RowWriter writer(model, out, parts, m, n);
    // A position-only evaluation (the projection's line search) needs values alone.
    writeEquations(model, s, writer, parts != kPhi);
    writer.finish(m);
}

SparseColMatrix constraintCurvature(const Model& model, const State& s, const VecX& lambda) {
    if (lambda.size() != model.equationCount())
        throw std::invalid_argument("constraintCurvature: one multiplier per equation expected");
    std::vector<Eigen::Triplet<double>> entries;
    ConstraintValues unused;
    RowWriter writer(model, unused, 0u, model.equationCount(), model.velocitySize(),
                     CurvatureSink{&lambda, &entries});
    writeEquations(model, s, writer, true);
    SparseColMatrix out(model.velocitySize(), model.velocitySize());
    out.setFromTriplets(entries.begin(), entries.end());
    return out;
}

StopGap stopGap(const Model& model, const Stop& stop, StopSide side, const State& s, bool full) {
    std::vector<BodyMotion> motion(static_cast<size_t>(model.bodyCount()));
    const BodyFrame& f1 = stop.kind == Stop::Kind::JointLimit ? model.joint(stop.joint).frame1 : stop.point1;
    const BodyFrame& f2 = stop.kind == Stop::Kind::JointLimit ? model.joint(stop.joint).frame2 : stop.point2;
    for (const BodyIndex b : {f1.body, f2.body})
        motion[static_cast<size_t>(b.value())] = bodyMotion(model, s, b, full);
    const GapJet g = gapJet(model, stop, side, motion, full, false);
    StopGap out;
    out.value = g.value;
    if (!full) return out;
    out.rate = g.rate;
    out.bias = g.bias;
    out.gradient = VecX::Zero(model.velocitySize());
    for (int a = 0; a < g.count; ++a) out.gradient[g.columns[a]] = g.gradient[a];
    return out;
}

std::vector<std::string> driversOnWrongRoot(const Model& model, const State& s) {
    std::vector<std::string> out;
    for (const Driver& d : model.drivers) {
        if (!d.rotational) continue;
        const double error = jointAngle(model, s, d.joint) - d.law.evaluate(s.t).value;
        if (std::cos(error) < 0.0) out.push_back(d.name);
    }
    return out;
}

std::vector<std::pair<std::string, double>> residualsByOwner(const Model& model,
                                                             const VecX& phi) {
    std::vector<std::pair<std::string, double>> out;
    std::map<std::string, size_t> where;
    for (int i = 0; i < model.equationCount(); ++i) {
        const std::string& owner = model.equations[static_cast<size_t>(i)].owner;
        auto it = where.find(owner);
        if (it == where.end()) {
            where[owner] = out.size();
            out.emplace_back(owner, 0.0);
            it = where.find(owner);
        }
        out[it->second].second = std::max(out[it->second].second, std::abs(phi[i]));
    }
    return out;
}

VecX equationScales(const Model& model) {
    VecX s(model.equationCount());
    for (int i = 0; i < model.equationCount(); ++i)
        s[i] = model.equations[static_cast<size_t>(i)].angular ? model.lengthScale : 1.0;
    return s;
}

VecX coordinateScales(const Model& model) {
    VecX s(model.velocitySize());
    for (const Body& body : model.bodies)
        body.formulation->velocityScales(model.lengthScale, s.data() + body.slice.velocityOffset);
    return s;
}

double largestConstraintResidual(const Model& model, const State& s) {
    ConstraintValues cv;
    evaluateConstraints(model, s, cv, kPhi);
    return cv.phi.size() ? cv.phi.cwiseAbs().maxCoeff() : 0.0;
}

}  // namespace looplab
