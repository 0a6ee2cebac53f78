#include "looplab/dynamics/Reactions.h"

#include "looplab/kinematics/FrameKinematics.h"
#include "looplab/bodies/rigid/RigidBodyCoordinates.h"

#include <cmath>

namespace looplab {

void computeReactions(const Model& model, const State& s, const SparseMatrix& jacobian,
                      const VecX& lambda, const std::vector<bool>& indeterminate,
                      std::vector<JointReaction>& reactions, std::vector<DriverEffort>& drivers) {
    reactions.clear();
    drivers.clear();
    for (const Joint& j : model.joints) {
        JointReaction r;
        r.joint = j.name;
        // The reaction on body 2 is its share of −J_rowsᵀ λ_rows; when body 2 is the ground,
        // the same reaction is minus the share of body 1.
        const bool onFirst = j.frame2.body.value() == 0;
        const BodyIndex onBody = onFirst ? j.frame1.body : j.frame2.body;
        const double sign = onFirst ? 1.0 : -1.0;
        // The generalised force on a rigid body: force (global) and torque (body frame).
        // On a beam node: the force on r_k and the generalised force on the slope r_x,k,
        // whose virtual work on δr_x = δθ × r_x is that of the torque r_x × g_slope.
        const BodyFrame& fr = onFirst ? j.frame1 : j.frame2;
        // On a solid node: the force on r_k alone.
        const bool onNode = model.body(onBody).nodeSize() > 0;
        const bool onSolid = model.body(onBody).attachedFrame() == AttachedFrame::PointOnly;
        const int c0 = onNode ? jetColumnStart(model, fr) : model.velocityOffset(onBody);
        const int width = onNode ? model.body(onBody).nodeSize() : model.velocitySliceSize(onBody);
        Eigen::Matrix<double, rigid::kVelocitySize, 1> g = Eigen::Matrix<double, rigid::kVelocitySize, 1>::Zero();
        for (int row = j.firstEquation; row < j.firstEquation + j.equationCount; ++row) {
            if (indeterminate.size() > size_t(row) && indeterminate[size_t(row)]) r.indeterminate = true;
            for (SparseMatrix::InnerIterator it(jacobian, row); it; ++it)
                if (it.col() >= c0 && it.col() < c0 + width) g[it.col() - c0] += sign * it.value() * lambda[row];
        }
        // Components in the joint's frame: frame 1's, or the rigid side's when a hinge or a
        // clamp names the beam node as body1 (a node's frame does not turn with it).
        const bool nodeFirst = model.body(j.frame1.body).attachedFrame() == AttachedFrame::PointAndSlope &&
                               model.body(j.frame2.body).attachedFrame() != AttachedFrame::PointAndSlope;
        const BodyFrame& axesFrame = nodeFirst ? j.frame2 : j.frame1;
        const Mat3 axes1 = bodyOrientation(model, s, axesFrame.body).toRotationMatrix() * axesFrame.axes;
        if (onNode) {
            r.forceGlobal = g.head<3>();
            if (onSolid) {
                r.torqueGlobal.setZero();
            } else {
                const Vec3 slope = s.q.segment<3>(model.positionOffset(onBody) + ancf::kNodeSize * fr.node + 3);
                r.torqueGlobal = slope.cross(Vec3(g.tail<3>()));
            }
            r.forceJoint = axes1.transpose() * r.forceGlobal;
            r.torqueJoint = axes1.transpose() * r.torqueGlobal;
            reactions.push_back(r);
            continue;
        }
        const Quat A = bodyOrientation(model, s, onBody);
        const Vec3 F = g.head<3>();
        const Vec3 torqueAtCom = A * Vec3(g.tail<3>());
        const Vec3 arm = A * fr.origin;  // centre of mass to joint point
        r.forceGlobal = F;
        r.torqueGlobal = torqueAtCom - arm.cross(F);
        r.forceJoint = axes1.transpose() * r.forceGlobal;
        r.torqueJoint = axes1.transpose() * r.torqueGlobal;
        reactions.push_back(r);
    }
    for (const Driver& d : model.drivers) drivers.push_back({d.name, -lambda[d.equation]});
}

std::vector<CouplerEffort> couplerEfforts(const Model& model, const State& s, const VecX& lambda) {
    std::vector<CouplerEffort> out;
    for (const Coupler& c : model.couplers) {
        // Φ = sin(ψ)/κ (or ψ/κ) with ψ = Σ gᵢ(xᵢ) − offset: ∂Φ/∂x₁ = cos ψ · g₁'(x₁)/κ.
        double psi = -c.offset, first = 0.0;
        for (size_t i = 0; i < c.terms.size(); ++i) {
            const CoupledCoordinate& t = c.terms[i];
            const double x = t.angular ? jointAngle(model, s, t.joint) : jointDisplacement(model, s, t.joint);
            if (i == 0) first = x;
            psi += c.term(i, x).value;
        }
        const double outer = (c.periodic() ? std::cos(psi) : 1.0) / c.scale;
        CouplerEffort e;
        e.coupler = c.name;
        e.value = -lambda[c.equation] * outer * c.term(0, first).slope;
        if (c.cam) {
            // The generalised force along the lift, −λ ∂Φ/∂(lift), is the contact force
            // times its share along the follower's motion (Cam.h).
            const CamPoint p = camPoint(*c.cam, c.cam->lawAngle(first));
            e.contactForce = -lambda[c.equation] * outer / p.liftPerContactForce;
            e.pressureAngle = p.pressureAngle;
            e.pitchForce = NAN;
        } else {
            e.pitchForce = c.type == CouplerType::Linear ? NAN : e.value / c.radius1;
            if (c.type == CouplerType::Gear || c.type == CouplerType::RackAndPinion) {
                // The teeth push along the line of action; its tangential part turns the wheel.
                e.contactForce = std::abs(e.pitchForce) / std::cos(c.pressureAngle);
                e.pressureAngle = c.pressureAngle;
            }
        }
        out.push_back(e);
    }
    return out;
}

}  // namespace looplab
