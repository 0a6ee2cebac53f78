#include "looplab/study/StudyExecution.h"

#include "looplab/study/StudyRunner.h"

#include <algorithm>
#include <chrono>
#include <mutex>
#include <thread>

namespace looplab {

long runStudyCases(const StudyDescription& study, const std::vector<long>& cases, int threads,
                   const StudyRowCallback& onRow, const std::atomic<bool>* stop) {
    const auto start = std::chrono::steady_clock::now();
    const auto stopped = [stop] { return stop && stop->load(); };
    std::mutex m;
    std::atomic<size_t> next{0};
    StudyProgress progress;
    progress.total = static_cast<long>(cases.size());
    const auto work = [&] {
        for (size_t i = next++; i < cases.size() && !stopped(); i = next++) {
            StudyRow row = runStudyCase(study, cases[i], stop);
            // A case that failed while a stop was pending may have been cut short by it.
            if (!row.ok && stopped()) return;
            std::lock_guard<std::mutex> lock(m);
            ++progress.done;
            if (!row.ok) ++progress.failed;
            progress.elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            progress.remaining = progress.elapsed / double(progress.done) * double(progress.total - progress.done);
            if (onRow) onRow(std::move(row), progress);
        }
    };
    const int n = std::max(1, std::min<int>(threads, static_cast<int>(cases.size())));
    if (n == 1) {
        work();
    } else {
        std::vector<std::thread> pool;
        for (int t = 0; t < n; ++t) pool.emplace_back(work);
        for (std::thread& t : pool) t.join();
    }
    return progress.done;
}

}  // namespace looplab
