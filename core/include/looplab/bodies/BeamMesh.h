#pragma once
// The beam kind of body (BodyKind::Beam): one body per beam mesh, a chain of ANCF cable
// elements (AncfCableElement.h) whose nodes k = 0 .. nodeCount−1 each own 6 numbers
// (r_k, r_x,k) of the body's slice, in node order. The position and the velocity slice are
// the same numbers (q̇ = v, the retraction is an addition, nothing to normalise). The mesh
// is immutable and shared by the copies of a Model.

#include "looplab/bodies/AncfCableElement.h"
#include "looplab/common/Types.h"

#include <Eigen/SparseCholesky>
#include <Eigen/SparseCore>

#include <vector>

namespace looplab {

class BeamMesh {
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
    /// The undeformed, straight configuration (r_k on the line, r_x,k the unit direction).
    const VecX& initialCoordinates() const { return initial_; }
    /// Undeformed position of node k [m].
    Vec3 initialNodePosition(int k) const { return initial_.segment<3>(ancf::kNodeSize * k); }

    /// The constant consistent mass matrix (coordinateCount² , sparse).
    const Eigen::SparseMatrix<double>& mass() const { return mass_; }
    /// M x and M⁻¹ x on the body's slice.
    void applyMass(const double* x, double* y) const;
    void applyInverseMass(double* x) const;

    /// Generalised elastic forces −∂U/∂q [N, N] added to f (the body's slice).
    void addElasticForce(const double* q, double* f) const;
    /// Generalised force of the uniform field g [m/s²], added to f.
    void addGravityForce(const Vec3& g, double* f) const;
    /// Strain energy [J].
    double strainEnergy(const double* q) const;
    /// −∫ ρA g·r dx [J].
    double gravityEnergy(const Vec3& g, const double* q) const;
    /// Kinetic energy ½ vᵀ M v [J].
    double kineticEnergy(const double* v) const;
    /// The tangent stiffness ∂²U/∂q² as triplets, rows and columns offset by `offset`.
    void addStiffness(const double* q, int offset, std::vector<Eigen::Triplet<double>>& entries) const;
    /// Whether the material is damped (stiffnessDamping > 0).
    bool damped() const { return elements_.front().stiffnessDamping > 0.0; }
    /// The structural damping force −C(q) v added to f, and C as triplets (AncfCableElement.h).
    void addDampingForce(const double* q, const double* v, double* f) const;
    void addDamping(const double* q, int offset, std::vector<Eigen::Triplet<double>>& entries) const;

private:
    ancf::ElementVector elementCoordinates(const double* q, int i) const;

    std::vector<ancf::CableProperties> elements_;
    VecX initial_;
    Eigen::SparseMatrix<double> mass_;
    Eigen::SimplicialLLT<Eigen::SparseMatrix<double>> massFactor_;
    VecX unitGravityWork_[3];  // ρA ∫ Sᵀ e_i dx: gravity forces and energy are linear in g
};

}  // namespace looplab
