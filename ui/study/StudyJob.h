#pragma once
// The Study panel's worker: runs a study's cases on a pool of threads (runStudyCases, in
// core) from a BackgroundJob, away from the GUI thread, and hands each finished row back
// to it, with the progress. cancel() answers at once: no case starts after it, a
// simulation in progress ends at its next step, and the rows already finished stay.

#include "run/BackgroundJob.h"

#include "looplab/study/StudyDescription.h"
#include "looplab/study/StudyExecution.h"
#include "looplab/study/StudyTable.h"

#include <QMetaType>
#include <QObject>

#include <vector>

namespace looplab::ui {

class StudyJob : public QObject {
    Q_OBJECT

public:
    explicit StudyJob(QObject* parent = nullptr);
    /// Stops what runs and waits for the case each thread is in (at most one step of a
    /// simulation, or the rest of a short analysis).
    ~StudyJob() override;

    /// Runs `cases` of `study` on `threads` threads. False if a study is still running.
    bool start(const StudyDescription& study, const std::vector<long>& cases, int threads);
    void cancel();
    bool isRunning() const { return job_.isRunning(); }

signals:
    void rowFinished(const looplab::StudyRow& row, const looplab::StudyProgress& progress);
    /// All cases ran, or the study was cancelled (`cancelled`) and its threads ended.
    void finished(bool cancelled);

private:
    BackgroundJob job_;
};

}  // namespace looplab::ui

Q_DECLARE_METATYPE(looplab::StudyRow)
Q_DECLARE_METATYPE(looplab::StudyProgress)
