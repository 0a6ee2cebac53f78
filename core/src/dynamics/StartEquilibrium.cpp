#include "looplab/dynamics/StartEquilibrium.h"

#include "looplab/dynamics/Dynamics.h"
#include "looplab/dynamics/Linearization.h"
#include "looplab/kinematics/Constraints.h"
#include "looplab/linalg/AugmentedMatrix.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <vector>

namespace looplab {

namespace {

// The largest distance between the points that place each body (a rigid body's centre, a
// mesh's nodes) in two configurations.
double largestMove(const Model& model, const VecX& qa, const VecX& qb) {
    double most = 0.0;
    std::vector<Vec3> a, b;
    for (const Body& body : model.bodies) {
        if (body.slice.positionSize == 0) continue;
        a.clear();
        b.clear();
        body.formulation->addPoints(qa.data() + body.slice.positionOffset, a);
        body.formulation->addPoints(qb.data() + body.slice.positionOffset, b);
        for (size_t i = 0; i < a.size() && i < b.size(); ++i) most = std::max(most, (a[i] - b[i]).norm());
    }
    return most;
}

// Newton's method for Q(q, 0) + load − Φ_qᵀλ = 0, Φ(q, t) = 0 from an assembled state near
// the solution (the deformation a start's loads give is small against the members): full
// steps on the augmented system of statics. Converged when the force residual is 1e-10 of
// the forces present and the constraints hold to 1e-12 L, or when it stops halving at a
// level the rounding of the positions explains (as statics does).
bool quasiStatic(const Model& model, State& s, const VecX& load, double rankTolerance, LinearAlgebra linearAlgebra,
                 std::string* why) {
    const VecX rowScales = equationScales(model), colScales = coordinateScales(model);
    const double L = model.lengthScale;
    auto forceNorm = [&](const VecX& f) { return f.size() ? colScales.cwiseProduct(f).cwiseAbs().maxCoeff() : 0.0; };
    VecX lambda;
    double progressMark = std::numeric_limits<double>::infinity();
    int sinceProgress = 0;
    for (int it = 0;; ++it) {
        State rest = s;
        rest.v.setZero();
        ConstraintValues cv;
        evaluateConstraints(model, rest, cv, kPhi | kJacobian);
        ConstraintSpaces spaces;
        spaces.factorize(cv.jacobian, rowScales, colScales, rankTolerance, linearAlgebra);
        const VecX Q = generalizedForces(model, rest) + load;
        if (lambda.size() != model.equationCount()) lambda = spaces.solveTransposed(Q);
        const VecX F = Q - cv.jacobian.transpose() * lambda;
        const double fr = forceNorm(F), fs = forceNorm(Q);
        const double cr = cv.phi.size() ? rowScales.cwiseProduct(cv.phi).cwiseAbs().maxCoeff() : 0.0;
        if (!std::isfinite(fr) || !std::isfinite(cr)) {
            *why = "the forces or the constraints are not finite";
            return false;
        }
        if (fr <= 1e-10 * fs && cr <= 1e-12 * L) return true;
        Linearization lin;
        linearize(model, rest, lambda, lin);
        const double beta = std::max(largestAbsEntry(lin.stiffness), std::numeric_limits<double>::min());
        const double rounding = 10.0 * std::numeric_limits<double>::epsilon() * beta * L;
        if (fr < 0.5 * progressMark) {
            progressMark = fr;
            sinceProgress = 0;
        } else if (++sinceProgress >= 3 && fr <= std::max(1e-7 * fs, rounding) && cr <= 1e-10 * L) {
            return true;
        }
        if (it >= 30) {
            char buf[160];
            std::snprintf(buf, sizeof buf, "Newton's method did not converge in %d iterations (force residual %.3g of "
                          "the forces)", it, fs > 0 ? fr / fs : fr);
            *why = buf;
            return false;
        }
        const std::vector<int>& rows = spaces.independentEquations();
        const SparseColMatrix S = augmentedMatrix(lin.stiffness, cv.jacobian, rows, beta);
        SparseLUFactorization lu;
        if (!lu.factorize(S)) {
            *why = "the tangent stiffness is singular: a direction of the mechanism has no stiffness, so its "
                   "equilibrium is not isolated";
            return false;
        }
        const int n = model.velocitySize(), m = static_cast<int>(rows.size());
        VecX rhs = VecX::Zero(S.rows());
        rhs.head(n) = F;
        for (int k = 0; k < m; ++k) rhs[n + k] = -beta * cv.phi[rows[static_cast<size_t>(k)]];
        const VecX sol = lu.solve(rhs);
        if (!sol.allFinite()) {
            *why = "the Newton step is not finite: the tangent stiffness is singular";
            return false;
        }
        retract(model, s.q, sol.head(n));
        for (int k = 0; k < m; ++k) lambda[rows[static_cast<size_t>(k)]] += beta * sol[n + k];
    }
}

}  // namespace

VecX rigidAcceleration(const Model& model, const State& state, std::string* why, double rankTolerance,
                       LinearAlgebra linearAlgebra) {
    const RigidFieldBasis field = rigidFieldBasis(model, state);
    if (!field.finite) {
        if (why) *why = "a body's mass matrix is not positive definite";
        return {};
    }
    const SparseMatrix& G = field.G;
    const VecX y = G.transpose() * applyMass(model, state.v);
    const VecX v = G * y;
    // b: what a member's rigid motion accelerates at fixed rates, ω × (ω × r) at its nodes
    // and ω × (ω × s) on its slopes: ω × ṙ − ω × ċ, with ċ the velocity of the point c.
    VecX b = VecX::Zero(model.velocitySize());
    for (size_t i = 0; i < model.bodies.size(); ++i) {
        const Body& body = model.bodies[i];
        const MatX& C = field.coefficients[i];
        if (body.nodeSize() == 0 || body.slice.velocitySize == 0 || C.cols() == 0) continue;
        const VecX p = C * y.segment(field.firstColumn[i], C.cols());
        const Vec3 t = p.head<3>(), w = p.tail<3>();
        body.formulation->rigidMotion(v.data() + body.slice.velocityOffset, -w.cross(t), w, Vec3::Zero(),
                                      b.data() + body.slice.velocityOffset);
    }
    State s = state;
    s.v = v;
    // Gauss's principle on the rigid mechanism: a = G z + b nearest M⁻¹Q in the kinetic
    // metric, ‖z − Gᵀ(Q − M b)‖ least, subject to Φ_q a = γ.
    const VecX z0 = G.transpose() * (generalizedForces(model, s) - applyMass(model, b));
    ConstraintValues cv;
    evaluateConstraints(model, s, cv, kJacobian | kGamma);
    if (cv.gamma.size() == 0) return G * z0 + b;
    const SparseMatrix J = cv.jacobian * G;
    const VecX rowScales = equationScales(model);
    ConstraintSpaces spaces;
    spaces.factorize(J, rowScales, VecX::Ones(G.cols()), rankTolerance, linearAlgebra);
    const VecX rhs = cv.gamma - cv.jacobian * b;
    const VecX err = J * z0 - rhs;
    double residual = 0.0;
    const VecX z = z0 - spaces.solveMinimumNorm(err, &residual);
    const double scale = std::max(rowScales.cwiseProduct(rhs).cwiseAbs().maxCoeff(),
                                  rowScales.cwiseProduct(J * z0).cwiseAbs().maxCoeff());
    if (!(residual <= 1e-9 * scale) && !(scale == 0.0 && residual == 0.0)) {
        if (why) {
            char buf[120];
            std::snprintf(buf, sizeof buf, "%.3g of the accelerations they set", scale > 0 ? residual / scale : residual);
            *why = std::string("the joints accelerate the members in a way no rigid motion of each can follow (") + buf +
                   ")";
        }
        return {};
    }
    return G * z + b;
}

StartReport startModel(const Model& model, State& state, StartMotion motion, double rankTolerance,
                       LinearAlgebra linearAlgebra) {
    if (motion != StartMotion::Equilibrium) return startVelocities(model, state, motion, rankTolerance, linearAlgebra);
    StartReport r = startVelocities(model, state, StartMotion::Consistent, rankTolerance, linearAlgebra);
    bool flexible = false;
    for (const Body& body : model.bodies) flexible = flexible || (body.nodeSize() > 0 && body.slice.velocitySize > 0);
    if (!flexible || !r.rigidField) return r;  // nothing to deform, or the message says why
    const State consistent = state;
    auto fallBack = [&](const std::string& why) {
        state = consistent;
        StartReport f = startVelocities(model, state, StartMotion::Consistent, rankTolerance, linearAlgebra);
        f.message = "no quasi-static start (" + why +
                    "): the members start undeformed, with the rigid mechanism's velocities";
        return f;
    };
    // Each round moves by what the change of a₀ and of the velocity terms over the last
    // round's move gives: a fraction of that move of the order of the members' strain.
    // Rounding ends it (the force tolerance of 1e-10 and ε L).
    constexpr int kMostRounds = 6;
    double lastMove = 0.0;
    int rounds = 0;
    for (; rounds < kMostRounds; ++rounds) {
        std::string why;
        const VecX a0 = rigidAcceleration(model, state, &why, rankTolerance, linearAlgebra);
        if (a0.size() == 0) return fallBack(why);
        State still = state;
        still.v.setZero();
        const VecX load = generalizedForces(model, state) - generalizedForces(model, still) - applyMass(model, a0);
        State next = state;
        if (!quasiStatic(model, next, load, rankTolerance, linearAlgebra, &why)) return fallBack(why);
        next.v = state.v;  // the velocities to keep nearest at the new positions
        const StartReport sv = startVelocities(model, next, StartMotion::Consistent, rankTolerance, linearAlgebra);
        if (!sv.rigidField) return fallBack(sv.message);
        const double move = largestMove(model, state.q, next.q);
        state = next;
        r = sv;
        const double shift = largestMove(model, consistent.q, state.q);
        if (move <= std::max(1e-6 * shift, 1e-13 * model.lengthScale) || (rounds > 0 && move >= lastMove)) {
            ++rounds;
            break;
        }
        lastMove = move;
    }
    r.equilibrium = true;
    r.equilibriumRounds = rounds;
    r.equilibriumShift = largestMove(model, consistent.q, state.q);
    return r;
}

}  // namespace looplab
