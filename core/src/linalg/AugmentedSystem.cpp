#include "looplab/linalg/AugmentedSystem.h"

#include <algorithm>

namespace looplab {

SparseColMatrix scaledAugmentedMatrix(const SparseColMatrix& a, const SparseMatrix& jacobian,
                                      const std::vector<int>& rows, const VecX& rowScales, const VecX& colScales) {
    const int n = static_cast<int>(a.rows());
    const int r = static_cast<int>(rows.size());
    std::vector<Eigen::Triplet<double>> t;
    t.reserve(static_cast<size_t>(a.nonZeros() + 2 * jacobian.nonZeros()));
    for (int k = 0; k < a.outerSize(); ++k)
        for (SparseColMatrix::InnerIterator it(a, k); it; ++it)
            t.emplace_back(it.row(), it.col(), colScales[it.row()] * it.value() * colScales[it.col()]);
    for (int i = 0; i < r; ++i) {
        const int row = rows[static_cast<size_t>(i)];
        for (SparseMatrix::InnerIterator it(jacobian, row); it; ++it) {
            const double v = rowScales[row] * it.value() * colScales[it.col()];
            t.emplace_back(n + i, it.col(), v);
            t.emplace_back(it.col(), n + i, v);
        }
    }
    SparseColMatrix out(n + r, n + r);
    out.setFromTriplets(t.begin(), t.end());
    out.makeCompressed();
    return out;
}

bool AugmentedSolver::factorize(const SparseColMatrix& a) { return lu_.factorize(a); }

}  // namespace looplab
