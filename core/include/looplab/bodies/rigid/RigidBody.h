#pragma once
// The rigid kind of body (BodyKind::Rigid): its frame at the centre of mass, 7 position
// numbers (centre of mass, unit quaternion) and 6 velocity numbers (centre-of-mass velocity
// in the global frame, angular velocity in the body frame); RigidBodyCoordinates.h works on
// those slices. The ground is the rigid body that does not move (GroundBody.h).

#include "looplab/bodies/BodyFormulation.h"

namespace looplab {

/// Where a rigid body starts: pose and velocity, all global.
struct RigidBodyStart {
    Vec3 position = Vec3::Zero();
    Quat orientation = Quat::Identity();  ///< unit
    Vec3 velocity = Vec3::Zero();
    Vec3 angularVelocity = Vec3::Zero();
};

class RigidBody : public BodyFormulation {
public:
    /// mass [kg] and inertia [kg·m²] about the centre of mass in the body frame; the
    /// inverse is zero where the inertia is singular (the builder rejects such a body).
    RigidBody(double mass, const Mat3& inertia, const RigidBodyStart& start);

    double mass() const { return mass_; }
    const Mat3& inertia() const { return inertia_; }
    const Mat3& inertiaInverse() const { return inertiaInverse_; }
    const RigidBodyStart& start() const { return start_; }

    BodyKind kind() const override { return BodyKind::Rigid; }
    int positionSize() const override;
    int velocitySize() const override;
    double totalMass() const override { return mass_; }
    std::string positionName(int k) const override;
    std::string velocityName(int k) const override;

    void initialCoordinates(double* q, double* v) const override;
    void positionDerivative(const double* q, const double* v, double* qdot) const override;
    void retract(double* q, const double* dv) const override;
    void normalize(double* q) const override;
    double stepFactor(const double* dv, double maxRotation, double maxTranslation) const override;
    void velocityScales(double lengthScale, double* scales) const override;

    Vec3 framePosition(const double* q) const override;
    Quat frameOrientation(const double* q) const override;
    Vec3 frameVelocity(const double* v) const override;
    Vec3 frameAngularVelocityLocal(const double* v) const override;

    void motion(const double* q, const double* v, bool velocities, BodyMotion& k) const override;
    void attach(const JetSlots& pair, int slot, const Vec3& local, bool isPoint, VectorJet& x) const override;
    void addCurvature(const BodyMotion& k, const Vec3& lever, const Vec3& w, double weight, int column,
                      JetSquare& H) const override;
    void rigidMotion(const double* q, const Vec3& t, const Vec3& theta, const Vec3& c, double* v) const override;
    void addPoints(const double* q, std::vector<Vec3>& points) const override;

    void applyMass(const double* x, double* y) const override;
    void applyInverseMass(double* x) const override;
    void addMass(int offset, MatrixEntries& entries) const override;
    void addForces(const double* q, const double* v, const Vec3& g, double* f) const override;
    void addGravityForce(const Vec3& g, double* f) const override;
    void addForceDerivatives(const double* q, const double* v, int offset, MatrixEntries& K,
                             MatrixEntries& C) const override;
    BodyEnergy energy(const double* q, const double* v, const Vec3& g) const override;

private:
    double mass_;
    Mat3 inertia_, inertiaInverse_;
    RigidBodyStart start_;
};

}  // namespace looplab
