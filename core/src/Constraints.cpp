#include "looplab/Constraints.h"

#include "looplab/RigidBodyCoordinates.h"
#include "looplab/Rotation.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>

namespace looplab {
namespace {

// Kinematics of one of the two bodies a joint connects.
struct BodyKinematics {
    Mat3 A = Mat3::Identity();  // body to global
    Vec3 r = Vec3::Zero(), rdot = Vec3::Zero(), omega = Vec3::Zero();  // omega global
    bool ground = true;
};

BodyKinematics bodyKinematics(const Model& m, const State& s, BodyIndex b) {
    BodyKinematics k;
    if (m.body(b).kind == BodyKind::Ground) return k;
    k.ground = false;
    k.A = bodyOrientation(m, s, b).toRotationMatrix();
    k.r = bodyPosition(m, s, b);
    k.rdot = bodyVelocity(m, s, b);
    k.omega = k.A * bodyAngularVelocityLocal(m, s, b);
    return k;
}

// A global 3-vector that depends on the two joint bodies (slot 0 and slot 1): value,
// Jacobian with respect to both bodies' velocity coordinates, first time derivative,
// and the part of the second time derivative that does not contain v̇ ("bias").
// Only the value is set in a position-only evaluation; the other members are then left
// uninitialised (zeroing them cost more than the evaluation itself) and never read.
// Columns of one frame's Jacobian: the velocity slice of the body that carries it (today
// a rigid body's 6; a flexible kind's frame depends on its element's nodes and needs a
// wider slot and the columns of those nodes).
constexpr int kSlot = rigid::kVelocitySize;

//
// For the curvature ∂(Φ_qᵀλ)/∂q a full jet also keeps, per slot, the body-frame lever ℓ
// whose rotation moves it (J's rotation block is −A ℓ̃; ℓ = s for a point, a for a
// direction, their difference for a difference) and the body's rotation A: turning the
// body by δθ changes Jᵀw, for a fixed w, by ℓ̃ (Aᵀw)˜ δθ.
struct VectorJet {
    bool full = true;  // false: only the value was computed (a position-only evaluation)
    Vec3 value, rate, bias;
    Eigen::Matrix<double, 3, 2 * kSlot> J;
    Vec3 lever[2];
    const Mat3* rotation[2];  // null for the ground and for constant vectors
};

// Every equation is a weighted sum of at most two dot products of frame jets (a component
// is a dot product with a constant axis) plus a function of time; the terms are kept so
// that the curvature can be formed from the jets.
struct DotTerm {
    const VectorJet* a = nullptr;
    const VectorJet* b = nullptr;
    double weight = 0.0;
};

// The same for a scalar, plus its explicit time derivative (drivers only).
struct ScalarJet {
    bool full = true;
    double value = 0.0, rate = 0.0, bias = 0.0, partialT = 0.0;
    Eigen::Matrix<double, 1, 2 * kSlot> J = Eigen::Matrix<double, 1, 2 * kSlot>::Zero();
    DotTerm terms[2];
    int termCount = 0;
};

// The constant global axes, as jets, for the components of a vector.
struct UnitJets {
    VectorJet axis[3];
    UnitJets() {
        for (int i = 0; i < 3; ++i) {
            axis[i].value = Vec3::Unit(i);
            axis[i].rate.setZero();
            axis[i].bias.setZero();
            axis[i].J.setZero();
            axis[i].lever[0] = axis[i].lever[1] = Vec3::Zero();
            axis[i].rotation[0] = axis[i].rotation[1] = nullptr;
        }
    }
};
const UnitJets kUnitJets;

// A unit vector fixed in a body: u = A a, u̇ = ω × u, ü = α × u + ω × (ω × u).
// With full == false only the value is computed: position-only evaluations (the
// projection's line search) need nothing else.
VectorJet direction(const BodyKinematics& k, int slot, const Vec3& aLocal, bool full) {
    VectorJet x;
    x.full = full;
    x.value = k.A * aLocal;
    if (!full) return x;
    x.J.setZero();
    if (!k.ground) x.J.block<3, 3>(0, kSlot * slot + 3) = -k.A * skew(aLocal);
    x.lever[slot] = k.ground ? Vec3::Zero() : aLocal;
    x.lever[1 - slot].setZero();
    x.rotation[slot] = k.ground ? nullptr : &k.A;
    x.rotation[1 - slot] = nullptr;
    x.rate = k.omega.cross(x.value);
    x.bias = k.omega.cross(x.rate);
    return x;
}

// A point fixed in a body: p = r + A s.
VectorJet point(const BodyKinematics& k, int slot, const Vec3& sLocal, bool full) {
    VectorJet x;
    x.full = full;
    const Vec3 As = k.A * sLocal;
    x.value = k.r + As;
    if (!full) return x;
    x.J.setZero();
    if (!k.ground) {
        x.J.block<3, 3>(0, kSlot * slot) = Mat3::Identity();
        x.J.block<3, 3>(0, kSlot * slot + 3) = -k.A * skew(sLocal);
    }
    x.lever[slot] = k.ground ? Vec3::Zero() : sLocal;
    x.lever[1 - slot].setZero();
    x.rotation[slot] = k.ground ? nullptr : &k.A;
    x.rotation[1 - slot] = nullptr;
    x.rate = k.rdot + k.omega.cross(As);
    x.bias = k.omega.cross(k.omega.cross(As));
    return x;
}

VectorJet operator-(const VectorJet& a, const VectorJet& b) {
    VectorJet x;
    x.full = a.full && b.full;
    x.value = a.value - b.value;
    if (!x.full) return x;
    x.rate = a.rate - b.rate;
    x.bias = a.bias - b.bias;
    x.J = a.J - b.J;
    for (int i = 0; i < 2; ++i) {
        x.lever[i] = a.lever[i] - b.lever[i];
        x.rotation[i] = a.rotation[i] ? a.rotation[i] : b.rotation[i];
    }
    return x;
}

ScalarJet dot(const VectorJet& a, const VectorJet& b) {
    ScalarJet s;
    s.full = a.full && b.full;
    s.value = a.value.dot(b.value);
    if (!s.full) return s;
    s.J = b.value.transpose() * a.J + a.value.transpose() * b.J;
    s.rate = a.rate.dot(b.value) + a.value.dot(b.rate);
    s.bias = a.bias.dot(b.value) + 2.0 * a.rate.dot(b.rate) + a.value.dot(b.bias);
    s.terms[0] = {&a, &b, 1.0};
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
    s.terms[0] = {&a, &kUnitJets.axis[i], 1.0};
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
    case JointType::Prismatic: return kX1 | kY1 | kZ1 | kX2 | kY2 | kD;
    case JointType::PointOnLine: return kX1 | kY1 | kD;
    case JointType::PointOnPlane: return kZ1 | kD;
    }
    return ~0u;
}

JointJets jointJets(const Joint& j, const std::vector<BodyKinematics>& kin, unsigned need, bool f) {
    const BodyKinematics& k1 = kin[static_cast<size_t>(j.frame1.body.value())];
    const BodyKinematics& k2 = kin[static_cast<size_t>(j.frame2.body.value())];
    JointJets jj;
    if (need & kX1) jj.x1 = direction(k1, 0, j.frame1.axes.col(0), f);
    if (need & kY1) jj.y1 = direction(k1, 0, j.frame1.axes.col(1), f);
    if (need & kZ1) jj.z1 = direction(k1, 0, j.frame1.axes.col(2), f);
    if (need & kX2) jj.x2 = direction(k2, 1, j.frame2.axes.col(0), f);
    if (need & kY2) jj.y2 = direction(k2, 1, j.frame2.axes.col(1), f);
    if (need & kZ2) jj.z2 = direction(k2, 1, j.frame2.axes.col(2), f);
    if (need & kD) jj.d = point(k2, 1, j.frame2.origin, f) - point(k1, 0, j.frame1.origin, f);
    return jj;
}

// Where the λ-weighted curvature of the equations goes, if it is asked for.
struct CurvatureSink {
    const VecX* lambda = nullptr;
    std::vector<Eigen::Triplet<double>>* entries = nullptr;
};

// Adds to H the derivative of Jᵀw (w fixed) along the rotations of the jet's bodies.
void addLeverCurvature(const VectorJet& x, const Vec3& w, double weight,
                       Eigen::Matrix<double, 2 * kSlot, 2 * kSlot>& H) {
    for (int slot = 0; slot < 2; ++slot) {
        if (!x.rotation[slot] || x.lever[slot].isZero(0.0)) continue;
        H.block<3, 3>(kSlot * slot + 3, kSlot * slot + 3) +=
            weight * skew(x.lever[slot]) * skew(x.rotation[slot]->transpose() * w);
    }
}

// d/dε of ∇e(q ⊕ ε δ) for the equation's two slots: for each term c a·b,
// c (Jaᵀ Jb + Jbᵀ Ja + ∂(Jaᵀ b)/∂δ|b + ∂(Jbᵀ a)/∂δ|a).
Eigen::Matrix<double, 2 * kSlot, 2 * kSlot> equationCurvature(const ScalarJet& e) {
    Eigen::Matrix<double, 2 * kSlot, 2 * kSlot> H = Eigen::Matrix<double, 2 * kSlot, 2 * kSlot>::Zero();
    for (int k = 0; k < e.termCount; ++k) {
        const DotTerm& t = e.terms[k];
        H.noalias() += t.weight * (t.a->J.transpose() * t.b->J + t.b->J.transpose() * t.a->J);
        addLeverCurvature(*t.a, t.b->value, t.weight, H);
        addLeverCurvature(*t.b, t.a->value, t.weight, H);
    }
    return H;
}

class RowWriter {
public:
    RowWriter(const Model& model, ConstraintValues& out, unsigned parts, int rows, int cols,
              CurvatureSink curvature = {})
        : model_(model), out_(out), parts_(parts), curvature_(curvature) {
        if (parts_ & kJacobian) {
            // Equations arrive in row order (joints, then drivers, each writing its own
            // rows in turn), so the row-major Jacobian is filled in place.
            out_.jacobian.resize(rows, cols);
            out_.jacobian.reserve(2 * kSlot * rows);
        }
    }

