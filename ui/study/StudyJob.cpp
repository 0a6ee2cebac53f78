#include "study/StudyJob.h"

#include <QMetaObject>
#include <QPointer>

namespace looplab::ui {

StudyJob::StudyJob(QObject* parent) : QObject(parent) {
    qRegisterMetaType<looplab::StudyRow>();
    qRegisterMetaType<looplab::StudyProgress>();
}

StudyJob::~StudyJob() {
    cancel();
    join();
}

void StudyJob::join() {
    if (thread_.joinable()) thread_.join();
}

bool StudyJob::start(const StudyDescription& study, const std::vector<long>& cases, int threads) {
    if (running_) return false;
    join();  // the thread of a study that ended has only its return left
    running_ = true;
    stop_ = std::make_shared<std::atomic<bool>>(false);
    // Rows travel to the GUI thread as queued calls on this object; a QPointer drops them
    // if the job is gone (the destructor joins first, so this is only belt and braces).
    QPointer<StudyJob> self(this);
    auto stop = stop_;
    thread_ = std::thread([self, stop, study, cases, threads] {
        runStudyCases(study, cases, threads,
                      [&](StudyRow&& row, const StudyProgress& progress) {
                          QMetaObject::invokeMethod(
                              self.data(), [self, row, progress] {
                                  if (self) emit self->rowFinished(row, progress);
                              },
                              Qt::QueuedConnection);
                      },
                      stop.get());
        const bool cancelled = stop->load();
        QMetaObject::invokeMethod(
            self.data(), [self, stop, cancelled] {
                // A later start() has its own stop flag: this end belongs to an older study.
                if (!self || self->stop_ != stop) return;
                self->running_ = false;
                emit self->finished(cancelled);
            },
            Qt::QueuedConnection);
    });
    return true;
}

void StudyJob::cancel() {
    if (stop_) stop_->store(true);
}

}  // namespace looplab::ui
