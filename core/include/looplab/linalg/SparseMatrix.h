#pragma once
// The two sparse storage orders the solver uses.

#include <Eigen/SparseCore>

namespace looplab {

/// Row-major (compressed sparse row): constraint Jacobians are assembled and read a row
/// (one equation) at a time.
using SparseMatrix = Eigen::SparseMatrix<double, Eigen::RowMajor>;
/// Column-major (compressed sparse column) storage: the layout sparse LU and Cholesky
/// (UMFPACK, CHOLMOD, SuiteSparseQR, Eigen's SparseLU) and SUNDIALS' sparse matrices take
/// without a copy; used for the n × n matrices of the linearisation (Linearization.h).
using SparseColMatrix = Eigen::SparseMatrix<double, Eigen::ColMajor>;

}  // namespace looplab
