// A force of fixed global direction on a body point (or on a beam's or solid's node),
// scaled by a law of time where one is given: a load that puts work into the mechanism.
#include "ForceGeometry.h"
#include "ForceLaws.h"

#include "looplab/bodies/Rotation.h"

namespace looplab::forces {
namespace {

class BodyForceLaw final : public ForceLaw {
public:
    explicit BodyForceLaw(const ForceElement& e) : e_(e) {}
    ForceType type() const override { return ForceType::BodyForce; }

    void addForces(const Model& model, const State& s, VecX& f) const override {
        const double scale = e_.law ? e_.law->evaluate(s.t).value : 1.0;
        if (const int size = model.body(e_.body).nodeSize()) {  // a nodal force: on r_k
            f.segment<3>(model.velocityOffset(e_.body) + size * e_.node) += scale * e_.vector;
            return;
        }
        addForce(model, s, e_.body, pointPosition(model, s, e_.body, e_.localPoint), scale * e_.vector, f);
    }

    // Q = (F, s̃ AᵀF) with F fixed in the global frame: turning the body turns AᵀF,
    // δ(AᵀF) = (AᵀF)˜ δθ. A nodal force is constant.
    void addDerivatives(const Model& m, const State& s, Triplets& K, Triplets&) const override {
        if (!m.body(e_.body).movesAsOneFrame()) return;
        const double scale = e_.law ? e_.law->evaluate(s.t).value : 1.0;
        const Mat3 A = bodyOrientation(m, s, e_.body).toRotationMatrix();
        addRotationBlock(m, e_.body, -skew(e_.localPoint) * skew(A.transpose() * (scale * e_.vector)), K);
    }

    double inputPower(const Model& model, const State& s) const override {
        if (!e_.body.valid() || model.velocitySliceSize(e_.body) == 0) return 0.0;  // the ground
        const double scale = e_.law ? e_.law->evaluate(s.t).value : 1.0;
        // A force on a beam or solid node acts on the node's position, whose rate is the
        // first 3 of its velocity numbers.
        if (const int size = model.body(e_.body).nodeSize())
            return scale * e_.vector.dot(s.v.segment<3>(model.velocityOffset(e_.body) + size * e_.node));
        return scale * e_.vector.dot(pointVelocity(model, s, e_.body, e_.localPoint));
    }

    bool putsInWork() const override { return true; }

private:
    ForceElement e_;
};

}  // namespace

std::shared_ptr<const ForceLaw> makeBodyForce(const ForceElement& e) { return std::make_shared<BodyForceLaw>(e); }

}  // namespace looplab::forces
