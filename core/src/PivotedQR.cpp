#include "looplab/PivotedQR.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <utility>

namespace looplab {

void PivotedQR::compute(const MatX& a) {
    qr_ = a;
    const Eigen::Index rows = qr_.rows(), cols = qr_.cols();
    const Eigen::Index p = std::min(rows, cols);
    tau_.setZero(p);
    perm_.resize(static_cast<size_t>(cols));
    std::iota(perm_.begin(), perm_.end(), 0);
    // Remaining column norms, downdated after each step, and the norms they were last
    // computed from exactly: when cancellation has eaten too many digits, recompute.
    VecX norms(cols), exact(cols);
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
        double* v = qr_.col(k).data();
        const double alpha = v[k];
        double tail = 0.0;
        for (Eigen::Index i = k + 1; i < rows; ++i) tail += v[i] * v[i];
        double tau = 0.0, beta = alpha;
        if (tail > std::numeric_limits<double>::min()) {
            beta = std::sqrt(alpha * alpha + tail);
            if (alpha >= 0.0) beta = -beta;
            const double scale = 1.0 / (alpha - beta);
            for (Eigen::Index i = k + 1; i < rows; ++i) v[i] *= scale;
            tau = (beta - alpha) / beta;
        } else {
            for (Eigen::Index i = k + 1; i < rows; ++i) v[i] = 0.0;
        }
        v[k] = beta;
        tau_[k] = tau;

        for (Eigen::Index j = k + 1; j < cols; ++j) {
            double* c = qr_.col(j).data();
            if (tau != 0.0) {
                double s = c[k];
                for (Eigen::Index i = k + 1; i < rows; ++i) s += v[i] * c[i];
                s *= tau;
                c[k] -= s;
                for (Eigen::Index i = k + 1; i < rows; ++i) c[i] -= s * v[i];
            }
            if (norms[j] == 0.0) continue;
            const double ratio = std::abs(c[k]) / norms[j];
            const double left = std::max(0.0, 1.0 - ratio * ratio);
            const double trust = left * (norms[j] / exact[j]) * (norms[j] / exact[j]);
            if (trust <= recompute) {
                double sum = 0.0;
                for (Eigen::Index i = k + 1; i < rows; ++i) sum += c[i] * c[i];
                norms[j] = exact[j] = std::sqrt(sum);
            } else {
                norms[j] *= std::sqrt(left);
            }
        }
    }
}

void PivotedQR::applyQ(VecX& x, int count) const {
    const Eigen::Index rows = qr_.rows();
    for (int k = count - 1; k >= 0; --k) {
        const double* v = qr_.col(k).data();
        double s = x[k];
        for (Eigen::Index i = k + 1; i < rows; ++i) s += v[i] * x[i];
        s *= tau_[k];
        x[k] -= s;
        for (Eigen::Index i = k + 1; i < rows; ++i) x[i] -= s * v[i];
    }
}

void PivotedQR::applyQTransposed(VecX& x, int count) const {
    const Eigen::Index rows = qr_.rows();
    for (int k = 0; k < count; ++k) {
        const double* v = qr_.col(k).data();
        double s = x[k];
        for (Eigen::Index i = k + 1; i < rows; ++i) s += v[i] * x[i];
        s *= tau_[k];
        x[k] -= s;
        for (Eigen::Index i = k + 1; i < rows; ++i) x[i] -= s * v[i];
    }
}

}  // namespace looplab
