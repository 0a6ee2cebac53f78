#pragma once
// The solid kind of body (BodyKind::Solid): one body per solid mesh, a box of 8-node
// hexahedra (HexahedronElement.h) whose nodes k = 0 .. nodeCount−1 each own 3 numbers (the
// node's global position) of the body's slice, in node order. As for beams, the position
// and the velocity slice are the same numbers (q̇ = v, the retraction is an addition), the
// mass matrix is constant, and the mesh is immutable and shared by the copies of a Model.
//
// A box with nx × ny × nz elements has (nx+1)(ny+1)(nz+1) nodes on a grid; node (i, j, k)
// (0 ≤ i ≤ nx along x, ...) is node number i + (nx+1)(j + (ny+1)k). The six faces are node
// sets "xmin", "xmax", "ymin", "ymax", "zmin", "zmax".

#include "looplab/bodies/BodyFormulation.h"
#include "looplab/bodies/solid/HexahedronElement.h"
#include "looplab/common/Types.h"

#include <Eigen/SparseCholesky>
#include <Eigen/SparseCore>

#include <array>
#include <string>
#include <vector>

namespace looplab {

class SolidMesh : public NodalBody {
public:
    /// A box with corner `origin`, edge lengths `size` along the global axes [m] (all
    /// positive) and nx × ny × nz equal elements of one material. Throws
    /// std::invalid_argument for a degenerate box or fewer than one element along an axis.
    SolidMesh(const Vec3& origin, const Vec3& size, int nx, int ny, int nz, hex::Material material);

    int nodeCount() const { return static_cast<int>(initial_.size() / hex::kNodeSize); }
    int elementCount() const { return static_cast<int>(connectivity_.size()); }
    int coordinateCount() const { return static_cast<int>(initial_.size()); }
    int elementsAlong(int axis) const { return counts_[size_t(axis)]; }
    const hex::Material& material() const { return material_; }
    /// The node numbers of element e, in the element's node order (HexahedronElement.h).
    const std::array<int, hex::kNodes>& elementNodes(int e) const { return connectivity_[size_t(e)]; }
    /// Node number of grid node (i, j, k).
    int gridNode(int i, int j, int k) const { return i + (counts_[0] + 1) * (j + (counts_[1] + 1) * k); }
    Vec3 initialNodePosition(int k) const { return initial_.segment<3>(hex::kNodeSize * k); }
    /// Undeformed volume [m³] and mass [kg].
    double volume() const;
    double totalMass() const override { return material_.density * volume(); }

    /// Names of the node sets ("xmin", ...).
    static const std::array<const char*, 6>& faceNames();
    /// The nodes of a face (index into faceNames()), and the share of a uniform traction's
    /// resultant each one carries (the consistent load ∫ N_a dA / A, summing to 1).
    std::vector<int> faceNodes(int face) const;
    std::vector<double> faceWeights(int face) const;

    BodyKind kind() const override { return BodyKind::Solid; }
    int nodeSize() const override { return hex::kNodeSize; }
    AttachedFrame attachedFrame() const override { return AttachedFrame::PointOnly; }
    /// Node positions weigh as lengths.
    void velocityScales(double lengthScale, double* scales) const override;
    int motionGroup(int /*k*/) const override { return 0; }

    /// M x and M⁻¹ x (M is mass(), the constant consistent mass matrix, nodeMass ⊗ I₃).
    void applyMass(const double* x, double* y) const override;
    void applyInverseMass(double* x) const override;

    /// Generalised internal forces −∂U/∂q [N] added to f (the body's slice).
    void addElasticForce(const double* q, double* f) const override;
    /// Consistent load of the uniform field g [m/s²], added to f.
    void addGravityForce(const Vec3& g, double* f) const override;
    double strainEnergy(const double* q) const override;
    /// −∫ ρ g·x dV [J].
    double gravityEnergy(const Vec3& g, const double* q) const override;
    double kineticEnergy(const double* v) const override;
    /// The tangent stiffness ∂²U/∂q² as triplets, rows and columns offset by `offset`.
    void addStiffness(const double* q, int offset, MatrixEntries& entries) const override;
    /// Whether the material is damped (stiffnessDamping > 0).
    bool damped() const override { return material_.stiffnessDamping > 0.0; }
    /// The Kelvin–Voigt damping force −C(q) v added to f, and C as triplets (HexahedronElement.h).
    void addDampingForce(const double* q, const double* v, double* f) const override;
    void addDamping(const double* q, int offset, MatrixEntries& entries) const override;

private:
    hex::ElementVector elementCoordinates(const double* q, int e) const;
    using ElementMatrixOf = hex::ElementMatrix (*)(const hex::Material&, const hex::Geometry&, const hex::ElementVector&);
    /// Each element's matrix scattered to the mesh's coordinates as triplets.
    void addElementMatrices(const double* q, int offset, MatrixEntries& entries,
                            ElementMatrixOf matrixOf) const;

    std::array<int, 3> counts_;
    hex::Material material_;
    std::vector<std::array<int, hex::kNodes>> connectivity_;
    std::vector<hex::Geometry> geometry_;  // one per element (all equal in a box, kept general)
    Eigen::SparseMatrix<double> nodeMass_;  // ρ ∫ N_a N_b dV, node by node
    Eigen::SimplicialLLT<Eigen::SparseMatrix<double>> nodeMassFactor_;
    VecX nodeVolume_;  // ∫ N_a dV
};

}  // namespace looplab
