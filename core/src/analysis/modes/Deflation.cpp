#include "analysis/modes/Deflation.h"

#include <random>

namespace looplab::modes {

FunctionOp deflatedOperator(const FunctionOp& op, const MatX& L, const MatX& R) {
    FunctionOp deflated;
    deflated.n = op.n;
    deflated.apply = [&op, &L, &R](const double* x, double* y) {
        const Eigen::Index n = op.n;
        VecX u = Eigen::Map<const VecX>(x, n);
        u -= L * (R.transpose() * u);
        VecX g(n);
        op.apply(u.data(), g.data());
        Eigen::Map<VecX>(y, n) = g - R * (L.transpose() * g);
    };
    return deflated;
}

void deflationRounds(int rounds, Eigen::Index size, const std::function<bool(const VecX& start)>& round) {
    std::mt19937 g(54321);
    std::normal_distribution<double> nd;
    VecX start(size);
    for (int k = 0; k < rounds; ++k) {
        for (Eigen::Index i = 0; i < size; ++i) start[i] = nd(g);
        if (!round(start)) break;
    }
}

}  // namespace looplab::modes
