#include "looplab/dynamics/ForceDerivatives.h"

#include "looplab/bodies/rigid/RigidBodyCoordinates.h"
#include "looplab/bodies/Rotation.h"
#include "looplab/kinematics/HingeAngle.h"

#include <cmath>
#include <vector>

namespace looplab {
namespace {

// A force element acts on two bodies (slot 0 and slot 1); its derivatives are first formed
// on the two rigid velocity slices and then scattered into the model's coordinates.
constexpr int kSlot = rigid::kVelocitySize;
using PairBlock = Eigen::Matrix<double, 2 * kSlot, 2 * kSlot>;
using PairVector = Eigen::Matrix<double, 2 * kSlot, 1>;
using PairRows = Eigen::Matrix<double, 3, 2 * kSlot>;
using Triplets = std::vector<Eigen::Triplet<double>>;

// The pose and velocity of one body as a force element sees it (identity and zero for
// the ground).
struct BodyPose {
    bool moving = false;
    Mat3 A = Mat3::Identity();      // body to global
    Vec3 omegaLocal = Vec3::Zero();  // body frame
};

BodyPose bodyPose(const Model& m, const State& s, BodyIndex b) {
    BodyPose p;
    if (!m.body(b).movesAsOneFrame()) return p;
    p.moving = true;
    p.A = bodyOrientation(m, s, b).toRotationMatrix();
    p.omegaLocal = bodyAngularVelocityLocal(m, s, b);
    return p;
}

// Adds X (slot 0 = body b1, slot 1 = body b2) to the model-sized matrix; the ground's
// rows and columns are dropped.
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

// Adds a 3 × 3 block at the rotation rows and columns of body b.
void addRotationBlock(const Model& m, BodyIndex b, const Mat3& X, Triplets& out) {
    const int o = m.velocityOffset(b) + 3;
    for (int i = 0; i < 3; ++i)
        for (int k = 0; k < 3; ++k)
            if (X(i, k) != 0.0) out.emplace_back(o + i, o + k, X(i, k));
}

// Point-to-point spring-damper with tension T = k (ℓ − ℓ₀) + c ℓ̇ + preload along
// u = d/ℓ, d = p2 − p1: Q = −T Dᵀu with D = ∂d/∂δ (δd = D δ, ḋ = D v). Then
//   −∂Q/∂v = c Dᵀu uᵀD,
//   −∂Q/∂δ = Dᵀu (k uᵀD + c (ḋᵀ P D + uᵀ E)) + T (G(u) + Dᵀ P D),
// with P = (I − u uᵀ)/ℓ = ∂u/∂d, E = ∂ḋ/∂δ at fixed v (the points' velocities A (ω' × s)
// turn with their bodies) and G(u) = ∂(Dᵀu)/∂δ at fixed u (the lever s of each point
// turns with its body: ±s̃ (Aᵀu)˜ on its rotation block).
void springDamper(const Model& m, const State& s, const ForceElement& e, Triplets& K, Triplets& C) {
    const BodyPose b1 = bodyPose(m, s, e.point1.body), b2 = bodyPose(m, s, e.point2.body);
    const Vec3& s1 = e.point1.origin;
    const Vec3& s2 = e.point2.origin;
    const Vec3 d = pointPosition(m, s, e.point2.body, s2) - pointPosition(m, s, e.point1.body, s1);
    const double len = d.norm();
    if (len < 1e-300) return;  // as generalizedForces(): no direction, no force
    const Vec3 u = d / len;
    const Vec3 dd = pointVelocity(m, s, e.point2.body, s2) - pointVelocity(m, s, e.point1.body, s1);
    const double rate = u.dot(dd);
    const double tension = e.stiffness * (len - e.freeLength) + e.damping * rate + e.preload;

    PairRows D = PairRows::Zero(), E = PairRows::Zero();
    D.block<3, 3>(0, 0) = -Mat3::Identity();
    D.block<3, 3>(0, 3) = b1.A * skew(s1);
    D.block<3, 3>(0, kSlot) = Mat3::Identity();
    D.block<3, 3>(0, kSlot + 3) = -b2.A * skew(s2);
    E.block<3, 3>(0, 3) = b1.A * skew(b1.omegaLocal.cross(s1));
    E.block<3, 3>(0, kSlot + 3) = -b2.A * skew(b2.omegaLocal.cross(s2));
    PairBlock G = PairBlock::Zero();
    G.block<3, 3>(3, 3) = -skew(s1) * skew(b1.A.transpose() * u);
    G.block<3, 3>(kSlot + 3, kSlot + 3) = skew(s2) * skew(b2.A.transpose() * u);

    const Mat3 P = (Mat3::Identity() - u * u.transpose()) / len;
    const PairVector Du = D.transpose() * u;
    const Eigen::Matrix<double, 1, 2 * kSlot> tensionGradient =
        e.stiffness * u.transpose() * D + e.damping * (dd.transpose() * P * D + u.transpose() * E);
    const PairBlock stiffness = Du * tensionGradient + tension * (G + D.transpose() * P * D);
    scatter(m, e.point1.body, e.point2.body, stiffness, K);
    if (e.damping != 0.0) scatter(m, e.point1.body, e.point2.body, e.damping * Du * Du.transpose(), C);
}

// Rotational spring-damper on a revolute or cylindrical joint: torque τ z1 on body 2 and
// −τ z1 on body 1 with τ = −k wrap(θ − θ₀) − c θ̇, θ = atan2(x2·y1, x2·x1),
// θ̇ = z1·(ω2 − ω1), so Q = τ g with g = (−A1ᵀz1, A2ᵀz1) on the two rotation slices
// (θ̇ = gᵀv). With global rotation increments φ_i = A_i δθ_i,
//   δθ = (φ2 − φ1)·w,  w = x2 × (a y1 − b x1)/(a² + b²),  a = x2·x1, b = x2·y1,
//   δθ̇ = (φ2 − φ1)·(ω2 × z1),
//   δ(A2ᵀz1) = (A2ᵀz1)˜ δθ2 − A2ᵀA1 ã1 δθ1  (A1ᵀz1 = a1 is constant),
// and −∂Q/∂δ = g (k ∂θ/∂δ + c ∂θ̇/∂δ) − τ ∂g/∂δ, −∂Q/∂v = c g gᵀ.
// The same on a beam node's hinge (Dynamics.cpp): Q = τ' ∇φᵀ with τ' = −k wrap(φ − σθ₀) − c φ̇
// and φ̇ = ∇φ v, so with H = ∂(∇φ)/∂δ (NodeJoints.h)
//   −∂Q/∂δ = ∇φᵀ (k ∇φ + c vᵀH) − τ' H,  −∂Q/∂v = c ∇φᵀ∇φ.
void nodeHingeSpringDamper(const Model& m, const State& s, const ForceElement& e, Triplets& K, Triplets& C) {
    std::vector<int> columns;
    const HingeAngleJet phi = hingeAngleAt(m, s, m.joint(e.joint), true, columns);
    const double torque = -e.stiffness * std::remainder(phi.value - phi.sign * e.freeAngle, 2.0 * M_PI) -
                          e.damping * phi.rate;
    const int n = static_cast<int>(columns.size());
    JetRow v(1, n);
    for (int k = 0; k < n; ++k) v[k] = s.v[columns[static_cast<size_t>(k)]];
    const JetRow rateGradient = v * phi.curvature;
    const JetSquare stiffness =
        phi.gradient.transpose() * (e.stiffness * phi.gradient + e.damping * rateGradient) - torque * phi.curvature;
    for (int c = 0; c < n; ++c)
        for (int r = 0; r < n; ++r) {
            const size_t rc = static_cast<size_t>(r), cc = static_cast<size_t>(c);
            if (stiffness(r, c) != 0.0) K.emplace_back(columns[rc], columns[cc], stiffness(r, c));
            const double d = e.damping * phi.gradient[r] * phi.gradient[c];
            if (d != 0.0) C.emplace_back(columns[rc], columns[cc], d);
        }
}

void rotationalSpringDamper(const Model& m, const State& s, const ForceElement& e, Triplets& K,
                            Triplets& C) {
    const Joint& j = m.joint(e.joint);
    if (isNodeHinge(m, j)) {
        nodeHingeSpringDamper(m, s, e, K, C);
        return;
    }
    const BodyPose b1 = bodyPose(m, s, j.frame1.body), b2 = bodyPose(m, s, j.frame2.body);
    const Vec3 a1 = j.frame1.axes.col(2);
    const Vec3 x1 = b1.A * j.frame1.axes.col(0), y1 = b1.A * j.frame1.axes.col(1), z1 = b1.A * a1;
    const Vec3 x2 = b2.A * j.frame2.axes.col(0);
    const Vec3 omega1 = b1.A * b1.omegaLocal, omega2 = b2.A * b2.omegaLocal;
    const double a = x2.dot(x1), b = x2.dot(y1);
    const double angle = std::remainder(std::atan2(b, a) - e.freeAngle, 2.0 * M_PI);
    const double rate = z1.dot(omega2 - omega1);
    const double torque = -e.stiffness * angle - e.damping * rate;

    auto onRotations = [](const Vec3& global, const BodyPose& p1, const BodyPose& p2) {
        PairVector x = PairVector::Zero();
        x.segment<3>(3) = -p1.A.transpose() * global;
        x.segment<3>(kSlot + 3) = p2.A.transpose() * global;
        return x;
    };
    const PairVector g = onRotations(z1, b1, b2);
    const PairVector angleGradient = onRotations(x2.cross(a * y1 - b * x1) / (a * a + b * b), b1, b2);
    const PairVector rateGradient = onRotations(omega2.cross(z1), b1, b2);
    PairBlock gDerivative = PairBlock::Zero();
    gDerivative.block<3, 3>(kSlot + 3, kSlot + 3) = skew(b2.A.transpose() * z1);
    gDerivative.block<3, 3>(kSlot + 3, 3) = -b2.A.transpose() * b1.A * skew(a1);

    const PairBlock stiffness =
        g * (e.stiffness * angleGradient + e.damping * rateGradient).transpose() - torque * gDerivative;
    scatter(m, j.frame1.body, j.frame2.body, stiffness, K);
    if (e.damping != 0.0) scatter(m, j.frame1.body, j.frame2.body, e.damping * g * g.transpose(), C);
}

}  // namespace

void forceDerivatives(const Model& m, const State& s, ForceDerivatives& out) {
    const int n = m.velocitySize();
    Triplets K, C;
    for (const Body& body : m.bodies)
        body.formulation->addForceDerivatives(s.q.data() + body.slice.positionOffset,
                                              s.v.data() + body.slice.velocityOffset, body.slice.velocityOffset, K, C);
    for (const ForceElement& e : m.forces) {
        switch (e.type) {
        case ForceType::SpringDamper: springDamper(m, s, e, K, C); break;
        case ForceType::RotationalSpringDamper: rotationalSpringDamper(m, s, e, K, C); break;
        case ForceType::BodyForce: {
            // Q = (F, s̃ AᵀF) with F fixed in the global frame: turning the body turns AᵀF,
            // δ(AᵀF) = (AᵀF)˜ δθ.
            if (!m.body(e.body).movesAsOneFrame()) break;
            const double scale = e.law ? e.law->evaluate(s.t).value : 1.0;
            const Mat3 A = bodyOrientation(m, s, e.body).toRotationMatrix();
            addRotationBlock(m, e.body, -skew(e.localPoint) * skew(A.transpose() * (scale * e.vector)), K);
            break;
        }
        case ForceType::BodyTorque: {
            if (!m.body(e.body).movesAsOneFrame()) break;
            const double scale = e.law ? e.law->evaluate(s.t).value : 1.0;
            const Mat3 A = bodyOrientation(m, s, e.body).toRotationMatrix();
            addRotationBlock(m, e.body, -skew(A.transpose() * (scale * e.vector)), K);
            break;
        }
        }
    }
    out.stiffness.resize(n, n);
    out.stiffness.setFromTriplets(K.begin(), K.end());
    out.damping.resize(n, n);
    out.damping.setFromTriplets(C.begin(), C.end());
}

}  // namespace looplab