    void write(int row, const ScalarJet& e, BodyIndex b1, BodyIndex b2) {
        if (curvature_.entries) addCurvature(row, e, b1, b2);
        if (parts_ & kPhi) out_.phi[row] = e.value;
        if (parts_ & kPhiT) out_.phiT[row] = e.partialT;
        if (parts_ & kGamma) out_.gamma[row] = -e.bias;
        if (!(parts_ & kJacobian)) return;
        if (row < nextRow_) throw std::logic_error("constraint rows written out of order");
        while (nextRow_ <= row) out_.jacobian.startVec(nextRow_++);
        // Column indices ascend within a row: the body with the lower index first, and
        // the two slots summed if a joint has the same body on both sides.
        const int i1 = b1.value(), i2 = b2.value();
        auto put = [&](int body, const double* jet) {
            if (body == 0) return;
            const int c0 = model_.velocityOffset(BodyIndex(body));
            for (int k = 0; k < kSlot; ++k)
                if (jet[k] != 0.0) out_.jacobian.insertBack(row, c0 + k) = jet[k];
        };
        double first[kSlot], second[kSlot];
        for (int k = 0; k < kSlot; ++k) {
            first[k] = e.J(0, k);
            second[k] = e.J(0, kSlot + k);
        }
        if (i1 == i2) {
            for (int k = 0; k < kSlot; ++k) first[k] += second[k];
            put(i1, first);
        } else if (i1 < i2) {
            put(i1, first);
            put(i2, second);
        } else {
            put(i2, second);
            put(i1, first);
        }
    }

