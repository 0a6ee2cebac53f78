#include "comparison/MethodComparisonRunner.h"

#include <QMetaObject>
#include <QPointer>

#include <algorithm>
#include <chrono>

namespace looplab::ui {

MethodComparisonRunner::MethodComparisonRunner(QObject* parent) : QObject(parent) {}

MethodComparisonRunner::~MethodComparisonRunner() { joinAll(); }

void MethodComparisonRunner::joinAll() {
    if (stop_) *stop_ = true;
    for (std::thread& t : threads_)
        if (t.joinable()) t.join();
    threads_.clear();
}

void MethodComparisonRunner::cancel() {
    if (stop_) *stop_ = true;
}

bool MethodComparisonRunner::start(std::shared_ptr<const Model> model, const State& start,
                                   const SimulationSettings& base, const std::vector<ComparisonPair>& pairs) {
    joinAll();
    if (!model || pairs.empty()) return false;
    ++generation_;
    const int generation = generation_;
    results_.assign(pairs.size(), {});
    stop_ = std::make_shared<std::atomic<bool>>(false);
    pending_ = static_cast<int>(pairs.size());
    for (size_t k = 0; k < pairs.size(); ++k) {
        results_[k].pair = pairs[k];
        SimulationSettings settings = base;
        settings.method = pairs[k].method;
        settings.integrator = pairs[k].integrator;
        const int index = static_cast<int>(k);
        QPointer<MethodComparisonRunner> self(this);
        auto stop = stop_;
        threads_.emplace_back([self, model, start, settings, index, generation, stop] {
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
                        if (self && now - lastProgress > std::chrono::milliseconds(100)) {
                            lastProgress = now;
                            const double t = f.state.t;
                            QMetaObject::invokeMethod(self, [self, index, t] {
                                if (self) emit self->progress(index, t);
                            }, Qt::QueuedConnection);
                        }
                    },
                    {}, stop.get());
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
            QMetaObject::invokeMethod(self, [self, index, generation, r = std::move(r)]() mutable {
                if (!self || self->generation_ != generation) return;
                r.pair = self->results_[size_t(index)].pair;
                self->results_[size_t(index)] = std::move(r);
                --self->pending_;
                emit self->pairFinished(index);
                if (self->pending_ == 0) emit self->allFinished();
            }, Qt::QueuedConnection);
        });
    }
    return true;
}

}  // namespace looplab::ui
