// A point-to-point spring-damper: tension T = k (ℓ − ℓ₀) + c ℓ̇ + preload along the line
// between two body points, pulling them together when positive.
#include "ForceGeometry.h"
#include "ForceLaws.h"

#include "looplab/bodies/Rotation.h"

namespace looplab::forces {
namespace {

class SpringDamperLaw final : public ForceLaw {
public:
    explicit SpringDamperLaw(const ForceElement& e) : e_(e) {}
    ForceType type() const override { return ForceType::SpringDamper; }

    void addForces(const Model& model, const State& s, VecX& f) const override {
        const Vec3 p1 = pointPosition(model, s, e_.point1.body, e_.point1.origin);
        const Vec3 p2 = pointPosition(model, s, e_.point2.body, e_.point2.origin);
        const Vec3 d = p2 - p1;
        const double len = d.norm();
        if (len < 1e-300) return;  // direction undefined; the builder rejects it initially
        const Vec3 u = d / len;
        const double tension = e_.stiffness * (len - e_.freeLength) + e_.damping * rate(model, s, u) + e_.preload;
        addForce(model, s, e_.point1.body, p1, tension * u, f);
        addForce(model, s, e_.point2.body, p2, -tension * u, f);
    }

    // Tension T along u = d/ℓ, d = p2 − p1: Q = −T Dᵀu with D = ∂d/∂δ (δd = D δ, ḋ = D v). Then
    //   −∂Q/∂v = c Dᵀu uᵀD,
    //   −∂Q/∂δ = Dᵀu (k uᵀD + c (ḋᵀ P D + uᵀ E)) + T (G(u) + Dᵀ P D),
    // with P = (I − u uᵀ)/ℓ = ∂u/∂d, E = ∂ḋ/∂δ at fixed v (the points' velocities A (ω' × s)
    // turn with their bodies) and G(u) = ∂(Dᵀu)/∂δ at fixed u (the lever s of each point
    // turns with its body: ±s̃ (Aᵀu)˜ on its rotation block).
    void addDerivatives(const Model& m, const State& s, Triplets& K, Triplets& C) const override {
        const BodyPose b1 = bodyPose(m, s, e_.point1.body), b2 = bodyPose(m, s, e_.point2.body);
        const Vec3& s1 = e_.point1.origin;
        const Vec3& s2 = e_.point2.origin;
        const Vec3 d = pointPosition(m, s, e_.point2.body, s2) - pointPosition(m, s, e_.point1.body, s1);
        const double len = d.norm();
        if (len < 1e-300) return;  // as addForces(): no direction, no force
        const Vec3 u = d / len;
        const Vec3 dd = pointVelocity(m, s, e_.point2.body, s2) - pointVelocity(m, s, e_.point1.body, s1);
        const double rate = u.dot(dd);
        const double tension = e_.stiffness * (len - e_.freeLength) + e_.damping * rate + e_.preload;

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
            e_.stiffness * u.transpose() * D + e_.damping * (dd.transpose() * P * D + u.transpose() * E);
        const PairBlock stiffness = Du * tensionGradient + tension * (G + D.transpose() * P * D);
        scatter(m, e_.point1.body, e_.point2.body, stiffness, K);
        if (e_.damping != 0.0) scatter(m, e_.point1.body, e_.point2.body, e_.damping * Du * Du.transpose(), C);
    }

    double potentialEnergy(const Model& model, const State& s) const override {
        const double x = (pointPosition(model, s, e_.point2.body, e_.point2.origin) -
                          pointPosition(model, s, e_.point1.body, e_.point1.origin))
                             .norm() -
                         e_.freeLength;
        return 0.5 * e_.stiffness * x * x + e_.preload * x;
    }

    double dissipatedPower(const Model& model, const State& s) const override {
        const Vec3 d = pointPosition(model, s, e_.point2.body, e_.point2.origin) -
                       pointPosition(model, s, e_.point1.body, e_.point1.origin);
        const double len = d.norm();
        if (len < 1e-300) return 0.0;
        const double r = rate(model, s, d / len);
        return e_.damping * r * r;
    }

    bool dissipates() const override { return e_.damping != 0.0; }
    double energyScale(double L) const override { return 0.5 * e_.stiffness * L * L; }

private:
    double rate(const Model& model, const State& s, const Vec3& u) const {
        return u.dot(pointVelocity(model, s, e_.point2.body, e_.point2.origin) -
                     pointVelocity(model, s, e_.point1.body, e_.point1.origin));
    }

    ForceElement e_;
};

}  // namespace

std::shared_ptr<const ForceLaw> makeSpringDamper(const ForceElement& e) { return std::make_shared<SpringDamperLaw>(e); }

}  // namespace looplab::forces
