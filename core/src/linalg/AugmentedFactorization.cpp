#include "looplab/linalg/AugmentedFactorization.h"

#include <limits>

namespace looplab {

bool AugmentedFactorization::factorizeAugmented(const SparseColMatrix& A, const SparseMatrix& jacobian,
                                                const std::vector<int>& rows, double beta, bool symmetric) {
    method_ = Method::None;
    if (symmetric) {
        if (cholesky_.factorize(A, SparseColMatrix(beta * selectRows(jacobian, rows)))) {
            method_ = Method::Cholesky;
            return true;
        }
    }
    return factorizeGeneral(augmentedMatrix(A, jacobian, rows, beta));
}

bool AugmentedFactorization::factorizeGeneral(const SparseColMatrix& S) {
    method_ = Method::None;
    const bool factored = luFactorized_ ? lu_.refactorize(S) : lu_.factorize(S);
    luFactorized_ = true;
    if (factored) method_ = Method::LU;
    return factored;
}

std::string AugmentedFactorization::methodName() const {
    switch (method_) {
    case Method::Cholesky: return "cholesky";
    case Method::LU: return "lu";
    case Method::None: break;
    }
    return {};
}

int AugmentedFactorization::size() const {
    switch (method_) {
    case Method::Cholesky: return cholesky_.size();
    case Method::LU: return lu_.size();
    case Method::None: break;
    }
    return 0;
}

VecX AugmentedFactorization::solve(const VecX& b) const {
    switch (method_) {
    case Method::Cholesky: return cholesky_.solve(b);
    case Method::LU: return lu_.solve(b);
    case Method::None: break;
    }
    return VecX::Constant(b.size(), std::numeric_limits<double>::quiet_NaN());
}

double AugmentedFactorization::conditionEstimate() const {
    return conditionEstimate(VecX::Ones(size()));
}

double AugmentedFactorization::conditionEstimate(const VecX& d) const {
    switch (method_) {
    case Method::Cholesky: return cholesky_.conditionEstimate(d);
    case Method::LU: return lu_.conditionEstimate(d);
    case Method::None: break;
    }
    return std::numeric_limits<double>::infinity();
}

}  // namespace looplab
