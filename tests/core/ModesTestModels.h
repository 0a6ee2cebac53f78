#pragma once
// Models for the statics and eigenanalysis tests, with the closed forms they are checked
// against computed independently of the linearisation.

#include "TestModels.h"

#include "looplab/kinematics/Assembly.h"
#include "looplab/dynamics/Dynamics.h"
#include "looplab/model/ModelBuilder.h"

#include <cmath>

namespace looplab::test {

/// The example cantilever (steel, 1 m, 20 mm square, clamped through constraint equations)
/// of `elements` beam elements, without gravity or loads: its modes are those of
/// Euler–Bernoulli's cantilever.
inline ModelDocument unloadedCantilever(int elements) {
    ModelDocument doc = exampleDocument("cantilever-beam.json");
    doc.gravity = Vec3::Zero();
    doc.forces.clear();
    doc.beams[0].elements = elements;
    return doc;
}

/// The example cantilever's beam (steel, 1 m, 20 mm square, EI = 2 800 N·m², ρA = 3.14 kg/m)
/// of `elements` elements with nothing holding it: no joint, no gravity, no load. Its
/// elastic modes are Euler–Bernoulli's free–free beam, f_n = (β_n L)² √(EI/ρA) / (2π L²)
/// with β_n L = 4.7300, 7.8532, 10.9956, each twice (the square section bends alike in both
/// planes); five rigid-body modes at 0 (the cable element has no torsion coordinate: the
/// turn about its own axis moves no coordinate).
inline ModelDocument freeFreeBeam(int elements) {
    ModelDocument doc = unloadedCantilever(elements);
    doc.name = "free-free beam";
    doc.joints.clear();
    return doc;
}

/// The free–free beam's n-th elastic frequency (n = 1, 2, 3) from the closed form [Hz].
inline double freeFreeBeamHz(const ModelDocument& doc, int n) {
    static const double betaL[] = {4.730040745, 7.853204624, 10.99560784};
    const BeamDoc& b = doc.beams.at(0);
    const double L = (b.to - b.from).norm();
    const double A = b.section.width * b.section.height;
    const double I = b.section.width * std::pow(b.section.height, 3) / 12.0;
    const double EI = b.material.youngModulus * I, rhoA = b.material.density * A;
    const double bl = betaL[n - 1];
    return bl * bl * std::sqrt(EI / rhoA) / (2.0 * M_PI * L * L);
}

/// One rigid body (2 kg) alone in space, no gravity: six rigid-body modes and nothing else.
inline ModelDocument freeRigidBody() {
    ModelDocument doc;
    doc.name = "free rigid body";
    doc.gravity = Vec3::Zero();
    BodyDoc b;
    b.name = "block";
    b.mass = 2.0;
    b.inertia = Vec3(0.01, 0.02, 0.03).asDiagonal();
    b.position = Vec3(0.3, -0.2, 0.1);
    b.orientation = Quat(Eigen::AngleAxisd(0.4, Vec3(1, 2, 3).normalized()));
    doc.bodies.push_back(b);
    return doc;
}

/// A block of mass m on a linear spring k to the ground along y, at its free length, no joint
/// and no gravity: one elastic mode, ω² = k/m; the spring holds nothing else (no preload,
/// attached at the centre of mass), so the block keeps five free directions.
struct SpringOnly {
    double m = 1.5, k = 1000.0;
    ModelDocument document() const {
        ModelDocument doc;
        doc.name = "block on a spring";
        doc.gravity = Vec3::Zero();
        BodyDoc b;
        b.name = "block";
        b.mass = m;
        b.inertia = Vec3(0.001, 0.002, 0.003).asDiagonal();
        doc.bodies.push_back(b);
        ForceDoc f;
        f.name = "spring";
        f.type = ForceType::SpringDamper;
        f.body1 = "ground";
        f.body2 = "block";
        f.point1 = Vec3(0, 1, 0);
        f.point2 = Vec3::Zero();
        f.stiffness = k;
        f.freeLength = 1.0;
        doc.forces.push_back(f);
        return doc;
    }
    double omega2() const { return k / m; }
};

/// A compound pendulum: one body of mass m, inertia I about its centre of mass (z), the
/// centre of mass l from a revolute about z at the origin, started at `angle` from hanging.
/// Small oscillations about hanging: ω² = m g l / (I + m l²).
struct CompoundPendulum {
    double m = 2.0, l = 0.7, I = 0.11, g = 9.81;
    ModelDocument document(double angle) const {
        ModelDocument doc;
        doc.name = "compound pendulum";
        doc.gravity = Vec3(0.0, -g, 0.0);
        BodyDoc b;
        b.name = "bob";
        b.mass = m;
        b.inertia = Vec3(0.05, 0.08, I).asDiagonal();
        b.position = Vec3(l * std::sin(angle), -l * std::cos(angle), 0.0);
        b.orientation = Quat(Eigen::AngleAxisd(angle, Vec3::UnitZ()));
        doc.bodies.push_back(b);
        JointDoc j;
        j.name = "pivot";
        j.type = JointType::Revolute;
        j.body1 = "ground";
        j.body2 = "bob";
        j.axis = Vec3::UnitZ();
        doc.joints.push_back(j);
        return doc;
    }
    double omega2() const { return m * g * l / (I + m * l * l); }
};

/// The example four-bar (3 redundant equations) under gravity with a rotational
/// spring-damper at the crank pivot A, free angle `freeAngle` from the crank's initial pose.
inline ModelDocument fourBarWithPivotSpring(double stiffness, double damping, double freeAngle) {
    ModelDocument doc = exampleDocument("four-bar.json");
    ForceDoc f;
    f.name = "pivot spring";
    f.type = ForceType::RotationalSpringDamper;
    f.joint = "A";
    f.stiffness = stiffness;
    f.damping = damping;
    f.freeAngle = freeAngle;
    doc.forces.push_back(f);
    return doc;
}

/// The single-degree-of-freedom reduction of a one-dof model along the angle of `joint`,
/// independent of the linearisation: the joint is locked by a driver (constant law θ), the
/// configuration assembled, and the potential energy V(θ) differentiated twice by central
/// differences; the reduced inertia is 2T/θ̇² = vᵀMv with v the velocities of the driver
/// model moving the joint at θ̇ = 1 (velocity analysis: the motion is fully determined).
struct SingleDofReduction {
    double stiffness = 0.0;  ///< k_red = d²V/dθ² [N·m/rad]
    double inertia = 0.0;    ///< m_red [kg·m²]
    double slope = 0.0;      ///< dV/dθ [N·m] (0 at an equilibrium)
    bool ok = false;
    double omega2() const { return stiffness / inertia; }
};

inline SingleDofReduction reduceAlongJoint(const ModelDocument& base, const std::string& joint, double theta0,
                                           const State& start, double h = 1e-3) {
    SingleDofReduction out;
    ModelDocument doc = base;
    DriverDoc drv;
    drv.name = "lock";
    drv.joint = joint;
    drv.law.kind = TimeLaw::Kind::ConstantVelocity;
    drv.law.initial = theta0;
    drv.law.rate = 1.0;
    doc.drivers.push_back(drv);
    const BuildResult built = buildModel(doc);
    if (!built.ok()) return out;
    const Model& model = *built.model;
    AssemblyOptions tight;
    tight.tolerance = 1e-15;
    // The potential energy at t (the driver's law puts the joint at θ0 + t).
    auto potential = [&](double t, State* at = nullptr) {
        State s = start;
        s.t = t;
        s.v.setZero();
        assemble(model, s, tight);
        if (at) *at = s;
        const Energy e = mechanicalEnergy(model, s);
        return e.gravity + e.springs;
    };
    State here;
    const double v0 = potential(0.0, &here);
    const double vp = potential(h), vm = potential(-h);
    out.stiffness = (vp - 2.0 * v0 + vm) / (h * h);
    out.slope = (vp - vm) / (2.0 * h);
    projectVelocities(model, here);
    out.inertia = here.v.dot(applyMass(model, here.v));
    out.ok = true;
    return out;
}

}  // namespace looplab::test
