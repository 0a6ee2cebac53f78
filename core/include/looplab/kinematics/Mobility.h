#pragma once
// Mobility analysis: numerical rank of the constraint Jacobian, degrees of freedom and
// the redundant equations named by joint and component.

#include "looplab/linalg/ConstraintSpaces.h"
#include "looplab/model/Model.h"
#include "looplab/model/State.h"

#include <string>
#include <vector>

namespace looplab {

/// One equation that depends on the others at the analysed configuration.
struct RedundantEquation {
    std::string joint;     ///< joint or driver name
    std::string equation;  ///< component, e.g. "axis z1.x2"
    int row = 0;           ///< row of Φ
};

struct MobilityReport {
    int coordinates = 0;   ///< velocity coordinates, 6 per moving body
    int equations = 0;     ///< joint and driver equations
    int rank = 0;          ///< numerical rank of Φ_q
    int dof = 0;           ///< coordinates − rank
    int gruebler = 0;      ///< Grübler–Kutzbach count: coordinates − equations
    std::vector<RedundantEquation> redundant;
    double smallestSingularValue = 0.0;  ///< of the independent rows, scaled units
    double rankTolerance = kDefaultRankTolerance;
    bool sparse = false;  ///< decided by the sparse QR (SuiteSparseQR) rather than the dense one
    /// Couplers whose equation depends on the others (the rank is the same without it):
    /// the linkage already imposes the ratio, as a belt between a parallelogram's cranks.
    std::vector<std::string> repeatingCouplers;
};

/// Analyses the configuration in `state` (assemble it first for meaningful results).
MobilityReport analyzeMobility(const Model& model, const State& state,
                               double rankTolerance = kDefaultRankTolerance,
                               LinearAlgebra linearAlgebra = LinearAlgebra::Automatic);

/// Factorises Φ_q at `state` with the model's row and column scales.
void factorizeConstraints(const Model& model, const State& state, ConstraintSpaces& spaces,
                          double rankTolerance = kDefaultRankTolerance,
                          LinearAlgebra linearAlgebra = LinearAlgebra::Automatic);

}  // namespace looplab
