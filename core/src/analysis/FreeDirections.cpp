#include "looplab/analysis/FreeDirections.h"

#include "looplab/dynamics/Dynamics.h"
#include "looplab/dynamics/Linearization.h"

#include <Eigen/SVD>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace looplab {
namespace {

// Union–find over the bodies: two bodies belong to one structure when an entry of K or a
// constraint row couples their coordinates.
struct Structures {
    std::vector<int> parent;
    explicit Structures(int n) : parent(static_cast<size_t>(n)) { std::iota(parent.begin(), parent.end(), 0); }
    int find(int a) {
        while (parent[static_cast<size_t>(a)] != a) a = parent[static_cast<size_t>(a)] = parent[static_cast<size_t>(parent[static_cast<size_t>(a)])];
        return a;
    }
    void join(int a, int b) { parent[static_cast<size_t>(find(a))] = find(b); }
};

// The rigid motion (translation t, rotation θ about c, both global) of body b, written into
// its velocity slice of x (BodyFormulation::rigidMotion).
void writeRigidMotion(const Model& model, const State& s, int b, const Vec3& t, const Vec3& theta, const Vec3& c,
                      VecX& x) {
    const Body& body = model.bodies[static_cast<size_t>(b)];
    body.formulation->rigidMotion(s.q.data() + body.slice.positionOffset, t, theta, c,
                                  x.data() + body.slice.velocityOffset);
}

// A representative point of body b (its centre of mass or its first node) and the points
// whose spread sizes the structure.
void bodyPoints(const Model& model, const State& s, int b, std::vector<Vec3>& points) {
    const Body& body = model.bodies[static_cast<size_t>(b)];
    body.formulation->addPoints(s.q.data() + body.slice.positionOffset, points);
}

}  // namespace

