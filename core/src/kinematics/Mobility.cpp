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
    return r;
}

}  // namespace looplab
