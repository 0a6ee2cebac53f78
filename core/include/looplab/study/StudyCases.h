#pragma once
// The cases of a study and each case's parameter values.
//
// Factorial: every combination of the parameters' levels, the first parameter varying
// slowest (nested loops in the order the parameters are listed). Monte Carlo: `samples`
// cases whose random numbers come from a generator seeded by (seed, case index) alone, so
// a case gets the same values whichever thread or MPI rank runs it, and in any order.

#include "looplab/study/StudyDescription.h"

#include <vector>

namespace looplab {

/// Number of cases.
long studyCaseCount(const StudyDescription& study);
/// Values of the parameters of case `index` (0 ≤ index < studyCaseCount), in parameter order.
std::vector<double> studyCaseValues(const StudyDescription& study, long index);

}  // namespace looplab
