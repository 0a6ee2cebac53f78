#include "looplab/bodies/rigid/RigidBody.h"

#include "looplab/bodies/Rotation.h"
#include "looplab/bodies/rigid/RigidBodyCoordinates.h"

#include <Eigen/LU>

#include <algorithm>

namespace looplab {

namespace {
// Adds a 3 × 3 block at the rotation rows and columns (dropping exact zeros, which keeps
// the sparse matrices of planar models small).
void addRotationEntries(int offset, const Mat3& X, MatrixEntries& out) {
    const int o = offset + 3;
    for (int i = 0; i < 3; ++i)
        for (int k = 0; k < 3; ++k)
            if (X(i, k) != 0.0) out.emplace_back(o + i, o + k, X(i, k));
}
}  // namespace

RigidBody::RigidBody(double mass, const Mat3& inertia, const RigidBodyStart& start)
    : mass_(mass),
      inertia_(inertia),
      inertiaInverse_(inertia.fullPivLu().isInvertible() ? Mat3(inertia.inverse()) : Mat3(Mat3::Zero())),
      start_(start) {}

std::string RigidBody::positionName(int k) const {
    static const char* names[] = {"x", "y", "z", "qw", "qx", "qy", "qz"};
    return names[k];
}

std::string RigidBody::velocityName(int k) const {
    static const char* names[] = {"x", "y", "z", "rx", "ry", "rz"};
    return names[k];
}

int RigidBody::positionSize() const { return rigid::kPositionSize; }
int RigidBody::velocitySize() const { return rigid::kVelocitySize; }

void RigidBody::initialCoordinates(double* q, double* v) const {
    rigid::set(q, v, start_.position, start_.orientation, start_.velocity, start_.angularVelocity);
}

void RigidBody::positionDerivative(const double* q, const double* v, double* qdot) const {
    rigid::positionDerivative(q, v, qdot);
}

void RigidBody::retract(double* q, const double* dv) const { rigid::retract(q, dv); }
void RigidBody::normalize(double* q) const { rigid::normalize(q); }
double RigidBody::stepFactor(const double* dv, double maxRotation, double maxTranslation) const {
    double f = 1.0;
    const double rot = Eigen::Map<const Vec3>(dv + 3).norm(), tr = Eigen::Map<const Vec3>(dv).norm();
    if (rot > maxRotation) f = std::min(f, maxRotation / rot);
    if (tr > maxTranslation) f = std::min(f, maxTranslation / tr);
    return f;
}

void RigidBody::velocityScales(double lengthScale, double* scales) const { rigid::velocityScales(lengthScale, scales); }

Vec3 RigidBody::framePosition(const double* q) const { return rigid::position(q); }
Quat RigidBody::frameOrientation(const double* q) const { return rigid::orientation(q); }
Vec3 RigidBody::frameVelocity(const double* v) const { return rigid::velocity(v); }
Vec3 RigidBody::frameAngularVelocityLocal(const double* v) const { return rigid::angularVelocityLocal(v); }

void RigidBody::motion(const double* q, const double* v, bool velocities, BodyMotion& k) const {
    k.A = rigid::orientation(q).toRotationMatrix();
    k.r = rigid::position(q);
    if (!velocities) return;
    k.rdot = rigid::velocity(v);
    k.omega = k.A * rigid::angularVelocityLocal(v);
}

// The velocity slice is (ṙ, ω'), so the rotation columns start at 3.
void RigidBody::attach(const JetSlots& slots, int slot, const Vec3& local, bool isPoint, VectorJet& x) const {
    const BodyMotion& k = *slots.body[slot];
    const Vec3 Al = k.A * local;
    x.value = isPoint ? Vec3(k.r + Al) : Al;
    if (!x.full) return;
    x.J.setZero(3, slots.columns());
    const int c = slots.offset(slot);
    if (isPoint) x.J.block<3, 3>(0, c) = Mat3::Identity();
    x.J.block<3, 3>(0, c + 3) = -k.A * skew(local);
    const Vec3 turning = k.omega.cross(Al);
    x.rate = isPoint ? Vec3(k.rdot + turning) : turning;
    x.bias = k.omega.cross(turning);
    x.lever[slot] = local;
    x.lever[1 - slot].setZero();
}

// ∂(Jᵀw)/∂δ on the rotation block: ℓ̃ (Aᵀw)˜.
void RigidBody::addCurvature(const BodyMotion& k, const Vec3& lever, const Vec3& w, double weight, int column,
                             JetSquare& H) const {
    if (lever.isZero(0.0)) return;
    const int c = column + 3;
    H.block<3, 3>(c, c) += weight * skew(lever) * skew(k.A.transpose() * w);
}

// The centre of mass moves by t + θ × (r − c) and the body turns by Aᵀθ in its own frame.
void RigidBody::rigidMotion(const double* q, const Vec3& t, const Vec3& theta, const Vec3& c, double* v) const {
    const Vec3 r = rigid::position(q);
    const Mat3 A = rigid::orientation(q).toRotationMatrix();
    Eigen::Map<Vec3>{v} = t + theta.cross(r - c);
    Eigen::Map<Vec3>{v + 3} = A.transpose() * theta;
}

void RigidBody::addPoints(const double* q, std::vector<Vec3>& points) const { points.push_back(rigid::position(q)); }

void RigidBody::applyMass(const double* x, double* y) const {
    Eigen::Map<Vec3>{y} = mass_ * Eigen::Map<const Vec3>(x);
    Eigen::Map<Vec3>{y + 3} = inertia_ * Eigen::Map<const Vec3>(x + 3);
}

void RigidBody::applyInverseMass(double* x) const {
    Eigen::Map<Vec3> linear(x), angular(x + 3);
    linear /= mass_;
    angular = inertiaInverse_ * Vec3(angular);
}

void RigidBody::addMass(int o, MatrixEntries& entries) const {
    for (int i = 0; i < 3; ++i) entries.emplace_back(o + i, o + i, mass_);
    for (int i = 0; i < 3; ++i)
        for (int k = 0; k < 3; ++k)
            if (inertia_(i, k) != 0.0) entries.emplace_back(o + 3 + i, o + 3 + k, inertia_(i, k));
}

// Gravity m g and the gyroscopic term −ω' × J'ω' of the Newton–Euler equations in the body
// frame.
void RigidBody::addForces(const double* /*q*/, const double* v, const Vec3& g, double* f) const {
    const Vec3 w = rigid::angularVelocityLocal(v);
    Eigen::Map<Vec3>(f) += mass_ * g;
    Eigen::Map<Vec3>(f + 3) -= w.cross(inertia_ * w);
}

void RigidBody::addGravityForce(const Vec3& g, double* f) const { Eigen::Map<Vec3>(f) += mass_ * g; }

// Gravity is constant in these coordinates; the gyroscopic term depends on v alone:
// −∂/∂ω' = ω̃' J' − (J'ω')˜.
void RigidBody::addForceDerivatives(const double* /*q*/, const double* v, int offset, MatrixEntries& /*K*/,
                                    MatrixEntries& C) const {
    const Vec3 w = rigid::angularVelocityLocal(v);
    addRotationEntries(offset, skew(w) * inertia_ - skew(inertia_ * w), C);
}

BodyEnergy RigidBody::energy(const double* q, const double* v, const Vec3& g) const {
    const Vec3 rdot = rigid::velocity(v), w = rigid::angularVelocityLocal(v);
    BodyEnergy e;
    e.kinetic = 0.5 * (mass_ * rdot.squaredNorm() + w.dot(inertia_ * w));
    e.gravity = -(mass_ * g.dot(rigid::position(q)));
    return e;
}

}  // namespace looplab
