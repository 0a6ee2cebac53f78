#include "looplab/kinematics/StartMotion.h"

#include "looplab/kinematics/Assembly.h"
#include "looplab/kinematics/Constraints.h"

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

namespace looplab {

const char* startMotionName(StartMotion m) {
    switch (m) {
    case StartMotion::Rest: return "rest";
    case StartMotion::Consistent: return "consistent";
    case StartMotion::Equilibrium: return "equilibrium";
    }
    return "consistent";
}

bool parseStartMotion(const std::string& name, StartMotion& m) {
    for (StartMotion c : {StartMotion::Rest, StartMotion::Consistent, StartMotion::Equilibrium})
        if (name == startMotionName(c)) {
            m = c;
            return true;
        }
    return false;
}

const std::vector<StartMotionChoice>& startMotionChoices() {
    static const std::vector<StartMotionChoice> choices = {
        {StartMotion::Consistent, "consistent",
         "Beams and solids start moving with the mechanism as rigid bodies would, without "
         "straining, so a driven mechanism starts smoothly. The default."},
        {StartMotion::Equilibrium, "equilibrium",
         "As consistent, with beams and solids first deformed into equilibrium with gravity, the "
         "loads and the inertia of the mechanism's motion, so that nothing rings when the run "
         "begins, not even the sag under their own weight."},
        {StartMotion::Rest, "rest",
         "Beams and solids start at rest: only the nodes at their joints move with the joints. "
         "The jump between those nodes and the rest of each member sets it vibrating, for the "
         "whole run if nothing damps it."},
    };
    return choices;
}

namespace {

MatX massBlock(const BodyFormulation& f, int size) {
    MatX M(size, size);
    VecX e = VecX::Zero(size);
    for (int j = 0; j < size; ++j) {
        e.setZero();
        e[j] = 1.0;
        f.applyMass(e.data(), M.col(j).data());
    }
    return M;
}

// Columns B with BᵀMB = I spanning the velocities in which the body does not deform: for
// a mesh its rigid motions (fewer than six where one leaves the nodal coordinates alone:
// a cable's turn about its own axis), for a rigid body all of its velocities. For a mesh,
// B = R C with R the six rigid motions (translation, rotation) about the centroid c of its
// nodes: the coefficients C give a member's translation and rotation rates from its y.
struct UndeformingBasis {
    MatX B;
    MatX C;  ///< 6 × B.cols(), meshes only
    Vec3 c = Vec3::Zero();
};

UndeformingBasis undeformingMotions(const Body& body, const double* q) {
    UndeformingBasis u;
    const int k = body.slice.velocitySize;
    const BodyFormulation& f = *body.formulation;
    const MatX M = massBlock(f, k);
    if (body.nodeSize() == 0) {
        const Eigen::LLT<MatX> llt(M);
        u.B = llt.matrixU().solve(MatX::Identity(k, k));  // U⁻¹, U = Lᵀ: U⁻ᵀ M U⁻¹ = I
        return u;
    }
    std::vector<Vec3> points;
    f.addPoints(q, points);
    for (const Vec3& p : points) u.c += p;
    if (!points.empty()) u.c /= double(points.size());
    MatX R(k, 6);
    for (int j = 0; j < 6; ++j) {
        Vec3 t = Vec3::Zero(), theta = Vec3::Zero();
        (j < 3 ? t : theta)[j % 3] = 1.0;
        f.rigidMotion(q, t, theta, u.c, R.col(j).data());
    }
    const MatX A = R.transpose() * M * R;
    const Eigen::SelfAdjointEigenSolver<MatX> eig(0.5 * (A + A.transpose()));
    const double largest = eig.eigenvalues().cwiseAbs().maxCoeff();
    std::vector<int> kept;
    for (int j = 0; j < 6; ++j)
        if (eig.eigenvalues()[j] > 1e-10 * largest) kept.push_back(j);
    u.C.resize(6, static_cast<Eigen::Index>(kept.size()));
    for (size_t j = 0; j < kept.size(); ++j)
        u.C.col(static_cast<Eigen::Index>(j)) = eig.eigenvectors().col(kept[j]) / std::sqrt(eig.eigenvalues()[kept[j]]);
    u.B = R * u.C;
    return u;
}

MatX undeformingBasis(const Body& body, const double* q) { return undeformingMotions(body, q).B; }

VecX massTimes(const Model& model, const VecX& v) {
    VecX Mv = VecX::Zero(model.velocitySize());
    for (const Body& body : model.bodies)
        if (body.slice.velocitySize > 0)
            body.formulation->applyMass(v.data() + body.slice.velocityOffset, Mv.data() + body.slice.velocityOffset);
    return Mv;
}

}  // namespace

RigidFieldBasis rigidFieldBasis(const Model& model, const State& state) {
    RigidFieldBasis f;
    std::vector<Eigen::Triplet<double>> entries;
    int columns = 0;
    for (const Body& body : model.bodies) {
        f.firstColumn.push_back(columns);
        f.coefficients.emplace_back();
        if (body.slice.velocitySize == 0) continue;
        const UndeformingBasis u = undeformingMotions(body, state.q.data() + body.slice.positionOffset);
        f.coefficients.back() = u.C;
        const MatX& B = u.B;
        for (Eigen::Index j = 0; j < B.cols(); ++j, ++columns)
            for (Eigen::Index i = 0; i < B.rows(); ++i)
                if (B(i, j) != 0.0) entries.emplace_back(body.slice.velocityOffset + static_cast<int>(i), columns, B(i, j));
    }
    f.G.resize(model.velocitySize(), columns);
    f.G.setFromTriplets(entries.begin(), entries.end());
    f.finite = Eigen::Map<const VecX>(f.G.valuePtr(), f.G.nonZeros()).allFinite();
    return f;
}

StartReport memberVibration(const Model& model, const State& state) {
    StartReport r;
    double most = 0.0;
    for (const Body& body : model.bodies) {
        if (body.nodeSize() == 0 || body.slice.velocitySize == 0) continue;
        const int k = body.slice.velocitySize;
        const Eigen::Map<const VecX> v(state.v.data() + body.slice.velocityOffset, k);
        const MatX B = undeformingBasis(body, state.q.data() + body.slice.positionOffset);
        VecX Mv(k);
        body.formulation->applyMass(v.data(), Mv.data());
        const double e = std::max(0.0, 0.5 * (v.dot(Mv) - (B.transpose() * Mv).squaredNorm()));
        r.vibrationEnergy += e;
        // A member in motion is named even when none vibrates (0 J, most in the first).
        if (e > most || (r.member.empty() && v.squaredNorm() > 0.0)) {
            most = std::max(most, e);
            r.member = body.name;
        }
    }
    return r;
}

StartReport startVelocities(const Model& model, State& state, StartMotion motion, double rankTolerance,
                            LinearAlgebra linearAlgebra) {
    auto finish = [&](bool rigid, const std::string& why) {
        projectVelocities(model, state, rankTolerance, linearAlgebra);
        StartReport r = memberVibration(model, state);
        r.rigidField = rigid;
        r.message = why;
        return r;
    };
    bool rigidField = false;
    std::string message;
    bool flexible = false;
    for (const Body& body : model.bodies) flexible = flexible || (body.nodeSize() > 0 && body.slice.velocitySize > 0);
    if (motion != StartMotion::Rest && flexible) {
        // v = G y, G block-diagonal with each body's undeforming basis: the kinetic energy
        // is ½‖y‖², so the velocities nearest those given in that energy are the
        // minimum-norm correction of y₀ = GᵀMv₀ onto (Φ_q G) y = −Φ_t.
        const RigidFieldBasis field = rigidFieldBasis(model, state);
        const SparseMatrix& G = field.G;
        const int columns = static_cast<int>(G.cols());
        if (!field.finite)
            return finish(false, "a body's mass matrix is not positive definite: the members start at rest, their "
                                 "joints' nodes moving");
        ConstraintValues cv;
        evaluateConstraints(model, state, cv, kJacobian | kPhiT);
        if (cv.phiT.size() == 0) {
            // Nothing to follow: each member keeps the rigid part of what it was given.
            state.v = G * VecX(G.transpose() * massTimes(model, state.v));
            return finish(true, {});
        }
        const VecX y0 = G.transpose() * massTimes(model, state.v);
        const SparseMatrix J = cv.jacobian * G;
        ConstraintSpaces spaces;
        const VecX rowScales = equationScales(model);
        spaces.factorize(J, rowScales, VecX::Ones(columns), rankTolerance, linearAlgebra);
        const VecX err = J * y0 + cv.phiT;
        double residual = 0.0;
        const VecX y = y0 - spaces.solveMinimumNorm(err, &residual);
        // The rigid field exists where the equations hold on their redundant rows too, to
        // rounding of the speeds they set.
        const double speeds = std::max(rowScales.cwiseProduct(cv.phiT).cwiseAbs().maxCoeff(),
                                       rowScales.cwiseProduct(J * y0).cwiseAbs().maxCoeff());
        if (residual <= 1e-9 * speeds) {
            state.v = G * y;
            rigidField = true;
        } else {
            char buf[200];
            std::snprintf(buf, sizeof buf, "%.3g of the speeds they set", residual / speeds);
            message = std::string("the joints move the flexible members in a way no rigid motion of each can "
                                  "follow (the rigid field misses the velocity equations by ") +
                      buf + "): they start at rest, their joints' nodes moving";
        }
    }
    return finish(rigidField, message);
}

}  // namespace looplab
