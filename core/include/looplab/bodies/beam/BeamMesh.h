#pragma once
// The beam kind of body (BodyKind::Beam): one body per beam mesh, a chain of ANCF cable
// elements (AncfCableElement.h) whose nodes k = 0 .. nodeCount−1 each own 6 numbers
// (r_k, r_x,k) of the body's slice, in node order. The position and the velocity slice are
// the same numbers (q̇ = v, the retraction is an addition, nothing to normalise). The mesh
// is immutable and shared by the copies of a Model.

#include "looplab/bodies/BodyFormulation.h"
#include "looplab/bodies/beam/AncfCableElement.h"
#include "looplab/common/Types.h"

#include <Eigen/SparseCholesky>
#include <Eigen/SparseCore>

#include <vector>

namespace looplab {

class BeamMesh : public NodalBody {
public:
    /// A straight mesh of `elements` equal elements from a to b [m] with the given section
    /// and material (one CableProperties for the whole beam; its length is overwritten by
    /// |b − a| / elements).
    BeamMesh(const Vec3& a, const Vec3& b, int elements, ancf::CableProperties section);

    int nodeCount() const { return elementCount() + 1; }
    int elementCount() const { return static_cast<int>(elements_.size()); }
    int coordinateCount() const { return ancf::kNodeSize * nodeCount(); }
    const ancf::CableProperties& element(int i) const { return elements_[static_cast<size_t>(i)]; }
    double totalLength() const;
    /// The undeformed, straight configuration is initialNodalCoordinates() (r_k on the
    /// line, r_x,k the unit direction).
    /// Undeformed position of node k [m].
    Vec3 initialNodePosition(int k) const { return initial_.segment<3>(ancf::kNodeSize * k); }

    BodyKind kind() const override { return BodyKind::Beam; }
    int nodeSize() const override { return ancf::kNodeSize; }
    AttachedFrame attachedFrame() const override { return AttachedFrame::PointAndSlope; }
    /// ρA times the length between the end points [kg].
    double totalMass() const override { return totalMass_; }
    /// r_k weighs as a length, the dimensionless slope r_x,k as a rotation.
    void velocityScales(double lengthScale, double* scales) const override;
    /// Node positions (group 0) and slopes (group 1).
    int motionGroup(int k) const override { return k % ancf::kNodeSize < 3 ? 0 : 1; }

    /// M x and M⁻¹ x on the body's slice (M is mass(), the constant consistent mass matrix).
    void applyMass(const double* x, double* y) const override;
    void applyInverseMass(double* x) const override;

    /// Generalised elastic forces −∂U/∂q [N, N] added to f (the body's slice).
    void addElasticForce(const double* q, double* f) const override;
    /// Generalised force of the uniform field g [m/s²], added to f.
    void addGravityForce(const Vec3& g, double* f) const override;
    /// Strain energy [J].
    double strainEnergy(const double* q) const override;
    /// −∫ ρA g·r dx [J].
    double gravityEnergy(const Vec3& g, const double* q) const override;
    /// Kinetic energy ½ vᵀ M v [J].
    double kineticEnergy(const double* v) const override;
    /// The tangent stiffness ∂²U/∂q² as triplets, rows and columns offset by `offset`.
    void addStiffness(const double* q, int offset, MatrixEntries& entries) const override;
    /// Whether the material is damped (stiffnessDamping > 0).
    bool damped() const override { return elements_.front().stiffnessDamping > 0.0; }
    /// The structural damping force −C(q) v added to f, and C as triplets (AncfCableElement.h).
    void addDampingForce(const double* q, const double* v, double* f) const override;
    void addDamping(const double* q, int offset, MatrixEntries& entries) const override;

private:
    ancf::ElementVector elementCoordinates(const double* q, int i) const;

    std::vector<ancf::CableProperties> elements_;
    double totalMass_ = 0.0;
    Eigen::SimplicialLLT<Eigen::SparseMatrix<double>> massFactor_;
    VecX unitGravityWork_[3];  // ρA ∫ Sᵀ e_i dx: gravity forces and energy are linear in g
};

}  // namespace looplab
