#pragma once
// Runs one model with several method/integrator pairs at once, each on a BackgroundJob
// (a thread) of its own, and keeps per pair the curves the comparison overlays (position
// violation, energy, largest joint reaction, cumulative steps) and a summary (wall time,
// steps, largest violations). Results arrive in the GUI thread through queued calls;
// cancel() stops every run after its current step, and a new start() runs each pair once
// the cancelled run before it on the same thread has ended, without the window waiting.

#include "run/BackgroundJob.h"

#include "looplab/model/Model.h"
#include "looplab/simulation/Simulation.h"
#include "looplab/model/State.h"

#include <QObject>
#include <QString>

#include <memory>
#include <vector>

namespace looplab::ui {

struct ComparisonPair {
    std::string method, integrator;
    QString label() const { return QString::fromStdString(method + "/" + integrator); }
};

/// What one pair's run produced, frame by frame and in total.
struct ComparisonResult {
    ComparisonPair pair;
    bool finished = false, ok = false;
    QString message;  ///< why it failed or stopped; empty on success
    std::vector<double> t, violation, energy, reaction, steps;
    double wallTime = 0.0;  ///< [s], the run's own
    long stepCount = 0;
    Violations maxViolation;
};

class MethodComparisonRunner : public QObject {
    Q_OBJECT

public:
    explicit MethodComparisonRunner(QObject* parent = nullptr);
    ~MethodComparisonRunner() override;

    /// Starts every pair on `model` from `start` with `base` (its method and integrator
    /// replaced per pair); what still runs is cancelled first. False if no pair is given.
    bool start(std::shared_ptr<const Model> model, const State& start, const SimulationSettings& base,
               const std::vector<ComparisonPair>& pairs);
    void cancel();
    bool isRunning() const { return pending_ > 0; }
    const std::vector<ComparisonResult>& results() const { return results_; }

signals:
    void progress(int index, double t);
    void pairFinished(int index);
    void allFinished();

private:
    std::vector<ComparisonResult> results_;
    /// Numbers the comparisons: what a superseded one still delivers is dropped.
    int generation_ = 0;
    int pending_ = 0;
    /// One per pair of the largest comparison so far, kept for the next. Last: their
    /// threads end before the rest of the runner goes.
    std::vector<std::unique_ptr<BackgroundJob>> jobs_;
};

}  // namespace looplab::ui
