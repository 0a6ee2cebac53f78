#include "looplab/bodies/beam/BeamMesh.h"

#include <stdexcept>

namespace looplab {

BeamMesh::BeamMesh(const Vec3& a, const Vec3& b, int elements, ancf::CableProperties section) {
    if (elements < 1) throw std::invalid_argument("BeamMesh: at least one element");
    const double length = (b - a).norm();
    if (!(length > 0.0)) throw std::invalid_argument("BeamMesh: the two ends coincide");
    // The compile step's mass: the same length, computed as it computes it.
    totalMass_ = section.massPerLength * (b - a).stableNorm();
    section.length = length / elements;
    elements_.assign(static_cast<size_t>(elements), section);
    const Vec3 tangent = (b - a) / length;
    initial_.resize(coordinateCount());
    for (int k = 0; k < nodeCount(); ++k) {
        initial_.segment<3>(ancf::kNodeSize * k) = a + (b - a) * (double(k) / elements);
        initial_.segment<3>(ancf::kNodeSize * k + 3) = tangent;
    }
    std::vector<Eigen::Triplet<double>> entries;
    for (int i = 0; i < 3; ++i) unitGravityWork_[i] = VecX::Zero(coordinateCount());
    for (int e = 0; e < elements; ++e) {
        const ancf::ElementMatrix Me = ancf::massMatrix(elements_[size_t(e)]);
        for (int c = 0; c < ancf::kElementSize; ++c)
            for (int r = 0; r < ancf::kElementSize; ++r)
                if (Me(r, c) != 0.0) entries.emplace_back(ancf::kNodeSize * e + r, ancf::kNodeSize * e + c, Me(r, c));
        for (int i = 0; i < 3; ++i)
            unitGravityWork_[i].segment<ancf::kElementSize>(ancf::kNodeSize * e) +=
                ancf::gravityForce(elements_[size_t(e)], Vec3::Unit(i));
    }
    mass_.resize(coordinateCount(), coordinateCount());
    mass_.setFromTriplets(entries.begin(), entries.end());
    massFactor_.compute(mass_);
    if (massFactor_.info() != Eigen::Success)
        throw std::invalid_argument("BeamMesh: the mass matrix is not positive definite");
}

void BeamMesh::velocityScales(double lengthScale, double* scales) const {
    for (int k = 0; k < coordinateCount(); ++k) scales[k] = (k % ancf::kNodeSize) < 3 ? 1.0 : 1.0 / lengthScale;
}

double BeamMesh::totalLength() const {
    double L = 0.0;
    for (const auto& e : elements_) L += e.length;
    return L;
}

ancf::ElementVector BeamMesh::elementCoordinates(const double* q, int i) const {
    return Eigen::Map<const ancf::ElementVector>(q + ancf::kNodeSize * i);
}

void BeamMesh::applyMass(const double* x, double* y) const {
    Eigen::Map<VecX>(y, coordinateCount()) = mass_ * Eigen::Map<const VecX>(x, coordinateCount());
}

void BeamMesh::applyInverseMass(double* x) const {
    Eigen::Map<VecX> slice(x, coordinateCount());
    slice = massFactor_.solve(VecX(slice));
}

void BeamMesh::addElasticForce(const double* q, double* f) const {
    for (int i = 0; i < elementCount(); ++i)
        Eigen::Map<ancf::ElementVector>(f + ancf::kNodeSize * i) += ancf::elasticForce(element(i), elementCoordinates(q, i));
}

void BeamMesh::addGravityForce(const Vec3& g, double* f) const {
    Eigen::Map<VecX> out(f, coordinateCount());
    for (int i = 0; i < 3; ++i)
        if (g[i] != 0.0) out += g[i] * unitGravityWork_[i];
}

double BeamMesh::strainEnergy(const double* q) const {
    double U = 0.0;
    for (int i = 0; i < elementCount(); ++i) U += ancf::strainEnergy(element(i), elementCoordinates(q, i));
    return U;
}

double BeamMesh::gravityEnergy(const Vec3& g, const double* q) const {
    // The gravity force is −∂V/∂q with V linear in q: V = −Q_g·q.
    const Eigen::Map<const VecX> x(q, coordinateCount());
    double V = 0.0;
    for (int i = 0; i < 3; ++i) V -= g[i] * unitGravityWork_[i].dot(x);
    return V;
}

double BeamMesh::kineticEnergy(const double* v) const {
    const Eigen::Map<const VecX> x(v, coordinateCount());
    return 0.5 * x.dot(mass_ * x);
}

namespace {

// Each element's 12 × 12 matrix (element i's from `matrixOf(i)`) as triplets of the mesh,
// rows and columns offset by `offset`; consecutive elements share a node.
template <typename MatrixOf>
void addElementMatrices(int elements, int offset, std::vector<Eigen::Triplet<double>>& entries, MatrixOf matrixOf) {
    for (int i = 0; i < elements; ++i) {
        const ancf::ElementMatrix K = matrixOf(i);
        const int o = offset + ancf::kNodeSize * i;
        for (int c = 0; c < ancf::kElementSize; ++c)
            for (int r = 0; r < ancf::kElementSize; ++r)
                if (K(r, c) != 0.0) entries.emplace_back(o + r, o + c, K(r, c));
    }
}

}  // namespace

void BeamMesh::addStiffness(const double* q, int offset, MatrixEntries& entries) const {
    addElementMatrices(elementCount(), offset, entries,
                       [&](int i) { return ancf::tangentStiffness(element(i), elementCoordinates(q, i)); });
}

void BeamMesh::addDampingForce(const double* q, const double* v, double* f) const {
    if (!damped()) return;
    for (int i = 0; i < elementCount(); ++i)
        Eigen::Map<ancf::ElementVector>(f + ancf::kNodeSize * i) +=
            ancf::dampingForce(element(i), elementCoordinates(q, i), elementCoordinates(v, i));
}

void BeamMesh::addDamping(const double* q, int offset, MatrixEntries& entries) const {
    if (!damped()) return;
    addElementMatrices(elementCount(), offset, entries,
                       [&](int i) { return ancf::dampingMatrix(element(i), elementCoordinates(q, i)); });
}

}  // namespace looplab