    void finish(int rows) {
        if (!(parts_ & kJacobian)) return;
        while (nextRow_ < rows) out_.jacobian.startVec(nextRow_++);
        out_.jacobian.finalize();
    }

private:
    void addCurvature(int row, const ScalarJet& e, BodyIndex b1, BodyIndex b2) {
        const double weight = (*curvature_.lambda)[row];
        if (weight == 0.0) return;
        const Eigen::Matrix<double, 2 * kSlot, 2 * kSlot> H = weight * equationCurvature(e);
        // Slots on the same body add up (the triplets are summed).
        const BodyIndex bodies[2] = {b1, b2};
        for (int r = 0; r < 2; ++r) {
            if (bodies[r].value() == 0) continue;
            const int r0 = model_.velocityOffset(bodies[r]);
            for (int c = 0; c < 2; ++c) {
                if (bodies[c].value() == 0) continue;
                const int c0 = model_.velocityOffset(bodies[c]);
                for (int i = 0; i < kSlot; ++i)
                    for (int k = 0; k < kSlot; ++k) {
                        const double x = H(kSlot * r + i, kSlot * c + k);
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

void writeJoint(const Joint& j, const JointJets& jj, RowWriter& w) {
    int row = j.firstEquation;
    const BodyIndex b1 = j.frame1.body, b2 = j.frame2.body;
    auto put = [&](const ScalarJet& e) { w.write(row++, e, b1, b2); };
    auto coincidentPoints = [&] {
        for (int i = 0; i < 3; ++i) put(component(jj.d, i));
    };
    switch (j.type) {
    case JointType::Revolute:
        coincidentPoints();
        put(dot(jj.z1, jj.x2));
        put(dot(jj.z1, jj.y2));
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
        put(dot(jj.z1, jj.x2));
        put(dot(jj.z1, jj.y2));
        put(dot(jj.x1, jj.y2));
        break;
    case JointType::Cylindrical:
    case JointType::Prismatic:
        put(dot(jj.z1, jj.x2));
        put(dot(jj.z1, jj.y2));
        put(dot(jj.x1, jj.d));
        put(dot(jj.y1, jj.d));
        if (j.type == JointType::Prismatic) put(dot(jj.x1, jj.y2));
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
    e.terms[0] = {a.terms[0].a, a.terms[0].b, c};
    e.terms[1] = {b.terms[0].a, b.terms[0].b, -s};
    e.termCount = 2;
    return e;
}

ScalarJet translationalDriver(const JointJets& jj, const TimeLawValue& s) {
    ScalarJet e = dot(jj.z1, jj.d);
    e.value -= s.value;
    e.partialT = -s.rate;
    e.bias -= s.acceleration;
    return e;
}

// Writes every joint's and driver's equations through the writer; full == false computes
// values alone.
void writeEquations(const Model& model, const State& s, RowWriter& writer, bool full) {
    // Each body's rotation matrix and velocities once, not once per joint.
    std::vector<BodyKinematics> kin(static_cast<size_t>(model.bodyCount()));
    for (int b = 1; b < model.bodyCount(); ++b) kin[static_cast<size_t>(b)] = bodyKinematics(model, s, BodyIndex(b));
    for (const Joint& j : model.joints) writeJoint(j, jointJets(j, kin, jetsNeeded(j.type), full), writer);
    for (const Driver& d : model.drivers) {
        const Joint& j = model.joint(d.joint);
        const JointJets jj = jointJets(j, kin, d.rotational ? (kX1 | kY1 | kX2) : (kZ1 | kD), full);
        const TimeLawValue law = d.law.evaluate(s.t);
        const ScalarJet e = d.rotational ? rotationalDriver(jj, law) : translationalDriver(jj, law);
        writer.write(d.equation, e, j.frame1.body, j.frame2.body);
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
    for (const Body& body : model.bodies) {
        if (body.kind == BodyKind::Rigid) rigid::velocityScales(model.lengthScale, s.data() + body.slice.velocityOffset);
    }
    return s;
}

}  // namespace looplab
