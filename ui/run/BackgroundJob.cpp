#include "run/BackgroundJob.h"

#include <QMetaObject>

#ifdef __linux__
#include <sys/resource.h>
#include <unistd.h>
#endif

namespace looplab::ui {

void BackgroundJob::Run::post(std::function<void()> call) const
{
    QMetaObject::invokeMethod(job_, std::move(call), Qt::QueuedConnection);
}

BackgroundJob::BackgroundJob(const QString& threadName, Priority priority, QObject* parent)
    : QObject(parent), threadName_(threadName), priority_(priority)
{
}

BackgroundJob::~BackgroundJob()
{
    cancel();
    if (!context_)
        return;
    // Works still queued behind the one in progress return at once: their flags are set.
    thread_.quit();
    thread_.wait();
}

int BackgroundJob::start(Work work, IfBusy ifBusy)
{
    if (isRunning()) {
        if (ifBusy == IfBusy::Refuse)
            return 0;
        cancel();
    }
    if (!context_) {
        // A panel that is never used costs no thread.
        context_ = new QObject;
        context_->moveToThread(&thread_);
        connect(&thread_, &QThread::finished, context_, &QObject::deleteLater);
        thread_.setObjectName(threadName_);
        thread_.start();
#ifdef __linux__
        // The work may use every cycle the window, the renderer and the display server
        // leave, but no more: on a machine with few cores it would otherwise take turns
        // with them and the window would stutter. Qt's thread priorities are no-ops for
        // Linux's default scheduler; a per-thread nice value is not.
        if (priority_ == Priority::BelowWindow)
            QMetaObject::invokeMethod(context_, [] { setpriority(PRIO_PROCESS, static_cast<id_t>(gettid()), 10); },
                                      Qt::QueuedConnection);
#endif
    }
    const int id = ++lastId_;
    auto flag = std::make_shared<std::atomic<bool>>(false);
    flags_.emplace(id, flag);
    QMetaObject::invokeMethod(context_, [this, id, flag, work = std::move(work)] {
        work(Run(this, id, flag));
        const bool cancelled = flag->load();
        QMetaObject::invokeMethod(this, [this, id, cancelled] { ended(id, cancelled); }, Qt::QueuedConnection);
    }, Qt::QueuedConnection);
    return id;
}

void BackgroundJob::cancel()
{
    if (flags_.empty())
        return;
    for (auto& entry : flags_)
        entry.second->store(true);
    if (onCancel_)
        onCancel_();
}

void BackgroundJob::ended(int id, bool cancelled)
{
    flags_.erase(id);
    finishedThrough_ = id;
    emit finished(id, cancelled);
}

}  // namespace looplab::ui
