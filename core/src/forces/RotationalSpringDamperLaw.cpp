// A rotational spring-damper on a revolute or cylindrical joint (or on a beam node's
// hinge): torque τ = −k wrap(θ − θ₀) − c θ̇ about the joint's axis, on body 2, and −τ on
// body 1.
#include "ForceGeometry.h"
#include "ForceLaws.h"

#include "looplab/bodies/Rotation.h"
#include "looplab/kinematics/HingeAngle.h"

#include <cmath>

namespace looplab::forces {
namespace {

class RotationalSpringDamperLaw final : public ForceLaw {
public:
    explicit RotationalSpringDamperLaw(const ForceElement& e) : e_(e) {}
    ForceType type() const override { return ForceType::RotationalSpringDamper; }

    void addForces(const Model& model, const State& s, VecX& f) const override {
        const Joint& j = model.joint(e_.joint);
        if (isNodeHinge(model, j)) {
            // On a beam node's hinge: the torque τ = −k wrap(θ − θ₀) − c θ̇ with θ = σφ
            // does the work τ δθ, so Q = τ σ ∇φ = (−k wrap(φ − σθ₀) − c φ̇) ∇φ.
            std::vector<int> columns;
            const HingeAngleJet phi = hingeAngleAt(model, s, j, false, columns);
            const double torque = -e_.stiffness * wrapAngle(phi.value - phi.sign * e_.freeAngle) - e_.damping * phi.rate;
            for (size_t k = 0; k < columns.size(); ++k) f[columns[k]] += torque * phi.gradient[static_cast<int>(k)];
            return;
        }
        const Vec3 z1 = bodyOrientation(model, s, j.frame1.body) * j.frame1.axes.col(2);
        const double angle = wrapAngle(jointAngle(model, s, e_.joint) - e_.freeAngle);
        const double rate = jointAngleRate(model, s, e_.joint);
        const double torque = -e_.stiffness * angle - e_.damping * rate;
        addTorque(model, s, j.frame2.body, torque * z1, f);
        addTorque(model, s, j.frame1.body, -torque * z1, f);
    }

    // Torque τ z1 on body 2 and −τ z1 on body 1 with τ = −k wrap(θ − θ₀) − c θ̇,
    // θ = atan2(x2·y1, x2·x1), θ̇ = z1·(ω2 − ω1), so Q = τ g with g = (−A1ᵀz1, A2ᵀz1) on the
    // two rotation slices (θ̇ = gᵀv). With global rotation increments φ_i = A_i δθ_i,
    //   δθ = (φ2 − φ1)·w,  w = x2 × (a y1 − b x1)/(a² + b²),  a = x2·x1, b = x2·y1,
    //   δθ̇ = (φ2 − φ1)·(ω2 × z1),
    //   δ(A2ᵀz1) = (A2ᵀz1)˜ δθ2 − A2ᵀA1 ã1 δθ1  (A1ᵀz1 = a1 is constant),
    // and −∂Q/∂δ = g (k ∂θ/∂δ + c ∂θ̇/∂δ) − τ ∂g/∂δ, −∂Q/∂v = c g gᵀ.
    void addDerivatives(const Model& m, const State& s, Triplets& K, Triplets& C) const override {
        const Joint& j = m.joint(e_.joint);
        if (isNodeHinge(m, j)) {
            nodeHinge(m, s, K, C);
            return;
        }
        const BodyPose b1 = bodyPose(m, s, j.frame1.body), b2 = bodyPose(m, s, j.frame2.body);
        const Vec3 a1 = j.frame1.axes.col(2);
        const Vec3 x1 = b1.A * j.frame1.axes.col(0), y1 = b1.A * j.frame1.axes.col(1), z1 = b1.A * a1;
        const Vec3 x2 = b2.A * j.frame2.axes.col(0);
        const Vec3 omega1 = b1.A * b1.omegaLocal, omega2 = b2.A * b2.omegaLocal;
        const double a = x2.dot(x1), b = x2.dot(y1);
        const double angle = std::remainder(std::atan2(b, a) - e_.freeAngle, 2.0 * M_PI);
        const double rate = z1.dot(omega2 - omega1);
        const double torque = -e_.stiffness * angle - e_.damping * rate;

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
            g * (e_.stiffness * angleGradient + e_.damping * rateGradient).transpose() - torque * gDerivative;
        scatter(m, j.frame1.body, j.frame2.body, stiffness, K);
        if (e_.damping != 0.0) scatter(m, j.frame1.body, j.frame2.body, e_.damping * g * g.transpose(), C);
    }

    double potentialEnergy(const Model& model, const State& s) const override {
        const double a = wrapAngle(jointAngle(model, s, e_.joint) - e_.freeAngle);
        return 0.5 * e_.stiffness * a * a;
    }

    double dissipatedPower(const Model& model, const State& s) const override {
        const double r = jointAngleRate(model, s, e_.joint);
        return e_.damping * r * r;
    }

    bool dissipates() const override { return e_.damping != 0.0; }
    double energyScale(double) const override { return 0.5 * e_.stiffness; }  // at 1 rad

private:
    // On a beam node's hinge: Q = τ' ∇φᵀ with τ' = −k wrap(φ − σθ₀) − c φ̇ and φ̇ = ∇φ v, so
    // with H = ∂(∇φ)/∂δ (NodeJoints.h)
    //   −∂Q/∂δ = ∇φᵀ (k ∇φ + c vᵀH) − τ' H,  −∂Q/∂v = c ∇φᵀ∇φ.
    void nodeHinge(const Model& m, const State& s, Triplets& K, Triplets& C) const {
        std::vector<int> columns;
        const HingeAngleJet phi = hingeAngleAt(m, s, m.joint(e_.joint), true, columns);
        const double torque = -e_.stiffness * std::remainder(phi.value - phi.sign * e_.freeAngle, 2.0 * M_PI) -
                              e_.damping * phi.rate;
        const int n = static_cast<int>(columns.size());
        JetRow v(1, n);
        for (int k = 0; k < n; ++k) v[k] = s.v[columns[static_cast<size_t>(k)]];
        const JetRow rateGradient = v * phi.curvature;
        const JetSquare stiffness =
            phi.gradient.transpose() * (e_.stiffness * phi.gradient + e_.damping * rateGradient) - torque * phi.curvature;
        for (int c = 0; c < n; ++c)
            for (int r = 0; r < n; ++r) {
                const size_t rc = static_cast<size_t>(r), cc = static_cast<size_t>(c);
                if (stiffness(r, c) != 0.0) K.emplace_back(columns[rc], columns[cc], stiffness(r, c));
                const double d = e_.damping * phi.gradient[r] * phi.gradient[c];
                if (d != 0.0) C.emplace_back(columns[rc], columns[cc], d);
            }
    }

    ForceElement e_;
};

}  // namespace

std::shared_ptr<const ForceLaw> makeRotationalSpringDamper(const ForceElement& e) {
    return std::make_shared<RotationalSpringDamperLaw>(e);
}

}  // namespace looplab::forces
