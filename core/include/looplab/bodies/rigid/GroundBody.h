#pragma once
// The ground (body 0, BodyKind::Ground): the global frame, with no coordinates. Points and
// directions on it are fixed, so their jets are constant and their Jacobians empty.

#include "looplab/bodies/BodyFormulation.h"

namespace looplab {

class GroundBody : public BodyFormulation {
public:
    BodyKind kind() const override { return BodyKind::Ground; }
    int positionSize() const override { return 0; }
    int velocitySize() const override { return 0; }
    double totalMass() const override { return 0.0; }

    void initialCoordinates(double*, double*) const override {}
    void velocityScales(double, double*) const override {}
    void motion(const double*, const double*, bool, BodyMotion&) const override {}
    void attach(const JetSlots& pair, int slot, const Vec3& local, bool isPoint, VectorJet& x) const override;
    void rigidMotion(const double*, const Vec3&, const Vec3&, const Vec3&, double*) const override {}
    void addPoints(const double*, std::vector<Vec3>&) const override {}

    void applyMass(const double*, double*) const override {}
    void applyInverseMass(double*) const override {}
    void addMass(int, MatrixEntries&) const override {}
    void addForces(const double*, const double*, const Vec3&, double*) const override {}
    void addGravityForce(const Vec3&, double*) const override {}
    void addForceDerivatives(const double*, const double*, int, MatrixEntries&, MatrixEntries&) const override {}
    BodyEnergy energy(const double*, const double*, const Vec3&) const override { return {}; }
};

}  // namespace looplab
