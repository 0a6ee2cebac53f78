#include "looplab/kinematics/Mobility.h"

namespace looplab {

void factorizeConstraints(const Model& model, const State& state, ConstraintSpaces& spaces,
                          double rankTolerance, LinearAlgebra linearAlgebra) {
    ConstraintValues cv;
    evaluateConstraints(model, state, cv, kJacobian);
    spaces.factorize(cv.jacobian, equationScales(model), coordinateScales(model), rankTolerance,
                     linearAlgebra);
}

MobilityReport analyzeMobility(const Model& model, const State& state, double rankTolerance,
                               LinearAlgebra linearAlgebra) {
    ConstraintSpaces spaces;
    factorizeConstraints(model, state, spaces, rankTolerance, linearAlgebra);
    MobilityReport r;
    r.coordinates = model.velocitySize();
    r.equations = model.equationCount();
    r.rank = spaces.rank();
    r.dof = r.coordinates - r.rank;
    r.gruebler = model.grueblerCount();
    r.rankTolerance = rankTolerance;
    r.sparse = spaces.isSparse();
    r.smallestSingularValue = spaces.smallestSingularValue();
    for (int row : spaces.redundantEquations()) {
        const EquationLabel& l = model.equations[static_cast<size_t>(row)];
        r.redundant.push_back({l.owner, l.component, row});
    }
    // Which row of a dependent set the factorisation calls redundant is arbitrary: a
    // coupler repeats the linkage if the rank stays without its row.
    if (!r.redundant.empty() && !model.couplers.empty()) {
        ConstraintValues cv;
        evaluateConstraints(model, state, cv, kJacobian);
        const VecX rowScales = equationScales(model), columnScales = coordinateScales(model);
        for (const Coupler& c : model.couplers) {
            SparseMatrix without = cv.jacobian;
            without.row(c.equation) *= 0.0;
            without.prune(0.0);
            ConstraintSpaces others;
            others.factorize(without, rowScales, columnScales, rankTolerance, linearAlgebra);
            if (others.rank() == r.rank) r.repeatingCouplers.push_back(c.name);
        }
    }
    return r;
}

}  // namespace looplab
