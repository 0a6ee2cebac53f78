#include "study/StudyJob.h"

namespace looplab::ui {

StudyJob::StudyJob(QObject* parent) : QObject(parent), job_("study") {
    qRegisterMetaType<looplab::StudyRow>();
    qRegisterMetaType<looplab::StudyProgress>();
    connect(&job_, &BackgroundJob::finished, this, [this](int, bool cancelled) { emit finished(cancelled); });
}

StudyJob::~StudyJob() = default;

bool StudyJob::start(const StudyDescription& study, const std::vector<long>& cases, int threads) {
    auto work = [this, study, cases, threads](const BackgroundJob::Run& run) {
        auto onRow = [this, &run](StudyRow&& row, const StudyProgress& progress) {
            run.post([this, row = std::move(row), progress] { emit rowFinished(row, progress); });
        };
        runStudyCases(study, cases, threads, onRow, run.cancelFlag());
    };
    return job_.start(std::move(work), BackgroundJob::IfBusy::Refuse) != 0;
}

void StudyJob::cancel() { job_.cancel(); }

}  // namespace looplab::ui
