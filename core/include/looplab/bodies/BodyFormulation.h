#pragma once
// What a kind of body provides, so that the model, the kinematics, the dynamics and the
// analyses work on any body without asking which kind it is (BodyKind.h lists the kinds;
// each implements this class in its own folder: rigid/, beam/, solid/).
//
// Every body owns a slice of the position vector q and one of the velocity vector v
// (Model::layOutCoordinates); the functions below read and write those slices through
// pointers to their first numbers. A kind gives, for its slices:
//   - their sizes and the initial numbers it was compiled with;
//   - q̇ from v, the retraction q ⊕ dv that the constraint Jacobian (taken with respect to
//     v) is the derivative of, and a re-normalisation of q where q is redundant;
//   - the frame of the whole body where it has one (a rigid body's; a mesh has none);
//   - points and directions attached to it with their Jacobians (FrameJets.h), so that
//     joint equations are written once for frames on any kind;
//   - its block of the mass matrix and its products, its generalised forces (elastic,
//     damping, gravity, inertial velocity terms) with their derivatives, and its energies.
// Kinds are immutable once compiled and shared by the copies of a Model.
//
// Why a base class and not a closed variant: every operation above is per body and
// called once per body per evaluation, so a virtual call costs nothing measurable, and a
// new kind is one new class whose compile step (model/Compile*.cpp) makes it.

#include "looplab/bodies/BodyKind.h"
#include "looplab/bodies/FrameJets.h"
#include "looplab/common/Types.h"

#include <Eigen/SparseCore>

#include <string>
#include <vector>

namespace looplab {

/// Entries of a sparse matrix in the model's velocity coordinates, summed where repeated.
using MatrixEntries = std::vector<Eigen::Triplet<double>>;

/// One body's energies [J].
struct BodyEnergy {
    double kinetic = 0.0;
    double gravity = 0.0;  ///< −m g·r, relative to the origin
    double strain = 0.0;   ///< elastic energy of a deformable body
};

/// What a frame attached to a body can hold a joint by.
enum class AttachedFrame {
    Full,           ///< origin and three axes (rigid bodies, the ground)
    PointAndSlope,  ///< a node's position and its one direction, the slope (a cable node)
    PointOnly       ///< a node's position (a solid's node)
};

class BodyFormulation {
public:
    virtual ~BodyFormulation() = default;

    virtual BodyKind kind() const = 0;
    virtual int positionSize() const = 0;
    virtual int velocitySize() const = 0;
    /// Numbers per node of a mesh (frames and nodal forces sit on nodes); 0 for a body
    /// without nodes.
    virtual int nodeSize() const { return 0; }
    virtual AttachedFrame attachedFrame() const { return AttachedFrame::Full; }
    /// Mass [kg] (0 for the ground).
    virtual double totalMass() const = 0;
    /// Short names of the numbers of its slices, for tables and files ("x", "qw", "rz" on
    /// a rigid body; "q<k>" where the numbers have no names of their own).
    virtual std::string positionName(int k) const { return "q" + std::to_string(k); }
    virtual std::string velocityName(int k) const { return "q" + std::to_string(k); }

    // --- coordinates ---
    /// The numbers it was compiled with (a mesh: undeformed and at rest).
    virtual void initialCoordinates(double* q, double* v) const = 0;
    /// q̇ from v (the same numbers where q̇ = v).
    virtual void positionDerivative(const double* q, const double* v, double* qdot) const;
    /// q ← q ⊕ dv (an addition where q̇ = v).
    virtual void retract(double* q, const double* dv) const;
    /// Largest factor ≤ 1 of the velocity-space step dv that turns the body by at most
    /// maxRotation [rad] and moves its frame by at most maxTranslation [m] (1 where there is
    /// no frame to turn: a mesh's nodes take any step).
    virtual double stepFactor(const double* /*dv*/, double /*maxRotation*/, double /*maxTranslation*/) const {
        return 1.0;
    }
    /// Brings redundant position numbers back to their manifold (nothing where none are).
    virtual void normalize(double* /*q*/) const {}
    /// Scale of each velocity coordinate for rank decisions: 1 for a length [m], 1/L for a
    /// rotation or a dimensionless number (L = lengthScale), so that all weigh alike.
    virtual void velocityScales(double lengthScale, double* scales) const = 0;
    /// The group of coordinates whose motion the local error of velocity coordinate k is
    /// held to (a mesh's node positions, its slopes: ErrorScales.h), or −1 where the model's
    /// length scale is (a rigid body). Coordinates in a group have q̇ = v.
    virtual int motionGroup(int /*k*/) const { return -1; }

    // --- the frame of the whole body (identity and at rest where there is none) ---
    /// Whether one frame carries every point of the body (a rigid body, the ground).
    virtual bool hasBodyFrame() const { return true; }
    virtual Vec3 framePosition(const double* /*q*/) const { return Vec3::Zero(); }
    virtual Quat frameOrientation(const double* /*q*/) const { return Quat::Identity(); }
    virtual Vec3 frameVelocity(const double* /*v*/) const { return Vec3::Zero(); }
    /// Angular velocity in the body frame [rad/s].
    virtual Vec3 frameAngularVelocityLocal(const double* /*v*/) const { return Vec3::Zero(); }