FreeDirections findFreeDirections(const Model& model, const State& state, const SparseColMatrix& K,
                                  const SparseMatrix& J, double tolerance) {
    FreeDirections out;
    const int n = model.velocitySize();
    const int nb = static_cast<int>(model.bodies.size());
    out.basis.resize(n, 0);
    if (n == 0) return out;
    std::vector<int> owner(static_cast<size_t>(n), -1);
    for (int b = 0; b < nb; ++b) {
        const CoordinateSlice& sl = model.bodies[static_cast<size_t>(b)].slice;
        for (int i = 0; i < sl.velocitySize; ++i) owner[static_cast<size_t>(sl.velocityOffset + i)] = b;
    }
    Structures st(nb);
    for (int c = 0; c < K.outerSize(); ++c)
        for (SparseColMatrix::InnerIterator it(K, c); it; ++it)
            if (it.value() != 0.0) st.join(owner[static_cast<size_t>(it.row())], owner[static_cast<size_t>(c)]);
    std::vector<int> rowBody(static_cast<size_t>(J.rows()), -1);
    for (int r = 0; r < J.outerSize(); ++r)
        for (SparseMatrix::InnerIterator it(J, r); it; ++it) {
            const int b = owner[static_cast<size_t>(it.col())];
            if (rowBody[static_cast<size_t>(r)] < 0) rowBody[static_cast<size_t>(r)] = b;
            else st.join(rowBody[static_cast<size_t>(r)], b);
        }
    const VecX rowScales = equationScales(model);

    std::vector<std::vector<int>> bodiesOf(static_cast<size_t>(nb)), rowsOf(static_cast<size_t>(nb));
    for (int b = 0; b < nb; ++b)
        if (model.bodies[static_cast<size_t>(b)].slice.velocitySize > 0) bodiesOf[static_cast<size_t>(st.find(b))].push_back(b);
    for (int r = 0; r < static_cast<int>(rowBody.size()); ++r)
        if (rowBody[static_cast<size_t>(r)] >= 0) rowsOf[static_cast<size_t>(st.find(rowBody[static_cast<size_t>(r)]))].push_back(r);

    std::vector<int> local(static_cast<size_t>(n), -1);
    for (int g = 0; g < nb; ++g) {
        const std::vector<int>& bodies = bodiesOf[static_cast<size_t>(g)];
        if (bodies.empty()) continue;
        std::vector<int> coords;
        for (const int b : bodies) {
            const CoordinateSlice& sl = model.bodies[static_cast<size_t>(b)].slice;
            for (int i = 0; i < sl.velocitySize; ++i) coords.push_back(sl.velocityOffset + i);
        }
        const int ng = static_cast<int>(coords.size());
        for (int i = 0; i < ng; ++i) local[static_cast<size_t>(coords[static_cast<size_t>(i)])] = i;
        // The six rigid motions about the structure's mean point, rotations by 1/extent so
        // that every column moves the structure by about one length unit.
        std::vector<Vec3> points;
        for (const int b : bodies) bodyPoints(model, state, b, points);
        Vec3 c = Vec3::Zero();
        for (const Vec3& p : points) c += p;
        c /= static_cast<double>(std::max<size_t>(points.size(), 1));
        double extent = 0.0;
        for (const Vec3& p : points) extent = std::max(extent, (p - c).norm());
        if (!(extent > 0.0)) extent = model.lengthScale > 0 ? model.lengthScale : 1.0;
        MatX R = MatX::Zero(ng, 6);
        {
            VecX x = VecX::Zero(n);
            for (int j = 0; j < 6; ++j) {
                Vec3 t = Vec3::Zero(), theta = Vec3::Zero();
                if (j < 3) t[j] = 1.0;
                else theta[j - 3] = 1.0 / extent;
                for (const int b : bodies) writeRigidMotion(model, state, b, t, theta, c, x);
                for (int i = 0; i < ng; ++i) R(i, j) = x[coords[static_cast<size_t>(i)]];
            }
        }
        // K R and Φ_q R, each row divided by what rounding could make of it, Σ|a_ij| max|R_j|.
        const MatX absR = R.cwiseAbs();
        MatX KR = MatX::Zero(ng, 6);
        VecX bound = VecX::Zero(ng);
        for (int i = 0; i < ng; ++i) {
            const int col = coords[static_cast<size_t>(i)];
            for (SparseColMatrix::InnerIterator it(K, col); it; ++it) {
                const int row = local[static_cast<size_t>(it.row())];
                if (row < 0) continue;  // not coupled, else the union would hold it
                KR.row(row) += it.value() * R.row(i);
                bound[row] += std::abs(it.value()) * absR.row(i).maxCoeff();
            }
        }
        const std::vector<int>& rows = rowsOf[static_cast<size_t>(g)];
        const int nr = static_cast<int>(rows.size());
        MatX A = MatX::Zero(ng + nr, 6);
        const double floorK = std::numeric_limits<double>::epsilon() * (bound.size() ? bound.maxCoeff() : 0.0);
        for (int i = 0; i < ng; ++i)
            if (bound[i] > 0.0) A.row(i) = KR.row(i) / std::max(bound[i], floorK);
        for (int k = 0; k < nr; ++k) {
            const int row = rows[static_cast<size_t>(k)];
            double b = 0.0;
            for (SparseMatrix::InnerIterator it(J, row); it; ++it) {
                const int i = local[static_cast<size_t>(it.col())];
                A.row(ng + k) += rowScales[row] * it.value() * R.row(i);
                b += std::abs(rowScales[row] * it.value()) * absR.row(i).maxCoeff();
            }
            if (b > 0.0) A.row(ng + k) /= b;
        }
        for (const int i : coords) local[static_cast<size_t>(i)] = -1;

        MatX N;  // 6 × k: the free combinations of the candidates
        const Eigen::JacobiSVD<MatX> svd(A, Eigen::ComputeFullV);
        const VecX& sv = svd.singularValues();
        int held = 0;
        for (int j = 0; j < sv.size(); ++j)
            if (sv[j] > tolerance) ++held;
        if (held == 0) N = MatX::Identity(6, 6);  // wholly free: the canonical directions, in order
        else N = svd.matrixV().rightCols(6 - held);
        if (N.cols() == 0) continue;

        // Into the model's coordinates, M-orthonormal by modified Gram–Schmidt (twice).
        const int first = out.count();
        MatX X = MatX::Zero(n, N.cols());
        const MatX RN = R * N;
        for (int i = 0; i < ng; ++i) X.row(coords[static_cast<size_t>(i)]) = RN.row(i);
        // A candidate that moves no mass against the structure's translations (a beam's turn
        // about its own axis: its nodes lie on the axis up to the rounding of their
        // coordinates, and the cable element has no torsion coordinate) is no motion.
        double translationMass = 0.0;
        for (Eigen::Index j = 0; j < X.cols(); ++j)
            translationMass = std::max(translationMass, X.col(j).dot(applyMass(model, X.col(j))));
        std::vector<VecX> kept, keptM;
        for (Eigen::Index j = 0; j < X.cols(); ++j) {
            VecX x = X.col(j);
            for (int pass = 0; pass < 2; ++pass)
                for (size_t i = 0; i < kept.size(); ++i) x -= keptM[i].dot(x) * kept[i];
            VecX Mx = applyMass(model, x);
            const double m2 = x.dot(Mx);
            if (!(m2 > 1e-20 * translationMass) || !std::isfinite(m2)) continue;
            x /= std::sqrt(m2);
            Mx /= std::sqrt(m2);
            kept.push_back(x);
            keptM.push_back(Mx);
        }
        if (kept.empty()) continue;
        out.basis.conservativeResize(n, first + static_cast<Eigen::Index>(kept.size()));
        for (size_t j = 0; j < kept.size(); ++j) out.basis.col(first + static_cast<Eigen::Index>(j)) = kept[j];
        std::vector<std::string> names;
        for (const int b : bodies) names.push_back(model.bodies[static_cast<size_t>(b)].name);
        const int index = static_cast<int>(out.structures.size());
        out.structures.push_back(std::move(names));
        out.structureOf.insert(out.structureOf.end(), kept.size(), index);
    }
    return out;
}

