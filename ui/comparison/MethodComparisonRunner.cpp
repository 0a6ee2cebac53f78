#include "comparison/MethodComparisonRunner.h"

#include <algorithm>
#include <chrono>

namespace looplab::ui {

MethodComparisonRunner::MethodComparisonRunner(QObject* parent) : QObject(parent) {}

MethodComparisonRunner::~MethodComparisonRunner() {
    // Every run told at once, rather than each only once the jobs before it have ended.
    cancel();
}

void MethodComparisonRunner::cancel() {
    for (const std::unique_ptr<BackgroundJob>& job : jobs_) job->cancel();
}

bool MethodComparisonRunner::start(std::shared_ptr<const Model> model, const State& start,
                                   const SimulationSettings& base, const std::vector<ComparisonPair>& pairs) {
    cancel();
    if (!model || pairs.empty()) return false;
    ++generation_;
    const int generation = generation_;
    results_.assign(pairs.size(), {});
    pending_ = static_cast<int>(pairs.size());
    while (jobs_.size() < pairs.size()) jobs_.push_back(std::make_unique<BackgroundJob>("comparison"));
    for (size_t k = 0; k < pairs.size(); ++k) {
        results_[k].pair = pairs[k];
        SimulationSettings settings = base;
        settings.method = pairs[k].method;
        settings.integrator = pairs[k].integrator;
        const int index = static_cast<int>(k);
        jobs_[k]->start([this, model, start, settings, index, generation](const BackgroundJob::Run& run) {
            ComparisonResult r;
            auto lastProgress = std::chrono::steady_clock::now();
            try {
                Simulator sim(model, settings);
                const SimulationResult res = sim.run(
                    start,
                    [&](const SimulationFrame& f) {
                        r.t.push_back(f.state.t);
                        r.violation.push_back(f.violation.position);
                        r.energy.push_back(f.energy.total());
                        double reaction = 0.0;
                        for (const JointReaction& j : f.reactions) reaction = std::max(reaction, j.forceGlobal.norm());
                        r.reaction.push_back(reaction);
                        r.steps.push_back(double(f.statistics.steps));
                        const auto now = std::chrono::steady_clock::now();
                        if (now - lastProgress > std::chrono::milliseconds(100)) {
                            lastProgress = now;
                            const double t = f.state.t;
                            run.post([this, index, generation, t] {
                                if (generation_ == generation) emit progress(index, t);
                            });
                        }
                    },
                    {}, run.cancelFlag());
                r.ok = res.ok;
                r.message = res.ok ? QString() : QString::fromStdString(res.message);
                r.wallTime = res.wallTime;
                r.stepCount = res.statistics.steps;
                r.maxViolation = res.maxViolation;
            } catch (const std::exception& e) {
                // An unsupported pair: said, not thrown across the thread.
                r.message = QString::fromUtf8(e.what());
            }
            r.finished = true;
            run.post([this, index, generation, r = std::move(r)]() mutable {
                if (generation_ != generation) return;
                r.pair = results_[size_t(index)].pair;
                results_[size_t(index)] = std::move(r);
                --pending_;
                emit pairFinished(index);
                if (pending_ == 0) emit allFinished();
            });
        }, BackgroundJob::IfBusy::Replace);
    }
    return true;
}

}  // namespace looplab::ui
