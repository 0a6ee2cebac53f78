#include "looplab/linalg/SparseCholesky.h"

#include <algorithm>

namespace looplab {

bool SparseCholesky::factorize(const ColMajorMatrix& a) {
    const ColMajorMatrix& c = a;
    const bool samePattern =
        analysed_ && c.isCompressed() && outer_.size() == size_t(c.outerSize() + 1) &&
        std::equal(outer_.begin(), outer_.end(), c.outerIndexPtr()) &&
        inner_.size() == size_t(c.nonZeros()) &&
        std::equal(inner_.begin(), inner_.end(), c.innerIndexPtr());
    if (!samePattern) {
        llt_.analyzePattern(c);
        analysed_ = true;
        if (c.isCompressed()) {
            outer_.assign(c.outerIndexPtr(), c.outerIndexPtr() + c.outerSize() + 1);
            inner_.assign(c.innerIndexPtr(), c.innerIndexPtr() + c.nonZeros());
        } else {
            outer_.clear();
            inner_.clear();
        }
    }
    llt_.factorize(c);
    return llt_.info() == Eigen::Success;
}

}  // namespace looplab