FreeDirections findFreeDirections(const Model& model, const State& state, const VecX& lambda, double tolerance) {
    State rest = state;
    rest.v.setZero();
    ConstraintValues cv;
    evaluateConstraints(model, rest, cv, kJacobian);
    Linearization lin;
    linearize(model, rest, lambda, lin);
    return findFreeDirections(model, rest, lin.stiffness, cv.jacobian, tolerance);
}

VecX relativeResultants(const FreeDirections& free, const VecX& forces) {
    VecX r = VecX::Zero(free.count());
    for (int j = 0; j < free.count(); ++j) {
        const double scale = free.basis.col(j).cwiseAbs().dot(forces.cwiseAbs());
        r[j] = scale > 0.0 ? std::abs(free.basis.col(j).dot(forces)) / scale : 0.0;
    }
    return r;
}

SparseColMatrix holdFreeDirections(const SparseColMatrix& S, const Model& model, const FreeDirections& free,
                                   double beta) {
    const int size = static_cast<int>(S.rows()), k = free.count();
    std::vector<Eigen::Triplet<double>> t;
    t.reserve(static_cast<size_t>(S.nonZeros()));
    for (int c = 0; c < S.outerSize(); ++c)
        for (SparseColMatrix::InnerIterator it(S, c); it; ++it) t.emplace_back(static_cast<int>(it.row()), c, it.value());
    for (int j = 0; j < k; ++j) {
        const VecX row = applyMass(model, free.basis.col(j));
        const double largest = row.cwiseAbs().maxCoeff();
        if (!(largest > 0.0)) continue;
        for (int i = 0; i < row.size(); ++i)
            if (row[i] != 0.0) {
                t.emplace_back(size + j, i, beta * row[i] / largest);
                t.emplace_back(i, size + j, beta * row[i] / largest);
            }
    }
    SparseColMatrix out(size + k, size + k);
    out.setFromTriplets(t.begin(), t.end());
    out.makeCompressed();
    return out;
}

}  // namespace looplab
