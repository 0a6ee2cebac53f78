#include "JointEffort.h"

#include "looplab/bodies/Rotation.h"

namespace looplab::forces {

// Slots: (ṙ1, ω1', ṙ2, ω2'), with A_i body to global, a1 = z1 in body 1's frame.
// Rotational: ẋ = z1·(ω2 − ω1), g = (0, −a1, 0, A2ᵀz1); with δA_i = A_i δθ̃_i,
//   δ(A2ᵀz1) = (A2ᵀz1)˜ δθ2 − A2ᵀA1 ã1 δθ1, and −a1 is constant.
// Translational: x = z1·(p2 − p1), p2 = r2 + A2 s2; the force F z1 on body 2 at p2 and −F z1
// on body 1 at p2 give g = (−z1, ã1 L, z1, s̃2 A2ᵀz1) with L = A1ᵀ(p2 − r1), and
//   δz1 = −A1 ã1 δθ1,  δL = L̃ δθ1 + A1ᵀ(δr2 − A2 s̃2 δθ2 − δr1),
//   δ(A2ᵀz1) as above.
JointEffortJet jointEffortJet(const Model& m, const State& s, JointIndex j, bool rotational) {
    const Joint& joint = m.joint(j);
    JointEffortJet jet;
    jet.body1 = joint.frame1.body;
    jet.body2 = joint.frame2.body;
    const BodyPose b1 = bodyPose(m, s, joint.frame1.body), b2 = bodyPose(m, s, joint.frame2.body);
    const Vec3 a1 = joint.frame1.axes.col(2);
    const Vec3 z1 = b1.A * a1;
    const Vec3 z1In2 = b2.A.transpose() * z1;
    jet.g.setZero();
    jet.gDerivative.setZero();
    jet.gDerivative.block<3, 3>(kSlot + 3, 3) = -b2.A.transpose() * b1.A * skew(a1);
    if (rotational) {
        jet.g.segment<3>(3) = -a1;
        jet.g.segment<3>(kSlot + 3) = z1In2;
        jet.gDerivative.block<3, 3>(kSlot + 3, kSlot + 3) = skew(z1In2);
    } else {
        const Vec3& s2 = joint.frame2.origin;
        const Vec3 p2 = pointPosition(m, s, joint.frame2.body, s2);
        const Vec3 L = b1.A.transpose() * (p2 - b1.position);
        const Mat3 a1x = skew(a1), s2x = skew(s2);
        jet.g.segment<3>(0) = -z1;
        jet.g.segment<3>(3) = a1x * L;
        jet.g.segment<3>(kSlot) = z1;
        jet.g.segment<3>(kSlot + 3) = s2x * z1In2;
        jet.gDerivative.block<3, 3>(0, 3) = b1.A * a1x;
        jet.gDerivative.block<3, 3>(kSlot, 3) = -b1.A * a1x;
        jet.gDerivative.block<3, 3>(3, 0) = -a1x * b1.A.transpose();
        jet.gDerivative.block<3, 3>(3, kSlot) = a1x * b1.A.transpose();
        jet.gDerivative.block<3, 3>(3, 3) = a1x * skew(L);
        jet.gDerivative.block<3, 3>(3, kSlot + 3) = -a1x * b1.A.transpose() * b2.A * s2x;
        jet.gDerivative.block<3, 3>(kSlot + 3, kSlot + 3) = s2x * skew(z1In2);
        jet.gDerivative.block<3, 3>(kSlot + 3, 3) = -s2x * b2.A.transpose() * b1.A * a1x;
    }
    PairVector v = PairVector::Zero();
    if (b1.moving) v.segment<kSlot>(0) << b1.velocity, b1.omegaLocal;
    if (b2.moving) v.segment<kSlot>(kSlot) << b2.velocity, b2.omegaLocal;
    jet.rate = jet.g.dot(v);
    return jet;
}

void addJointEffort(const Model& m, const JointEffortJet& jet, double effort, VecX& f) {
    scatter(m, jet.body1, jet.body2, PairVector(effort * jet.g), f);
}

void addJointEffortDerivatives(const Model& m, const State& s, const JointEffortJet& jet, double effort,
                               double slope, Triplets& K, Triplets& C) {
    const BodyPose b1 = bodyPose(m, s, jet.body1), b2 = bodyPose(m, s, jet.body2);
    PairVector v = PairVector::Zero();
    if (b1.moving) v.segment<kSlot>(0) << b1.velocity, b1.omegaLocal;
    if (b2.moving) v.segment<kSlot>(kSlot) << b2.velocity, b2.omegaLocal;
    const PairVector rateGradient = jet.gDerivative.transpose() * v;
    const PairBlock stiffness = -slope * jet.g * rateGradient.transpose() - effort * jet.gDerivative;
    scatter(m, jet.body1, jet.body2, stiffness, K);
    if (slope != 0.0) scatter(m, jet.body1, jet.body2, PairBlock(-slope * jet.g * jet.g.transpose()), C);
}

}  // namespace looplab::forces
