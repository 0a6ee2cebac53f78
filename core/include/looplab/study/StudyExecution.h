#pragma once
// Runs many cases of a study on a pool of threads, reporting each finished case as it
// comes, with the progress and an estimate of the time left, and stopping promptly when
// asked: no case starts after the stop, a simulation in progress ends at its next step,
// and a case cut short that way is not reported (it did not finish; it is not a failure).
// The command-line tool and the workbench's Study panel both run studies through this.

#include "looplab/study/StudyDescription.h"
#include "looplab/study/StudyTable.h"

#include <atomic>
#include <functional>
#include <vector>

namespace looplab {

/// Where a run of cases stands after a case finished.
struct StudyProgress {
    long done = 0;           ///< cases reported so far (this one included)
    long total = 0;          ///< cases this run was asked for
    long failed = 0;         ///< reported cases that are not ok
    double elapsed = 0;      ///< wall time since the run started [s]
    double remaining = 0;    ///< estimate of the time left: elapsed per case × cases left [s]
};

/// Called once per reported case, one call at a time (never concurrently), from whichever
/// thread ran the case, in the order the cases finish.
using StudyRowCallback = std::function<void(StudyRow&& row, const StudyProgress& progress)>;

/// Runs `cases` (case indices) on `threads` threads (at least 1). Returns the number of
/// cases reported; less than cases.size() only when `stop` was set.
long runStudyCases(const StudyDescription& study, const std::vector<long>& cases, int threads,
                   const StudyRowCallback& onRow, const std::atomic<bool>* stop = nullptr);

}  // namespace looplab
