#include "looplab/linalg/PivotedQR.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <utility>

namespace looplab {

namespace {
// Below this many rows under the diagonal, column-by-column updates beat the set-up of a
// matrix–vector product and a rank-one update (measured on 18 × 20 … 246 × 305).
constexpr Eigen::Index kMatrixVectorRows = 48;
}  // namespace

void PivotedQR::compute(const MatX& a) {
    qr_ = a;
    const Eigen::Index rows = qr_.rows(), cols = qr_.cols();
    const Eigen::Index p = std::min(rows, cols);
    tau_.setZero(p);
    perm_.resize(static_cast<size_t>(cols));
    std::iota(perm_.begin(), perm_.end(), 0);
    // Remaining column norms, downdated after each step, and the norms they were last
    // computed from exactly: when cancellation has eaten too many digits, recompute.
    norms_.resize(cols);
    exactNorms_.resize(cols);
    work_.resize(cols);
    VecX& norms = norms_;
    VecX& exact = exactNorms_;
    for (Eigen::Index j = 0; j < cols; ++j) norms[j] = exact[j] = qr_.col(j).norm();
    const double recompute = std::sqrt(std::numeric_limits<double>::epsilon());

    for (Eigen::Index k = 0; k < p; ++k) {
        Eigen::Index pivot = k;
        for (Eigen::Index j = k + 1; j < cols; ++j)
            if (norms[j] > norms[pivot]) pivot = j;
        if (pivot != k) {
            qr_.col(k).swap(qr_.col(pivot));
            std::swap(perm_[size_t(k)], perm_[size_t(pivot)]);
            std::swap(norms[k], norms[pivot]);
            std::swap(exact[k], exact[pivot]);
        }

        // Reflector that maps column k below the diagonal onto the diagonal.
        const Eigen::Index below = rows - k - 1;
        auto vTail = qr_.col(k).tail(below);
        const double alpha = qr_(k, k);
        const double tail = vTail.squaredNorm();
        double tau = 0.0, beta = alpha;
        if (tail > std::numeric_limits<double>::min()) {
            beta = std::sqrt(alpha * alpha + tail);
            if (alpha >= 0.0) beta = -beta;
            vTail *= 1.0 / (alpha - beta);
            tau = (beta - alpha) / beta;
        } else {
            vTail.setZero();
        }
        qr_(k, k) = beta;
        tau_[k] = tau;

        const Eigen::Index right = cols - k - 1;
        if (tau != 0.0 && right > 0) {
            auto top = qr_.row(k).tail(right);
            auto rest = qr_.bottomRightCorner(below, right);
            if (below >= kMatrixVectorRows) {
                // Long columns: one matrix–vector product and one rank-one update over
                // the trailing block stream through memory once each.
                auto w = work_.head(right);
                w.noalias() = rest.transpose() * vTail;
                w += top.transpose();
                w *= tau;
                top -= w.transpose();
                rest.noalias() -= vTail * w.transpose();
            } else {
                for (Eigen::Index j = 0; j < right; ++j) {
                    auto c = rest.col(j);
                    const double s = tau * (top[j] + vTail.dot(c));
                    top[j] -= s;
                    c -= s * vTail;
                }
            }
        }
        for (Eigen::Index j = k + 1; j < cols; ++j) {
            const double* c = qr_.col(j).data();
            const auto cTail = qr_.col(j).tail(below);
            if (norms[j] == 0.0) continue;
            const double ratio = std::abs(c[k]) / norms[j];
            const double left = std::max(0.0, 1.0 - ratio * ratio);
            const double trust = left * (norms[j] / exact[j]) * (norms[j] / exact[j]);
            if (trust <= recompute) {
                norms[j] = exact[j] = cTail.norm();
            } else {
                norms[j] *= std::sqrt(left);
            }
        }
    }
}

void PivotedQR::reflect(VecX& x, int k) const {
    const Eigen::Index below = qr_.rows() - k - 1;
    const auto v = qr_.col(k).tail(below);
    auto tail = x.tail(below);
    const double s = tau_[k] * (x[k] + v.dot(tail));
    x[k] -= s;
    tail -= s * v;
}

void PivotedQR::applyQ(VecX& x, int count) const {
    for (int k = count - 1; k >= 0; --k) reflect(x, k);
}

void PivotedQR::applyQTransposed(VecX& x, int count) const {
    for (int k = 0; k < count; ++k) reflect(x, k);
}

MatX PivotedQR::columnsOfQ(int first, int count) const {
    const Eigen::Index n = qr_.rows();
    MatX Q(n, count);
    VecX e(n);
    for (int j = 0; j < count; ++j) {
        e.setZero();
        e[first + j] = 1.0;
        applyQ(e, reflectorCount());
        Q.col(j) = e;
    }
    return Q;
}

}  // namespace looplab
