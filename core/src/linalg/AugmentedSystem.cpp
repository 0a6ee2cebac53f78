#include "looplab/linalg/AugmentedSystem.h"

namespace looplab {

SparseColMatrix scaledAugmentedMatrix(const SparseColMatrix& a, const SparseMatrix& jacobian,
                                      const std::vector<int>& rows, const VecX& rowScales, const VecX& colScales) {
    // Written straight into compressed columns, row indices ascending: the implicit steppers
    // form this matrix at every outer iteration, and through triplets (sorted and
    // transposed twice) it took about 9 % of a flexible four-bar's run. The blocks do not
    // overlap, so no entry is summed.
    const int n = static_cast<int>(a.rows());
    const int r = static_cast<int>(rows.size());
    // Entries of Φ_I in each column: the lower block's share of column c.
    std::vector<int> lower(static_cast<size_t>(n), 0);
    Eigen::Index jacobianEntries = 0;
    for (int row : rows)
        for (SparseMatrix::InnerIterator it(jacobian, row); it; ++it) {
            ++lower[static_cast<size_t>(it.col())];
            ++jacobianEntries;
        }
    SparseColMatrix out(n + r, n + r);
    out.resizeNonZeros(a.nonZeros() + 2 * jacobianEntries);
    int* outer = out.outerIndexPtr();
    int* inner = out.innerIndexPtr();
    double* value = out.valuePtr();
    std::vector<int> next(static_cast<size_t>(n));  // where column c's next lower entry goes
    int k = 0;
    for (int c = 0; c < n; ++c) {
        outer[c] = k;
        for (SparseColMatrix::InnerIterator it(a, c); it; ++it) {
            inner[k] = static_cast<int>(it.row());
            value[k++] = colScales[it.row()] * it.value() * colScales[it.col()];
        }
        next[static_cast<size_t>(c)] = k;
        k += lower[static_cast<size_t>(c)];
    }
    for (int i = 0; i < r; ++i) {
        const int row = rows[static_cast<size_t>(i)];
        outer[n + i] = k;
        for (SparseMatrix::InnerIterator it(jacobian, row); it; ++it) {
            const double v = rowScales[row] * it.value() * colScales[it.col()];
            const int below = next[static_cast<size_t>(it.col())]++;
            inner[below] = n + i;
            value[below] = v;
            inner[k] = static_cast<int>(it.col());
            value[k++] = v;
        }
    }
    outer[n + r] = k;
    return out;
}

bool AugmentedSolver::factorize(const SparseColMatrix& a) { return lu_.factorize(a); }

}  // namespace looplab
