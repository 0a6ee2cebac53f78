#include "looplab/posing/DragAssembly.h"

#include "looplab/kinematics/Constraints.h"
#include "looplab/linalg/ConstraintSpaces.h"

#include <Eigen/Cholesky>

#include <algorithm>
#include <cmath>
#include <sstream>

namespace looplab {
namespace {

Mat3 skew(const Vec3& a) {
    Mat3 s;
    s << 0, -a.z(), a.y(), a.z(), 0, -a.x(), -a.y(), a.x(), 0;
    return s;
}

// d(point)/dv: 3 × n, from ṗ = ṙ + R(ω × s) = ṙ − R[s]× ω with ω in the body frame.
MatX pointJacobian(const Model& model, const State& s, BodyIndex b, const Vec3& local) {
    MatX J = MatX::Zero(3, model.velocitySize());
    const int o = model.velocityOffset(b);
    J.block<3, 3>(0, o) = Mat3::Identity();
    J.block<3, 3>(0, o + 3) = -bodyOrientation(model, s, b).toRotationMatrix() * skew(local);
    return J;
}

double clampFactor(const Model& model, const VecX& dv, const DragOptions& o) {
    const double L = model.lengthScale;
    double f = 1.0;
    for (const Body& body : model.bodies)
        f = std::min(f, body.formulation->stepFactor(dv.data() + body.slice.velocityOffset, o.maxRotationStep,
                                                     o.maxTranslationStep * L));
    return f;
}


}  // namespace

const char* dragOutcomeName(DragOutcome outcome) {
    switch (outcome) {
    case DragOutcome::Reached: return "reached";
    case DragOutcome::ReachLimit: return "reach limit";
    case DragOutcome::Moving: return "moving";
    case DragOutcome::Failed: return "failed";
    }
    return "failed";
}

DragResult dragToTarget(const Model& model, State& state, BodyIndex body, const Vec3& localPoint,
                        const Vec3& target, const DragOptions& o) {
    DragResult result;
    if (body.value() <= 0 || body.value() >= model.bodyCount() || !model.body(body).movesAsOneFrame()) {
        result.status = Status::failure("only a moving rigid body can be dragged");
        return result;
    }
    const AssemblyResult start = assemble(model, state, o.assembly);
    if (!start.ok) {
        result.status = Status::failure(start.message);
        result.closure = start.residual;
        result.point = pointPosition(model, state, body, localPoint);
        result.distance = (target - result.point).norm();
        for (const auto& [owner, r] : start.openJoints) result.status.joints.push_back(owner);
        return result;
    }
    const double L = model.lengthScale;
    const double tol = o.tolerance * L;
    const VecX rowScales = equationScales(model);
    const VecX colScales = coordinateScales(model);
    ConstraintValues cv;
    ConstraintSpaces spaces;
    State trial = state;
    Vec3 p = pointPosition(model, state, body, localPoint);
    double d = (target - p).norm();
    result.outcome = DragOutcome::Moving;
    for (int it = 0; it < o.maxIterations; ++it) {
        if (d <= tol) {
            result.outcome = DragOutcome::Reached;
            break;
        }
        const Vec3 e = target - p;
        evaluateConstraints(model, state, cv, kJacobian);
        spaces.factorize(cv.jacobian, rowScales, colScales, o.assembly.rankTolerance,
                         o.assembly.linearAlgebra);
        // Motions allowed to first order, in scaled coordinates (v = D_c ṽ).
        const MatX T = colScales.asDiagonal() * spaces.tangentBasis();
        const MatX A = pointJacobian(model, state, body, localPoint) * T;
        const VecX g = A.transpose() * e;
        const double aNorm = A.norm();
        if (T.cols() == 0 || aNorm == 0.0 || g.norm() <= o.stationarity * aNorm * d) {
            result.outcome = DragOutcome::ReachLimit;
            break;
        }
        // Levenberg–Marquardt step: the tiny damping only matters where the point's
        // motions degenerate (a reach limit, a singular configuration).
        MatX H = A.transpose() * A;
        H.diagonal().array() += 1e-12 * aNorm * aNorm;
        const VecX z = H.ldlt().solve(g);
        const VecX dv = T * z;
        double alpha = clampFactor(model, dv, o);
        bool improved = false;
        for (int k = 0; k < 20; ++k, alpha *= 0.5) {
            trial.q = state.q;
            retract(model, trial.q, alpha * dv);
            const AssemblyResult back = assemble(model, trial, o.assembly);
            if (!back.ok) continue;
            const Vec3 pt = pointPosition(model, trial, body, localPoint);
            const double dt = (target - pt).norm();
            if (dt < d) {
                const double moved = (pt - p).norm();
                state.q = trial.q;
                p = pt;
                d = dt;
                improved = true;
                // No measurable progress: the point has stopped against a limit.
                if (moved <= 1e-14 * L) improved = false;
                break;
            }
        }
        result.iterations = it + 1;
        if (!improved) {
            result.outcome = d <= tol ? DragOutcome::Reached : DragOutcome::ReachLimit;
            break;
        }
    }
    if (result.outcome == DragOutcome::Moving && d <= tol) result.outcome = DragOutcome::Reached;
    result.point = p;
    result.distance = d;
    result.closure = largestConstraintResidual(model, state);
    if (result.outcome == DragOutcome::ReachLimit) {
        std::ostringstream s;
        s.precision(3);
        s << "reach limit: the point of " << model.body(body).name << " stops " << d
          << " m short of the target; the joints allow it no nearer";
        result.note = s.str();
    }
    return result;
}

}  // namespace looplab
