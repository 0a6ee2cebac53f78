// A torque of fixed global direction on a rigid body, scaled by a law of time where one is
// given: a load that puts work into the mechanism.
#include "ForceGeometry.h"
#include "ForceLaws.h"

#include "looplab/bodies/Rotation.h"

namespace looplab::forces {
namespace {

class BodyTorqueLaw final : public ForceLaw {
public:
    explicit BodyTorqueLaw(const ForceElement& e) : e_(e) {}
    ForceType type() const override { return ForceType::BodyTorque; }

    void addForces(const Model& model, const State& s, VecX& f) const override {
        const double scale = e_.law ? e_.law->evaluate(s.t).value : 1.0;
        addTorque(model, s, e_.body, scale * e_.vector, f);
    }

    // Q = AᵀT on the rotation slice with T fixed in the global frame: δ(AᵀT) = (AᵀT)˜ δθ.
    void addDerivatives(const Model& m, const State& s, Triplets& K, Triplets&) const override {
        if (!m.body(e_.body).movesAsOneFrame()) return;
        const double scale = e_.law ? e_.law->evaluate(s.t).value : 1.0;
        const Mat3 A = bodyOrientation(m, s, e_.body).toRotationMatrix();
        addRotationBlock(m, e_.body, -skew(A.transpose() * (scale * e_.vector)), K);
    }

    double inputPower(const Model& model, const State& s) const override {
        if (!e_.body.valid() || model.velocitySliceSize(e_.body) == 0) return 0.0;  // the ground
        // The builder gives beam and solid nodes no torques.
        if (model.body(e_.body).nodeSize()) return 0.0;
        const double scale = e_.law ? e_.law->evaluate(s.t).value : 1.0;
        return scale * e_.vector.dot(bodyAngularVelocity(model, s, e_.body));
    }

    bool putsInWork() const override { return true; }

private:
    ForceElement e_;
};

}  // namespace

std::shared_ptr<const ForceLaw> makeBodyTorque(const ForceElement& e) { return std::make_shared<BodyTorqueLaw>(e); }

}  // namespace looplab::forces