    // --- attached points and directions (FrameJets.h) ---
    /// Fills k (whose formulation and sliceWidth are set) from the slices; v may be null
    /// when velocities is false.
    virtual void motion(const double* q, const double* v, bool velocities, BodyMotion& k) const = 0;
    /// The point `local` (isPoint) or the direction `local` (body frame) fixed in the body
    /// of pair.body[slot] (on a mesh: the node pair.node[slot], whose position is the
    /// point and whose slope times local.x() the direction). x.full and x.twoBodies are set.
    virtual void attach(const JetSlots& pair, int slot, const Vec3& local, bool isPoint, VectorJet& x) const = 0;
    /// Adds weight · ∂(Jᵀw)/∂δ at fixed w for a vector with the given lever on this body
    /// (columns starting at `column` of H); nothing where J is constant.
    virtual void addCurvature(const BodyMotion& /*k*/, const Vec3& /*lever*/, const Vec3& /*w*/, double /*weight*/,
                              int /*column*/, JetSquare& /*H*/) const {}
    /// The velocity slice of a motion of the whole body as one rigid body: translation t
    /// and rotation θ about the point c (all global), at positions q.
    virtual void rigidMotion(const double* q, const Vec3& t, const Vec3& theta, const Vec3& c, double* v) const = 0;
    /// Points whose spread says where the body is (its centre of mass, or its nodes).
    virtual void addPoints(const double* q, std::vector<Vec3>& points) const = 0;

    // --- inertia and forces ---
    /// y = M x and x ← M⁻¹ x on the body's velocity slice.
    virtual void applyMass(const double* x, double* y) const = 0;
    virtual void applyInverseMass(double* x) const = 0;
    /// The body's block of M, rows and columns offset by `offset`.
    virtual void addMass(int offset, MatrixEntries& entries) const = 0;
    /// Elastic forces −∂U/∂q added to f (nothing for a rigid body).
    virtual void addElasticForce(const double* /*q*/, double* /*f*/) const {}
    /// The body's own generalised forces added to f: elastic, damping, gravity g [m/s²]
    /// and the inertial terms quadratic in v.
    virtual void addForces(const double* q, const double* v, const Vec3& g, double* f) const = 0;
    /// Whether the body's own forces dissipate energy (a damped material).
    virtual bool damped() const { return false; }
    /// The force of the uniform field g [m/s²] alone, added to f.
    virtual void addGravityForce(const Vec3& g, double* f) const = 0;
    /// −∂f/∂q (K, the tangent stiffness) and −∂f/∂v (C) of addForces, rows and columns
    /// offset by `offset`.
    virtual void addForceDerivatives(const double* q, const double* v, int offset, MatrixEntries& K,
                                     MatrixEntries& C) const = 0;
    virtual BodyEnergy energy(const double* q, const double* v, const Vec3& g) const = 0;
};

/// The parts shared by kinds whose coordinates are nodal positions (and slopes): q̇ = v,
/// an additive retraction, no frame of the whole body, points and directions at nodes.
class NodalBody : public BodyFormulation {
public:
    int positionSize() const override { return static_cast<int>(initial_.size()); }
    int velocitySize() const override { return static_cast<int>(initial_.size()); }
    bool hasBodyFrame() const override { return false; }
    void motion(const double* q, const double* v, bool velocities, BodyMotion& k) const override;
    void attach(const JetSlots& pair, int slot, const Vec3& local, bool isPoint, VectorJet& x) const override;
    void rigidMotion(const double* q, const Vec3& t, const Vec3& theta, const Vec3& c, double* v) const override;
    void addPoints(const double* q, std::vector<Vec3>& points) const override;
    void initialCoordinates(double* q, double* v) const override;
    void addMass(int offset, MatrixEntries& entries) const override;
    BodyEnergy energy(const double* q, const double* v, const Vec3& g) const override;
    void addForces(const double* q, const double* v, const Vec3& g, double* f) const override;
    void addForceDerivatives(const double* q, const double* v, int offset, MatrixEntries& K,
                             MatrixEntries& C) const override;

    /// The undeformed configuration.
    const VecX& initialNodalCoordinates() const { return initial_; }
    /// The constant consistent mass matrix (sparse, the slice's size squared).
    const Eigen::SparseMatrix<double>& mass() const { return mass_; }
    /// Strain energy [J], −∫ ρ g·r dV [J], ½ vᵀ M v [J].
    virtual double strainEnergy(const double* q) const = 0;
    virtual double gravityEnergy(const Vec3& g, const double* q) const = 0;
    virtual double kineticEnergy(const double* v) const = 0;
    /// The damping force −C(q) v added to f, and C and the tangent stiffness as entries.
    virtual void addDampingForce(const double* q, const double* v, double* f) const = 0;
    virtual void addStiffness(const double* q, int offset, MatrixEntries& entries) const = 0;
    virtual void addDamping(const double* q, int offset, MatrixEntries& entries) const = 0;

protected:
    VecX initial_;
    Eigen::SparseMatrix<double> mass_;
};

}  // namespace looplab
