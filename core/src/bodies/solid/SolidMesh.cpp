#include "looplab/bodies/solid/SolidMesh.h"

#include <stdexcept>

namespace looplab {

using hex::kNodeSize;

SolidMesh::SolidMesh(const Vec3& origin, const Vec3& size, int nx, int ny, int nz, hex::Material material)
    : counts_{nx, ny, nz}, material_(material) {
    if (nx < 1 || ny < 1 || nz < 1) throw std::invalid_argument("SolidMesh: at least one element along each axis");
    if (!(size.minCoeff() > 0.0) || !size.allFinite() || !origin.allFinite())
        throw std::invalid_argument("SolidMesh: the box's edges must be positive and finite");
    const Vec3 h(size.x() / nx, size.y() / ny, size.z() / nz);
    const int n = (nx + 1) * (ny + 1) * (nz + 1);
    initial_.resize(kNodeSize * n);
    for (int k = 0; k <= nz; ++k)
        for (int j = 0; j <= ny; ++j)
            for (int i = 0; i <= nx; ++i)
                initial_.segment<3>(kNodeSize * gridNode(i, j, k)) = origin + Vec3(i * h.x(), j * h.y(), k * h.z());
    Eigen::Matrix<double, 3, hex::kNodes> X;
    for (int a = 0; a < hex::kNodes; ++a) X.col(a) = (0.5 * hex::cornerOf(a).array() * h.array()).matrix();
    const hex::Geometry g = hex::geometry(X);  // every element of the box is this one, translated
    nodeVolume_ = VecX::Zero(n);
    std::vector<Eigen::Triplet<double>> entries;
    entries.reserve(size_t(64) * nx * ny * nz);
    for (int k = 0; k < nz; ++k)
        for (int j = 0; j < ny; ++j)
            for (int i = 0; i < nx; ++i) {
                std::array<int, hex::kNodes> nodes;
                for (int a = 0; a < hex::kNodes; ++a) {
                    const Vec3 c = hex::cornerOf(a);
                    nodes[size_t(a)] = gridNode(i + (c.x() > 0), j + (c.y() > 0), k + (c.z() > 0));
                }
                connectivity_.push_back(nodes);
                geometry_.push_back(g);
                for (int a = 0; a < hex::kNodes; ++a) geometry_.back().reference.col(a) = initialNodePosition(nodes[size_t(a)]);
                for (int b = 0; b < hex::kNodes; ++b) {
                    nodeVolume_[nodes[size_t(b)]] += g.volumeShare[b];
                    for (int a = 0; a < hex::kNodes; ++a)
                        entries.emplace_back(nodes[size_t(a)], nodes[size_t(b)], material_.density * g.massShape(a, b));
                }
            }
    nodeMass_.resize(n, n);
    nodeMass_.setFromTriplets(entries.begin(), entries.end());
    std::vector<Eigen::Triplet<double>> full;
    full.reserve(size_t(3) * nodeMass_.nonZeros());
    for (int c = 0; c < nodeMass_.outerSize(); ++c)
        for (Eigen::SparseMatrix<double>::InnerIterator it(nodeMass_, c); it; ++it)
            for (int d = 0; d < 3; ++d)
                full.emplace_back(kNodeSize * int(it.row()) + d, kNodeSize * int(it.col()) + d, it.value());
    mass_.resize(coordinateCount(), coordinateCount());
    mass_.setFromTriplets(full.begin(), full.end());
    nodeMassFactor_.compute(nodeMass_);
    if (nodeMassFactor_.info() != Eigen::Success)
        throw std::invalid_argument("SolidMesh: the mass matrix is not positive definite");
}

void SolidMesh::velocityScales(double /*lengthScale*/, double* scales) const {
    for (int k = 0; k < coordinateCount(); ++k) scales[k] = 1.0;
}

double SolidMesh::volume() const { return nodeVolume_.sum(); }

const std::array<const char*, 6>& SolidMesh::faceNames() {
    static const std::array<const char*, 6> names = {"xmin", "xmax", "ymin", "ymax", "zmin", "zmax"};
    return names;
}

std::vector<int> SolidMesh::faceNodes(int face) const {
    const int axis = face / 2;
    const int u = (axis + 1) % 3, w = (axis + 2) % 3;
    const int fixed = face % 2 == 0 ? 0 : counts_[size_t(axis)];
    std::vector<int> nodes;
    for (int b = 0; b <= counts_[size_t(w)]; ++b)
        for (int a = 0; a <= counts_[size_t(u)]; ++a) {
            int g[3];
            g[axis] = fixed;
            g[u] = a;
            g[w] = b;
            nodes.push_back(gridNode(g[0], g[1], g[2]));
        }
    return nodes;
}

std::vector<double> SolidMesh::faceWeights(int face) const {
    // On a uniform grid of bilinear faces ∫ N_a dA is a quarter of a face's area per face
    // touching the node: weights (1 or 2 along each edge direction) / (4 n_u n_w).
    const int axis = face / 2;
    const int nu = counts_[size_t((axis + 1) % 3)], nw = counts_[size_t((axis + 2) % 3)];
    std::vector<double> weights;
    for (int b = 0; b <= nw; ++b)
        for (int a = 0; a <= nu; ++a) {
            const double wa = (a == 0 || a == nu) ? 1.0 : 2.0, wb = (b == 0 || b == nw) ? 1.0 : 2.0;
            weights.push_back(wa * wb / (4.0 * nu * nw));
        }
    return weights;
}

hex::ElementVector SolidMesh::elementCoordinates(const double* q, int e) const {
    hex::ElementVector x;
    const auto& nodes = connectivity_[size_t(e)];
    for (int a = 0; a < hex::kNodes; ++a) x.segment<3>(kNodeSize * a) = Eigen::Map<const Vec3>(q + kNodeSize * nodes[size_t(a)]);
    return x;
}

void SolidMesh::applyMass(const double* x, double* y) const {
    // Nodes are columns of a 3 × n matrix; the mass acts on each component alike.
    const Eigen::Map<const MatX> X(x, 3, nodeCount());
    Eigen::Map<MatX>(y, 3, nodeCount()) = X * nodeMass_;
}

void SolidMesh::applyInverseMass(double* x) const {
    Eigen::Map<MatX> X(x, 3, nodeCount());
    const MatX rows = X.transpose();
    X = nodeMassFactor_.solve(rows).transpose();
}

void SolidMesh::addElasticForce(const double* q, double* f) const {
    for (int e = 0; e < elementCount(); ++e) {
        const hex::ElementVector Q = hex::elasticForce(material_, geometry_[size_t(e)], elementCoordinates(q, e));
        const auto& nodes = connectivity_[size_t(e)];
        for (int a = 0; a < hex::kNodes; ++a) Eigen::Map<Vec3>(f + kNodeSize * nodes[size_t(a)]) += Q.segment<3>(kNodeSize * a);
    }
}

void SolidMesh::addGravityForce(const Vec3& g, double* f) const {
    for (int k = 0; k < nodeCount(); ++k) Eigen::Map<Vec3>(f + kNodeSize * k) += material_.density * nodeVolume_[k] * g;
}

double SolidMesh::strainEnergy(const double* q) const {
    double U = 0.0;
    for (int e = 0; e < elementCount(); ++e) U += hex::strainEnergy(material_, geometry_[size_t(e)], elementCoordinates(q, e));
    return U;
}

double SolidMesh::gravityEnergy(const Vec3& g, const double* q) const {
    double V = 0.0;
    for (int k = 0; k < nodeCount(); ++k) V -= material_.density * nodeVolume_[k] * g.dot(Eigen::Map<const Vec3>(q + kNodeSize * k));
    return V;
}

double SolidMesh::kineticEnergy(const double* v) const {
    const Eigen::Map<const MatX> V(v, 3, nodeCount());
    return 0.5 * (V * nodeMass_).cwiseProduct(V).sum();
}

void SolidMesh::addStiffness(const double* q, int offset, MatrixEntries& entries) const {
    addElementMatrices(q, offset, entries, hex::tangentStiffness);
}

void SolidMesh::addDampingForce(const double* q, const double* v, double* f) const {
    if (!damped()) return;
    for (int e = 0; e < elementCount(); ++e) {
        const hex::ElementVector Q =
            hex::dampingForce(material_, geometry_[size_t(e)], elementCoordinates(q, e), elementCoordinates(v, e));
        const auto& nodes = connectivity_[size_t(e)];
        for (int a = 0; a < hex::kNodes; ++a) Eigen::Map<Vec3>(f + kNodeSize * nodes[size_t(a)]) += Q.segment<3>(kNodeSize * a);
    }
}

void SolidMesh::addDamping(const double* q, int offset, MatrixEntries& entries) const {
    if (damped()) addElementMatrices(q, offset, entries, hex::dampingMatrix);
}

void SolidMesh::addElementMatrices(const double* q, int offset, MatrixEntries& entries,
                                   ElementMatrixOf matrixOf) const {
    entries.reserve(entries.size() + size_t(hex::kElementSize) * hex::kElementSize * elementCount());
    for (int e = 0; e < elementCount(); ++e) {
        const hex::ElementMatrix K = matrixOf(material_, geometry_[size_t(e)], elementCoordinates(q, e));
        const auto& nodes = connectivity_[size_t(e)];
        for (int b = 0; b < hex::kNodes; ++b)
            for (int a = 0; a < hex::kNodes; ++a)
                for (int c = 0; c < 3; ++c)
                    for (int r = 0; r < 3; ++r)
                        entries.emplace_back(offset + kNodeSize * nodes[size_t(a)] + r, offset + kNodeSize * nodes[size_t(b)] + c,
                                             K(kNodeSize * a + r, kNodeSize * b + c));
    }
}

}  // namespace looplab
